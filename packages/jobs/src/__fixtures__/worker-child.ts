// Test support: a worker process for the kill -9 spec. Env: QUEUE_URL, STORE_URL, STORE_SCHEMA, QUEUE_NAME, DELAY_MS.
// Prints "ready" once taking jobs and "start <doc_id>" when a build begins.
import { PostgresStore } from '@doctree/store-postgres';
import { runWorker } from '../run-worker.js';
import { fixtureHandlers } from './fixture-build.js';

const env = process.env;
const store = await PostgresStore.open({ url: env['STORE_URL']!, schema: env['STORE_SCHEMA']! });
const worker = await runWorker({
  queue: env['QUEUE_URL']!,
  name: env['QUEUE_NAME']!,
  store,
  handlers: fixtureHandlers({ delayMs: Number(env['DELAY_MS'] ?? 0), onStart: (job) => process.stdout.write(`start ${job.doc_id}\n`) }),
  concurrency: 2,
  lockDurationMs: 1500,
  stalledIntervalMs: 500,
});
process.stdout.write('ready\n');
process.on('SIGTERM', () => void worker.close().then(() => store.close()).then(() => process.exit(0)));
