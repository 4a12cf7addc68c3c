import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

import { DocTreeError } from '@doctree/schema';

/** Returns a fresh temporary path next to `path`: `<path>.tmp-<pid>-<random>`. */
export function temporaryPathFor(path: string): string {
  return `${path}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
}

/**
 * Produces `path` atomically: `write` fills a temporary file next to it, which is then renamed over `path`.
 * Readers never see a partial file; on any error the temporary file is removed and the error is rethrown
 * as a `DocTreeError` (`IO_WRITE_FAILED` unless it already is one). The parent folder is created if missing.
 *
 * @param path - Final file path.
 * @param write - Writes the complete content to the temporary path it receives.
 */
export async function writeAtomically(path: string, write: (temporaryPath: string) => Promise<void> | void): Promise<void> {
  const tmp = temporaryPathFor(path);
  try {
    await mkdir(dirname(path), { recursive: true });
    await write(tmp);
    await rename(tmp, path);
  } catch (error) {
    await rm(tmp, { force: true }).catch(() => undefined);
    throw DocTreeError.from(error, 'IO_WRITE_FAILED', { file: path });
  }
}

/**
 * Writes `data` to `path` atomically (temporary file + rename), see {@link writeAtomically}.
 *
 * @param path - Final file path.
 * @param data - Complete file content.
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
  await writeAtomically(path, (tmp) => writeFile(tmp, data));
}

/**
 * Replaces folder `target` by the complete folder `source` with two renames, so that readers see either the old or
 * the new folder, never a mix. On failure the old folder is put back and the error rethrown.
 *
 * @param source - A fully written folder (usually at {@link temporaryPathFor}`(target)`).
 * @param target - The folder to replace; it may not exist yet.
 */
export async function swapDirectory(source: string, target: string): Promise<void> {
  const old = `${target}.old-${process.pid}-${randomBytes(4).toString('hex')}`;
  let moved = false;
  try {
    await rename(target, old);
    moved = true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  try {
    await rename(source, target);
  } catch (error) {
    if (moved) await rename(old, target);
    throw error;
  }
  if (moved) await rm(old, { recursive: true, force: true });
}
