import { randomBytes } from 'node:crypto';
import { link, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { isProcessAlive } from '@doctree/ingest';
import { DocTreeError, type CollectionLock, type CollectionLockOptions, type CollectionLockOwner } from '@doctree/schema';

/** Poll interval while waiting for a lock another run holds, ms. */
const POLL_MS = 150;
/** A lock file without a readable owner older than this is left over from a crash, ms. */
const UNREADABLE_STALE_MS = 10_000;

/** The owner recorded in a lock file, or undefined when it cannot be read. */
async function readOwner(path: string): Promise<CollectionLockOwner | undefined> {
  try {
    const parsed = JSON.parse(await readFile(path, 'utf8')) as Partial<CollectionLockOwner>;
    if (typeof parsed.pid === 'number' && typeof parsed.host === 'string' && typeof parsed.started === 'string') {
      return { pid: parsed.pid, host: parsed.host, started: parsed.started };
    }
  } catch {
    // Missing or unreadable: decided by the caller.
  }
  return undefined;
}

/** True when the lock file is left over from a run that is gone (same host, process dead; or unreadable and old). */
async function isStale(path: string, owner: CollectionLockOwner | undefined): Promise<boolean> {
  if (owner) return owner.host === hostname() && !isProcessAlive(owner.pid);
  try {
    return Date.now() - (await stat(path)).mtimeMs > UNREADABLE_STALE_MS;
  } catch {
    return true;
  }
}

/**
 * Takes the lock file `path` for this process: the owner (pid, host, start time) is written to a temporary file that is
 * then hard-linked to `path`, so the lock appears complete or not at all. A lock whose process is gone (same host) is
 * taken over; a live one is waited for up to `waitMs`.
 *
 * @throws DocTreeError `COLLECTION_LOCKED` naming the holder when the wait runs out, `IO_WRITE_FAILED` when the lock
 *   file cannot be written.
 */
export async function acquireFileLock(path: string, options: CollectionLockOptions): Promise<CollectionLock> {
  const owner: CollectionLockOwner = { pid: process.pid, host: hostname(), started: new Date().toISOString() };
  const tmp = `${path}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    await writeFile(tmp, `${JSON.stringify(owner)}\n`);
  } catch (cause) {
    throw new DocTreeError('IO_WRITE_FAILED', 'cannot write the collection lock', { file: path, cause });
  }
  const deadline = Date.now() + Math.max(0, options.waitMs);
  let told = false;
  try {
    for (;;) {
      try {
        await link(tmp, path);
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw new DocTreeError('IO_WRITE_FAILED', 'cannot take the collection lock', { file: path, cause: error });
      }
      const holder = await readOwner(path);
      if (await isStale(path, holder)) {
        await rm(path, { force: true });
        continue;
      }
      if (Date.now() >= deadline) {
        const who = holder ? `process ${holder.pid} on ${holder.host}, started ${holder.started}` : 'another run';
        throw new DocTreeError('COLLECTION_LOCKED', `the collection is being written by ${who}`, {
          file: path,
          hint: 'Wait for that run to finish (or pass --wait SECONDS); a lock left by a run that was killed on this host is taken over automatically.',
          ...(holder ? { details: { pid: holder.pid, host: holder.host, started: holder.started } } : {}),
        });
      }
      if (!told && holder) {
        told = true;
        options.onWait?.(holder);
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  } finally {
    await rm(tmp, { force: true }).catch(() => undefined);
  }
  let released = false;
  return {
    owner,
    async release() {
      if (released) return;
      released = true;
      const holder = await readOwner(path);
      if (holder && holder.pid === owner.pid && holder.host === owner.host && holder.started === owner.started) await rm(path, { force: true });
    },
  };
}
