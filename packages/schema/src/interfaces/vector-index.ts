/** Similarity metric of a {@link VectorIndex}. Vectors are expected L2-normalised for `inner_product` = cosine. */
export type VectorMetric = 'inner_product' | 'l2';

/** One search result: the caller's id and a similarity score (higher is better for both metrics). */
export interface VectorHit {
  /** Id given at `add` time. */
  id: string;
  /** Inner product, or negative squared L2 distance, so that higher is always better. */
  score: number;
}

/** Search options of a {@link VectorIndex}. */
export interface VectorSearchOptions {
  /** Number of hits to return (fewer when the index is smaller). */
  k: number;
  /** Keep only ids passing this predicate (applied before the cut to k). */
  filter?: (id: string) => boolean;
}

/** Description of a vector index, persisted next to it as `<name>.meta.json`. */
export interface VectorIndexInfo {
  /** Backend that holds the vectors: `faiss` (faiss-node) or `exact` (pure TypeScript). */
  backend: 'faiss' | 'exact';
  /** Index structure: flat (exact) or HNSW (approximate). */
  kind: 'flat' | 'hnsw';
  metric: VectorMetric;
  dimension: number;
  size: number;
  /** Embedder that produced the vectors; loaders refuse a different one. */
  embedderId: string;
}

/**
 * Dense vector index over string ids. Two backends implement it: faiss-node and an exact pure-TS index;
 * both pass the same conformance suite (`runVectorIndexConformance` from `@doctree/index/testing`).
 */
export interface VectorIndex {
  readonly info: VectorIndexInfo;
  /** Adds vectors with their ids; ids must be unique; every vector must have `info.dimension` entries. */
  add(ids: readonly string[], vectors: readonly Float32Array[]): void;
  /** Returns the k best hits for the query vector, best first. */
  search(query: Float32Array, options: VectorSearchOptions): VectorHit[];
  /** Writes the index to `path` and its metadata to `<path>.meta.json`, atomically. */
  save(path: string): Promise<void>;
}
