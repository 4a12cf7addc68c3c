import { access } from 'node:fs/promises';

import { DocTreeError } from '@doctree/schema';
import type { VectorHit, VectorIndex, VectorIndexInfo, VectorMetric, VectorSearchOptions } from '@doctree/schema';

import { writeAtomically, writeFileAtomic } from '../io/atomic-write.js';
import type { FaissHnswParameters } from './faiss-hnsw-parameters.js';
import { FAISS_HNSW_BUILTIN, patchHnswParameters, readHnswParametersFromFile } from './faiss-hnsw-parameters.js';
import type { FaissNodeIndex, FaissNodeModule } from './faiss-node-loader.js';
import type { VectorIndexMeta } from './vector-file-format.js';
import { encodeVectorFile, readVectorFile, toVectorIndexMeta, vectorSidecarPath, writeVectorIndexMeta } from './vector-file-format.js';
import { assertIndexOptions, definedOnly } from './vector-options.js';
import { exactTopK } from './exact-scan.js';
import { assertDimension, VectorStore } from './vector-store.js';

/** Options of the {@link FaissVectorIndex} constructor. */
export interface FaissVectorIndexOptions {
  /** The loaded faiss-node module (see `loadFaissNode`; `createVectorIndex` passes it for you). */
  faiss: FaissNodeModule;
  /** Dimension of every vector. */
  dimension: number;
  /** Embedder that produces the vectors (recorded in the metadata, checked at load). */
  embedderId: string;
  /** Similarity metric; default `inner_product`. */
  metric?: VectorMetric;
  /** `flat` (exact, `IndexFlatIP` / `IndexFlatL2`) or `hnsw` (approximate, `HNSW<m>,Flat`); default `flat`. */
  kind?: 'flat' | 'hnsw';
  /** HNSW parameters (kind `hnsw` only); defaults in {@link FAISS_HNSW_DEFAULTS}. */
  hnsw?: Partial<FaissHnswParameters>;
  /** Vectors allocated up front in the raw-vector copy; it doubles when full. Default 1024. */
  initialCapacity?: number;
}

/** Default HNSW parameters: M 32, efConstruction 200, efSearch 64. */
export const FAISS_HNSW_DEFAULTS: Readonly<FaissHnswParameters> = { m: 32, efConstruction: 200, efSearch: 64 };

/** Defaults of {@link FaissVectorIndexOptions}. */
export const FAISS_VECTOR_INDEX_DEFAULTS = {
  metric: 'inner_product',
  kind: 'flat',
  initialCapacity: 1024,
} as const satisfies Partial<FaissVectorIndexOptions>;

/** Number of vectors handed to faiss per `add` call (faiss-node copies a plain JS array). */
const ADD_CHUNK = 4096;

/**
 * Vector index backed by faiss-node: `IndexFlatIP` / `IndexFlatL2` for kind `flat`,
 * `Index.fromFactory(d, 'HNSW32,Flat', metric)` for kind `hnsw`. Ids map to faiss labels by position.
 *
 * HNSW parameters: faiss-node has no setter for efConstruction / efSearch, so the freshly created (empty)
 * index is serialised with `toBuffer`, the two fields are patched in faiss's stable on-disk layout
 * (checked field by field, see `patchHnswParameters`) and the index is re-read with `fromBuffer`. If the
 * layout is not recognised the faiss defaults apply (efConstruction 40, efSearch 16) and
 * {@link FaissVectorIndex.hnswParameters} says so. faiss stores both values in the files it writes.
 *
 * `filter` is applied by over-fetching: k * 4 candidates, growing 4x until k pass or the whole index was fetched
 * (flat); for HNSW, once the fetch would exceed a quarter of the index, the ids passing the filter are scored
 * exactly from the raw vectors instead (HNSW cannot enumerate the whole index reliably).
 * Scores: inner product, or the negative squared L2 distance, so higher is always better.
 *
 * Files: `<path>` (faiss `write_index`), `<path>.vectors` (raw vectors, `DTVX`, so the exact backend can load
 * the index when faiss-node is missing), `<path>.meta.json`.
 */
