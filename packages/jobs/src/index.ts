/** DocTree jobs on BullMQ: idempotent document jobs, retries with backoff, dead letters, workers; the same handler in process. */
export { documentJobId, parseDocumentJob } from './document-job.js';
export type { DeadLetter, DocumentJob, DocumentJobOp } from './document-job.js';
export { isPermanentError, processDocumentJob } from './job-handlers.js';
export type { DocumentJobHandlers, DocumentJobOutcome, JobStore } from './job-handlers.js';
export { BULLMQ_PG_SCHEMA, queueConnection, redisDriverInstalled } from './queue-connection.js';
export type { QueueConnection } from './queue-connection.js';
export { DOCUMENT_QUEUE_DEFAULTS, DocumentQueue, queueError } from './document-queue.js';
export type { DocumentQueueOptions, EnqueueResult, QueueCounts } from './document-queue.js';
export { describeError, RUN_WORKER_DEFAULTS, runWorker } from './run-worker.js';
export type { RunWorkerOptions, WorkerHandle, WorkerJobEvent } from './run-worker.js';
export { RUN_IN_PROCESS_DEFAULTS, runInProcess } from './in-process.js';
export type { InProcessResult, RunInProcessOptions } from './in-process.js';
export { redactUrl } from './redact.js';
export { collectionJobHandlers, collectionJobStore, sourceKindOf } from './collection-jobs.js';
export type { BuiltCollectionDocument, CollectionJobHandlersOptions, CollectionJobStoreOptions } from './collection-jobs.js';
/** Version of the job data format (`DocumentJob`). */
export const JOBS_FORMAT_VERSION = 1 as const;
