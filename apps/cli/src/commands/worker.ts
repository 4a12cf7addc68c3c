import { hostname } from 'node:os';
import { join } from 'node:path';
import { collectionJobHandlers, collectionJobStore, redactUrl, runWorker } from '@doctree/jobs';
import type { WorkerJobEvent } from '@doctree/jobs';
import { DocTreeError } from '@doctree/schema';
import { isPostgresUrl, PostgresCollectionStore, PostgresStore } from '@doctree/store-postgres';
import { parseCommandArgs, positiveIntegerOption } from '../cli-args.js';
import { loadCliConfig, type CliIo } from '../cli-context.js';
import { WORKER_USAGE } from '../usage.js';

const OPTIONS = {
  queue: { type: 'string' },
  store: { type: 'string' },
  collection: { type: 'string' },
  name: { type: 'string' },
  concurrency: { type: 'string' },
  config: { type: 'string' },
  json: { type: 'boolean' },
} as const;

/** Stops a running worker: resolves when told to (SIGINT / SIGTERM in the CLI; a promise in specs). */
export type WorkerStopSignal = Promise<void>;

/** The signal the CLI stops on: the first SIGINT or SIGTERM. */
function processStop(): WorkerStopSignal {
  return new Promise((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
}

/**
 * `doctree worker --queue URL --store postgres://… --collection NAME [--concurrency N]`: takes document jobs from
 * the queue (BullMQ on `redis://…`, or its PostgreSQL backend on `postgres://…`), builds each document as
 * `collection sync` does and commits it to the Postgres collection store in one transaction. A document the store
 * already holds with the job's content is not rebuilt; its metadata is extracted again when an older extractor read it
 * (outcome `refreshed`: the refresh jobs `collection sync --queue` enqueues). One line per job (`--json`: JSON lines). Runs until SIGINT / SIGTERM, finishing the jobs in progress. URLs also come from
 * `DOCTREE_QUEUE` / `DOCTREE_STORE`; passwords are never printed.
 */
export async function workerCli(io: CliIo, args: readonly string[], stop: WorkerStopSignal = processStop()): Promise<number> {
  const { values } = parseCommandArgs(args, OPTIONS, WORKER_USAGE);
  const queue = (values.queue as string | undefined) ?? io.env['DOCTREE_QUEUE'];
  const storeUrl = (values.store as string | undefined) ?? io.env['DOCTREE_STORE'];
  const collection = (values.collection as string | undefined) ?? 'default';
  if (!queue) throw new DocTreeError('USAGE', 'doctree worker needs --queue redis://… or postgres://… (or DOCTREE_QUEUE)', { hint: `Usage:\n${WORKER_USAGE}` });
  if (!isPostgresUrl(storeUrl)) throw new DocTreeError('USAGE', 'doctree worker needs --store postgres://… (or DOCTREE_STORE): workers on several machines share the Postgres collection store', { hint: `Usage:\n${WORKER_USAGE}` });
  const concurrency = positiveIntegerOption('concurrency', values.concurrency) ?? 1;
  const config = loadCliConfig(io, values.config as string | undefined);
  const db = await PostgresStore.open({ url: storeUrl, log: (line) => io.stderr(`${line}\n`) });
  try {
    const store = new PostgresCollectionStore({ store: db, collection, cacheDir: join(config.config.data_dir, '.cache', 'pg-collections') });
    if (!(await store.readManifest())) await store.initialize({ input_dir: io.cwd });
    const json = values.json === true;
    const report = (event: WorkerJobEvent): void => {
      if (json) io.stdout(`${JSON.stringify(event)}\n`);
      else io.stdout(`${event.outcome === 'failed' ? `failed (attempt ${event.attempt}${event.dead ? ', dead letter' : ''}): ${event.error?.code} ${event.error?.message}` : event.outcome} ${event.doc_id} ${Math.round(event.ms)} ms\n`);
    };
    const worker = await runWorker({ queue, store: collectionJobStore(store, { config: config.config }), handlers: collectionJobHandlers({ store, config: config.config }), concurrency, onJob: report, ...(values.name ? { name: values.name as string } : {}) });
    io.stderr(`doctree worker on ${hostname()} (pid ${process.pid}): queue ${redactUrl(queue)}, store ${db.location}, collection ${collection}, concurrency ${concurrency}\n`);
    await stop;
    await worker.close();
    return 0;
  } finally {
    await db.close();
  }
}
