import { createHash } from 'node:crypto';
import { CONTENT_LIST_VERSION, ContentListSchema, DocTreeError, formatIssues } from '@doctree/schema';
import type { BBox, ContentBlock, ContentList, IngestWarning, PageInfo, PageSize } from '@doctree/schema';
import { parseCaptionLabel } from '../builder/labels.js';
import { ADAPTER_GENERATOR, blockId, captionLabel, checkSourceOptions, titleNumbering } from '../mineru/adapter-support.js';
import type { AdaptedBlockFields } from '../mineru/adapter-support.js';
import { gridToHtml, tableToMarkdown } from '../mineru/html-table.js';
import { readMarkdownBlocks } from './markdown-blocks.js';
import type { MdBlock } from './markdown-blocks.js';

/**
 * The Markdown adapter: a Markdown document → `content_list.adapted.json` with synthetic geometry.
 *
 * Markdown has no pages and no boxes, so both are made up, honestly and predictably:
 * - Pages: everything is on page 0 unless the document has explicit page breaks — a line
 *   `<!-- page N -->` (content after it is on 1-based page N) or a form feed `\f` (next page). Long
 *   documents are never split into invented pages, so a page number always means something the author wrote.
 * - Boxes: each virtual page is 612 pt wide; source line n of the page (0-based, blank lines included)
 *   occupies y = 72 + 14·n … 72 + 14·(n+1), and a block spans x 72…540 over its lines. A page is 792 pt high
 *   or taller when it has more than 46 lines (72 pt margins), so boxes always fit.
 * - Every list carries a `SYNTHETIC_GEOMETRY` warning so downstream steps know the boxes are not from a page.
 */

/** Generator name written into content lists made by {@link adaptMarkdown}. */
export const MARKDOWN_ADAPTER_GENERATOR = ADAPTER_GENERATOR;

/** Options of {@link adaptMarkdown}. */
export interface AdaptMarkdownOptions {
  /** Document id written to `doc_id` (e.g. the folder name under `data/`). */
  docId: string;
  /** File name as given by the user (not an absolute path); recorded in `source` and named in errors. */
  filename: string;
  /** Lowercase hex sha256 of the file bytes; defaults to the sha256 of the markdown string as UTF-8. */
  sha256?: string;
  /** Size of the file in bytes; defaults to the UTF-8 length of the markdown string. */
  bytes?: number;
}

/** Width of a virtual page, in points (US Letter). */
const PAGE_WIDTH = 612;
/** Minimum height of a virtual page, in points (US Letter). */
const PAGE_MIN_HEIGHT = 792;
const MARGIN = 72;
const LINE_HEIGHT = 14;

/** Paragraphs at most this long can be a caption of a neighbouring figure, table or listing. */
const CAPTION_MAX_CHARS = 400;
const LISTING_CAPTION_RE = /^\s*(?:listing|algorithm|code)\s+[0-9A-Z][\w.-]*\s*[:.\-–—]/i;

type CaptionKind = 'figure' | 'table' | 'code';

function captionKind(text: string): CaptionKind | undefined {
  if (text.length > CAPTION_MAX_CHARS) return undefined;
  if (LISTING_CAPTION_RE.test(text)) return 'code';
  const kind = parseCaptionLabel(text)?.kind;
  return kind === 'figure' || kind === 'table' ? kind : undefined;
}

/**
 * Finds the caption paragraph of each figure, table and code block: the neighbouring paragraph on the
 * same page whose text starts with a matching label (`Figure 3:` for images, `Table 2` for tables,
 * `Listing 1:` for code). Figures and listings look below first, tables above first.
 */
