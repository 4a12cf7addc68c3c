// Shared helpers of the throwaway development/test services (PostgreSQL + pgvector, Redis): a free loopback port, a
// private temp directory, and a "run until told to stop, then clean up" lifecycle for the command-line form.
// Plain Node ESM without dependencies.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, mkdtempSync, rmSync, statfsSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

/** A TCP port free on 127.0.0.1 right now (the OS picks it). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/**
 * Where throwaway services keep their files: `DOCTREE_SERVICES_TMP`, else `/dev/shm` when it is a writable RAM disk with
 * 1 GB free (a cluster there starts in well under a second on a busy disk), else the system temp dir.
 */
export function servicesTempRoot() {
  if (process.env.DOCTREE_SERVICES_TMP) return process.env.DOCTREE_SERVICES_TMP;
  try {
    accessSync('/dev/shm', constants.W_OK);
    const fs = statfsSync('/dev/shm');
    if (fs.bavail * fs.bsize > 1024 ** 3) return '/dev/shm';
  } catch {
    // not Linux, or no /dev/shm
  }
  return tmpdir();
}

/** A new private directory under {@link servicesTempRoot} (or `parent`). */
export function makeTempDir(prefix, parent = servicesTempRoot()) {
  return mkdtempSync(join(parent, prefix));
}

/** Removes a directory tree, ignoring a missing one. */
export function removeDir(dir) {
  rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
}

/** Absolute path of `command` on PATH, or undefined. */
export function which(command) {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, command);
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

/** True when this process runs as root. */
export const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

/** Runs a program synchronously; throws with its output when it fails. */
export function run(command, args, options = {}) {
  const result = spawnSync(command, args, { encoding: 'utf8', ...options });
  if (result.status !== 0) {
    const output = `${result.stdout ?? ''}${result.stderr ?? ''}`.trim().split('\n').slice(-8).join('\n');
    throw new Error(`${command} ${args[0] ?? ''} failed (${result.error?.message ?? `exit ${result.status}`}): ${output}`);
  }
  return result.stdout ?? '';
}

/**
 * Command-line lifecycle: prints the service's description as one JSON line (`--json`) or a human line, then waits
 * until SIGINT/SIGTERM or (with `--stdin`) until stdin closes — i.e. the parent died — and stops the service.
 */
export async function serveUntilStopped(service, { json, watchStdin, label }) {
  const { stop, ...info } = service;
  if (json) process.stdout.write(`${JSON.stringify(info)}\n`);
  else console.log(`${label}: ${info.url}  (dir ${info.dir}; Ctrl-C stops it and removes the dir)`);
  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    try {
      await stop();
    } finally {
      process.exit(0);
    }
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
  process.on('SIGHUP', shutdown);
  if (watchStdin) {
    process.stdin.on('end', shutdown);
    process.stdin.on('close', shutdown);
    process.stdin.resume();
  } else {
    setInterval(() => {}, 1 << 30);
  }
}
