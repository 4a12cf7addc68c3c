/**
 * `@doctree/index`: summaries, docs/design/index-features.md §3 records, embedders, BM25F sparse and vector indexes (faiss-node or exact
 * pure-TS backends), the incremental index build and the `DocIndex` loader.
 * Test helpers live in the `@doctree/index/testing` subpath.
 */
export { swapDirectory, temporaryPathFor, writeAtomically, writeFileAtomic } from './io/atomic-write.js';
export { artifactsMatch, readValidJsonIfPresent, sha256Hex } from './io/build-manifest.js';
export type { ArtifactsMatchOptions } from './io/build-manifest.js';
export { BASE_EMBEDDER_DEFAULTS, BaseEmbedder } from './embedders/base-embedder.js';
export type { BaseEmbedderOptions } from './embedders/base-embedder.js';
export { HASHING_EMBEDDER_DEFAULTS, HashingEmbedder } from './embedders/hashing-embedder.js';
export type { HashingEmbedderOptions } from './embedders/hashing-embedder.js';
export { defaultEmbeddingCacheDir, SIF_EMBEDDER_DEFAULTS, SifEmbedder } from './embedders/sif-embedder.js';
export type { SifEmbedderOptions, SifLoadInfo } from './embedders/sif-embedder.js';
export { OPENAI_EMBEDDER_DEFAULTS, OpenAIEmbedder } from './embedders/openai-embedder.js';
export type { OpenAIEmbedderOptions } from './embedders/openai-embedder.js';
export { EMBEDDING_CACHE_FORMAT, EMBEDDING_CACHE_FORMAT_VERSION, EmbeddingCache } from './embedders/embedding-cache.js';
export type { EmbeddingCacheOptions } from './embedders/embedding-cache.js';
export { createEmbedder } from './embedders/create-embedder.js';
export type { CreateEmbedderOptions } from './embedders/create-embedder.js';
export { readWordVectors, WORD_VECTORS_FORMAT, WORD_VECTORS_FORMAT_VERSION } from './embedders/word-vector-cache.js';
export type { WordVectors, WordVectorsMeta } from './embedders/word-vector-cache.js';
export { locateWinkEmbeddings, WINK_EMBEDDINGS_HINT, WINK_EMBEDDINGS_PACKAGE } from './embedders/wink-embeddings.js';
export type { WinkEmbeddingsLocation } from './embedders/wink-embeddings.js';
export {
  decodeWordTable,
  encodeWordTable,
  locateBundledWordTable,
  readWordTable,
  WORD_TABLE_DEFAULT_KEEP,
  WORD_TABLE_DIR,
  WORD_TABLE_FORMAT,
  WORD_TABLE_FORMAT_VERSION,
  wordTableFileName,
  writeWordTable,
} from './embedders/word-table.js';
export type { WordTable, WordTableHeader, WordTableInput } from './embedders/word-table.js';
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
export { assertVectorIndexFactory, BUILTIN_VECTOR_INDEX_FACTORY_ID, builtinVectorIndexFactory } from './vector/vector-index-factory.js';
export type { BuiltinVectorIndexFactoryOptions, VectorIndexCreateOptions, VectorIndexFactory, VectorIndexLoadOptions } from './vector/vector-index-factory.js';
export {
  decodeVectorFile,
  encodeVectorFile,
  readVectorIndexMeta,
  toVectorIndexMeta,
  VECTOR_FILE_MAGIC,
  VECTOR_INDEX_FORMAT,
  VECTOR_INDEX_FORMAT_VERSION,
  vectorIndexMetaPath,
  vectorIndexMetaSchema,
  vectorSidecarPath,
  writeVectorIndexMeta,
} from './vector/vector-file-format.js';
export type { DecodedVectorFile, VectorIndexMeta } from './vector/vector-file-format.js';
export { stemEnglish } from './sparse/english-stemmer.js';
export { analyzeQuery, analyzeText, SPARSE_ANALYZER_VERSION, SPARSE_STOPWORDS } from './sparse/sparse-analyzer.js';
export { DEFAULT_SPARSE_BM25, DEFAULT_SPARSE_BOOSTS, MINISEARCH_SPARSE_INDEX_DEFAULTS, MiniSearchSparseIndex } from './sparse/minisearch-sparse-index.js';
export type { MiniSearchSparseIndexOptions, MiniSearchSparseSearchOptions, SparseBm25Params, SparseCombineWith } from './sparse/minisearch-sparse-index.js';
export { MINISEARCH_SERIALIZATION_VERSION, SPARSE_INDEX_FORMAT, SPARSE_INDEX_FORMAT_VERSION, sparseIndexFileSchema } from './sparse/sparse-index-format.js';
export type { SparseIndexFile, SparseMiniSearchJson, SparseStoredDoc } from './sparse/sparse-index-format.js';
export { loadSparseIndex, readSparseIndex, saveSparseIndex } from './sparse/sparse-index-io.js';
export type { LoadSparseIndexOptions } from './sparse/sparse-index-io.js';
export { DocView, tableHeader, tableRowLabels } from './records/doc-view.js';
export { mmrSummary } from './records/extractive-summarizer.js';
export type { MmrSummaryOptions } from './records/extractive-summarizer.js';
export { buildGraphEdges, buildIndexRecords, chunkLeaf } from './records/record-builder.js';
export { buildPageRecords } from './records/page-records.js';
export type { PageRecords } from './records/page-records.js';
export type { IndexRecordOptions, IndexRecords } from './records/record-builder.js';
export { buildExtractiveSummary, contentHash, sectionSummarySource } from './records/summaries.js';
export { BaseSummarizer } from './summaries/base-summarizer.js';
export type { BaseSummarizerOptions, DocSummarizer, SummarizeOptions, SummarizeProgress, SummarizeRecord } from './summaries/base-summarizer.js';
export { EXTRACTIVE_SUMMARIZER_DEFAULTS, ExtractiveSummarizer } from './summaries/extractive-doc-summarizer.js';
export type { ExtractiveSummarizerOptions } from './summaries/extractive-doc-summarizer.js';
export { LLM_SUMMARIZER_DEFAULTS, LLM_SUMMARY_PROMPT_VERSION, LlmSummarizer } from './summaries/llm-summarizer.js';
export type { LlmSummarizerOptions, LlmSummaryFallback, LlmSummaryStats } from './summaries/llm-summarizer.js';
export { SUMMARY_CACHE_FORMAT, SUMMARY_CACHE_FORMAT_VERSION, SummaryCache, summaryCacheEntrySchema } from './summaries/summary-cache.js';
export type { SummaryCacheEntry, SummaryCacheOptions } from './summaries/summary-cache.js';
export type { ExtractiveSummaryOptions } from './records/summaries.js';
export { UNIT_ALIASES, contentWords, cosine, estimateTokens, findUnits, findYears, hasNumbers, splitSentences, termFrequencies, topKeywords } from './records/text-features.js';
export { buildDocIndex, indexConfigHash, readManifestIfValid } from './build/build-doc-index.js';
export type { BuildDocIndexOptions, BuildDocIndexResult, IndexProgress } from './build/build-doc-index.js';
export { canonicalJson } from './build/canonical-json.js';
export { customVectorFileName, INDEX_DIR, INDEX_FILES, VECTOR_VIEWS, vectorFileName } from './build/index-files.js';
export type { VectorView } from './build/index-files.js';
export { GraphIndex, loadDocIndex } from './build/load-doc-index.js';
export type { DocIndex, LoadDocIndexOptions } from './build/load-doc-index.js';
export { minisearchSparseBackend } from './build/sparse-backend.js';
export type { SparseBackend } from './build/sparse-backend.js';
export { BASE_RETRIEVER_DEFAULTS, BaseRetriever, hitRole } from './retrieval/base-retriever.js';
export type { BaseRetrieverOptions, RetrievalRecord } from './retrieval/base-retriever.js';
export { mapEmbeddingError, mapOpenAIError } from './embedders/openai-errors.js';
export type { EmbeddingErrorContext, OpenAIErrorContext } from './embedders/openai-errors.js';
export { PLACEHOLDER_API_KEY } from './embedders/openai-embedder.js';
