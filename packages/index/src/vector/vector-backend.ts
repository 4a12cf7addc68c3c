import { DocTreeError } from '@doctree/schema';
import type { VectorIndex, VectorMetric } from '@doctree/schema';

import { ExactVectorIndex } from './exact-vector-index.js';
import type { FaissHnswParameters } from './faiss-hnsw-parameters.js';
import { loadFaissNode } from './faiss-node-loader.js';
import { FaissVectorIndex } from './faiss-vector-index.js';
import { readVectorIndexMeta } from './vector-file-format.js';
import { definedOnly } from './vector-options.js';

/** A vector backend: faiss-node, or the pure-TS exact index. */
export type VectorBackendName = 'faiss' | 'exact';

/** Backend asked for: `auto` uses faiss when it loads, else exact. */
export type VectorBackendRequest = 'auto' | VectorBackendName;

/** Result of {@link detectVectorBackend}. */
export interface VectorBackendStatus {
  /**
   * Backend new indexes get. When `faiss` is requested but cannot load this says `exact` (what `auto` would
   * use) while `createVectorIndex` throws `BACKEND_UNAVAILABLE`.
   */
  active: VectorBackendName;
  /** Backend asked for. */
  requested: VectorBackendRequest;
  /** Whether faiss-node loads, its version, or why not. */
  faiss: { available: boolean; version?: string; error?: string };
  /** One sentence for people (`doctree doctor`, logs). */
  reason: string;
}

/** Options of {@link detectVectorBackend}. */
export interface DetectVectorBackendOptions {
  /** Backend asked for; default `auto`. */
  backend?: VectorBackendRequest;
}

/** Defaults of {@link DetectVectorBackendOptions}. */
export const DETECT_VECTOR_BACKEND_DEFAULTS = { backend: 'auto' } as const satisfies DetectVectorBackendOptions;

const SETUP_HINT = 'Run `npm run setup` to build faiss-node (needs libfaiss-dev on Debian/Ubuntu), or use backend "exact".';

/**
 * Finds out which vector backend is usable. Loads faiss-node lazily (once per process) and never throws.
 * `DOCTREE_SKIP_FAISS=1` makes faiss count as unavailable.
 */
export async function detectVectorBackend(options: DetectVectorBackendOptions = {}): Promise<VectorBackendStatus> {
  const { backend: requested } = { ...DETECT_VECTOR_BACKEND_DEFAULTS, ...definedOnly(options) };
  if (requested !== 'auto' && requested !== 'faiss' && requested !== 'exact') {
    throw new DocTreeError('CONFIG_INVALID', `Unknown vector backend ${JSON.stringify(requested)} (expected auto, faiss or exact)`);
  }
  const loaded = await loadFaissNode();
  const faiss: VectorBackendStatus['faiss'] = { available: loaded.available };
  if (loaded.version !== undefined) faiss.version = loaded.version;
  if (loaded.error !== undefined) faiss.error = loaded.error;
  const name = `faiss-node${loaded.version === undefined ? '' : ` ${loaded.version}`}`;
  if (requested === 'exact') {
    return { active: 'exact', requested, faiss, reason: 'exact backend requested: pure-TS exact index' };
  }
  if (loaded.available) {
    return { active: 'faiss', requested, faiss, reason: `${requested === 'faiss' ? 'faiss backend requested' : 'auto'}: ${name} loaded` };
  }
  const why = `faiss-node is not loadable (${loaded.error ?? 'unknown error'})`;
  return requested === 'faiss'
    ? { active: 'exact', requested, faiss, reason: `faiss backend requested but ${why}. ${SETUP_HINT}` }
    : { active: 'exact', requested, faiss, reason: `auto: ${why}; using the pure-TS exact index. ${SETUP_HINT}` };
}

/** Options of {@link createVectorIndex}. */
export interface CreateVectorIndexOptions {
  /** Backend; default `auto` (faiss when it loads, else exact). */
  backend?: VectorBackendRequest;
  /**
   * `flat` (exact search) or `hnsw` (approximate, faiss only); default `flat`. With the exact backend
   * (chosen or fallen back to) the index is always flat, which is exact and therefore at least as accurate.
   */
  kind?: 'flat' | 'hnsw';
  /** Similarity metric; default `inner_product`. */
  metric?: VectorMetric;
  /** Dimension of every vector. */
  dimension: number;
  /** Embedder that produces the vectors. */
  embedderId: string;
  /** HNSW parameters for faiss kind `hnsw` (default M 32, efConstruction 200, efSearch 64). */
  hnsw?: Partial<FaissHnswParameters>;
}

