import { z } from 'zod';
import { BBoxSchema, PageIdxSchema, PageSizeSchema, Sha256Schema } from './common.js';

/**
 * The content list: a flat, reading-ordered list of typed blocks per document, produced by the
 * adapters (PDF, MinerU, Markdown) as `content_list.adapted.json` and by the enhancer as
 * `content_list.enhanced.json`. Coordinates are PDF points with a top-left origin.
 */

/** Current format version of content list files. */
export const CONTENT_LIST_VERSION = 1;

/** Where a block came from. */
export const BlockOriginSchema = z.enum(['pdf', 'ocr', 'mineru', 'markdown']);
export type BlockOrigin = z.infer<typeof BlockOriginSchema>;

/** Marks the enhancer puts on blocks; each names the rule that set it. */
export const BlockFlagSchema = z.enum([
  'repeated_header',
  'repeated_footer',
  'caption',
  'merged_subfigure',
  'heading_demoted',
  'heading_promoted',
  'heading_level_repaired',
  'toc',
  'running_title',
  'hyphenation_repaired',
  'reference_list',
  'empty_page',
]);
export type BlockFlag = z.infer<typeof BlockFlagSchema>;

const blockBase = {
  /** Stable id within the document, e.g. `b_000123`. */
  block_id: z.string().min(1),
  /** 0-based page index. */
  page_idx: PageIdxSchema,
  /** Box in PDF points, top-left origin. */
  bbox: BBoxSchema,
  /** Size of the page the block is on, in PDF points. */
  page_size: PageSizeSchema,
  /** Global reading order (0-based, increasing through the document). */
  read_order: z.number().int().nonnegative(),
  origin: BlockOriginSchema,
  /** Enhancer marks; absent on adapted blocks. */
  flags: z.array(BlockFlagSchema).optional(),
  /** Dominant font of the block (PDF adapter), used for heading detection. */
  font: z
    .object({ size: z.number().positive(), bold: z.boolean(), name: z.string().optional() })
    .optional(),
};

/** Body text. */
export const TextBlockSchema = z.object({ ...blockBase, type: z.literal('text'), text: z.string() });
/** A heading; `text_level` 1 is the top level. */
export const TitleBlockSchema = z.object({
  ...blockBase,
  type: z.literal('title'),
  text: z.string(),
  text_level: z.number().int().min(1).max(9),
  /** Numbering found in the title, e.g. `2.3`, `Item 7`, `PART II`. */
  numbering: z.string().optional(),
});
/** A figure or picture. */
export const ImageBlockSchema = z.object({
  ...blockBase,
  type: z.literal('image'),
  img_path: z.string().optional(),
  image_caption: z.array(z.string()).default([]),
  image_footnote: z.array(z.string()).default([]),
  /** `Figure 3` when a caption gives one. */
  label: z.string().optional(),
  /** How the region was found. */
  source: z.enum(['xobject', 'vector', 'mineru', 'markdown']).optional(),
});
/** A table; `table_body` is HTML (`<table>…</table>`). */
export const TableBlockSchema = z.object({
  ...blockBase,
  type: z.literal('table'),
  table_body: z.string(),
  table_caption: z.array(z.string()).default([]),
  table_footnote: z.array(z.string()).default([]),
  /** Markdown preview of the table. */
  markdown: z.string().optional(),
  img_path: z.string().optional(),
  label: z.string().optional(),
});
/** An equation; `text` is LaTeX when `text_format` is `latex`. */
export const EquationBlockSchema = z.object({
  ...blockBase,
  type: z.literal('equation'),
  text: z.string(),
  text_format: z.enum(['latex', 'plain']).default('plain'),
});
/** A list; one string per item. */
export const ListBlockSchema = z.object({
  ...blockBase,
  type: z.literal('list'),
  list_items: z.array(z.string()),
  sub_type: z.enum(['bullet', 'ordered', 'reference']).default('bullet'),
});
/** A code or algorithm listing. */
export const CodeBlockSchema = z.object({
  ...blockBase,
  type: z.literal('code'),
  code_body: z.string(),
  code_caption: z.array(z.string()).default([]),
  guess_lang: z.string().optional(),
});
/** A chart (statistical figure). */
export const ChartBlockSchema = z.object({
  ...blockBase,
  type: z.literal('chart'),
  img_path: z.string().optional(),
  chart_caption: z.array(z.string()).default([]),
  chart_type: z.string().optional(),
  label: z.string().optional(),
});
/** Page furniture: running header, footer, page number, footnote, marginal text. */
export const PageFurnitureBlockSchema = z.object({
  ...blockBase,
  type: z.enum(['header', 'footer', 'page_number', 'page_footnote', 'aside_text']),
  text: z.string(),
});

