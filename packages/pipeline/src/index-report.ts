import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { INDEX_FILES, VECTOR_VIEWS, vectorFileName, type VectorView } from '@doctree/index';
import type { PreparedDocument } from './prepare-document.js';

/** What `doctree index` prints about an index: counts, sizes and timings. */
export interface IndexReport {
  docId: string;
  docDir: string;
  indexDir: string;
  pages: number;
  /** False when nothing was rebuilt (manifest hash match). */
  rebuilt: boolean;
  ingested: boolean;
  repaired: boolean;
  embedder: { id: string; dimension: number };
  vectorBackend: 'faiss' | 'exact';
  /** Records per artifact file (from the manifest). */
  records: Record<string, number>;
  /** Vectors per dense view. */
  vectors: Record<VectorView, number>;
  /** Bytes on disk: every file of `index/` (vector sidecars included), total and per page. */
  bytes: { total: number; perPage: number; files: Record<string, number> };
  /** `extractive` or `llm`, with the request counters of LLM summaries built now. */
  summaries: { method: 'extractive' | 'llm'; requests?: number; cacheHits?: number; fallbacks?: number };
  /** This call (ingest, index, load, total) and the build steps recorded in the manifest (when it was built). */
  timingsMs: { ingest: number; index: number; load: number; total: number; build: Record<string, number>; loadSteps: Record<string, number> };
  /** When the index was built. */
  builtAt: string;
}

/** Summarises a prepared document's index for people and `--json`: record counts, vector counts, bytes, timings. */
export async function describeIndex(prepared: PreparedDocument): Promise<IndexReport> {
  const { manifest, index } = prepared;
  const files: Record<string, number> = {};
  for (const entry of await readdir(prepared.indexDir, { withFileTypes: true })) {
    if (entry.isFile()) files[entry.name] = (await stat(join(prepared.indexDir, entry.name))).size;
  }
  const total = Object.values(files).reduce((sum, n) => sum + n, 0);
  const pages = Math.max(1, index.tree.doc.page_count);
  const records: Record<string, number> = {};
  for (const artifact of manifest.artifacts) if (artifact.records !== undefined && Object.values<string>(INDEX_FILES).includes(artifact.name)) records[artifact.name] = artifact.records;
  const vectors = Object.fromEntries(
    VECTOR_VIEWS.map((view) => [view, manifest.artifacts.find((a) => a.name === vectorFileName(view, manifest.vector_backend))?.records ?? index.vectors[view].info.size]),
  ) as Record<VectorView, number>;
  const stats = prepared.summaryStats;
  return {
    docId: prepared.docId,
    docDir: prepared.docDir,
    indexDir: prepared.indexDir,
    pages: index.tree.doc.page_count,
    rebuilt: prepared.indexed,
    ingested: prepared.ingested,
    repaired: prepared.repaired,
    embedder: manifest.embedder,
    vectorBackend: manifest.vector_backend,
    records,
    vectors,
    bytes: { total, perPage: Math.round(total / pages), files },
    summaries: { method: index.summary.method, ...(stats ? { requests: stats.requests, cacheHits: stats.cacheHits, fallbacks: stats.fallbacks } : {}) },
    timingsMs: { ...prepared.timings, build: manifest.timings_ms, loadSteps: index.loadTimings },
    builtAt: manifest.created_at,
  };
}
