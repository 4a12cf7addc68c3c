/**
 * `@doctree/toolhub`: the non-LLM execution layer of the DocTree agent (docs/design/agent-loop.md §4–§5) — tool
 * cards over a loaded `DocIndex`, a registry, an executor that validates, times out, converts failures into error
 * results and traces every call, RRF fusion with a feature rerank, structure expansion, MMR knapsack packing with
 * coverage, table reading, `extract.*`, a safe `compute.eval`, and the optional `rank.llm`.
 * Test fixtures live in the `@doctree/toolhub/testing` subpath.
 */
export { createToolContext } from './context/tool-context.js';
export type { HubToolCard, ToolContext, ToolContextOptions } from './context/tool-context.js';
export { DocNavigator, FIGURE_ROLES, navigatorFor } from './navigation/doc-navigator.js';
export type { NodeSurface } from './navigation/doc-navigator.js';
export { SNIPPET_CHARS, hitScore, nodeHit } from './hits/node-hit.js';
export type { NodeHitInit } from './hits/node-hit.js';
export { ToolRegistry } from './registry/tool-registry.js';
export type { AnyToolCard, CardReplacement, RegisterCardOptions, ToolCardInfo } from './registry/tool-registry.js';
export { retrieverLaneCard } from './registry/retriever-lane-card.js';
export type { RetrieverLaneCardOptions, RetrieverSource } from './registry/retriever-lane-card.js';
export { TOOL_EXECUTOR_DEFAULTS, ToolExecutor } from './executor/tool-executor.js';
export type { ToolCallOptions, ToolCallRequest, ToolExecutorOptions } from './executor/tool-executor.js';
export { TRACE_RECORDER_DEFAULTS, TraceRecorder } from './trace/trace-recorder.js';
export type { TraceEventInput, TraceMeta, TraceRecorderOptions } from './trace/trace-recorder.js';
export { FORMAT_REPLAY_DEFAULTS, formatToolCallReplay, replayToolCalls } from './trace/replay-tool-calls.js';
export type { FormatReplayOptions, ReplayedToolCall } from './trace/replay-tool-calls.js';
export { LaneArgsSchema } from './retrieval/lane-args.js';
export type { LaneArgs } from './retrieval/lane-args.js';
export { BM25_NODE_RETRIEVER_DEFAULTS, Bm25NodeRetriever } from './retrieval/bm25-node-retriever.js';
export type { Bm25NodeRetrieverOptions, SparseSource } from './retrieval/bm25-node-retriever.js';
export { DENSE_RETRIEVER_DEFAULTS, DenseRetriever } from './retrieval/dense-retriever.js';
export type { DenseRetrieverOptions } from './retrieval/dense-retriever.js';
export { CHART_LANE_WEIGHTS, ChartRetriever, TABLE_LANE_WEIGHTS, TableRetriever } from './retrieval/object-retrievers.js';
export type { ChartLaneWeights, ChartRetrieverOptions, ObjectSignals, TableLaneWeights, TableRetrieverOptions } from './retrieval/object-retrievers.js';
export { PAGE_LOCATOR_DEFAULTS, PageLocator } from './retrieval/page-locator.js';
export type { LocatedPage, PageLocatorOptions } from './retrieval/page-locator.js';
export type { Bm25SearchArgs, ChartSearchArgs, DenseSearchArgs, LaneWarning, PageLocateArgs, PageLocateData, TableSearchArgs } from './retrieval/retrieval-cards.js';
export { EXPAND_DEFAULTS, expandHits } from './structure/structure-expand.js';
export type { ExpandOptions, ExpansionKind, StructureExpandArgs, StructureExpandData } from './structure/structure-expand.js';
export type { ChildInfo, StructureChildrenArgs, StructureChildrenData } from './structure/structure-children.js';
export type { FigureFinderArgs, FigureFinderData, FigureRegion } from './structure/figure-finder.js';
export { COUNTED_OBJECTS, StructureCountArgsSchema, StructureCountDataSchema } from './structure/structure-count.js';
export type { CountedItem, StructureCountArgs, StructureCountData } from './structure/structure-count.js';
export { RRF_DEFAULTS, WEIGHTED_FUSION_WEIGHTS, reciprocalRankFusion, weightedFusion } from './fusion/reciprocal-rank-fusion.js';
export type { LaneRank, RrfOptions, WeightedFusionOptions } from './fusion/reciprocal-rank-fusion.js';
export {
  DIVERSIFY_DEFAULTS,
  RERANK_WEIGHTS,
  diversifyHits,
  rerankContextFromDecision,
  rerankHits,
} from './fusion/feature-rerank.js';
export type { DiversifyOptions, RerankContext, RerankFeature, RerankIntent, RerankOptions, RerankWeights } from './fusion/feature-rerank.js';
export { PACK_DEFAULTS, computeCoverage, needsFromDecision, packEvidence } from './pack/mmr-knapsack.js';
export type { Coverage, PackArgs, PackAttachment, PackNeeds, PackOptions } from './pack/mmr-knapsack.js';
export { SCALE_MULTIPLIERS, currencyFromWord, parseNumberText, scaleFromWord } from './table/number-text.js';
export type { NumberTextOptions, ParsedNumber, Scale } from './table/number-text.js';
export { HTML_TABLE_LIMITS, decodeEntities, parseHtmlTable } from './table/html-table.js';
export type { HtmlTableGrid } from './table/html-table.js';
export { headerColumns, readTable, tableCells, tableGridToMarkdown } from './table/table-reader.js';
export type { ReadTableOptions, TableCells, TableGrid } from './table/table-reader.js';
export { EXTRACT_CELLS_DEFAULTS, extractCells } from './extract/extract-column.js';
export type { ExtractCellsOptions, ExtractColumnArgs, ExtractColumnData, ExtractedCell } from './extract/extract-column.js';
export type { FirstFound, FirstKind, HeadingFirstArgs, HeadingFirstData } from './extract/extract-heading-first.js';
export { EVALUATE_DEFAULTS, evaluateExpression } from './compute/expression-evaluator.js';
export type { ComputeResult, EvaluateOptions, Quantity, VariableInput } from './compute/expression-evaluator.js';
export type { ComputeEvalArgs } from './compute/compute-card.js';
export { PAGE_SEARCH_DEFAULTS, PageView, pageViewFor } from './pages/page-view.js';
export type { PageLaneName, PageScore, PageSearchOptions } from './pages/page-view.js';
export { PageRanker } from './pages/page-ranker.js';
export type { PageRankInput, PageRankerOptions, RankedPageEvidence } from './pages/page-ranker.js';
export { PAGE_FEATURES, PageRankerModelSchema, parsePageRankerModel } from './pages/page-ranker-schema.js';
export type { PageFeature, PageRankerModel } from './pages/page-ranker-schema.js';
export { DEFAULT_PAGE_RANKER_MODEL } from './pages/page-ranker-model.js';
export { LLM_RERANK_DEFAULTS, rerankWithChat } from './rank/rank-llm.js';
export type { LlmRerankOptions, RankLlmArgs } from './rank/rank-llm.js';
export { DEFAULT_TOOL_CARDS, createDefaultRegistry } from './hub/default-cards.js';
export { ToolHub, cutToPages } from './hub/tool-hub.js';
export type { FuseOptions, StageContext, StagePlan, StageResult, ToolHubOptions } from './hub/tool-hub.js';
export {
  ABBREVIATIONS,
  DEFAULT_CONCEPTS,
  conceptMatch,
  conceptQueryTerms,
  conceptVariants,
  conceptsIn,
  isOutflowLabel,
  namedConcepts,
  normalizeLabel,
} from './vocabulary/concept-vocabulary.js';
export type { Concept, ConceptQueryTermsOptions, NamedConcept } from './vocabulary/concept-vocabulary.js';
export {
  builtinDomainPack,
  compileDomainPack,
  detectDomainPack,
  detectDomainPackInSlices,
  domainPackFrom,
  loadDomainPack,
  mergeDomainPacks,
  parseDomainPack,
  resolveDomainPack,
  selectDomainPack,
} from './domain/domain-pack.js';
export type { CompiledDomainPack, CompiledStatement, DomainPackChoice, SelectDomainPackOptions } from './domain/domain-pack.js';
export { compileMeasures, mergeMeasures } from './domain/measures.js';
export type { CompiledMeasure, CompiledMeasureOperand } from './domain/measures.js';
export { FINANCE_MEASURES } from './domain/packs/finance-measures.js';
export { FINANCE_PACK } from './domain/packs/finance.js';
export { GENERIC_PACK } from './domain/packs/generic.js';
