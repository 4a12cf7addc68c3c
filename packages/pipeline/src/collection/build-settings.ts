import { createHash } from 'node:crypto';
import type { CollectionBuildSettings, IngestConfig } from '@doctree/schema';

/**
 * Which configuration changes rebuild a collection document (the policy `sync` and `status` follow):
 * - `ingest.limits` shape every document (a page cap, an image cap, a refused bomb): a change rebuilds all of them and
 *   tries failed files again;
 * - `ingest.ocr` shapes only documents with pages OCR reads (pages without a text layer): a change rebuilds those alone.
 * The embedder is compared at the collection level (`planChanges`' `embedderId` against the manifest's embedder): another
 * one rebuilds every document. Index settings (backend, HNSW threshold) are not compared: `sync --force` after changing them.
 */

/** First 16 hex digits of the sha256 of a value's JSON with keys sorted (a user's key order changes nothing). */
function fingerprint(value: unknown): string {
  const sorted = (v: unknown): unknown =>
    Array.isArray(v) ? v.map(sorted) : v !== null && typeof v === 'object' ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sorted((v as Record<string, unknown>)[k])])) : v;
  return createHash('sha256').update(JSON.stringify(sorted(value))).digest('hex').slice(0, 16);
}

/** The settings a document was built with: limits always, OCR when the document has pages OCR reads (`ocr: true`). */
export function collectionBuildSettings(ingest: IngestConfig, options: { ocr: boolean }): CollectionBuildSettings {
  return { limits: fingerprint(ingest.limits), ...(options.ocr ? { ocr: fingerprint(ingest.ocr) } : {}) };
}

/**
 * Whether a document (or failed file) built with `recorded` would be built differently with `ingest` now. Rows written
 * before settings were recorded (`undefined`) count as current: upgrading never rebuilds a whole collection.
 */
export function buildSettingsChanged(recorded: CollectionBuildSettings | undefined, ingest: IngestConfig): boolean {
  if (recorded === undefined) return false;
  const current = collectionBuildSettings(ingest, { ocr: recorded.ocr !== undefined });
  return current.limits !== recorded.limits || current.ocr !== recorded.ocr;
}
