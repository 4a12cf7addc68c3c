import { createRequire } from 'node:module';
import { realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createPostgresBackend } from 'bullmq';
import { DocTreeError } from '@doctree/schema';

/** Where a queue lives: BullMQ on Redis (`redis://`, `rediss://`) or on its PostgreSQL backend (`postgres://`). */
export interface QueueConnection {
  kind: 'redis' | 'postgres';
  /** The `connection` option of BullMQ's Queue / Worker. */
  connection: Record<string, unknown>;
  /** Backend factory (the PostgreSQL backend), or undefined for BullMQ's default Redis backend. */
  backend: typeof createPostgresBackend | undefined;
}

/** Schema of BullMQ's tables when the queue is on PostgreSQL. */
export const BULLMQ_PG_SCHEMA = 'doctree_jobs';

/**
 * The BullMQ connection for a queue URL. `redis://` needs BullMQ's Redis driver (`ioredis`, an optional peer of
 * bullmq): without it, `BACKEND_UNAVAILABLE` with the fix. `postgres://` uses BullMQ's PostgreSQL backend on `pg`.
 * @throws DocTreeError `USAGE` for another scheme.
 */
export function queueConnection(url: string, hasRedisDriver: () => boolean = redisDriverInstalled): QueueConnection {
  const trimmed = url.trim();
  if (/^postgres(?:ql)?:\/\//i.test(trimmed)) {
    return { kind: 'postgres', connection: { connectionString: trimmed, schema: BULLMQ_PG_SCHEMA, max: 4 }, backend: createPostgresBackend };
  }
  if (/^rediss?:\/\//i.test(trimmed)) {
    if (!hasRedisDriver()) {
      throw new DocTreeError('BACKEND_UNAVAILABLE', "BullMQ's Redis driver (the npm package ioredis) is not installed", {
        hint: 'npm install ioredis (an optional peer dependency of bullmq), or give a postgres:// queue URL to run the jobs on BullMQ\'s PostgreSQL backend.',
      });
    }
    return { kind: 'redis', connection: { url: trimmed, maxRetriesPerRequest: null }, backend: undefined };
  }
  throw new DocTreeError('USAGE', 'the queue URL must start with redis://, rediss:// or postgres://', { hint: 'e.g. --queue redis://127.0.0.1:6379 (npm run services prints a local one).' });
}

/**
 * True when BullMQ can load `ioredis` (resolved from bullmq's own folder, as bullmq does), with bullmq found from the
 * working directory or from the running script's real folder (a `doctree` run from anywhere finds its own install).
 */
export function redisDriverInstalled(): boolean {
  const script = process.argv[1];
  const folders = [process.cwd()];
  if (script !== undefined) {
    try {
      folders.push(dirname(realpathSync(script)));
    } catch {
      // No script file (a REPL, `node -e`): the working directory only.
    }
  }
  for (const folder of folders) {
    try {
      const from = createRequire(join(folder, 'noop.js'));
      createRequire(from.resolve('bullmq')).resolve('ioredis');
      return true;
    } catch {
      // Not from this folder: try the next.
    }
  }
  return false;
}