function pairCaptions(blocks: readonly MdBlock[]): Map<number, number> {
  const captionOf = new Map<number, number>(); // owner index → caption paragraph index
  const taken = new Set<number>();
  blocks.forEach((block, i) => {
    const wanted: CaptionKind | undefined = block.kind === 'image' ? 'figure' : block.kind === 'table' ? 'table' : block.kind === 'code' ? 'code' : undefined;
    if (!wanted) return;
    const order = wanted === 'table' ? [i - 1, i + 1] : [i + 1, i - 1];
    for (const j of order) {
      const other = blocks[j];
      if (!other || other.kind !== 'paragraph' || other.page !== block.page || taken.has(j)) continue;
      if (captionKind(other.text) !== wanted) continue;
      captionOf.set(i, j);
      taken.add(j);
      return;
    }
  });
  return captionOf;
}

function fieldsOf(block: MdBlock, caption: string | undefined): AdaptedBlockFields {
  switch (block.kind) {
    case 'heading': {
      const numbering = titleNumbering(block.text);
      return { type: 'title', text: block.text, text_level: block.level, ...(numbering ? { numbering } : {}) };
    }
    case 'paragraph':
    case 'quote':
      return { type: 'text', text: block.text };
    case 'list':
      return { type: 'list', list_items: block.items, sub_type: block.ordered ? 'ordered' : 'bullet' };
    case 'math':
      return { type: 'equation', text: block.latex, text_format: 'latex' };
    case 'code':
      return { type: 'code', code_body: block.body, code_caption: caption ? [caption] : [], ...(block.lang ? { guess_lang: block.lang } : {}) };
    case 'image': {
      const image_caption = [...new Set([caption, block.image.alt].filter((c): c is string => !!c))];
      const label = captionLabel(image_caption);
      return {
        type: 'image',
        image_caption,
        image_footnote: [],
        source: 'markdown',
        ...(block.image.src ? { img_path: block.image.src } : {}),
        ...(label ? { label } : {}),
      };
    }
    case 'table': {
      const table_caption = caption ? [caption] : [];
      const label = captionLabel(table_caption);
      const markdown = tableToMarkdown(block.rows, block.headerRows);
      return {
        type: 'table',
        table_body: block.html ?? gridToHtml(block.rows, block.headerRows),
        table_caption,
        table_footnote: [],
        ...(markdown ? { markdown } : {}),
        ...(label ? { label } : {}),
      };
    }
  }
}

/**
 * Adapts Markdown into a content list (stage `adapted`, origin `markdown`, synthetic geometry — see the
 * module comment for pages and boxes).
 *
 * - ATX (`#`…`######`) and setext (`===`, `---`) headings → `title` blocks with `text_level` 1–6.
 * - Paragraphs → `text` (lines joined with spaces, inline Markdown reduced to plain text);
 *   blockquotes → `text`, one block per quoted paragraph.
 * - Bullet / ordered lists → one `list` block per list; nested items are flattened into the same list
 *   with two spaces of indentation per level (`"  Beta one"`); continuation lines join their item.
 * - GFM pipe tables → `table` with escaped HTML `table_body` (`<thead>` from the header row) and a
 *   Markdown preview; HTML `<table>` blocks are kept as written and previewed through `parseHtmlTable`.
 * - Images alone on a line (`![alt](path)`, linked images, reference images, `<img>`) → `image` with
 *   `img_path`; the caption list holds a neighbouring `Figure N: …` paragraph (which is consumed and
 *   gives the label) and the alt text.
 * - A `Table N: …` paragraph next to a table and a `Listing N: …` paragraph next to code become their captions.
 * - Fenced (``` / ~~~) and indented code → `code` with `guess_lang` from the info string.
 * - `$$…$$` and `\[…\]` display math → `equation` (LaTeX).
 * - HTML comments, thematic breaks, link reference definitions and YAML front matter are skipped.
 *
 * Warnings: always `SYNTHETIC_GEOMETRY`; `PAGE_EMPTY` for a page without blocks;
 * `PAGE_MARKER_OUT_OF_ORDER`, `MARKDOWN_UNCLOSED_FENCE`, `MARKDOWN_UNCLOSED_COMMENT` as they occur.
 *
 * @throws DocTreeError `USAGE` for a missing docId/filename or a bad sha256/bytes.
 *
 * @example
 * ```ts
 * const list = adaptMarkdown(await readFile('notes.md', 'utf8'), { docId: 'notes', filename: 'notes.md' });
 * console.log(list.blocks.filter((b) => b.type === 'title').map((b) => b.text));
 * ```
 */
