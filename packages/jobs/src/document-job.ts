import { createHash } from 'node:crypto';
import { DocTreeError } from '@doctree/schema';

/** One unit of work of the queue: build (or rebuild) one document of a collection, or remove it. */
export interface DocumentJob {
  op: 'upsert' | 'remove';
  collection: string;
  /** Letters, digits, `.`, `_`, `-` (at most 200). */
  doc_id: string;
  /** Source file (absolute, or relative to the worker's input folder); empty for `remove`. */
  path: string;
  /** sha256 of the source: with the doc id, what makes the job id (a rebuild of unchanged content is one job). */
  sha256: string;
}

const DOC_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;
const SHA256 = /^[0-9a-f]{64}$/;
const JOB_KEYS = ['op', 'collection', 'doc_id', 'path', 'sha256'] as const;

/**
 * The job id of a document job: `doc-` + sha256 of (operation, collection, doc id, content hash). Enqueuing the same
 * content twice is one job (BullMQ ignores an id it already holds); changed content is a new job.
 */
export function documentJobId(job: DocumentJob): string {
  return `doc-${createHash('sha256').update(`${job.op}\u0000${job.collection}\u0000${job.doc_id}\u0000${job.sha256}`).digest('hex')}`;
}

/** Validates job data read back from the queue (a trust boundary: another process wrote it). @throws DocTreeError `SCHEMA_INVALID`. */
export function parseDocumentJob(data: unknown): DocumentJob {
  const fail = (field: string, message: string): never => {
    throw new DocTreeError('SCHEMA_INVALID', `job data: ${field}: ${message}`);
  };
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return fail('(job)', 'expected an object');
  const record = data as Record<string, unknown>;
  for (const key of Object.keys(record)) if (!(JOB_KEYS as readonly string[]).includes(key)) fail(key, 'unknown field');
  const text = (key: (typeof JOB_KEYS)[number], max: number): string => {
    const value = Object.hasOwn(record, key) ? record[key] : undefined;
    if (typeof value !== 'string' || value.length > max) return fail(key, `expected a string of at most ${max} characters`);
    return value;
  };
  const op = text('op', 10);
  if (op !== 'upsert' && op !== 'remove') fail('op', 'expected "upsert" or "remove"');
  const collection = text('collection', 200);
  if (collection.length === 0) fail('collection', 'empty');
  const docId = text('doc_id', 200);
  if (!DOC_ID.test(docId)) fail('doc_id', 'letters, digits, ".", "_" and "-" only');
  const path = text('path', 4096);
  const sha256 = text('sha256', 64);
  if (!SHA256.test(sha256)) fail('sha256', 'expected 64 lower-case hex digits');
  return { op: op as DocumentJob['op'], collection, doc_id: docId, path, sha256 };
}

/** A job that failed every attempt, kept with its last error. */
export interface DeadLetter {
  job_id: string;
  job: DocumentJob;
  attempts: number;
  error: { code: string; message: string };
  failed_at: string;
}
