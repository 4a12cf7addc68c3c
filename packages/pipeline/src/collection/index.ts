/**
 * Collections: many documents in one folder, kept in step with a source folder, asked as a whole.
 */
export { Collection } from './collection.js';
export type { CollectionAnswer, CollectionAskOptions, CollectionDocumentAnswer, CollectionOptions, CollectionProgress, CollectionSelectOptions, CollectionSyncOptions } from './collection.js';
export { COLLECTION_FILES, FILE_COLLECTION_STORE_DEFAULTS, FileCollectionStore } from './file-collection-store.js';
export type { FileCollectionStoreOptions } from './file-collection-store.js';
export { acquireFileLock } from './collection-lock.js';
export { planChanges, SCAN_INPUT_DIR_DEFAULTS, scanInputDir } from './collection-scan.js';
export type { PlanChangesOptions, PlannedChange, ScanInputDirOptions, ScannedFile } from './collection-scan.js';
export { buildSettingsChanged, collectionBuildSettings } from './build-settings.js';
export type { BuildSettingsContext } from './build-settings.js';
export { bm25Scores, matchesFilters, namedMetadata, nodeDocScores, rankDocuments, SELECTION_NODE_HITS, SELECTION_RRF_K } from './document-selection.js';
export type { CollectionFilters, DocumentSelection, SelectionCandidate, SelectionScore } from './document-selection.js';
export { applyLlmChoice, describeLlmChoice, LLM_DOCUMENT_SELECTOR_DEFAULTS, LLM_SELECTION_SYSTEM_PROMPT, LlmDocumentSelector, llmSelectorFor } from './llm-selection.js';
export type { LlmDocumentSelectorOptions, LlmSelectionRecord } from './llm-selection.js';
export { answerAcrossDocuments, collectionCitations, crossDocumentPlan, crossOperation, formatCrossDocument, PLAN_CROSS_DOCUMENT_DEFAULTS, planCrossDocument, primaryDocument } from './cross-document.js';
export type { AskPart, CollectionCitation, CrossDocumentAnswer, CrossDocumentCandidate, CrossDocumentOperation, CrossDocumentOutcome, CrossDocumentPart, CrossDocumentPartAnswer, CrossDocumentPlan, PlanCrossDocumentOptions } from './cross-document.js';
export { describeDocument, extractMetadata, metadataFromFilename } from './document-metadata.js';
export type { MetadataSource } from './document-metadata.js';
export { documentYears, periodFit } from './document-selection.js';
export type { QuestionPeriods } from './document-selection.js';
export { METADATA_EXTRACTOR_VERSION, periodFromText, periodLabel } from './document-metadata.js';
export type { FilenameMetadata } from './document-metadata.js';
export { OPEN_DOCUMENT_CACHE_DEFAULTS, OpenDocumentCache } from './open-document-cache.js';
export type { OpenDocumentCacheOptions, OpenedEntry } from './open-document-cache.js';
export { PAGEINDEX_FILE, pageIndexToMarkdown, parsePageIndex, toPageIndex } from './pageindex.js';
export { buildCollectionDocument, MAX_SELECTION_NODES } from './build-document.js';
export type { CollectionBuildJob, CollectionBuildProgress, CollectionBuildResult } from './build-document.js';