/** Any content-list block, discriminated by `type`. */
export const ContentBlockSchema = z.discriminatedUnion('type', [
  TextBlockSchema,
  TitleBlockSchema,
  ImageBlockSchema,
  TableBlockSchema,
  EquationBlockSchema,
  ListBlockSchema,
  CodeBlockSchema,
  ChartBlockSchema,
  PageFurnitureBlockSchema,
]);
export type ContentBlock = z.infer<typeof ContentBlockSchema>;
export type ContentBlockType = ContentBlock['type'];
export type TextBlock = z.infer<typeof TextBlockSchema>;
export type TitleBlock = z.infer<typeof TitleBlockSchema>;
export type ImageBlock = z.infer<typeof ImageBlockSchema>;
export type TableBlock = z.infer<typeof TableBlockSchema>;
export type EquationBlock = z.infer<typeof EquationBlockSchema>;
export type ListBlock = z.infer<typeof ListBlockSchema>;
export type CodeBlock = z.infer<typeof CodeBlockSchema>;
export type ChartBlock = z.infer<typeof ChartBlockSchema>;
export type PageFurnitureBlock = z.infer<typeof PageFurnitureBlockSchema>;

/** Per-page facts of a source document. */
export const PageInfoSchema = z.object({
  page_idx: PageIdxSchema,
  width: z.number().positive(),
  height: z.number().positive(),
  /** False for scanned pages or slide images without a text layer. */
  has_text_layer: z.boolean(),
  /** True when the page text came from OCR. */
  ocr: z.boolean().default(false),
  /** Page label from the PDF (e.g. `iv`, `F-3`) when present. */
  label: z.string().optional(),
});
export type PageInfo = z.infer<typeof PageInfoSchema>;

/** The source document a content list or tree was made from. */
export const SourceInfoSchema = z.object({
  /** File name as given (never an absolute path of the machine that built it). */
  filename: z.string().min(1),
  kind: z.enum(['pdf', 'mineru', 'markdown']),
  sha256: Sha256Schema,
  bytes: z.number().int().nonnegative(),
});
export type SourceInfo = z.infer<typeof SourceInfoSchema>;

/** One warning recorded while adapting or enhancing (e.g. a page without text layer). */
export const IngestWarningSchema = z.object({
  code: z.string().min(1),
  message: z.string(),
  page_idx: PageIdxSchema.optional(),
});
export type IngestWarning = z.infer<typeof IngestWarningSchema>;

/** Outline entry from the PDF bookmarks. */
export const OutlineEntrySchema = z.object({
  title: z.string(),
  level: z.number().int().min(1),
  page_idx: PageIdxSchema.optional(),
});
export type OutlineEntry = z.infer<typeof OutlineEntrySchema>;

/** `content_list.adapted.json` / `content_list.enhanced.json`. */
export const ContentListSchema = z.object({
  format: z.literal('doctree.content_list'),
  version: z.literal(CONTENT_LIST_VERSION),
  stage: z.enum(['adapted', 'enhanced']),
  doc_id: z.string().min(1),
  source: SourceInfoSchema,
  pages: z.array(PageInfoSchema),
  outline: z.array(OutlineEntrySchema).default([]),
  blocks: z.array(ContentBlockSchema),
  warnings: z.array(IngestWarningSchema).default([]),
  /** Generator name and version, e.g. `@doctree/ingest@0.1.0`. */
  generator: z.string(),
});
export type ContentList = z.infer<typeof ContentListSchema>;

/**
 * One block of MinerU's `content_list.json` (input only). MinerU boxes are normalised to 0–1000 per
 * page; adapters convert them to PDF points with the page sizes from `middle.json` when given.
 * Unknown fields are kept so newer MinerU versions still load.
 */
export const MinerUBlockSchema = z.looseObject({
  type: z.string().min(1),
  page_idx: z.number().int().nonnegative(),
  bbox: z.tuple([z.number(), z.number(), z.number(), z.number()]).optional(),
  text: z.string().optional(),
  text_level: z.number().int().optional(),
  text_format: z.string().optional(),
  img_path: z.string().optional(),
  image_caption: z.array(z.string()).optional(),
  image_footnote: z.array(z.string()).optional(),
  img_caption: z.array(z.string()).optional(),
  img_footnote: z.array(z.string()).optional(),
  table_body: z.string().optional(),
  table_caption: z.array(z.string()).optional(),
  table_footnote: z.array(z.string()).optional(),
  list_items: z.array(z.string()).optional(),
  sub_type: z.string().optional(),
  code_body: z.string().optional(),
  code_caption: z.array(z.string()).optional(),
  guess_lang: z.string().optional(),
});
export type MinerUBlock = z.infer<typeof MinerUBlockSchema>;

/** MinerU `content_list.json`: an array of blocks. */
export const MinerUContentListSchema = z.array(MinerUBlockSchema);
export type MinerUContentList = z.infer<typeof MinerUContentListSchema>;
