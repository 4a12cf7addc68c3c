import { DOCTREE_ERROR_CODES, DocTreeError } from '@doctree/schema';
import type { DocumentJob } from './document-job.js';

/**
 * Where jobs write: any store that writes one document per transaction (`PostgresStore` of
 * `@doctree/store-postgres` fits as is). `Doc` is what the build handler produces and the store writes.
 */
export interface JobStore<Doc> {
  /** Source hash the store holds for a document, or undefined. */
  documentHash(collection: string, docId: string): Promise<string | undefined>;
  /** Writes a whole document in one transaction (replacing an older version). */
  writeDocument(doc: Doc): Promise<void>;
  /** Removes a document (one transaction); false when absent. */
  removeDocument(collection: string, docId: string): Promise<boolean>;
  /**
   * Optional: brings up to date what the store derived from a document it already holds with the job's hash, without
   * rebuilding it — for a collection store, metadata that an older extractor read (see `collectionJobStore`).
   * Called by {@link processDocumentJob} when the hashes match; true when it changed something (outcome `refreshed`),
   * false when there was nothing to do (outcome `unchanged`). Must be idempotent: a retried job calls it again.
   */
  refreshUnchanged?(collection: string, docId: string): Promise<boolean>;
}

/** The work of a document job: build the document the store will hold. */
export interface DocumentJobHandlers<Doc> {
  /** Reads and builds the document of `job` (ingest + index); must not write to the store itself. */
  build(job: DocumentJob, signal: AbortSignal): Promise<Doc>;
}

/**
 * What one job did: `written` (built and written), `unchanged` (the store holds this hash; nothing to do),
 * `refreshed` (the store holds this hash and {@link JobStore.refreshUnchanged} updated what it derives from it, e.g.
 * metadata of an older extractor — nothing rebuilt), `removed`, or `absent` (a removal of a document not held).
 */
export type DocumentJobOutcome = 'written' | 'unchanged' | 'refreshed' | 'removed' | 'absent';

/**
 * Runs one job — the same function in a BullMQ worker and in process: a document the store already holds with this
 * hash is not built again (so a retried or duplicated job is harmless) — the store may refresh what it derives from it
 * ({@link JobStore.refreshUnchanged}) —, else the document is built and written in one transaction. `upsert` and
 * `refresh` jobs run alike: a `refresh` job (enqueued for a document held unchanged whose metadata is stale) whose
 * document changed since it was enqueued builds it, like an `upsert`.
 */
export async function processDocumentJob<Doc>(job: DocumentJob, store: JobStore<Doc>, handlers: DocumentJobHandlers<Doc>, signal: AbortSignal = new AbortController().signal): Promise<DocumentJobOutcome> {
  if (job.op === 'remove') return (await store.removeDocument(job.collection, job.doc_id)) ? 'removed' : 'absent';
  if ((await store.documentHash(job.collection, job.doc_id)) === job.sha256) {
    return (await store.refreshUnchanged?.(job.collection, job.doc_id)) === true ? 'refreshed' : 'unchanged';
  }
  const doc = await handlers.build(job, signal);
  if (signal.aborted) throw new DocTreeError('CANCELLED', `job for ${job.doc_id} was cancelled`);
  await store.writeDocument(doc);
  return 'written';
}

/** Error categories that no retry can fix (bad input, usage, configuration): such jobs go to the dead letters at once. */
const PERMANENT_CATEGORIES = new Set(['input', 'usage', 'config']);

/** True when retrying `error` cannot help (a DocTreeError about the input, usage or configuration, or a newer format). */
export function isPermanentError(error: unknown): boolean {
  if (!DocTreeError.isInstance(error)) return false;
  const code: string = error.code;
  if (code === 'FORMAT_VERSION_UNSUPPORTED') return true;
  return Object.hasOwn(DOCTREE_ERROR_CODES, code) && PERMANENT_CATEGORIES.has(DOCTREE_ERROR_CODES[error.code].category);
}
