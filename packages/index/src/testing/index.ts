/**
 * Test helpers of `@doctree/index`, published as the `@doctree/index/testing` subpath.
 * They register tests with the running test framework (global describe/it/expect).
 */
export { runVectorIndexConformance, VECTOR_INDEX_CONFORMANCE_DEFAULTS } from './vector-index-conformance.js';
export type { VectorIndexConformanceFactory, VectorIndexConformanceOptions } from './vector-index-conformance.js';
export { EMBEDDER_CONFORMANCE_DEFAULTS, runEmbedderConformance } from './embedder-conformance.js';
export type { EmbedderConformanceFactory, EmbedderConformanceOptions } from './embedder-conformance.js';
export { runSparseIndexConformance } from './sparse-index-conformance.js';
export type { SparseIndexConformanceFactory } from './sparse-index-conformance.js';
export { RETRIEVER_CONFORMANCE_CORPUS, RETRIEVER_CONFORMANCE_DEFAULTS, runRetrieverConformance } from './retriever-conformance.js';
export type { ConformanceDocument, RetrieverConformanceFactory, RetrieverConformanceOptions } from './retriever-conformance.js';
export { createFakeEmbeddingsHandler, listenLocal, serveWithBody, startFakeOpenAIServer } from './fake-openai-server.js';
export type { FakeEmbeddingRequest, FakeEmbeddingsHandler, FakeOpenAIServer, FakeOpenAIServerOptions, FakeReply } from './fake-openai-server.js';
export { runSummarizerConformance, SUMMARIZER_CONFORMANCE_DEFAULTS } from './summarizer-conformance.js';
export type { SummarizerConformanceFactory, SummarizerConformanceOptions } from './summarizer-conformance.js';
export { sampleDocTree } from './sample-doc-tree.js';
export { buildFixtureTree, rowsToHtml } from './fixture-tree.js';
export type { FixtureDocument, FixtureNode } from './fixture-tree.js';
