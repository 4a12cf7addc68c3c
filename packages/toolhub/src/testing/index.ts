/**
 * Test helpers of `@doctree/toolhub`, published as the `@doctree/toolhub/testing` subpath: fixture DocTrees (a six-page
 * annual report with a cash-flow table, a chart, a photo and sections; a tree over any retriever-conformance corpus)
 * and a builder that indexes a tree offline and loads it as a real `DocIndex`.
 */
export { CASH_FLOW_HTML, CASH_FLOW_ROWS, annualReportTree, buildFixtureTree, corpusTree, rowsToHtml } from './fixture-trees.js';
export type { CorpusEntry, FixtureDocument, FixtureNode } from './fixture-trees.js';
export { buildFixtureIndex } from './fixture-index.js';
export type { FixtureIndex, FixtureIndexOptions } from './fixture-index.js';
export { RERANKER_CONFORMANCE_CANDIDATES, RERANKER_CONFORMANCE_DEFAULTS, RERANKER_CONFORMANCE_QUERY, runRerankerConformance } from './reranker-conformance.js';
export type { RerankerConformanceOptions } from './reranker-conformance.js';
