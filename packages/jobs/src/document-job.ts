import { createHash } from 'node:crypto';
import { DocTreeError } from '@doctree/schema';

/**
 * One unit of work of the queue: build (or rebuild) one document of a collection (`upsert`), bring up to date what the
 * store derived from a document it holds unchanged — metadata an older extractor read — (`refresh`; built like an
 * `upsert` when the store's content differs from the job's by then), or remove it (`remove`).
 */
export interface DocumentJob {
  op: DocumentJobOp;
  collection: string;
  /** Letters, digits, `.`, `_`, `-` (at most 200). */
  doc_id: string;
  /** Source file (absolute, or relative to the worker's input folder); empty for `remove`. */
  path: string;
  /** sha256 of the source: with the doc id, what makes the job id (a rebuild of unchanged content is one job). */
  sha256: string;
  /**
   * `refresh` only, and required there: the metadata extractor version (`METADATA_EXTRACTOR_VERSION` of
   * `@doctree/pipeline`) the producer refreshes to. Part of the job id, so a later extractor refreshes again.
   */
  extractor?: number;
}

/** The operations of a {@link DocumentJob}. */
export type DocumentJobOp = 'upsert' | 'refresh' | 'remove';

const OPS: readonly DocumentJobOp[] = ['upsert', 'refresh', 'remove'];

const DOC_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;
const SHA256 = /^[0-9a-f]{64}$/;
const JOB_KEYS = ['op', 'collection', 'doc_id', 'path', 'sha256', 'extractor'] as const;
/** Largest extractor version a job may carry (a small positive integer; bounds untrusted data). */
const MAX_EXTRACTOR = 1_000_000;

/**
 * The job id of a document job: `doc-` + sha256 of (operation, collection, doc id, content hash and, for `refresh`, the
 * extractor version). Enqueuing the same content twice is one job (BullMQ ignores an id it already holds); changed
 * content is a new job, and so is a refresh of unchanged content (its id is not the build job's, which the queue
 * keeps once completed) and a refresh to a later extractor version.
 */
export function documentJobId(job: DocumentJob): string {
  const key = `${job.op}\u0000${job.collection}\u0000${job.doc_id}\u0000${job.sha256}${job.op === 'refresh' ? `\u0000${job.extractor ?? ''}` : ''}`;
  return `doc-${createHash('sha256').update(key).digest('hex')}`;
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
  if (!(OPS as readonly string[]).includes(op)) fail('op', `expected ${OPS.map((o) => JSON.stringify(o)).join(', ')}`);
  const collection = text('collection', 200);
  if (collection.length === 0) fail('collection', 'empty');
  const docId = text('doc_id', 200);
  if (!DOC_ID.test(docId)) fail('doc_id', 'letters, digits, ".", "_" and "-" only');
  const path = text('path', 4096);
  const sha256 = text('sha256', 64);
  if (!SHA256.test(sha256)) fail('sha256', 'expected 64 lower-case hex digits');
  const extractor = Object.hasOwn(record, 'extractor') ? record['extractor'] : undefined;
  if (op !== 'refresh') {
    if (extractor !== undefined) fail('extractor', `only a "refresh" job carries one`);
    return { op: op as DocumentJobOp, collection, doc_id: docId, path, sha256 };
  }
  if (typeof extractor !== 'number' || !Number.isInteger(extractor) || extractor < 1 || extractor > MAX_EXTRACTOR) return fail('extractor', `a "refresh" job needs an integer from 1 to ${MAX_EXTRACTOR}`);
  return { op: 'refresh', collection, doc_id: docId, path, sha256, extractor };
}

/** A job that failed every attempt, kept with its last error. */
export interface DeadLetter {
  job_id: string;
  job: DocumentJob;
  attempts: number;
  error: { code: string; message: string };
  failed_at: string;
}