/** Defaults of {@link CreateVectorIndexOptions}. */
export const CREATE_VECTOR_INDEX_DEFAULTS = {
  backend: 'auto',
  kind: 'flat',
  metric: 'inner_product',
} as const satisfies Partial<CreateVectorIndexOptions>;

/**
 * Creates an empty vector index on the requested backend.
 *
 * @throws DocTreeError `BACKEND_UNAVAILABLE` when `faiss` is requested and faiss-node does not load;
 * `CONFIG_INVALID` for a bad dimension, metric, kind or backend.
 */
export async function createVectorIndex(options: CreateVectorIndexOptions): Promise<VectorIndex> {
  const resolved = { ...CREATE_VECTOR_INDEX_DEFAULTS, ...definedOnly(options) };
  const status = await detectVectorBackend({ backend: resolved.backend });
  const base = { dimension: resolved.dimension, embedderId: resolved.embedderId, metric: resolved.metric };
  if (resolved.backend === 'faiss' && !status.faiss.available) throw backendUnavailable(status);
  if (status.active === 'faiss') {
    const { module } = await loadFaissNode();
    if (module === undefined) throw backendUnavailable(status);
    const faissOptions = { ...base, faiss: module, kind: resolved.kind };
    return new FaissVectorIndex(resolved.hnsw === undefined ? faissOptions : { ...faissOptions, hnsw: resolved.hnsw });
  }
  if (resolved.kind !== 'flat' && resolved.kind !== 'hnsw') {
    throw new DocTreeError('CONFIG_INVALID', `Unknown vector index kind ${JSON.stringify(resolved.kind)} (expected flat or hnsw)`);
  }
  return new ExactVectorIndex(base);
}

/** Options of {@link loadVectorIndex}. */
export interface LoadVectorIndexOptions {
  /** Refuse an index built by another embedder (`EMBEDDER_MISMATCH`). */
  expectedEmbedderId?: string;
  /**
   * Backend to load into; default `auto`: the backend that wrote the index when it is available, else exact
   * (a faiss-written index is then read from its raw-vector sidecar `<path>.vectors`).
   * `faiss` on an exact-written index rebuilds it as a faiss flat index.
   */
  backend?: VectorBackendRequest;
  /** Validation of `<path>.meta.json` (see `readVectorIndexMeta`); the binary files are always checked. Default `full`. */
  validation?: 'fast' | 'full';
}

/** Defaults of {@link LoadVectorIndexOptions}. */
export const LOAD_VECTOR_INDEX_DEFAULTS = { backend: 'auto' } as const satisfies LoadVectorIndexOptions;

/**
 * Loads a vector index saved by either backend: reads and validates `<path>.meta.json`, then the index files.
 *
 * @throws DocTreeError `INDEX_MISSING` (a file is missing), `FORMAT_VERSION_UNSUPPORTED` (other format or version),
 * `INDEX_CORRUPT` (invalid metadata, truncated or inconsistent files), `EMBEDDER_MISMATCH`,
 * `BACKEND_UNAVAILABLE` (`faiss` requested and faiss-node does not load).
 */
export async function loadVectorIndex(path: string, options: LoadVectorIndexOptions = {}): Promise<VectorIndex> {
  const resolved = { ...LOAD_VECTOR_INDEX_DEFAULTS, ...definedOnly(options) };
  const meta = await readVectorIndexMeta(path, { validation: resolved.validation ?? 'full' });
  if (resolved.expectedEmbedderId !== undefined && meta.embedder_id !== resolved.expectedEmbedderId) {
    throw new DocTreeError(
      'EMBEDDER_MISMATCH',
      `The vector index was built with embedder ${JSON.stringify(meta.embedder_id)}, not ${JSON.stringify(resolved.expectedEmbedderId)}`,
      { file: path, details: { index: meta.embedder_id, expected: resolved.expectedEmbedderId } },
    );
  }
  const status = await detectVectorBackend({ backend: resolved.backend });
  if (resolved.backend === 'faiss' && !status.faiss.available) throw backendUnavailable(status, path);
  const useFaiss = resolved.backend === 'faiss' || (resolved.backend === 'auto' && meta.backend === 'faiss' && status.faiss.available);
  if (useFaiss) {
    const { module } = await loadFaissNode();
    if (module === undefined) throw backendUnavailable(status, path);
    return FaissVectorIndex.load(path, meta, module);
  }
  return ExactVectorIndex.load(path, meta);
}

function backendUnavailable(status: VectorBackendStatus, file?: string): DocTreeError {
  return new DocTreeError('BACKEND_UNAVAILABLE', `The faiss vector backend is not available: ${status.faiss.error ?? 'faiss-node did not load'}`, {
    hint: SETUP_HINT,
    ...(file === undefined ? {} : { file }),
    details: { requested: status.requested },
  });
}
