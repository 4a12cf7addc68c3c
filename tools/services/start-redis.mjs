#!/usr/bin/env node
// A throwaway Redis server for tests and development: a fresh temp dir, 127.0.0.1 only, a free port, no persistence;
// stopped and removed on exit.
//
//   node tools/services/start-redis.mjs [--json] [--stdin]
//     prints the URL (redis://127.0.0.1:PORT), runs until Ctrl-C / SIGTERM (or, with --stdin, until stdin closes).
//   import { startRedis, redisAvailability } from './start-redis.mjs'  — the same from a script.
//
// Environment: DOCTREE_REDIS_SERVER  path of redis-server (default: PATH, /usr/bin/redis-server).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, makeTempDir, removeDir, serveUntilStopped, which } from './service-common.mjs';

/** Path of redis-server, or undefined. */
export function redisServerPath() {
  const configured = process.env.DOCTREE_REDIS_SERVER;
  if (configured) return existsSync(configured) ? configured : undefined;
  return which('redis-server') ?? (existsSync('/usr/bin/redis-server') ? '/usr/bin/redis-server' : undefined);
}

/** `{ ok: true, server }` or `{ ok: false, reason }`. */
export function redisAvailability() {
  const server = redisServerPath();
  return server ? { ok: true, server } : { ok: false, reason: 'redis-server not found. Fix: sudo apt-get install redis-server, or set DOCTREE_REDIS_SERVER' };
}

function ping(port) {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    let reply = '';
    socket.setTimeout(500, () => socket.destroy());
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      reply += chunk.toString();
      if (reply.includes('\r\n')) socket.end();
    });
    socket.on('close', () => resolve(reply.startsWith('+PONG')));
    socket.on('error', () => resolve(false));
  });
}

/** Starts a throwaway Redis. Resolves `{ url, port, dir, pid, stop }`; `stop()` ends it and removes the dir. */
export async function startRedis(options = {}) {
  const availability = redisAvailability();
  if (!availability.ok) throw new Error(availability.reason);
  const dir = makeTempDir('doctree-redis-', options.parent);
  const port = options.port ?? (await freePort());
  const child = spawn(availability.server, ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no', '--protected-mode', 'yes', '--logfile', join(dir, 'redis.log')], { stdio: 'ignore' });
  let exited = false;
  child.on('exit', () => {
    exited = true;
  });
  const stop = async () => {
    if (!exited) {
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await Promise.race([gone, new Promise((resolve) => setTimeout(resolve, 3000))]);
      if (!exited) child.kill('SIGKILL');
    }
    removeDir(dir);
  };
  const deadline = Date.now() + 10_000;
  while (!(await ping(port))) {
    if (exited || Date.now() > deadline) {
      await stop();
      throw new Error(`redis-server did not start on 127.0.0.1:${port}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { url: `redis://127.0.0.1:${port}`, port, dir, pid: child.pid, stop };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const args = process.argv.slice(2);
  const availability = redisAvailability();
  if (!availability.ok) {
    console.error(`start-redis: ${availability.reason}`);
    process.exit(3);
  }
  try {
    const service = await startRedis();
    await serveUntilStopped(service, { json: args.includes('--json'), watchStdin: args.includes('--stdin'), label: 'redis' });
  } catch (error) {
    console.error(`start-redis: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
