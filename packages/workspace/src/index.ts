/**
 * `@doctree/workspace`: an evidence workspace for writers on DocTree's ingest, embedders and sparse analyzer —
 * sources registry, parse/chunk/embed builds, citable evidence packs, claim audit and citation verification.
 */
export { EvidenceWorkspace } from './workspace.js';
export type { EvidenceWorkspaceOptions, WorkspaceContext } from './context.js';
export { initWorkspace } from './build-steps.js';
export type { Bm25Result, ChunkResult, EmbedResult, InitResult, InitWorkspaceOptions, ParseResult } from './build-steps.js';
export { defaultWorkspaceConfig, WORKSPACE_CONFIG_VERSION, workspaceConfigHash, WorkspaceConfigSchema } from './config.js';
export type { WorkspaceConfig } from './config.js';
export { INSTRUCTION_KINDS, WORKSPACE_CONFIG_FILE, WORKSPACE_DIRS, workspacePaths } from './layout.js';
export type { InstructionKind, WorkspacePaths } from './layout.js';
export { isCalendarDate, isPartialDate, ProjectFileSchema, WORKSPACE_TOOL, WORKSPACE_TOOL_VERSION } from './project.js';
export type { ProjectFile } from './project.js';
export { citationKeyFor, collectionDocUid, SOURCE_EXTENSIONS, SourceRecordSchema, SourcesFileSchema, SourceTypeSchema, syncCollectionSources } from './sources.js';
export type { CollectionSourceDocument, SourceMetaUpdate, SourceRecord, SourceScan, SourcesFile, SourceType } from './sources.js';
export { ParseSummarySchema } from './parse.js';
export type { ParseSummary } from './parse.js';
export { ChildRecordSchema, ChunkManifestSchema, ParentRecordSchema } from './chunk-records.js';
export type { ChildRecord, ChunkManifest, ParentRecord } from './chunk-records.js';
export { countTokens, packChildren, sentenceSpans, textHash } from './chunking.js';
export type { ChildSizes, ChildSpan, TextSpan } from './chunking.js';
export { buildChildren, buildParents, CHUNKER_ID } from './chunk.js';
export { BuildManifestSchema, makeBuildId } from './builds.js';
export type { BuildManifest, BuildStep } from './builds.js';
export { coverageRerankScore, LOCAL_CHUNK_RETRIEVER_DEFAULTS, LocalChunkRetriever, termCoverage, WORKSPACE_RERANKER_ID } from './retrieval.js';
export type { ChildHit, EvidenceRetriever, EvidenceSearchOptions, LocalChunkRetrieverOptions } from './retrieval.js';
export { describeFilters, EvidenceSchema, evidenceFromHits, FILTER_KEYS, parseFilters, QueryFiltersSchema } from './evidence.js';
export type { Evidence, QueryFilters, ReturnedSource } from './evidence.js';
export { QueryRunSchema } from './query-run.js';
export type { QueryRun } from './query-run.js';
export { queryJson } from './query.js';
export type { QueryOptions, QueryResult } from './query.js';
export { isVerbatimQuote, MAX_QUOTE_WORDS, selectQuote, UNMAPPED_GLYPH, verbatimForm } from './quotes.js';
export { CLAIM_TYPES, claimTypes, draftSentences, suggestedQuery } from './draft.js';
export type { ClaimType, DraftSentence } from './draft.js';
export { SUPPORT_FEATURES, supportFeatures, supportScore } from './support.js';
export type { SupportFeatures } from './support.js';
export { CITATION_SUPPORT_MODEL } from './citation-support-model.js';
export type { CitationSupportModel } from './citation-support-model.js';
export type { AuditClaim, AuditResult, CitationCheck, CitationStatus, VerifyResult } from './citations.js';
export { bibtexEntry, cslItem } from './export-sources.js';
export type { ExportResult } from './export-sources.js';
export { CLAIM_SYSTEM_PROMPT, REWRITE_SYSTEM_PROMPT, SUPPORT_SYSTEM_PROMPT } from './llm.js';

/** Version of the workspace's persisted formats. */
export const WORKSPACE_FORMAT_VERSION = 1 as const;
