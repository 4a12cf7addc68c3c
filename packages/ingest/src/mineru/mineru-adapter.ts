import { CONTENT_LIST_VERSION, ContentListSchema, DocTreeError, formatIssues } from '@doctree/schema';
import type { BBox, ContentBlock, ContentList, IngestWarning, ListBlock, MinerUBlock, PageInfo, PageSize } from '@doctree/schema';
import { ADAPTER_GENERATOR, WarningTally, blockId, captionLabel, checkSourceOptions, roundPt, titleNumbering } from './adapter-support.js';
import type { AdaptedBlockFields } from './adapter-support.js';
import { extractTableHtml, parseHtmlTable, tableToMarkdown } from './html-table.js';
import { DEFAULT_MAX_PAGES } from '../limits.js';
import { readMinerUMiddle, validateMinerUContentList } from './mineru-validate.js';
import type { MinerUMiddleInfo } from './mineru-validate.js';

/**
 * The MinerU adapter: MinerU's `content_list.json` (+ optional `middle.json` for page sizes) →
 * `content_list.adapted.json`. MinerU already did layout analysis, so this is a faithful, checked
 * translation: boxes from MinerU's 0–1000 grid to PDF points, block types to DocTree block types,
 * captions, footnotes and labels kept.
 */

/** Generator name written into content lists made by {@link adaptMinerU}. */
export const MINERU_ADAPTER_GENERATOR = ADAPTER_GENERATOR;

/** MinerU output to adapt, already parsed from JSON (the CLI reads the files; see `loadMinerUFiles`). */
export interface MinerUInput {
  /** Parsed `*_content_list.json`: an array of blocks in reading order. */
  contentList: unknown;
  /** Parsed `*_middle.json`; only `pdf_info[i].page_size` / `page_idx` / `_parse_type` are read. */
  middle?: unknown;
}

/** Options of {@link adaptMinerU}. */
export interface AdaptMinerUOptions {
  /** Document id written to `doc_id` (e.g. the folder name under `data/`). */
  docId: string;
  /** File name of `content_list.json` as given by the user (not an absolute path); recorded in `source` and named in errors. */
  filename: string;
  /** Lowercase hex sha256 of the `content_list.json` bytes (recorded in `source`). */
  sha256: string;
  /** Size of `content_list.json` in bytes (recorded in `source`). */
  bytes: number;
  /** File name of `middle.json`, named in errors about it. Defaults to `middle.json`. */
  middleFilename?: string;
  /** Page size assumed for pages `middle.json` does not describe (or when it is absent). Defaults to US Letter, 612×792 pt. */
  defaultPageSize?: PageSize;
  /**
   * Most pages a document may have: every `page_idx` (of a block or of `middle.json`) must be below it, so that a
   * corrupt or hostile file (a `page_idx` of 2 000 000 000) cannot make millions of pages. Default
   * {@link DEFAULT_MAX_PAGES} (5 000).
   */
  maxPages?: number;
}


/** Defaults merged under the caller's {@link AdaptMinerUOptions}. */
export const ADAPT_MINERU_DEFAULTS: Required<Pick<AdaptMinerUOptions, 'middleFilename' | 'defaultPageSize' | 'maxPages'>> = {
  middleFilename: 'middle.json',
  defaultPageSize: { width: 612, height: 792 },
  maxPages: DEFAULT_MAX_PAGES,
};

/** MinerU page-furniture types, kept as DocTree furniture blocks. */
const FURNITURE = new Set(['header', 'footer', 'page_number', 'page_footnote', 'aside_text']);
/** Types MinerU marks as not part of the content; skipped with a counted warning. */
const DISCARDED = new Set(['discarded', 'discarded_blocks']);
/** The MinerU grid boxes are normalised to. */
const GRID = 1000;


function strings(...lists: Array<readonly unknown[] | undefined>): string[] {
  const out: string[] = [];
  for (const list of lists) for (const item of list ?? []) if (typeof item === 'string' && item.trim() !== '') out.push(item.trim());
  return out;
}

/** Removes `$$…$$`, `\[…\]` or `$…$` delimiters around MinerU equation text. */
function stripMathDelimiters(text: string): { latex: string; delimited: boolean } {
  const t = text.trim();
  for (const [open, close] of [['$$', '$$'], ['\\[', '\\]'], ['$', '$']] as const) {
    if (t.length > open.length + close.length && t.startsWith(open) && t.endsWith(close)) {
      return { latex: t.slice(open.length, t.length - close.length).trim(), delimited: true };
    }
  }
  return { latex: t, delimited: false };
}

