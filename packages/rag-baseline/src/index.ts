/**
 * `@doctree/rag-baseline`: the plain "embed chunks, take top-k" baseline DocTree is measured against (packages/rag-baseline/README.md):
 * page parents, sentence-split ~200-token children with char spans into the DocTree's canonical text, the same
 * embedders and vector backends as the DocTree index, top-k children aggregated by page, the same reader and the
 * same `Answer` schema. Also a BM25-over-pages reference ranker.
 */
export {
  CHUNK_DOC_TREE_DEFAULTS,
  chunkDocTree,
  chunkingRecord,
  chunkNodeId,
  embeddingText,
  pageUnits,
  ragChunkId,
  ragParentId,
} from './chunking/chunk-doc-tree.js';
export type { ChunkDocTreeOptions, DocTreeChunks, PageUnit } from './chunking/chunk-doc-tree.js';
export { RAG_DIR, RAG_FILES, ragVectorFileName } from './index/rag-index-files.js';
export { BUILD_RAG_INDEX_DEFAULTS, buildRagIndex, ragConfigHash, readRagManifestIfValid } from './index/build-rag-index.js';
export type { BuildRagIndexOptions, BuildRagIndexResult, RagIndexProgress } from './index/build-rag-index.js';
export { LOAD_RAG_INDEX_DEFAULTS, loadRagIndex } from './index/load-rag-index.js';
export type { LoadRagIndexOptions, RagIndex } from './index/load-rag-index.js';
export { aggregatePages } from './retrieval/ranked-pages.js';
export type { PageAggregation, PageRanker, RankedPage } from './retrieval/ranked-pages.js';
export { RAG_RETRIEVER_DEFAULTS, RagRetriever } from './retrieval/rag-retriever.js';
export type { RagRetrieverOptions } from './retrieval/rag-retriever.js';
export { PAGE_BM25_RETRIEVER_DEFAULTS, PageBm25Retriever } from './retrieval/page-bm25-retriever.js';
export type { PageBm25RetrieverOptions } from './retrieval/page-bm25-retriever.js';
export { chunkObservation, RAG_SYSTEM_DEFAULTS, RagSystem } from './answer/rag-system.js';
export type { OpenRagSystemOptions, RagAnswer, RagAnswerOptions, RagSystemOptions } from './answer/rag-system.js';
