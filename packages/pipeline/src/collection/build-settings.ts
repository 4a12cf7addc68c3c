import { createHash } from 'node:crypto';
import type { CollectionBuildSettings, IngestConfig } from '@doctree/schema';

/**
 * Which configuration changes rebuild a collection document (the policy `sync` and `status` follow):
 * - `ingest.limits` shape every document (a page cap, an image cap, a refused bomb): a change rebuilds all of them and
 *   tries failed files again;
 * - `ingest.ocr` shapes only documents with pages OCR reads (pages without a text layer): a change rebuilds those alone;
 * - the index configuration (embedder, sparse analyser, summarizer, HNSW threshold, index format — the document index's
 *   `config_hash`) shapes every document: a change, a DocTree upgrade included, rebuilds all of them.
 * The embedder is also compared at the collection level (`planChanges`' `embedderId` against the manifest's embedder),
 * which covers rows written before the index fingerprint was recorded. The vector backend is not compared: indexes load
 * with either.
 */

/** First 16 hex digits of the sha256 of a value's JSON with keys sorted (a user's key order changes nothing). */
function fingerprint(value: unknown): string {
  const sorted = (v: unknown): unknown =>
    Array.isArray(v) ? v.map(sorted) : v !== null && typeof v === 'object' ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sorted((v as Record<string, unknown>)[k])])) : v;
  return createHash('sha256').update(JSON.stringify(sorted(value))).digest('hex').slice(0, 16);
}

/** What, besides the ingest settings, a document's build depends on. */
export interface BuildSettingsContext {
  /** The document has pages OCR reads (pages without a text layer): the OCR settings count for it. */
  ocr: boolean;
  /** `config_hash` of the document index the build made or would make (`indexConfigHash` of `@doctree/index`). */
  indexConfig?: string;
}

/** The settings a document was built with: limits always, OCR when the document has pages OCR reads, the index configuration when known. */
export function collectionBuildSettings(ingest: IngestConfig, context: BuildSettingsContext): CollectionBuildSettings {
  return {
    limits: fingerprint(ingest.limits),
    ...(context.ocr ? { ocr: fingerprint(ingest.ocr) } : {}),
    ...(context.indexConfig !== undefined ? { index: context.indexConfig.slice(0, 16) } : {}),
  };
}

/**
 * Whether a document (or failed file) built with `recorded` would be built differently with `ingest` (and an index of
 * `indexConfig`) now. Rows written before settings were recorded (`undefined`), or before a fingerprint was, count as
 * current for it: upgrading never rebuilds a whole collection for want of a record.
 */
export function buildSettingsChanged(recorded: CollectionBuildSettings | undefined, ingest: IngestConfig, indexConfig?: string): boolean {
  if (recorded === undefined) return false;
  const current = collectionBuildSettings(ingest, { ocr: recorded.ocr !== undefined, ...(indexConfig !== undefined ? { indexConfig } : {}) });
  if (current.limits !== recorded.limits || current.ocr !== recorded.ocr) return true;
  return recorded.index !== undefined && current.index !== undefined && current.index !== recorded.index;
}