function listSubType(raw: string | undefined, items: readonly string[]): ListBlock['sub_type'] {
  const kind = raw?.toLowerCase();
  if (kind === 'ref_text' || kind === 'reference' || kind === 'references') return 'reference';
  if (kind === 'ordered' || kind === 'bullet') return kind;
  const numbered = items.filter((item) => /^\(?(?:[0-9]{1,3}|[a-z])[.)]\s/i.test(item)).length;
  return items.length > 0 && numbered * 2 >= items.length ? 'ordered' : 'bullet';
}

/** What to do with one MinerU block: the DocTree fields, or a reason to skip it. */
type Mapped = { fields: AdaptedBlockFields } | { skip: { code: string; what: string } };

const EMPTY = (type: string): Mapped => ({ skip: { code: 'MINERU_EMPTY_BLOCK', what: `empty "${type}" block(s) skipped` } });

function mapBlock(b: MinerUBlock, tally: WarningTally, index: number): Mapped {
  const text = (b.text ?? '').trim();
  const type = b.type;
  if (type === 'text' || type === 'title') {
    if (!text) return EMPTY(type);
    const level = b.text_level ?? (type === 'title' ? 1 : 0);
    if (level < 1) return { fields: { type: 'text', text } };
    if (level > 9) tally.add('MINERU_TEXT_LEVEL_CLAMPED', 'heading level(s) above 9 set to 9', index);
    const numbering = titleNumbering(text);
    return { fields: { type: 'title', text, text_level: Math.min(level, 9), ...(numbering ? { numbering } : {}) } };
  }
  if (type === 'image') {
    const image_caption = strings(b.image_caption?.length ? b.image_caption : b.img_caption);
    const image_footnote = strings(b.image_footnote?.length ? b.image_footnote : b.img_footnote);
    const label = captionLabel(image_caption);
    return {
      fields: { type: 'image', image_caption, image_footnote, source: 'mineru', ...(b.img_path ? { img_path: b.img_path } : {}), ...(label ? { label } : {}) },
    };
  }
  if (type === 'table') {
    const table_caption = strings(b.table_caption);
    const table_footnote = strings(b.table_footnote);
    const label = captionLabel(table_caption);
    const html = b.table_body?.trim() ? extractTableHtml(b.table_body) : '';
    if (!html) {
      if (!b.img_path && table_caption.length === 0) return EMPTY(type);
      tally.add('MINERU_TABLE_NO_HTML', 'table(s) without table_body HTML kept with an empty body (image and captions only)', index);
    }
    const parsed = html ? parseHtmlTable(html) : undefined;
    const markdown = parsed && parsed.rows.length > 0 ? tableToMarkdown(parsed.rows, parsed.headerRows) : undefined;
    return {
      fields: {
        type: 'table',
        table_body: html,
        table_caption,
        table_footnote,
        ...(markdown ? { markdown } : {}),
        ...(b.img_path ? { img_path: b.img_path } : {}),
        ...(label ? { label } : {}),
      },
    };
  }
  if (type === 'equation' || type === 'interline_equation') {
    if (!text) return EMPTY(type);
    const { latex, delimited } = stripMathDelimiters(text);
    const format = b.text_format?.toLowerCase();
    const text_format = format === 'latex' || (format === undefined && delimited) ? 'latex' : 'plain';
    return { fields: { type: 'equation', text: text_format === 'latex' ? latex : text, text_format } };
  }
  if (type === 'list') {
    const items = strings(b.list_items);
    const list_items = items.length > 0 ? items : strings(text.split('\n'));
    if (list_items.length === 0) return EMPTY(type);
    return { fields: { type: 'list', list_items, sub_type: listSubType(b.sub_type, list_items) } };
  }
  if (type === 'code' || type === 'algorithm') {
    const code_body = (b.code_body ?? b.text ?? '').replace(/^\n+|\s+$/g, '');
    if (!code_body.trim()) return EMPTY(type);
    const code_caption = strings(b.code_caption, b['code_footnote'] as string[] | undefined);
    const lang = b.guess_lang?.trim();
    return { fields: { type: 'code', code_body, code_caption, ...(lang ? { guess_lang: lang } : {}) } };
  }
  if (type === 'chart') {
    const chart_caption = strings(b['chart_caption'] as string[] | undefined, b['chart_footnote'] as string[] | undefined);
    const label = captionLabel(chart_caption);
    const chartType = b.sub_type?.trim();
    return {
      fields: { type: 'chart', chart_caption, ...(b.img_path ? { img_path: b.img_path } : {}), ...(chartType ? { chart_type: chartType } : {}), ...(label ? { label } : {}) },
    };
  }
  if (FURNITURE.has(type)) {
    if (!text) return EMPTY(type);
    return { fields: { type: type as 'header', text } };
  }
  if (DISCARDED.has(type)) return { skip: { code: 'MINERU_BLOCK_SKIPPED', what: `"${type}" block(s) skipped, marked by MinerU as not content` } };
  if (text) {
    tally.add('MINERU_UNKNOWN_TYPE', `block(s) of unknown type "${type}" kept as text`, index);
    return { fields: { type: 'text', text } };
  }
  return { skip: { code: 'MINERU_UNKNOWN_TYPE', what: `block(s) of unknown type "${type}" without text skipped` } };
}

