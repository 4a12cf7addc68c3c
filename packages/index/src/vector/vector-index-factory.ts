import { DocTreeError } from '@doctree/schema';
import type { VectorIndex, VectorMetric } from '@doctree/schema';

import type { FaissHnswParameters } from './faiss-hnsw-parameters.js';
import { createVectorIndex, loadVectorIndex, type VectorBackendRequest } from './vector-backend.js';

/** What {@link VectorIndexFactory.create} is asked for: one empty index of one dense view. */
export interface VectorIndexCreateOptions {
  /** Dimension of every vector (the embedder's). */
  dimension: number;
  /** Similarity metric; the index builder asks for `inner_product` (vectors are L2-normalised). */
  metric: VectorMetric;
  /** Id of the embedder that produces the vectors (recorded by the index, checked at load). */
  embedderId: string;
  /**
   * `hnsw` when the view has at least `hnswMinVectors` vectors (approximate search is acceptable), else `flat`.
   * A factory without an approximate structure may ignore it. Default `flat`.
   */
  kind?: 'flat' | 'hnsw';
}

/** What {@link VectorIndexFactory.load} is told. */
export interface VectorIndexLoadOptions {
  /** Refuse an index built by another embedder (`EMBEDDER_MISMATCH`). */
  expectedEmbedderId: string;
  /** `fast` may skip checks of files a manifest vouches for (their sha256 was checked); default `full`. */
  validation?: 'fast' | 'full';
}

/**
 * How the index builder creates, and the loader restores, the dense vector indexes of a document (the `coarse`,
 * `leaf` and `leaf_raw` views): the swappable part behind {@link VectorIndex}. The default,
 * {@link builtinVectorIndexFactory}, uses faiss-node when it loads and the exact pure-TS index otherwise. A factory of
 * your own is passed as `vectorIndex` to `buildDocIndex` / `loadDocIndex` (and `prepareDocument` / `openAgent` of
 * `@doctree/pipeline`); it is also a `VectorIndexConformanceFactory`, so `runVectorIndexConformance(factory)` of
 * `@doctree/index/testing` checks it.
 */
export interface VectorIndexFactory {
  /**
   * Identifier of the implementation and its settings, recorded in the index manifest (`vector_index.id`) and in its
   * config hash: an index built by another factory is rebuilt by `prepareDocument` and refused by `loadDocIndex`.
   * Change it when the saved format or the search changes.
   */
  readonly id: string;
  /** An empty index; the builder adds the view's vectors, then calls `save(path)`. */
  create(options: VectorIndexCreateOptions): VectorIndex | Promise<VectorIndex>;
  /**
   * Restores an index saved by this factory's indexes at `path` (`save` wrote `path` and whatever sidecars it needs,
   * e.g. `<path>.meta.json`). Damaged or missing files must end in a `DocTreeError` (`INDEX_CORRUPT` /
   * `INDEX_MISSING`), never a raw error.
   */
  load(path: string, options: VectorIndexLoadOptions): Promise<VectorIndex>;
}

/** Options of {@link builtinVectorIndexFactory}. */
export interface BuiltinVectorIndexFactoryOptions {
  /** Backend: `auto` (faiss when it loads, else exact), `faiss` or `exact`. Default `auto`. */
  backend?: VectorBackendRequest;
  /** HNSW parameters for faiss views of kind `hnsw`. */
  hnsw?: Partial<FaissHnswParameters>;
}

/** Id of the built-in factory (the manifest records no `vector_index` for it: its `vector_backend` says which). */
export const BUILTIN_VECTOR_INDEX_FACTORY_ID = 'builtin';

/**
 * The built-in vector indexes as a {@link VectorIndexFactory}: `createVectorIndex` / `loadVectorIndex` (faiss-node or
 * the exact index). What `buildDocIndex` and `loadDocIndex` use when no `vectorIndex` is given.
 */
export function builtinVectorIndexFactory(options: BuiltinVectorIndexFactoryOptions = {}): VectorIndexFactory {
  const backend = options.backend ?? 'auto';
  return {
    id: BUILTIN_VECTOR_INDEX_FACTORY_ID,
    create: (create) =>
      createVectorIndex({
        backend,
        kind: create.kind ?? 'flat',
        metric: create.metric,
        dimension: create.dimension,
        embedderId: create.embedderId,
        ...(options.hnsw !== undefined ? { hnsw: options.hnsw } : {}),
      }),
    load: (path, load) => loadVectorIndex(path, { expectedEmbedderId: load.expectedEmbedderId, backend, validation: load.validation ?? 'full' }),
  };
}

/**
 * Checks that a value given as `vectorIndex` is a {@link VectorIndexFactory}.
 *
 * @throws DocTreeError `USAGE` naming what is missing.
 */
export function assertVectorIndexFactory(value: unknown, what = 'vectorIndex'): asserts value is VectorIndexFactory {
  const factory = value as Partial<VectorIndexFactory> | null;
  const problem =
    typeof factory !== 'object' || factory === null
      ? 'is not an object'
      : typeof factory.id !== 'string' || factory.id.trim() === ''
        ? 'needs a non-empty id'
        : typeof factory.create !== 'function' || typeof factory.load !== 'function'
          ? 'needs create(options) and load(path, options)'
          : undefined;
  if (problem !== undefined) {
    throw new DocTreeError('USAGE', `${what} ${problem}`, {
      hint: 'Pass a VectorIndexFactory: { id, create({ dimension, metric, embedderId, kind }), load(path, { expectedEmbedderId }) } whose indexes pass runVectorIndexConformance of @doctree/index/testing.',
    });
  }
}
