import { rm } from 'node:fs/promises';

import type { VectorHit, VectorIndex, VectorIndexInfo, VectorMetric, VectorSearchOptions } from '@doctree/schema';

import { writeFileAtomic } from '../io/atomic-write.js';
import { exactTopK } from './exact-scan.js';
import { assertDimension, VectorStore } from './vector-store.js';
import type { VectorIndexMeta } from './vector-file-format.js';
import { encodeVectorFile, readVectorFile, toVectorIndexMeta, vectorSidecarPath, writeVectorIndexMeta } from './vector-file-format.js';
import { assertIndexOptions, definedOnly } from './vector-options.js';

/** Options of the {@link ExactVectorIndex} constructor. */
export interface ExactVectorIndexOptions {
  /** Dimension of every vector. */
  dimension: number;
  /** Embedder that produces the vectors (recorded in the metadata, checked at load). */
  embedderId: string;
  /** Similarity metric; default `inner_product` (cosine for L2-normalised vectors). */
  metric?: VectorMetric;
  /** Vectors allocated up front; the storage doubles when full. Default 1024. */
  initialCapacity?: number;
}

/** Defaults of {@link ExactVectorIndexOptions}. */
export const EXACT_VECTOR_INDEX_DEFAULTS = {
  metric: 'inner_product',
  initialCapacity: 1024,
} as const satisfies Partial<ExactVectorIndexOptions>;

/**
 * Exact (brute-force) vector index in pure TypeScript: vectors in one contiguous `Float32Array`, every search
 * scans them all and keeps the k best in a small heap. Always available, exact, and fast enough for the
 * tens of thousands of passages of a long document (about 5-15 ms per query for 20k x 384).
 *
 * Files: `<path>` is a `DTVX` raw vector file (see `encodeVectorFile`), `<path>.meta.json` the metadata.
 */
export class ExactVectorIndex implements VectorIndex {
  private readonly store: VectorStore;
  private readonly metric: VectorMetric;
  private readonly embedderId: string;

  /** Creates an empty index. */
  constructor(options: ExactVectorIndexOptions) {
    const resolved = { ...EXACT_VECTOR_INDEX_DEFAULTS, ...definedOnly(options) };
    assertIndexOptions(resolved);
    this.metric = resolved.metric;
    this.embedderId = resolved.embedderId;
    this.store = new VectorStore(resolved.dimension, resolved.initialCapacity);
  }

  /**
   * Creates an index holding `ids.length` vectors given row-major in one array (as read from a file).
   *
   * @param options - Constructor options; `initialCapacity` is raised to fit the vectors.
   * @param ids - Unique ids by position.
   * @param rows - `ids.length * dimension` values.
   */
  static fromRows(options: ExactVectorIndexOptions, ids: readonly string[], rows: Float32Array): ExactVectorIndex {
    const index = new ExactVectorIndex({ ...options, initialCapacity: Math.max(ids.length, options.initialCapacity ?? 1) });
    if (rows.length !== ids.length * index.store.dimension) {
      throw new RangeError(`fromRows: ${rows.length} values for ${ids.length} vectors of dimension ${index.store.dimension}`);
    }
    if (new Set(ids).size !== ids.length) throw new RangeError('fromRows: ids must be unique');
    index.store.appendRows(ids, rows);
    return index;
  }

  /**
   * Loads an index described by `meta` (see `readVectorIndexMeta`): from `<path>` when it was written by this
   * backend, from the `<path>.vectors` sidecar when it was written by the faiss backend.
   * Prefer `loadVectorIndex`, which reads and checks the metadata.
   */
  static async load(path: string, meta: VectorIndexMeta): Promise<ExactVectorIndex> {
    const file = meta.backend === 'exact' ? path : vectorSidecarPath(path);
    const rows = await readVectorFile(file, meta);
    return ExactVectorIndex.fromRows({ dimension: meta.dimension, embedderId: meta.embedder_id, metric: meta.metric }, meta.ids, rows);
  }

  /** Backend `exact`, kind `flat`. */
  get info(): VectorIndexInfo {
    return {
      backend: 'exact',
      kind: 'flat',
      metric: this.metric,
      dimension: this.store.dimension,
      size: this.store.size,
      embedderId: this.embedderId,
    };
  }

  /** Ids by position. */
  get ids(): readonly string[] {
    return this.store.ids;
  }

  /** {@inheritDoc @doctree/schema#VectorIndex.add} */
  add(ids: readonly string[], vectors: readonly Float32Array[]): void {
    this.store.validate(ids, vectors);
    this.store.append(ids, vectors);
  }

  /** {@inheritDoc @doctree/schema#VectorIndex.search} */
  search(query: Float32Array, options: VectorSearchOptions): VectorHit[] {
    const d = this.store.dimension;
    assertDimension(query, d, 'query vector');
    const n = this.store.size;
    const limit = Math.min(Math.floor(options.k), n);
    if (!(limit >= 1)) return [];
    return exactTopK(this.store, this.metric, query, limit, options.filter);
  }

  /** {@inheritDoc @doctree/schema#VectorIndex.save} */
  async save(path: string): Promise<void> {
    await writeFileAtomic(path, encodeVectorFile(this.store.dimension, this.store.vectors));
    await writeVectorIndexMeta(path, toVectorIndexMeta(this.info, this.store.ids));
    // A faiss index previously saved at this path left a sidecar that no longer matches.
    await rm(vectorSidecarPath(path), { force: true });
  }
}
