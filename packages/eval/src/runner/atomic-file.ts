import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

import { DocTreeError } from '@doctree/schema';

/**
 * Writes `path` atomically: the content goes to a temporary sibling that is then renamed over `path`, so readers
 * never see a half-written file. The folder is created if missing. Failures throw `IO_WRITE_FAILED`.
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
  const tmp = `${path}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    await mkdir(dirname(path), { recursive: true });
    await writeFile(tmp, data);
    await rename(tmp, path);
  } catch (error) {
    await rm(tmp, { force: true }).catch(() => undefined);
    throw DocTreeError.from(error, 'IO_WRITE_FAILED', { file: path });
  }
}
