import { UnrecoverableError, Worker } from 'bullmq';
import type { Job } from 'bullmq';
import { DocTreeError } from '@doctree/schema';
import { documentJobId, parseDocumentJob } from './document-job.js';
import type { DocumentJob } from './document-job.js';
import { DOCUMENT_QUEUE_DEFAULTS, DocumentQueue, queueError } from './document-queue.js';
import { isPermanentError, processDocumentJob } from './job-handlers.js';
import type { DocumentJobHandlers, DocumentJobOutcome, JobStore } from './job-handlers.js';
import { queueConnection } from './queue-connection.js';
import { redactUrl } from './redact.js';

/** One finished job, as reported to {@link RunWorkerOptions.onJob}. */
export interface WorkerJobEvent {
  job_id: string;
  doc_id: string;
  /** What the job did, or `failed` (with the error) for an attempt that threw. */
  outcome: DocumentJobOutcome | 'failed';
  attempt: number;
  ms: number;
  error?: { code: string; message: string };
  /** True when this failure was the job's last attempt (it went to the dead letters). */
  dead?: boolean;
}

/** Options of {@link runWorker}. */
export interface RunWorkerOptions<Doc> {
  /** Queue URL (`redis://…` or `postgres://…`). */
  queue: string;
  /** Queue name. Default `doctree-documents`. */
  name?: string;
  /** Where documents are written (one transaction per document). */
  store: JobStore<Doc>;
  /** Builds a document from its job. */
  handlers: DocumentJobHandlers<Doc>;
  /** Jobs processed at once by this worker. Default 1. */
  concurrency?: number;
  /** How long a job's lock lasts without renewal, ms: a killed worker's job is retried after about this long. Default 30000. */
  lockDurationMs?: number;
  /** How often stalled jobs (of dead workers) are looked for, ms. Default 15000. */
  stalledIntervalMs?: number;
  /** Called after every attempt (logging, metrics); messages are redacted. Must not throw. */
  onJob?: (event: WorkerJobEvent) => void;
}

/** Defaults of {@link RunWorkerOptions}. */
export const RUN_WORKER_DEFAULTS = {
  name: DOCUMENT_QUEUE_DEFAULTS.name,
  concurrency: 1,
  lockDurationMs: 30_000,
  stalledIntervalMs: 15_000,
} as const;

/** A running worker. */
export interface WorkerHandle {
  /** Finishes the jobs in progress, then stops taking jobs and disconnects. */
  close(): Promise<void>;
  /** Resolves when the worker has stopped. */
  readonly closed: Promise<void>;
}

/**
 * Runs a BullMQ worker over the document queue: each job is validated, then {@link processDocumentJob} builds the
 * document and writes it in one store transaction (a document the store already holds with the same hash is
 * skipped, so a retried job is harmless). A thrown error is retried with exponential backoff; a permanent one (bad
 * input) or the last attempt's goes to the dead letters with the error. A worker killed mid-job loses nothing: its
 * lock expires, BullMQ hands the job to another worker, and the store still holds the previous version whole.
 *
 * @example
 * ```ts
 * const store = await PostgresStore.open({ url: process.env.DOCTREE_STORE! });
 * const worker = await runWorker({ queue: 'redis://127.0.0.1:6379', store, handlers: { build: buildDocument }, concurrency: 2 });
 * process.on('SIGTERM', () => void worker.close());
 * ```
 */
export async function runWorker<Doc>(options: RunWorkerOptions<Doc>): Promise<WorkerHandle> {
  const o = { ...RUN_WORKER_DEFAULTS, ...options };
  if (!Number.isInteger(o.concurrency) || o.concurrency < 1) throw new DocTreeError('USAGE', `concurrency must be a positive integer, got ${o.concurrency}`);
  const { connection, backend } = queueConnection(o.queue);
  const deadLetters = await DocumentQueue.open({ url: o.queue, name: o.name });
  const processor = async (job: Job, _token?: string, signal?: AbortSignal): Promise<DocumentJobOutcome> => {
    const started = performance.now();
    const attempt = job.attemptsMade + 1;
    let data: DocumentJob | undefined;
    try {
      data = parseDocumentJob(job.data);
      const outcome = await processDocumentJob(data, o.store, o.handlers, signal ?? new AbortController().signal);
      o.onJob?.({ job_id: job.id ?? documentJobId(data), doc_id: data.doc_id, outcome, attempt, ms: performance.now() - started });
      return outcome;
    } catch (cause) {
      const error = describeError(cause);
      const permanent = isPermanentError(cause);
      const last = permanent || attempt >= (job.opts.attempts ?? 1);
      if (last) {
        await deadLetters.addDeadLetter({ job_id: job.id ?? 'unknown', job: (data ?? job.data) as DocumentJob, attempts: attempt, error, failed_at: new Date().toISOString() });
      }
      o.onJob?.({ job_id: job.id ?? 'unknown', doc_id: data?.doc_id ?? 'unknown', outcome: 'failed', attempt, ms: performance.now() - started, error, dead: last });
      if (permanent) throw new UnrecoverableError(`${error.code}: ${error.message}`);
      throw new Error(`${error.code}: ${error.message}`);
    }
  };
  const workerOptions = { connection: backend ? { ...connection, migrate: true } : connection, concurrency: o.concurrency, lockDuration: o.lockDurationMs, stalledInterval: o.stalledIntervalMs, maxStalledCount: 3 };
  const worker = backend ? new Worker(o.name, processor, workerOptions, backend) : new Worker(o.name, processor, workerOptions);
  worker.on('error', () => undefined);
  try {
    await worker.waitUntilReady();
  } catch (error) {
    await Promise.allSettled([worker.close(), deadLetters.close()]);
    throw queueError(error, 'starting a worker', o.queue);
  }
  let resolveClosed: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
  let closing: Promise<void> | undefined;
  return {
    closed,
    close() {
      closing ??= Promise.allSettled([worker.close()]).then(async () => {
        await deadLetters.close();
        resolveClosed();
      });
      return closing;
    },
  };
}

/** Code and redacted message of any error. */
export function describeError(error: unknown): { code: string; message: string } {
  if (DocTreeError.isInstance(error)) return { code: error.code, message: redactUrl(error.message) };
  return { code: 'INTERNAL', message: redactUrl(error instanceof Error ? error.message : String(error)) };
}