export class FaissVectorIndex implements VectorIndex {
  private hnsw: Readonly<FaissHnswParameters> | undefined;
  private readonly faiss: FaissNodeModule;
  private index: FaissNodeIndex;
  private store: VectorStore;
  private readonly metric: VectorMetric;
  private kind: 'flat' | 'hnsw';
  private readonly embedderId: string;

  /** Creates an empty index. */
  constructor(options: FaissVectorIndexOptions) {
    const resolved = { ...FAISS_VECTOR_INDEX_DEFAULTS, ...definedOnly(options) };
    assertIndexOptions(resolved);
    this.faiss = resolved.faiss;
    this.metric = resolved.metric;
    this.kind = resolved.kind;
    this.embedderId = resolved.embedderId;
    this.store = new VectorStore(resolved.dimension, resolved.initialCapacity);
    if (this.kind === 'flat') {
      this.index = this.metric === 'l2' ? new this.faiss.IndexFlatL2(resolved.dimension) : new this.faiss.IndexFlatIP(resolved.dimension);
      this.hnsw = undefined;
    } else {
      const hnsw = { ...FAISS_HNSW_DEFAULTS, ...definedOnly(resolved.hnsw ?? {}) };
      if (!Number.isInteger(hnsw.m) || hnsw.m < 2 || !Number.isInteger(hnsw.efConstruction) || hnsw.efConstruction < 1 || !Number.isInteger(hnsw.efSearch) || hnsw.efSearch < 1) {
        throw new DocTreeError('CONFIG_INVALID', `Invalid HNSW parameters ${JSON.stringify(hnsw)}: positive integers expected, m >= 2`);
      }
      const metricType = this.metric === 'l2' ? this.faiss.MetricType.METRIC_L2 : this.faiss.MetricType.METRIC_INNER_PRODUCT;
      const created = this.faiss.Index.fromFactory(resolved.dimension, `HNSW${hnsw.m},Flat`, metricType);
      const buffer = created.toBuffer();
      if (patchHnswParameters(buffer, hnsw)) {
        this.index = this.faiss.Index.fromBuffer(buffer);
        this.hnsw = hnsw;
      } else {
        this.index = created;
        this.hnsw = { m: hnsw.m, ...FAISS_HNSW_BUILTIN };
      }
    }
  }

  /**
   * Loads an index described by `meta` (see `readVectorIndexMeta`). A faiss-written index is read with faiss
   * `read_index`; an exact-written one is rebuilt as a faiss flat index from its raw vectors.
   * Prefer `loadVectorIndex`, which reads and checks the metadata and picks the backend.
   *
   * @throws DocTreeError `INDEX_MISSING`, `INDEX_CORRUPT`.
   */
  static async load(path: string, meta: VectorIndexMeta, faiss: FaissNodeModule): Promise<FaissVectorIndex> {
    const base = { faiss, dimension: meta.dimension, embedderId: meta.embedder_id, metric: meta.metric };
    if (meta.backend === 'exact') {
      const rows = await readVectorFile(path, meta);
      const index = new FaissVectorIndex({ ...base, kind: 'flat', initialCapacity: Math.max(1, meta.size) });
      index.addRows(meta.ids, rows);
      return index;
    }
    const rows = await readVectorFile(vectorSidecarPath(path), meta);
    try {
      await access(path);
    } catch (error) {
      throw new DocTreeError('INDEX_MISSING', `Vector index file not found: ${path}`, { file: path, cause: error });
    }
    let native: FaissNodeIndex;
    try {
      native = faiss.Index.read(path);
    } catch (error) {
      throw new DocTreeError('INDEX_CORRUPT', `faiss cannot read the index: ${(error as Error).message}`, { file: path, cause: error });
    }
    if (native.ntotal() !== meta.size || native.getDimension() !== meta.dimension) {
      throw new DocTreeError(
        'INDEX_CORRUPT',
        `faiss index holds ${native.ntotal()} vectors of dimension ${native.getDimension()}, metadata says ${meta.size} of dimension ${meta.dimension}`,
        { file: path },
      );
    }
    // Construct a flat shell (cheap), then install the index read from disk.
    const index = new FaissVectorIndex({ ...base, kind: 'flat', initialCapacity: 1 });
    const store = new VectorStore(meta.dimension, Math.max(1, meta.size));
    store.appendRows(meta.ids, rows);
    index.install(native, store, meta.kind, meta.kind === 'hnsw' ? readHnswParametersFromFile(path) : undefined);
    return index;
  }

