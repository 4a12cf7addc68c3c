/**
 * @doctree/ingest — PDF (unpdf), MinerU content_list.json and Markdown into a DocTree.
 */
export { checkPdfEngine } from './pdf/pdf-engine.js';
export type { PdfEngineStatus } from './pdf/pdf-engine.js';
export { ensurePdfRuntime } from './pdf/pdf-runtime.js';
export { writePdfWithStreams, writeSimplePdf } from './pdf/simple-pdf-writer.js';
export type { PdfPageSpec, PdfShape, PdfTextRun, SimplePdfOptions, SimplePdfOutlineEntry } from './pdf/simple-pdf-writer.js';
export { adaptPdf, ADAPT_PDF_DEFAULTS, PDF_ADAPTER_GENERATOR } from './pdf/pdf-adapter.js';
export type { AdaptPdfOptions, PdfOcrStats } from './pdf/pdf-adapter.js';
export { extractPdfPages, iteratePdfPages } from './pdf/pdf-text-layer.js';
export { assertOcrOptions, checkOcr, missingOcrLanguages, missingOcrPrograms, OCR_INSTALL_HINT, OCR_PROGRAMS, tesseractLanguagePackages } from './pdf/pdf-ocr.js';
/** Lowest and highest OCR resolution accepted (`ocrDpi`, `ingest.ocr.dpi`); defined with the configuration schema. */
export { OCR_DPI_RANGE } from '@doctree/schema';
export type { CheckOcrOptions, OcrCheck } from './pdf/pdf-ocr.js';
export type { ExtractPdfPagesOptions } from './pdf/pdf-text-layer.js';
export type { PdfLine, PdfLinePiece, PdfPageText, PdfSpan } from './pdf/pdf-lines.js';
export { buildDocTree } from './builder/tree-builder.js';
export type { BuildDocTreeOptions } from './builder/tree-builder.js';
export { canonicalLabel, findLabelMentions, parseCaptionLabel } from './builder/labels.js';
export type { LabelKind, LabelMention, ParsedLabel } from './builder/labels.js';
export { defaultEnhancerRules, enhanceContentList } from './enhancer/enhance-content-list.js';
export type { EnhanceOptions, EnhanceReport } from './enhancer/enhance-content-list.js';
export { blockText, hasFlag, withFlag } from './enhancer/enhancer-rule.js';
export type { EnhancerRule, RuleOutcome } from './enhancer/enhancer-rule.js';
export { captionGuardRule } from './enhancer/caption-guard.js';
export { headingCleanupRule, numberingDepth } from './enhancer/heading-cleanup.js';
export type { HeadingCleanupOptions } from './enhancer/heading-cleanup.js';
export { compactLevels, openAtTop } from './enhancer/level-compaction.js';
export { findTocPages, inlinePageReferences, isTocLine } from './enhancer/toc-pages.js';
export type { TocPageOptions } from './enhancer/toc-pages.js';
export { referenceMarkingRule } from './enhancer/reference-marking.js';
export { furnitureTemplate, repeatedFurnitureRule } from './enhancer/repeated-furniture.js';
export type { RepeatedFurnitureOptions } from './enhancer/repeated-furniture.js';
export { repairSplitWords, splitWordRepairRule, WordCounts } from './enhancer/split-word-repair.js';
export type { SplitWordRepairOptions } from './enhancer/split-word-repair.js';
export { subfigureMergeRule } from './enhancer/subfigure-merge.js';
export type { SubfigureMergeOptions } from './enhancer/subfigure-merge.js';
export { composeAccents, repairWhitespace, textRepairRule } from './enhancer/text-repair.js';
export { adaptMinerU, ADAPT_MINERU_DEFAULTS, MINERU_ADAPTER_GENERATOR } from './mineru/mineru-adapter.js';
export type { AdaptMinerUOptions, MinerUInput } from './mineru/mineru-adapter.js';
export { loadMinerUFiles } from './mineru/mineru-files.js';
export type { LoadedMinerUFiles } from './mineru/mineru-files.js';
export { readMinerUMiddle, validateMinerUContentList } from './mineru/mineru-validate.js';
export type { MinerUMiddleInfo } from './mineru/mineru-validate.js';
export { decodeHtmlEntities, escapeHtml, extractTableHtml, gridToHtml, parseHtmlTable, tableToMarkdown } from './mineru/html-table.js';
export type { HtmlTable } from './mineru/html-table.js';
export { adaptMarkdown, MARKDOWN_ADAPTER_GENERATOR } from './markdown/markdown-adapter.js';
export type { AdaptMarkdownOptions } from './markdown/markdown-adapter.js';
export {
  DECODED_BYTES_ALLOWANCE,
  DEFAULT_MAX_DECODED_RATIO,
  DEFAULT_MAX_IMAGE_PIXELS,
  DEFAULT_MAX_INPUT_BYTES,
  DEFAULT_MAX_OCR_PAGES,
  DEFAULT_MAX_PAGES,
  DEFAULT_MAX_STREAM_BYTES,
  ingestLimitsFromConfig,
  ingestOcrFromConfig,
  ingestOptionsFromConfig,
} from './limits.js';
export type { IngestLimitOptions, IngestOcrOptions, InputSizeKind } from './limits.js';
export { scanPdfStreams } from './pdf/pdf-stream-guard.js';
export { hasRtl, logicalOrder, logicalRtlText, normalizePresentationForms, visualToLogicalLine } from './pdf/rtl-text.js';
export type { PdfStreamScan, ScanPdfStreamsOptions } from './pdf/pdf-stream-guard.js';
export { ATOMIC_TEMP_NAME, OCR_TEMP_NAME, isProcessAlive, removeStaleTempFiles, trackTempPath } from './pipeline/temp-files.js';
export { readInputFile } from './pipeline/read-input.js';
export type { ReadInputFileOptions } from './pipeline/read-input.js';
export { DOC_FILES, detectInputKind, ingestFile } from './pipeline/ingest-file.js';
export { INGESTIBLE_FILE, MAX_CONCURRENT_FILES, expandIngestInputs, fileConcurrency, ingestFiles } from './pipeline/ingest-files.js';
export type { IngestFilesOptions, IngestFilesOutcome, IngestedFile } from './pipeline/ingest-files.js';
export type { IngestFileOptions, IngestInputKind, IngestProgress, IngestResult } from './pipeline/ingest-file.js';
export { docIdFromFilename, isValidDocId } from './pipeline/doc-id.js';
export { pageQualityReport, summarizeIngest } from './pipeline/ingest-summary.js';
export type { IngestSummary, PageQualityRow } from './pipeline/ingest-summary.js';
