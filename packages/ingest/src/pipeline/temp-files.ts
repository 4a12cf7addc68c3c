import { rmSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { isMainThread } from 'node:worker_threads';

/**
 * Temporary files and folders of DocTree carry the id of the process that made them — `<name>.tmp-<pid>-<hex>` (atomic
 * writes of ingest, index and eval), `<name>.old-<pid>-<hex>` (a folder being swapped), `doctree-ocr-<pid>-<random>`
 * (page renders of OCR) — so that a later run can tell those of a process that died (kill -9, a crash) from those of a
 * run still under way, and remove them ({@link removeStaleTempFiles}). The current run's own temporary folders are
 * removed when it ends by a signal ({@link trackTempPath}).
 */

/** Names of atomic-write temporaries and swapped-out folders: `<name>.tmp-<pid>-<hex>` / `<name>.old-<pid>-<hex>`. */
export const ATOMIC_TEMP_NAME = /\.(?:tmp|old)-(\d{1,10})-[0-9a-f]{8}$/;

/** Names of OCR render folders in the system temporary folder: `doctree-ocr-<pid>-<random>`. */
export const OCR_TEMP_NAME = /^doctree-ocr-(\d{1,10})-[A-Za-z0-9]{6}$/;

/** Prefix of an OCR render folder of this process (for `mkdtemp`). */
export const ocrTempPrefix = (): string => `doctree-ocr-${process.pid}-`;

/**
 * True when a process with this id runs (`process.kill(pid, 0)`): also when it belongs to another user (`EPERM`), so
 * only the temporaries of processes known to be gone are removed.
 */
export function isProcessAlive(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes the temporaries directly inside `dir` whose name matches `pattern` (its first group is the process id) and
 * whose process is gone. Never throws (a folder that cannot be read or an entry that cannot be removed is left).
 *
 * @returns The paths removed.
 */
export async function removeStaleTempFiles(dir: string, pattern: RegExp = ATOMIC_TEMP_NAME): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const pid = Number(pattern.exec(name)?.[1]);
    if (!Number.isFinite(pid) || isProcessAlive(pid)) continue;
    const path = join(dir, name);
    try {
      await rm(path, { recursive: true, force: true });
      removed.push(path);
    } catch {
      // Left for a later run.
    }
  }
  return removed;
}

const tracked = new Set<string>();
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

function removeTrackedSync(): void {
  for (const path of tracked) {
    try {
      rmSync(path, { recursive: true, force: true });
    } catch {
      // The next run removes it (its process is gone then).
    }
  }
  tracked.clear();
}

function onSignal(signal: NodeJS.Signals): void {
  // Another listener (a command that cancels gracefully) handles the signal: its cleanup runs in `finally` blocks.
  if (process.listenerCount(signal) > 1) return;
  removeTrackedSync();
  uninstall();
  // Ends the process as the signal would have without this listener.
  process.kill(process.pid, signal);
}

let installed = false;
function install(): void {
  if (installed) return;
  installed = true;
  process.on('exit', removeTrackedSync);
  for (const signal of SIGNALS) process.on(signal, onSignal);
}
function uninstall(): void {
  if (!installed) return;
  installed = false;
  process.removeListener('exit', removeTrackedSync);
  for (const signal of SIGNALS) process.removeListener(signal, onSignal);
}

/**
 * Removes `path` (a temporary file or folder of this run) if the process exits or ends by SIGINT, SIGTERM or SIGHUP
 * before the returned function is called; call it once the path is gone or kept. The signal then still ends the
 * process (re-raised), unless another listener of that signal handles it. Signal listeners exist only while something
 * is tracked. In a worker thread nothing is installed (signals reach the main thread only); a later run removes what
 * a dead process left ({@link removeStaleTempFiles}).
 */
export function trackTempPath(path: string): () => void {
  if (!isMainThread) return () => undefined;
  tracked.add(path);
  install();
  return () => {
    tracked.delete(path);
    if (tracked.size === 0) uninstall();
  };
}