  /** Backend `faiss`, kind `flat` or `hnsw`. */
  get info(): VectorIndexInfo {
    return {
      backend: 'faiss',
      kind: this.kind,
      metric: this.metric,
      dimension: this.store.dimension,
      size: this.store.size,
      embedderId: this.embedderId,
    };
  }

  /** HNSW parameters in effect (kind `hnsw`), or undefined for flat indexes and when unknown. */
  get hnswParameters(): Readonly<FaissHnswParameters> | undefined {
    return this.hnsw;
  }

  /** Ids by position (= faiss labels). */
  get ids(): readonly string[] {
    return this.store.ids;
  }

  /** {@inheritDoc @doctree/schema#VectorIndex.add} */
  add(ids: readonly string[], vectors: readonly Float32Array[]): void {
    this.store.validate(ids, vectors);
    const d = this.store.dimension;
    for (let start = 0; start < vectors.length; start += ADD_CHUNK) {
      const chunk = vectors.slice(start, start + ADD_CHUNK);
      const flat = new Array<number>(chunk.length * d);
      for (let v = 0; v < chunk.length; v++) {
        const vector = chunk[v]!;
        for (let i = 0; i < d; i++) flat[v * d + i] = vector[i]!;
      }
      this.index.add(flat);
      this.store.append(ids.slice(start, start + ADD_CHUNK), chunk);
    }
  }

  /** {@inheritDoc @doctree/schema#VectorIndex.search} */
  search(query: Float32Array, options: VectorSearchOptions): VectorHit[] {
    assertDimension(query, this.store.dimension, 'query vector');
    const n = this.index.ntotal();
    const limit = Math.min(Math.floor(options.k), n);
    if (!(limit >= 1)) return [];
    const q = Array.from(query);
    const filter = options.filter;
    if (filter === undefined) return this.fetch(q, limit);
    let fetch = Math.min(n, limit * 4);
    for (;;) {
      // HNSW cannot enumerate the whole index reliably (nor cheaply): once over-fetching would approach the
      // full size, score the filtered vectors exactly from the raw copy instead.
      if (this.kind === 'hnsw' && fetch * 4 > n) return exactTopK(this.store, this.metric, query, limit, filter);
      const hits = this.fetch(q, fetch).filter((hit) => filter(hit.id));
      if (hits.length >= limit || fetch >= n) return hits.slice(0, limit);
      fetch = Math.min(n, fetch * 4);
    }
  }

  /** {@inheritDoc @doctree/schema#VectorIndex.save} */
  async save(path: string): Promise<void> {
    const index = this.index;
    await writeAtomically(path, (tmp) => index.write(tmp));
    await writeFileAtomic(vectorSidecarPath(path), encodeVectorFile(this.store.dimension, this.store.vectors));
    await writeVectorIndexMeta(path, toVectorIndexMeta(this.info, this.store.ids));
  }

  private fetch(query: number[], k: number): VectorHit[] {
    const { distances, labels } = this.index.search(query, k);
    const hits: VectorHit[] = [];
    const l2 = this.metric === 'l2';
    for (let i = 0; i < labels.length; i++) {
      const label = labels[i]!;
      if (label < 0) continue;
      const distance = distances[i]!;
      hits.push({ id: this.store.idAt(label), score: l2 ? -distance : distance });
    }
    return hits;
  }

  private addRows(ids: readonly string[], rows: Float32Array): void {
    const d = this.store.dimension;
    for (let start = 0; start < ids.length; start += ADD_CHUNK) {
      const end = Math.min(ids.length, start + ADD_CHUNK);
      this.index.add(Array.from(rows.subarray(start * d, end * d)));
    }
    this.store.appendRows(ids, rows);
  }

  private install(native: FaissNodeIndex, store: VectorStore, kind: 'flat' | 'hnsw', hnsw: FaissHnswParameters | undefined): void {
    this.index = native;
    this.store = store;
    this.kind = kind;
    this.hnsw = hnsw;
  }
}
