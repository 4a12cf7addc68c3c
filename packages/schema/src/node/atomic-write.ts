import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

import { DocTreeError } from '../errors.js';

/**
 * The one atomic-write implementation of DocTree (ingest, index, eval, pipeline and the collection stores use it).
 * Temporary names carry the process id — `<name>.tmp-<pid>-<hex>` / `<name>.old-<pid>-<hex>` — so that a later run can
 * tell the leftovers of a process that died from those of a run still under way.
 */

/** Returns a fresh temporary path next to `path`: `<path>.tmp-<pid>-<8 hex>`. */
export function temporaryPathFor(path: string): string {
  return `${path}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
}

/**
 * Produces `path` atomically: `write` fills a temporary file next to it, which is then renamed over `path`.
 * Readers never see a partial file; on any error the temporary file is removed, the old content of `path` stays, and
 * the error is rethrown as a `DocTreeError` (`IO_WRITE_FAILED` unless it already is one). The parent folder is
 * created if missing.
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

/** Options of {@link writeFilesAtomically}. */
export interface WriteFilesAtomicallyOptions {
  /** Runs once the folder exists, before any file is written (e.g. to remove stale temporaries of a dead process). */
  readonly beforeWrite?: (dir: string) => Promise<unknown>;
  /**
   * Called with each temporary path before it is written; returns a function called once the write is over (success
   * or failure). Lets a caller remove its temporaries when the process ends by a signal.
   */
  readonly trackTemporary?: (temporaryPath: string) => () => void;
}

/**
 * Writes several files into folder `dir`, all or nothing: every file goes to a temporary name first, and only when all
 * are complete are they renamed over their final names. On failure every temporary is removed, a folder this call
 * created is removed again, and a `DocTreeError` `IO_WRITE_FAILED` (file = `dir`) is thrown.
 *
 * @param dir - Target folder (created if missing).
 * @param files - `[name, content]` pairs; names are plain file names inside `dir`.
 * @param options - Hooks, see {@link WriteFilesAtomicallyOptions}.
 */
export async function writeFilesAtomically(
  dir: string,
  files: ReadonlyArray<readonly [string, string | Uint8Array]>,
  options: WriteFilesAtomicallyOptions = {},
): Promise<void> {
  let createdDir = false;
  const temps: string[] = [];
  const untracks: Array<() => void> = [];
  try {
    createdDir = (await mkdir(dir, { recursive: true })) !== undefined;
    await options.beforeWrite?.(dir);
    const suffix = `.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
    for (const [name, data] of files) {
      const temp = join(dir, `${name}${suffix}`);
      temps.push(temp);
      if (options.trackTemporary) untracks.push(options.trackTemporary(temp));
      await writeFile(temp, data);
    }
    for (const [i, [name]] of files.entries()) await rename(temps[i]!, join(dir, name));
  } catch (error) {
    await Promise.all(temps.map((t) => rm(t, { force: true }).catch(() => undefined)));
    if (createdDir) await rm(dir, { recursive: true, force: true }).catch(() => undefined);
    if (DocTreeError.isInstance(error)) throw error;
    throw new DocTreeError('IO_WRITE_FAILED', `cannot write the folder: ${(error as Error).message}`, { file: dir, cause: error });
  } finally {
    for (const untrack of untracks) untrack();
  }
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
