import { Queue } from 'bullmq';
import type { JobsOptions } from 'bullmq';
import { DocTreeError } from '@doctree/schema';
import { documentJobId, parseDocumentJob } from './document-job.js';
import type { DeadLetter, DocumentJob } from './document-job.js';
import { queueConnection } from './queue-connection.js';
import { redactUrl } from './redact.js';

/** Options of {@link DocumentQueue.open}. */
export interface DocumentQueueOptions {
  /** `redis://…` (BullMQ on Redis; needs the ioredis driver) or `postgres://…` (BullMQ's PostgreSQL backend). */
  url: string;
  /** Queue name (letters, digits, `-`, `_`). Default `doctree-documents`. */
  name?: string;
  /** Attempts per job before it goes to the dead letters. Default 4. */
  attempts?: number;
  /** First retry delay, ms; doubled at each attempt (exponential backoff). Default 1000. */
  backoffMs?: number;
  /** Time allowed to connect, ms (the Redis driver retries an unreachable server forever otherwise). Default 10000. */
  connectTimeoutMs?: number;
}

/** Defaults of {@link DocumentQueueOptions}. */
export const DOCUMENT_QUEUE_DEFAULTS = {
  name: 'doctree-documents',
  attempts: 4,
  backoffMs: 1000,
  connectTimeoutMs: 10_000,
} as const satisfies Omit<DocumentQueueOptions, 'url'>;

/** What {@link DocumentQueue.enqueue} did. */
export interface EnqueueResult {
  /** Job ids, in the order of the jobs given. */
  jobIds: string[];
  /** Jobs given whose id the queue already held (same document, same content): not added again. */
  duplicates: number;
}

/** Counts of the queue's jobs by state. */
export interface QueueCounts {
  waiting: number;
  active: number;
  delayed: number;
  completed: number;
  failed: number;
  dead: number;
}

const NAME_PATTERN = /^[A-Za-z0-9_-]{1,100}$/;

/**
 * The document job queue (BullMQ): jobs with idempotent ids (hash of operation, collection, doc id and content hash),
 * retried with exponential backoff, and a dead-letter queue (`<name>-dead`) holding each job that failed every attempt
 * with its error. Producers (`doctree collection sync --queue …`) enqueue; `runWorker` processes.
 *
 * @example
 * ```ts
 * const queue = await DocumentQueue.open({ url: 'redis://127.0.0.1:6379' });
 * await queue.enqueue([{ op: 'upsert', collection: 'reports', doc_id: 'acme-2023', path: '/data/acme-2023.pdf', sha256 }]);
 * console.log(await queue.counts());
 * await queue.close();
 * ```
 */
export class DocumentQueue {
  readonly name: string;
  /** The queue URL with its password redacted. */
  readonly location: string;
  readonly #queue: Queue;
  readonly #dead: Queue;
  readonly #options: Required<DocumentQueueOptions>;

  private constructor(options: Required<DocumentQueueOptions>, queue: Queue, dead: Queue) {
    this.#options = options;
    this.name = options.name;
    this.location = redactUrl(options.url);
    this.#queue = queue;
    this.#dead = dead;
  }

