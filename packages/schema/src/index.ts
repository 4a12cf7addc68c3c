/**
 * @doctree/schema — the DocTree spec: zod schemas, inferred types, the error family, configuration
 * and the interfaces every other package implements. Depends on zod only; no I/O.
 */
export { DOCTREE_ERROR_CODES, DocTreeError } from "./errors.js";
export type { DocTreeErrorCodeInfo, DocTreeErrorCode, DocTreeErrorOptions, DocTreeErrorJson } from "./errors.js";
export { PageIdxSchema, PageNumberSchema, pageFromIndex, indexFromPage, BBoxSchema, PageSizeSchema, PageSpanSchema, CharSpanSchema, Sha256Schema } from "./common.js";
export type { BBox, PageSize, PageSpan, CharSpan } from "./common.js";
export { formatIssues, parseWith, parseJsonLines } from "./validation.js";
export type { ValidationContext } from "./validation.js";
export { ownTable, setOwn } from "./own-keys.js";
export { OPENROUTER_BASE_URL, LlmConfigSchema, EmbedderConfigSchema, IndexConfigSchema, AgentConfigSchema, DocTreeConfigSchema, configFromEnv, resolveConfig, REDACTED, redactSecrets, configSecrets } from "./config.js";
export type { LlmConfig, EmbedderConfig, IndexConfig, AgentConfig, DocTreeConfig, DocTreeConfigInput, ConfigSource, ResolveConfigOptions, ResolvedConfig } from "./config.js";
export { INGEST_LIMIT_DEFAULTS, IngestLimitsConfigSchema, IngestConfigSchema } from "./ingest-limits.js";
export type { IngestLimitsConfig, IngestConfig } from "./ingest-limits.js";
export { CONTENT_LIST_VERSION, BlockOriginSchema, BlockFlagSchema, TextBlockSchema, TitleBlockSchema, ImageBlockSchema, TableBlockSchema, EquationBlockSchema, ListBlockSchema, CodeBlockSchema, ChartBlockSchema, PageFurnitureBlockSchema, ContentBlockSchema, PageInfoSchema, SourceInfoSchema, IngestWarningSchema, OutlineEntrySchema, ContentListSchema, MinerUBlockSchema, MinerUContentListSchema } from "./content-list.js";
export type { BlockOrigin, BlockFlag, ContentBlock, ContentBlockType, TextBlock, TitleBlock, ImageBlock, TableBlock, EquationBlock, ListBlock, CodeBlock, ChartBlock, PageFurnitureBlock, PageInfo, SourceInfo, IngestWarning, OutlineEntry, ContentList, MinerUBlock, MinerUContentList } from "./content-list.js";
export { DOCTREE_VERSION, NodeIdSchema, NodeRoleSchema, PageBoxSchema, NodeRefSchema, TableDataSchema, DocTreeNodeSchema, DocumentMetaSchema, DocTreeSchema } from "./doctree.js";
export type { NodeId, NodeRole, PageBox, NodeRef, TableData, DocTreeNode, DocumentMeta, DocTree } from "./doctree.js";
export { BuildManifestFields, INDEX_FORMAT_VERSION, IndexRecordIdSchema, SectionVariantSchema, SECTION_VARIANT_SUFFIX, IndexFiltersSchema, AffordancesSchema, SubtreeSketchSchema, DenseCoarseRecordSchema, RecordRefSchema, DenseLeafRecordSchema, SPARSE_FIELDS, SparseDocSchema, PageDocIdSchema, PageSparseDocSchema, PageFactsSchema, DocPagesSchema, GraphEdgeTypeSchema, GraphEdgeSchema, IdMapsSchema, SummaryMethodSchema, SectionSummarySchema, DocSummarySchema, IndexArtifactSchema, IndexManifestSchema } from "./index-records.js";
export type { SectionVariant, IndexFilters, Affordances, SubtreeSketch, DenseCoarseRecord, RecordRef, DenseLeafRecord, SparseField, SparseDoc, PageSparseDoc, PageFacts, DocPages, GraphEdgeType, GraphEdge, IdMaps, SectionSummary, DocSummary, IndexArtifact, IndexManifest } from "./index-records.js";
export { RAG_FORMAT_VERSION, RagParentIdSchema, RagChunkIdSchema, RagUnitSchema, RagParentSchema, RagChunkSchema, RagChunkingSchema, RagManifestSchema } from "./rag-records.js";
export type { RagUnit, RagParent, RagChunk, RagChunking, RagManifest } from "./rag-records.js";
export { QueryTypeSchema, AnswerFormatSchema, OperationSchema, QueryObjectSchema, RouterDecisionSchema, PlanStageSchema, PlanStepSchema, PlanFallbackSchema, StrategyPlanSchema, ModalitySchema, HitSchema, ToolCallSchema, TokenUsageSchema, ToolResultSchema, TablePayloadSchema, TextPayloadSchema, ImagePayloadSchema, ObservationSchema, EvidenceItemSchema, EvidencePackSchema, SupportSchema, TraceEventTypeSchema, TraceHitSchema, TraceEventSchema, TraceAnswerSchema, TraceSchema, AnswerValueSchema, AnswerSchema } from "./agent.js";
export { TRACE_ANSWER_LIMITS, traceWithAnswer } from "./trace-answer.js";
export type { QueryType, AnswerFormat, Operation, QueryObject, RouterDecision, PlanStage, PlanStep, PlanFallback, StrategyPlan, Modality, Hit, ToolCall, TokenUsage, ToolResult, Observation, EvidenceItem, EvidencePack, Support, TraceHit, TraceEvent, TraceAnswer, Trace, AnswerValue, Answer } from "./agent.js";
export { EvidenceSourceSchema, QuestionSchema, PredictionSchema, MetricGroupSchema, MetricsSchema, PredictionGoldSchema, JudgeVerdictRecordSchema, PredictionScoreSchema, MetricsFileSchema, ReliabilityBinSchema, CalibrationMetricsSchema } from "./eval.js";
export type { EvidenceSource, Question, Prediction, MetricGroup, Metrics, PredictionGold, JudgeVerdictRecord, PredictionScore, MetricsFile, ReliabilityBin, CalibrationMetrics } from "./eval.js";
export { DOMAIN_PACK_VERSION, DOMAIN_PACK_PATTERN_MAX, DomainConceptSchema, DomainStatementSchema, DomainDetectSchema, DomainPackSchema, DomainConfigSchema } from "./domain-pack.js";
export type { DomainConcept, DomainStatement, DomainDetect, DomainPack, DomainPackInput, DomainConfig } from "./domain-pack.js";
export { QuestionDefinitionSchema, QuestionAnalysisSchema } from "./question-analysis.js";
export type { QuestionDefinition, QuestionAnalysis } from "./question-analysis.js";
export { COLLECTION_MANIFEST_FORMAT, COLLECTION_MANIFEST_VERSION, COLLECTION_METADATA_FIELDS, CollectionMetadataSchema, CollectionDocIdSchema, CollectionDocumentSchema, CollectionFailureSchema, CollectionManifestSchema, CollectionChangeSchema, CollectionStatusReportSchema, CollectionSyncReportSchema, PageIndexNodeSchema, PageIndexDocumentSchema, COLLECTION_SELECTION_FORMAT, COLLECTION_SELECTION_VERSION, CollectionSelectionFileSchema } from "./collection.js";
export type { CollectionMetadataField, CollectionMetadata, CollectionDocument, CollectionFailure, CollectionManifest, CollectionChange, CollectionStatusReport, CollectionSyncReport, PageIndexNode, PageIndexDocument, CollectionSelectionFile } from "./collection.js";
export type { CollectionMetadataUpdate, CollectionSelectionNode, DocumentSelectionData, SelectionNodeHit, CollectionLockOwner, CollectionLock, CollectionLockOptions, SelectionIndexInfo, CollectionStore } from "./collection-store.js";
export { ARTIFACT_SCHEMAS, artifactJsonSchemas } from "./json-schemas.js";
export type { ArtifactSchemaName } from "./json-schemas.js";
export type { Embedder, EmbedOptions } from "./interfaces/embedder.js";
export type { VectorMetric, VectorHit, VectorSearchOptions, VectorIndexInfo, VectorIndex } from "./interfaces/vector-index.js";
export type { SparseHit, SparseSearchOptions, SparseIndex } from "./interfaces/sparse-index.js";
export type { RetrieveRequest, Retriever } from "./interfaces/retriever.js";
export type { RerankCandidate, RerankRequest, Reranker } from "./interfaces/reranker.js";
export type { ChatMessage, ChatRequest, ChatReply, ChatModelClient } from "./interfaces/chat-model.js";
export type { ToolOutput, ToolCard } from "./interfaces/tool-card.js";
export type { AnswerReader, ComputedOperand, ComputedValue, ReadRequest, ReadResult } from "./interfaces/answer-reader.js";
export type { QuestionRouter, QuestionRouteOptions, RouteDomainPack } from "./interfaces/question-router.js";
export type { QueryPlanner, QueryPlanOptions } from "./interfaces/query-planner.js";
export type { AnswerJudger, JudgeAction, JudgeCheck, JudgeFailure, JudgeRequest, JudgeVerdict } from "./interfaces/answer-judger.js";
export { ensureArrayBufferTransfer } from "./pdf-runtime.js";