/** Converts a 0–1000 MinerU box to PDF points on `size`; repairs out-of-range or inverted boxes. */
function toPoints(bbox: MinerUBlock['bbox'], size: PageSize, repaired: () => void, missing: () => void): BBox {
  if (!bbox) {
    missing();
    return [0, 0, size.width, size.height];
  }
  const clamp = (v: number): number => Math.min(GRID, Math.max(0, v));
  const [a, b, c, d] = bbox.map(clamp) as [number, number, number, number];
  const box: [number, number, number, number] = [Math.min(a, c), Math.min(b, d), Math.max(a, c), Math.max(b, d)];
  if (box.some((v, i) => v !== bbox[i])) repaired();
  return [roundPt((box[0] / GRID) * size.width), roundPt((box[1] / GRID) * size.height), roundPt((box[2] / GRID) * size.width), roundPt((box[3] / GRID) * size.height)];
}

/**
 * Adapts MinerU output into a content list (stage `adapted`, origin `mineru`). Blocks keep MinerU's
 * order (MinerU writes reading order) as `read_order`; ids are `b_000000`, `b_000001`, … over kept blocks.
 *
 * - Boxes: MinerU's 0–1000 per-page grid → PDF points, top-left origin, using `middle.json` page sizes;
 *   without `middle.json` every page is 612×792 pt and a `PAGE_SIZE_ASSUMED` warning says so (also per
 *   page missing from `middle.json`). Missing boxes become the whole page (`MINERU_BBOX_MISSING`);
 *   out-of-range or inverted boxes are clamped and ordered (`MINERU_BBOX_REPAIRED`).
 * - Types: `text` (→ `title` when `text_level` ≥ 1, levels above 9 clamped), `image` (`image_*` or the
 *   older `img_*` caption fields), `table` (HTML body cut out of MinerU's `<html><body>` wrapper plus a
 *   Markdown preview), `equation` (LaTeX without `$$`), `list` (`ref_text` → `reference`), `code`
 *   (`code_footnote` appended to `code_caption`), `chart` (`chart_footnote` appended to `chart_caption`),
 *   `header`, `footer`, `page_number`, `page_footnote`, `aside_text`. Figure/table labels come from the
 *   first caption that starts with one (`Figure 3`, `Table 2`).
 * - Skipped, each kind as one counted warning naming block indices: `discarded` blocks
 *   (`MINERU_BLOCK_SKIPPED`), empty blocks (`MINERU_EMPTY_BLOCK`), unknown types without text
 *   (`MINERU_UNKNOWN_TYPE`; with text they are kept as text blocks under the same code).
 * - Pages: one per page index up to the last block or the last `middle.json` page; a page without kept
 *   blocks gets `has_text_layer: false` and a `PAGE_EMPTY` warning. `ocr` is true when `middle.json`
 *   says `_parse_type: "ocr"`.
 *
 * @throws DocTreeError `MINERU_INVALID` (file = `options.filename` or `options.middleFilename`) naming
 * the block index and field: not an array, a block without `page_idx`, a negative or fractional
 * `page_idx`, a `page_idx` (of a block or of `middle.json`) at or beyond `maxPages` (with `page`), a `bbox` that is not four numbers, a `text_level` that is not an integer ≥ 0, a caption
 * that is not a string array…; `USAGE` for a missing docId/filename or a bad sha256/bytes.
 *
 * @example
 * ```ts
 * const contentList = JSON.parse(await readFile('paper_content_list.json', 'utf8'));
 * const middle = JSON.parse(await readFile('paper_middle.json', 'utf8'));
 * const list = adaptMinerU({ contentList, middle }, { docId: 'paper', filename: 'paper_content_list.json', sha256, bytes });
 * console.log(list.blocks.filter((b) => b.type === 'table').map((b) => b.markdown));
 * ```
 */
