import { randomBytes } from 'node:crypto';
import { rename, rm } from 'node:fs/promises';

/** Replaces folder `target` by folder `source` with two renames, so that readers see either the old or the new one. */
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

/** A fresh temporary sibling path of `path`. */
export function temporarySibling(path: string): string {
  return `${path}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
}
