// One bench worker process: a BullMQ worker (PostgreSQL backend) building collection documents into the Postgres
// collection store. Env: QUEUE_URL, STORE_URL, SCHEMA, COLLECTION, CACHE_DIR, DATA_DIR, QUEUE_NAME.
// Prints one JSON line per job attempt.
import { collectionJobHandlers, collectionJobStore, runWorker } from '@doctree/jobs';
import { resolveConfig } from '@doctree/schema';
import { PostgresCollectionStore, PostgresStore } from '@doctree/store-postgres';

const env = process.env;
const config = resolveConfig({ overrides: { data_dir: env['DATA_DIR']!, embedder: { kind: 'hashing' }, index: { backend: 'exact' } } }).config;
const db = await PostgresStore.open({ url: env['STORE_URL']!, schema: env['SCHEMA']!, maxConnections: 2 });
const store = new PostgresCollectionStore({ store: db, collection: env['COLLECTION']!, cacheDir: env['CACHE_DIR']! });
const worker = await runWorker({
  queue: env['QUEUE_URL']!,
  name: env['QUEUE_NAME']!,
  store: collectionJobStore(store),
  handlers: collectionJobHandlers({ store, config }),
  concurrency: 1,
  lockDurationMs: 3000,
  stalledIntervalMs: 1000,
  onJob: (event) => process.stdout.write(`${JSON.stringify(event)}\n`),
});
process.stdout.write('{"ready":true}\n');
process.on('SIGTERM', () => void worker.close().then(() => db.close()).then(() => process.exit(0)));
