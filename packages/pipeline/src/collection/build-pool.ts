import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { callerModuleFile } from '@doctree/schema/node';
import { Worker } from 'node:worker_threads';
import { DocTreeError, type DocTreeErrorJson } from '@doctree/schema';
import type { IndexComponents } from '../index-components.js';
import { buildCollectionDocument, type CollectionBuildJob, type CollectionBuildProgress, type CollectionBuildResult } from './build-document.js';

/** Main thread → build worker. */
export interface BuildWorkerJob {
  type: 'job';
  job: CollectionBuildJob;
  cacheDir: string;
}

/** Build worker → main thread. */
export type BuildWorkerMessage =
  | { type: 'progress'; index: number; event: CollectionBuildProgress }
  | { type: 'done'; index: number; result: CollectionBuildResult }
  | { type: 'error'; index: number; error: DocTreeErrorJson };

/** The outcome of one job of {@link runCollectionBuilds}. */
export type CollectionBuildOutcome = { job: CollectionBuildJob; result: CollectionBuildResult; error?: undefined } | { job: CollectionBuildJob; error: DocTreeError; result?: undefined };

/** Options of {@link runCollectionBuilds}. */
export interface CollectionBuildsOptions {
  /** Documents built at the same time: `'auto'` one per core; 1 builds them here, one after the other. */
  workers: number | 'auto';
  /** Components for builds in this thread (also used when the compiled worker script is absent, e.g. from sources). */
  components: () => Promise<IndexComponents>;
  /** Cache folder of LLM summaries and `openai` embeddings (for workers). */
  cacheDir: string;
  onProgress?: (job: CollectionBuildJob, event: CollectionBuildProgress) => void;
}

/** The compiled worker script next to this module (`dist/collection/build-worker.js`); undefined from sources. */
export function buildWorkerScript(): string | undefined {
  const here = callerModuleFile();
  if (!here?.endsWith('.js')) return undefined;
  const file = join(dirname(here), 'build-worker.js');
  return existsSync(file) ? file : undefined;
}

/** Worker count for `jobs` documents. */
export function buildWorkerCount(requested: number | 'auto', jobs: number): number {
  const cores = availableParallelism();
  const wanted = requested === 'auto' ? cores : Math.min(Math.max(1, Math.floor(requested)), cores);
  return Math.max(1, Math.min(wanted, jobs));
}

function errorFromJson(json: DocTreeErrorJson): DocTreeError {
  return new DocTreeError(json.code, json.message, { hint: json.hint, ...(json.file !== undefined ? { file: json.file } : {}), ...(json.page !== undefined ? { page: json.page } : {}) });
}

/**
 * Builds documents (ingest + index + selection data) with one worker thread per core, each worker taking the next
 * document when it finishes one (its pdf.js, embedder and JIT stay warm), and yields each outcome as it finishes. A
 * document that fails yields its DocTreeError; the others go on. Without the compiled worker script, or with one
 * worker, documents are built in this thread.
 */
export async function* runCollectionBuilds(jobs: readonly CollectionBuildJob[], options: CollectionBuildsOptions): AsyncGenerator<CollectionBuildOutcome> {
  if (jobs.length === 0) return;
  const count = buildWorkerCount(options.workers, jobs.length);
  const script = count > 1 ? buildWorkerScript() : undefined;
  if (!script) {
    const components = await options.components();
    for (const job of jobs) {
      try {
        yield { job, result: await buildCollectionDocument(job, components, (event) => options.onProgress?.(job, event)) };
      } catch (error) {
        yield { job, error: DocTreeError.from(error, 'INTERNAL', { file: job.input }) };
      }
    }
    return;
  }
  const queue = [...jobs];
  const finished: CollectionBuildOutcome[] = [];
  let wake: (() => void) | undefined;
  const notify = (): void => {
    wake?.();
    wake = undefined;
  };
  const workers: Worker[] = [];
  let live = 0;
  const start = (): void => {
    const worker = new Worker(script, { execArgv: process.execArgv.filter((flag) => !flag.startsWith('--input-type') && !flag.startsWith('--eval')) });
    workers.push(worker);
    live++;
    let current: CollectionBuildJob | undefined;
    const next = (): void => {
      current = queue.shift();
      if (!current) {
        void worker.terminate();
        return;
      }
      worker.postMessage({ type: 'job', job: { ...current, pdfWorkers: 0 }, cacheDir: options.cacheDir } satisfies BuildWorkerJob);
    };
    worker.on('message', (message: BuildWorkerMessage) => {
      if (!current || message.index !== current.index) return;
      if (message.type === 'progress') {
        options.onProgress?.(current, message.event);
        return;
      }
      finished.push(message.type === 'done' ? { job: current, result: message.result } : { job: current, error: errorFromJson(message.error) });
      notify();
      next();
    });
    worker.on('error', (error) => {
      if (current) finished.push({ job: current, error: DocTreeError.from(error, 'INTERNAL', { file: current.input }) });
      current = undefined;
    });
    worker.on('exit', () => {
      // A worker that dies mid-document reports that document failed (above) and its lane ends.
      if (current) finished.push({ job: current, error: new DocTreeError('INTERNAL', 'the build worker stopped', { file: current.input }) });
      current = undefined;
      live--;
      notify();
    });
    next();
  };
  for (let i = 0; i < count; i++) start();
  let yielded = 0;
  try {
    while (yielded < jobs.length) {
      const outcome = finished.shift();
      if (outcome) {
        yielded++;
        yield outcome;
        continue;
      }
      if (live === 0) {
        // Every worker is gone with documents still queued: build them here.
        const components = await options.components();
        for (const job of queue.splice(0)) {
          try {
            finished.push({ job, result: await buildCollectionDocument(job, components, (event) => options.onProgress?.(job, event)) });
          } catch (error) {
            finished.push({ job, error: DocTreeError.from(error, 'INTERNAL', { file: job.input }) });
          }
        }
        if (finished.length === 0) break;
        continue;
      }
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    }
  } finally {
    await Promise.all(workers.map((worker) => worker.terminate().catch(() => 0)));
  }
}