  /** Connects to the queue (creating BullMQ's tables on a PostgreSQL backend when missing). */
  static async open(options: DocumentQueueOptions): Promise<DocumentQueue> {
    const resolved = { ...DOCUMENT_QUEUE_DEFAULTS, ...options };
    if (!NAME_PATTERN.test(resolved.name)) throw new DocTreeError('USAGE', `queue name ${JSON.stringify(resolved.name)} is not allowed (letters, digits, "-", "_")`);
    if (!Number.isInteger(resolved.attempts) || resolved.attempts < 1) throw new DocTreeError('USAGE', `attempts must be a positive integer, got ${resolved.attempts}`);
    const { connection, backend } = queueConnection(resolved.url);
    // One Queue type for both backends (their connection option types differ; the methods used here do not).
    const make = (name: string): Queue => (backend ? (new Queue(name, { connection: { ...connection, migrate: true } }, backend) as unknown as Queue) : new Queue(name, { connection }));
    const queue = make(resolved.name);
    const dead = make(`${resolved.name}-dead`);
    const result = new DocumentQueue(resolved, queue, dead);
    // Connection errors are the driver's to retry; they are kept (not printed) and named if the connect times out.
    let lastError: Error | undefined;
    const onError = (error: Error): void => {
      lastError = error;
    };
    queue.on('error', onError);
    dead.on('error', onError);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no connection within ${resolved.connectTimeoutMs} ms${lastError ? ` (${lastError.message})` : ''}`)), resolved.connectTimeoutMs);
    });
    try {
      await Promise.race([Promise.all([queue.waitUntilReady(), dead.waitUntilReady()]), timeout]);
    } catch (error) {
      await result.close();
      throw queueError(error, 'connecting to the queue', resolved.url);
    } finally {
      clearTimeout(timer);
    }
    return result;
  }

  /** Adds jobs (each validated); a job whose id the queue already holds is not added again. */
  async enqueue(jobs: readonly DocumentJob[]): Promise<EnqueueResult> {
    const jobIds: string[] = [];
    let duplicates = 0;
    for (const raw of jobs) {
      const job = parseDocumentJob(raw);
      const jobId = documentJobId(job);
      const options: JobsOptions = { jobId, attempts: this.#options.attempts, backoff: { type: 'exponential', delay: this.#options.backoffMs }, removeOnComplete: { count: 10_000 }, removeOnFail: { count: 10_000 } };
      try {
        if (await this.#queue.getJob(jobId)) duplicates++;
        else await this.#queue.add(job.op, job, options);
      } catch (error) {
        throw queueError(error, `enqueuing ${job.doc_id}`, this.#options.url);
      }
      jobIds.push(jobId);
    }
    return { jobIds, duplicates };
  }

  /** Jobs by state, and the dead letters. */
  async counts(): Promise<QueueCounts> {
    try {
      const counts = await this.#queue.getJobCounts('waiting', 'active', 'delayed', 'completed', 'failed', 'prioritized', 'waiting-children');
      const dead = await this.#dead.getJobCounts('waiting');
      return { waiting: (counts['waiting'] ?? 0) + (counts['prioritized'] ?? 0), active: counts['active'] ?? 0, delayed: counts['delayed'] ?? 0, completed: counts['completed'] ?? 0, failed: counts['failed'] ?? 0, dead: dead['waiting'] ?? 0 };
    } catch (error) {
      throw queueError(error, 'counting jobs', this.#options.url);
    }
  }

  /** Resolves once no job is waiting, active or delayed (polling every `intervalMs`), or rejects after `timeoutMs`. */
  async drained(timeoutMs = 600_000, intervalMs = 200): Promise<QueueCounts> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const counts = await this.counts();
      if (counts.waiting + counts.active + counts.delayed === 0) return counts;
      if (Date.now() > deadline) throw new DocTreeError('CANCELLED', `queue ${this.name} not drained after ${timeoutMs} ms (${JSON.stringify(counts)})`);
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  }

  /** The dead letters: jobs that failed every attempt, with their last error, oldest first. */
  async deadLetters(): Promise<DeadLetter[]> {
    const jobs = await this.#dead.getJobs(['waiting'], 0, -1, true);
    return jobs.map((job) => job.data as DeadLetter);
  }

  /** Records a dead letter (called by workers when a job's last attempt failed). */
  async addDeadLetter(letter: DeadLetter): Promise<void> {
    await this.#dead.add('dead', letter, { jobId: `${letter.job_id}-dead-${letter.attempts}`, removeOnComplete: false, removeOnFail: false });
  }

  /** Closes the connections (idempotent). */
  async close(): Promise<void> {
    await Promise.allSettled([this.#queue.close(), this.#dead.close()]);
  }
}

/** A queue failure as a DocTreeError (`BACKEND_UNAVAILABLE`), password redacted. */
export function queueError(error: unknown, action: string, url: string): DocTreeError {
  if (DocTreeError.isInstance(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new DocTreeError('BACKEND_UNAVAILABLE', `job queue ${redactUrl(url)}: ${action} failed: ${redactUrl(message)}`, { hint: 'Check that the queue server is running and the URL is right (npm run services prints a local one).' });
}
