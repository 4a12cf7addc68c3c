/**
 * `@doctree/pipeline`: ready-made DocTree operations composed from the other packages, used by the `doctree` CLI and
 * the eval runner.
 */
export { createIndexComponents } from './index-components.js';
export type { IndexComponents, IndexComponentsOptions } from './index-components.js';
export { prepareDocument } from './prepare-document.js';
export type { PrepareDocumentOptions, PrepareProgress, PreparedDocument } from './prepare-document.js';
export { describeIndex } from './index-report.js';
export type { IndexReport } from './index-report.js';
export { askQuestion, openAgent } from './ask-question.js';
export { answerCalibratorFromConfig, pageRankerFromConfig } from './model-files.js';
export { domainPackFromConfig } from './domain-pack-file.js';
export type { AskedQuestion, AskQuestionOptions, OpenAgentOptions, OpenedAgent } from './ask-question.js';
export { EVAL_DOCUMENTS_DEFAULTS, EvalDocuments, recordedBuildMs } from './eval-documents.js';
export type { EvalDocumentProgress, EvalDocumentsOptions } from './eval-documents.js';
export { BM25_PAGES_DEFAULTS, Bm25PagesQaSystem, createEvalSystemContext, createEvalSystems, DOCTREE_ABLATIONS, DocTreeQaSystem, EVAL_SYSTEM_IDS, RagQaSystem } from './eval-systems.js';
export type {
  Bm25PagesQaSystemOptions,
  CreateEvalSystemsOptions,
  DocTreeAblation,
  DocTreeQaSystemOptions,
  EvalSystemContext,
  EvalSystemId,
  EvalSystemsOptions,
  RagQaSystemOptions,
} from './eval-systems.js';
export { loadEvalSystems } from './eval-systems-modules.js';
export type { EvalSystemFactory, EvalSystemFactoryContext, LoadEvalSystemsOptions } from './eval-systems-modules.js';
export { createJudgeClient, evaluateQuestions } from './evaluate-questions.js';
export type { EvaluateQuestionsOptions, EvaluateQuestionsResult } from './evaluate-questions.js';
export { runExperiment } from './run-experiment.js';
export { COLLECTION_EVAL_SYSTEMS, COLLECTION_QA_SYSTEM_DEFAULTS, CollectionQaSystem, collectionManifestSha256, evaluateCollection } from './collection-eval.js';
export type { CollectionQaSystemOptions, EvaluateCollectionOptions, EvaluateCollectionResult } from './collection-eval.js';
export { buildTraceViewer, TRACE_VIEWER_DEFAULTS, writeTraceViewer } from './trace-viewer/trace-viewer.js';
export type { BuiltTraceViewer, TraceViewerOptions } from './trace-viewer/trace-viewer.js';
export { drawEvalTraceViewers, EVAL_TRACE_VIEWERS_DEFAULTS } from './trace-viewer/eval-trace-viewers.js';
export type { DrawnEvalTraceViewers, EvalTraceViewersOptions } from './trace-viewer/eval-trace-viewers.js';
export type { ExperimentProgress, ExperimentResult, ExperimentRunResult, RunExperimentOptions } from './run-experiment.js';
export { processIo } from './command/command-io.js';
export type { CommandIo } from './command/command-io.js';
export { CONFIG_FILE_NAME, loadCommandConfig } from './command/command-config.js';
export type { CommandConfig } from './command/command-config.js';
export { parseCommandArgs, positiveIntegerOption } from './command/command-args.js';
export type { CommandOptionSpec, ParsedCommandArgs } from './command/command-args.js';
export { reportCommandFailure } from './command/command-failure.js';
export type { ReportCommandFailureOptions } from './command/command-failure.js';
export { applyLlmChoice, describeLlmChoice, LLM_DOCUMENT_SELECTOR_DEFAULTS, LLM_SELECTION_SYSTEM_PROMPT, LlmDocumentSelector, llmSelectorFor } from './collection/index.js';
export type { LlmDocumentSelectorOptions, LlmSelectionRecord } from './collection/index.js';
export { answerAcrossDocuments, collectionCitations, crossDocumentPlan, crossOperation, formatCrossDocument, PLAN_CROSS_DOCUMENT_DEFAULTS, planCrossDocument, primaryDocument } from './collection/index.js';
export type { AskPart, CollectionCitation, CrossDocumentAnswer, CrossDocumentCandidate, CrossDocumentOperation, CrossDocumentOutcome, CrossDocumentPart, CrossDocumentPartAnswer, CrossDocumentPlan, PlanCrossDocumentOptions } from './collection/index.js';
export { acquireFileLock, bm25Scores, buildCollectionDocument, buildSettingsChanged, Collection, collectionBuildSettings, COLLECTION_FILES, describeDocument, extractMetadata, FILE_COLLECTION_STORE_DEFAULTS, FileCollectionStore, matchesFilters, MAX_SELECTION_NODES, metadataFromFilename, namedMetadata, nodeDocScores, PAGEINDEX_FILE, pageIndexToMarkdown, parsePageIndex, planChanges, rankDocuments, SCAN_INPUT_DIR_DEFAULTS, scanInputDir, SELECTION_NODE_HITS, SELECTION_RRF_K, toPageIndex } from './collection/index.js';
export { documentYears, METADATA_EXTRACTOR_VERSION, OPEN_DOCUMENT_CACHE_DEFAULTS, OpenDocumentCache, periodFit, periodFromText, periodLabel } from './collection/index.js';
export { metadataIsStale, refreshDocumentMetadata } from './collection/metadata-refresh.js';
export type { EmbedderSource } from './collection/metadata-refresh.js';
export type { FilenameMetadata, OpenDocumentCacheOptions, OpenedEntry, QuestionPeriods } from './collection/index.js';
export type {
  CollectionAnswer,
  CollectionAskOptions,
  CollectionBuildJob,
  CollectionBuildProgress,
  CollectionBuildResult,
  CollectionDocumentAnswer,
  CollectionFilters,
  CollectionOptions,
  CollectionProgress,
  CollectionSelectOptions,
  CollectionSyncOptions,
  DocumentSelection,
  FileCollectionStoreOptions,
  MetadataSource,
  PlanChangesOptions,
  PlannedChange,
  ScanInputDirOptions,
  ScannedFile,
  SelectionCandidate,
  SelectionScore,
} from './collection/index.js';
