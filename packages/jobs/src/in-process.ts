import { DocTreeError } from '@doctree/schema';
import { documentJobId, parseDocumentJob } from './document-job.js';
import type { DeadLetter, DocumentJob } from './document-job.js';
import { isPermanentError, processDocumentJob } from './job-handlers.js';
import type { DocumentJobHandlers, DocumentJobOutcome, JobStore } from './job-handlers.js';
import { describeError } from './run-worker.js';
import type { WorkerJobEvent } from './run-worker.js';

/** Options of {@link runInProcess}. */
export interface RunInProcessOptions<Doc> {
  jobs: readonly DocumentJob[];
  store: JobStore<Doc>;
  handlers: DocumentJobHandlers<Doc>;
  /** Jobs at once. Default 1. */
  concurrency?: number;
  /** Attempts per job. Default 4. */
  attempts?: number;
  /** First retry delay, ms, doubled at each attempt. Default 1000. */
  backoffMs?: number;
  signal?: AbortSignal;
  onJob?: (event: WorkerJobEvent) => void;
}

/** Defaults of {@link RunInProcessOptions}. */
export const RUN_IN_PROCESS_DEFAULTS = {
  concurrency: 1,
  attempts: 4,
  backoffMs: 1000,
} as const;

/** What {@link runInProcess} did. */
export interface InProcessResult {
  /** Outcome by job id (duplicated jobs run once). */
  outcomes: Map<string, DocumentJobOutcome>;
  dead: DeadLetter[];
}

/**
 * The single-machine default: the same job handler as {@link runWorker}, with the same idempotent job ids (a job
 * given twice runs once), retries with exponential backoff and dead letters, in this process — no queue server.
 *
 * @example
 * ```ts
 * const { outcomes, dead } = await runInProcess({ jobs, store, handlers: { build: buildDocument }, concurrency: 2 });
 * ```
 */
export async function runInProcess<Doc>(options: RunInProcessOptions<Doc>): Promise<InProcessResult> {
  const o = { ...RUN_IN_PROCESS_DEFAULTS, ...options };
  if (!Number.isInteger(o.concurrency) || o.concurrency < 1) throw new DocTreeError('USAGE', `concurrency must be a positive integer, got ${o.concurrency}`);
  const unique = new Map<string, DocumentJob>();
  for (const raw of o.jobs) {
    const job = parseDocumentJob(raw);
    const id = documentJobId(job);
    if (!unique.has(id)) unique.set(id, job);
  }
  const queue = [...unique.entries()];
  const outcomes = new Map<string, DocumentJobOutcome>();
  const dead: DeadLetter[] = [];
  const signal = o.signal ?? new AbortController().signal;
  const runOne = async (id: string, job: DocumentJob): Promise<void> => {
    for (let attempt = 1; ; attempt++) {
      if (signal.aborted) throw new DocTreeError('CANCELLED', 'in-process jobs cancelled');
      const started = performance.now();
      try {
        const outcome = await processDocumentJob(job, o.store, o.handlers, signal);
        outcomes.set(id, outcome);
        o.onJob?.({ job_id: id, doc_id: job.doc_id, outcome, attempt, ms: performance.now() - started });
        return;
      } catch (cause) {
        const error = describeError(cause);
        const last = isPermanentError(cause) || attempt >= o.attempts;
        o.onJob?.({ job_id: id, doc_id: job.doc_id, outcome: 'failed', attempt, ms: performance.now() - started, error, dead: last });
        if (last) {
          dead.push({ job_id: id, job, attempts: attempt, error, failed_at: new Date().toISOString() });
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, o.backoffMs * 2 ** (attempt - 1)));
      }
    }
  };
  let next = 0;
  const lanes = Array.from({ length: Math.min(o.concurrency, Math.max(queue.length, 1)) }, async () => {
    while (next < queue.length) {
      const [id, job] = queue[next++]!;
      await runOne(id, job);
    }
  });
  await Promise.all(lanes);
  return { outcomes, dead };
}