export function adaptMinerU(input: MinerUInput, options: AdaptMinerUOptions): ContentList {
  const settings = { ...ADAPT_MINERU_DEFAULTS, ...options };
  const sha256 = checkSourceOptions('adaptMinerU', settings);
  const { filename, defaultPageSize } = settings;
  if (!(defaultPageSize.width > 0 && defaultPageSize.height > 0)) {
    throw new DocTreeError('USAGE', `defaultPageSize must have a positive width and height, got ${JSON.stringify(defaultPageSize)}`, { file: filename });
  }
  const { maxPages } = settings;
  if (!(Number.isInteger(maxPages) && maxPages > 0)) throw new DocTreeError('USAGE', `maxPages must be a positive integer, got ${String(maxPages)}`, { file: filename });
  const raw = validateMinerUContentList(input.contentList, filename);
  const middle: MinerUMiddleInfo | undefined = input.middle === undefined ? undefined : readMinerUMiddle(input.middle, settings.middleFilename, maxPages);
  // Page indexes are bounded before anything is sized by them (pages, page sizes, empty-page warnings).
  raw.forEach((b, index) => {
    if (b.page_idx < maxPages) return;
    throw new DocTreeError('MINERU_INVALID', `invalid MinerU content_list.json: block ${index}, field "page_idx": ${b.page_idx} is not below the maximum page count ${maxPages}`, {
      file: filename,
      page: b.page_idx + 1,
      hint: `page_idx is 0-based and below the document's page count: the file is damaged, or the document has more than ${maxPages} pages (raise maxPages).`,
      details: { block: index, page_idx: b.page_idx, max_pages: maxPages },
    });
  });

  const warnings: IngestWarning[] = [];
  const tally = new WarningTally();
  const maxBlockPage = raw.reduce((max, b) => Math.max(max, b.page_idx), -1);
  const pageCount = Math.max(maxBlockPage + 1, middle?.pageCount ?? 0);

  if (!middle) {
    warnings.push({
      code: 'PAGE_SIZE_ASSUMED',
      message: `No middle.json given: every page is assumed to be ${defaultPageSize.width}×${defaultPageSize.height} pt; boxes are scaled from MinerU's 0–1000 grid to that size.`,
    });
  }
  const sizes: PageSize[] = [];
  for (let p = 0; p < pageCount; p++) {
    const known = middle?.pageSizes.get(p);
    if (middle && !known) {
      warnings.push({
        code: 'PAGE_SIZE_ASSUMED',
        page_idx: p,
        message: `${settings.middleFilename} has no page_size for page ${p + 1}; assumed ${defaultPageSize.width}×${defaultPageSize.height} pt.`,
      });
    }
    sizes.push(known ?? defaultPageSize);
  }

  const blocks: ContentBlock[] = [];
  const used = new Set<number>();
  raw.forEach((b, index) => {
    const mapped = mapBlock(b, tally, index);
    if ('skip' in mapped) {
      tally.add(mapped.skip.code, mapped.skip.what, index);
      return;
    }
    const page_size = sizes[b.page_idx]!;
    const bbox = toPoints(
      b.bbox,
      page_size,
      () => tally.add('MINERU_BBOX_REPAIRED', 'box(es) outside the 0–1000 grid or inverted, clamped and ordered', index),
      () => tally.add('MINERU_BBOX_MISSING', 'block(s) without bbox given the whole page as box', index),
    );
    used.add(b.page_idx);
    blocks.push({
      ...mapped.fields,
      block_id: blockId(blocks.length),
      page_idx: b.page_idx,
      bbox,
      page_size: { ...page_size },
      read_order: blocks.length,
      origin: 'mineru',
    } as ContentBlock);
  });

  if (raw.length === 0) warnings.push({ code: 'MINERU_EMPTY', message: `${filename} holds no blocks.` });
  const pages: PageInfo[] = sizes.map((size, page_idx) => ({ page_idx, width: size.width, height: size.height, has_text_layer: used.has(page_idx), ocr: middle?.ocr ?? false }));
  for (const page of pages) {
    if (!page.has_text_layer) {
      warnings.push({ code: 'PAGE_EMPTY', page_idx: page.page_idx, message: `Page ${page.page_idx + 1} has no MinerU content blocks; it is marked as having no text layer.` });
    }
  }
  warnings.push(...tally.warnings());

  const list: ContentList = {
    format: 'doctree.content_list',
    version: CONTENT_LIST_VERSION,
    stage: 'adapted',
    doc_id: settings.docId,
    source: { filename, kind: 'mineru', sha256, bytes: settings.bytes },
    pages,
    outline: [],
    blocks,
    warnings,
    generator: MINERU_ADAPTER_GENERATOR,
  };
  const checked = ContentListSchema.safeParse(list);
  if (!checked.success) {
    throw new DocTreeError('INTERNAL', `adaptMinerU produced an invalid content list: ${formatIssues(checked.error)}`, { file: filename });
  }
  return checked.data;
}
