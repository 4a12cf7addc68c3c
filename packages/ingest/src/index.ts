/**
 * @doctree/ingest — PDF (unpdf), MinerU content_list.json and Markdown into a DocTree.
 */
export { checkPdfEngine } from './pdf/pdf-engine.js';
export type { PdfEngineStatus } from './pdf/pdf-engine.js';
export { ensurePdfRuntime } from './pdf/pdf-runtime.js';
export { writeSimplePdf } from './pdf/simple-pdf-writer.js';
export type { PdfPageSpec, PdfShape, PdfTextRun, SimplePdfOptions } from './pdf/simple-pdf-writer.js';
export { buildDocTree } from './builder/tree-builder.js';
export type { BuildDocTreeOptions } from './builder/tree-builder.js';
export { canonicalLabel, findLabelMentions, parseCaptionLabel } from './builder/labels.js';
export type { LabelKind, LabelMention, ParsedLabel } from './builder/labels.js';