export function adaptMarkdown(markdown: string, options: AdaptMarkdownOptions): ContentList {
  const utf8 = Buffer.from(markdown, 'utf8');
  const settings = {
    ...options,
    sha256: options.sha256 ?? createHash('sha256').update(utf8).digest('hex'),
    bytes: options.bytes ?? utf8.byteLength,
  };
  const sha256 = checkSourceOptions('adaptMarkdown', settings);
  const { filename } = settings;
  const doc = readMarkdownBlocks(markdown);

  const lastPage = Math.max(0, ...doc.blocks.map((b) => b.page));
  const sizes: PageSize[] = Array.from({ length: lastPage + 1 }, (_, p) => ({
    width: PAGE_WIDTH,
    height: Math.max(PAGE_MIN_HEIGHT, 2 * MARGIN + LINE_HEIGHT * (doc.pageLines[p] ?? 0)),
  }));

  const captionOf = pairCaptions(doc.blocks);
  const captions = new Set(captionOf.values());
  const blocks: ContentBlock[] = [];
  doc.blocks.forEach((block, i) => {
    if (captions.has(i)) return;
    const captionIndex = captionOf.get(i);
    const captionBlock = captionIndex !== undefined ? doc.blocks[captionIndex] : undefined;
    const caption = captionBlock?.kind === 'paragraph' ? captionBlock.text : undefined;
    const first = Math.min(block.first, captionBlock?.first ?? block.first);
    const last = Math.max(block.last, captionBlock?.last ?? block.last);
    const bbox: BBox = [MARGIN, MARGIN + LINE_HEIGHT * first, PAGE_WIDTH - MARGIN, MARGIN + LINE_HEIGHT * (last + 1)];
    blocks.push({
      ...fieldsOf(block, caption),
      block_id: blockId(blocks.length),
      page_idx: block.page,
      bbox,
      page_size: { ...sizes[block.page]! },
      read_order: blocks.length,
      origin: 'markdown',
    } as ContentBlock);
  });

  const used = new Set(blocks.map((b) => b.page_idx));
  const pages: PageInfo[] = sizes.map((size, page_idx) => ({ page_idx, ...size, has_text_layer: used.has(page_idx), ocr: false }));
  const warnings: IngestWarning[] = [
    {
      code: 'SYNTHETIC_GEOMETRY',
      message: `${filename} is Markdown: boxes are synthetic (one 14 pt line per source line on a ${PAGE_WIDTH} pt wide virtual page) and pages come only from explicit page markers.`,
    },
    ...doc.warnings,
  ];
  for (const page of pages) {
    if (!page.has_text_layer) {
      warnings.push({ code: 'PAGE_EMPTY', page_idx: page.page_idx, message: `Page ${page.page_idx + 1} of ${filename} has no content.` });
    }
  }

  const list: ContentList = {
    format: 'doctree.content_list',
    version: CONTENT_LIST_VERSION,
    stage: 'adapted',
    doc_id: settings.docId,
    source: { filename, kind: 'markdown', sha256, bytes: settings.bytes },
    pages,
    outline: [],
    blocks,
    warnings,
    generator: MARKDOWN_ADAPTER_GENERATOR,
  };
  const checked = ContentListSchema.safeParse(list);
  if (!checked.success) {
    throw new DocTreeError('INTERNAL', `adaptMarkdown produced an invalid content list: ${formatIssues(checked.error)}`, { file: filename });
  }
  return checked.data;
}
