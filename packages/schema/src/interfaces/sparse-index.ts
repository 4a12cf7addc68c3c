import type { SparseDoc, SparseField } from '../index-records.js';

/** One sparse search result. */
export interface SparseHit {
  id: string;
  score: number;
  /** Query terms that matched, per field. */
  matched: Partial<Record<SparseField, string[]>>;
}

/** Search options of a {@link SparseIndex}. */
export interface SparseSearchOptions {
  k: number;
  /** Per-field boosts overriding the index defaults (BM25F weights). */
  boosts?: Partial<Record<SparseField, number>>;
  /** Keep only docs passing this predicate. */
  filter?: (doc: SparseDoc) => boolean;
}

/** BM25F-style sparse index over {@link SparseDoc}s (minisearch-backed in `@doctree/index`). */
export interface SparseIndex {
  readonly size: number;
  search(query: string, options: SparseSearchOptions): SparseHit[];
  /** Serialises the index with its format version. */
  toJSON(): unknown;
}
