/**
 * @doctree/ingest — PDF (unpdf), MinerU content_list.json and Markdown into a DocTree.
 */
export { checkPdfEngine } from './pdf/pdf-engine.js';
export type { PdfEngineStatus } from './pdf/pdf-engine.js';
export { ensurePdfRuntime } from './pdf/pdf-runtime.js';
export { writeSimplePdf } from './pdf/simple-pdf-writer.js';
export type { PdfPageSpec, PdfShape, PdfTextRun, SimplePdfOptions, SimplePdfOutlineEntry } from './pdf/simple-pdf-writer.js';
export { adaptPdf, ADAPT_PDF_DEFAULTS, PDF_ADAPTER_GENERATOR } from './pdf/pdf-adapter.js';
export type { AdaptPdfOptions } from './pdf/pdf-adapter.js';
export { extractPdfPages, iteratePdfPages } from './pdf/pdf-pages.js';
export type { ExtractPdfPagesOptions } from './pdf/pdf-pages.js';
export type { PdfLine, PdfPageText, PdfSpan } from './pdf/pdf-lines.js';
export { openPdfDocument } from './pdf/pdf-document.js';
export type { OpenPdf, OpenPdfOptions, PdfDocumentProxy } from './pdf/pdf-document.js';
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
export { referenceMarkingRule } from './enhancer/reference-marking.js';
export { furnitureTemplate, repeatedFurnitureRule } from './enhancer/repeated-furniture.js';
export type { RepeatedFurnitureOptions } from './enhancer/repeated-furniture.js';
export { subfigureMergeRule } from './enhancer/subfigure-merge.js';
export type { SubfigureMergeOptions } from './enhancer/subfigure-merge.js';
export { repairWhitespace, textRepairRule } from './enhancer/text-repair.js';
