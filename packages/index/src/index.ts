/**
 * `@doctree/index`: vector indexes (faiss-node or exact pure-TS backends) and their on-disk format.
 * Test helpers live in the `@doctree/index/testing` subpath.
 */
export { writeAtomically, writeFileAtomic } from './io/atomic-write.js';
export { EXACT_VECTOR_INDEX_DEFAULTS, ExactVectorIndex } from './vector/exact-vector-index.js';
export type { ExactVectorIndexOptions } from './vector/exact-vector-index.js';
export { FAISS_HNSW_DEFAULTS, FAISS_VECTOR_INDEX_DEFAULTS, FaissVectorIndex } from './vector/faiss-vector-index.js';
export type { FaissVectorIndexOptions } from './vector/faiss-vector-index.js';
export { FAISS_HNSW_BUILTIN } from './vector/faiss-hnsw-parameters.js';
export type { FaissHnswParameters } from './vector/faiss-hnsw-parameters.js';
export { loadFaissNode, SKIP_FAISS_ENV } from './vector/faiss-node-loader.js';
export type { FaissNodeIndex, FaissNodeModule, FaissNodeSearchResult, FaissNodeStatus } from './vector/faiss-node-loader.js';
export {
  CREATE_VECTOR_INDEX_DEFAULTS,
  createVectorIndex,
  DETECT_VECTOR_BACKEND_DEFAULTS,
  detectVectorBackend,
  LOAD_VECTOR_INDEX_DEFAULTS,
  loadVectorIndex,
} from './vector/vector-backend.js';
export type {
  CreateVectorIndexOptions,
  DetectVectorBackendOptions,
  LoadVectorIndexOptions,
  VectorBackendName,
  VectorBackendRequest,
  VectorBackendStatus,
} from './vector/vector-backend.js';
export {
  decodeVectorFile,
  encodeVectorFile,
  readVectorIndexMeta,
  VECTOR_FILE_MAGIC,
  VECTOR_INDEX_FORMAT,
  VECTOR_INDEX_FORMAT_VERSION,
  vectorIndexMetaPath,
  vectorIndexMetaSchema,
  vectorSidecarPath,
} from './vector/vector-file-format.js';
export type { DecodedVectorFile, VectorIndexMeta } from './vector/vector-file-format.js';
