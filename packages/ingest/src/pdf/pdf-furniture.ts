import type { PdfRawBlock } from './pdf-blocks.js';
import { rawBlock } from './pdf-blocks.js';
import { unionBox } from './pdf-lines.js';
import type { PdfLine } from './pdf-lines.js';

/**
 * Running headers and footers outside the fixed furniture bands: a footer set high above the bottom
 * edge (`Northwind Inc. 2021 Form 10-K 4` at 81 % of the page) is read as the last row of the body and
 * would join the paragraph above it. Document-wide, such rows repeat at the top or bottom edge of
 * most pages; this module finds their templates (digits folded) and splits matching rows out of body
 * blocks into header / footer blocks. Pure functions over raw blocks (document order).
 */

/** Options of {@link splitRunningRows}. */
export interface RunningRowOptions {
  /** Share of text pages a template must reach at a page edge. Default 0.6. */
  minPageShare?: number;
  /** Rows from each edge of a page that count as edge rows. Default 2. */
  edgeRows?: number;
  /** Body font size of the document: a matching row anywhere on a page larger than this is a heading, not furniture. */
  bodySize?: number;
}

const DEFAULTS = { minPageShare: 0.6, edgeRows: 2, bodySize: Infinity };

const LETTER = /\p{L}/u;

/**
 * Letters (`\p{L}`, by code point) of a text, counted up to `atLeast` (the callers only ask whether there are
 * three): a loop, not an array of every letter matched.
 */
function letters(text: string, atLeast = Infinity): number {
  let n = 0;
  for (let i = 0; i < text.length && n < atLeast; i++) {
    const c = text.charCodeAt(i);
    if (c < 128) {
      if ((c >= 65 && c <= 90) || (c >= 97 && c <= 122)) n++;
      continue;
    }
    const point = text.codePointAt(i)!;
    if (point > 0xffff) i++;
    if (LETTER.test(String.fromCodePoint(point))) n++;
  }
  return n;
}

/** Fewest pages a running template needs, whatever the share. */
const MIN_PAGES = 3;
/** Longest row (characters) that may be running furniture. */
const MAX_CHARS = 120;
/** Most words a running header / footer has (a body row of running text has more). */
const MAX_WORDS = 10;

/**
 * Template of a row: lower case, blanks collapsed, digits and trailing roman page numbers folded, and a
 * page number read into the row at either end dropped (`User Manual WMF 1500S 21` and `User Manual WMF
 * 1500S` share one template).
 */
export function rowTemplate(text: string): string {
  const folded = text
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/\b[ivxlc]+\s*$/, '#')
    .replace(/\d+/g, '#')
    .trim();
  const bare = folded.replace(/^(?:page )?#\s+/, '').replace(/\s+#$/, '');
  return letters(bare, 3) >= 3 ? bare : folded;
}

interface PageRow {
  block: PdfRawBlock;
  line: PdfLine;
}

/** Rows of the text blocks of each page, top to bottom. */
function rowsByPage(blocks: readonly PdfRawBlock[]): Map<number, PageRow[]> {
  const pages = new Map<number, PageRow[]>();
  for (const block of blocks) {
    if (block.region || block.zone === 'aside') continue;
    const rows = pages.get(block.page_idx) ?? [];
    for (const line of block.lines) if (line.text.trim()) rows.push({ block, line });
    pages.set(block.page_idx, rows);
  }
  for (const rows of pages.values()) rows.sort((a, b) => a.line.bbox[1] - b.line.bbox[1] || a.line.bbox[0] - b.line.bbox[0]);
  return pages;
}

/** Rows among the first / last `edgeRows` visual rows of a page (rows on one baseline count once). */
function edgeRows(rows: readonly PageRow[], count: number): Set<PageRow> {
  const out = new Set<PageRow>();
  const take = (ordered: readonly PageRow[]): void => {
    let seen = 0;
    let lastTop: number | undefined;
    for (const row of ordered) {
      const top = row.line.bbox[1];
      if (lastTop === undefined || Math.abs(top - lastTop) > 0.5 * row.line.size) {
        seen++;
        lastTop = top;
      }
      if (seen > count) break;
      out.add(row);
    }
  };
  take(rows);
  take([...rows].reverse());
  return out;
}

/**
 * Templates of short rows (at most ten words) that sit at a page edge (first or last rows of the
 * page) on at least `minPageShare` of the pages with text (and at least three pages).
 */
export function runningTemplates(blocks: readonly PdfRawBlock[], options: RunningRowOptions = {}): Set<string> {
  const opts = { ...DEFAULTS, ...options };
  const pages = rowsByPage(blocks);
  const counts = new Map<string, number>();
  for (const rows of pages.values()) {
    const seen = new Set<string>();
    for (const row of edgeRows(rows, opts.edgeRows)) {
      if (row.line.text.length > MAX_CHARS || row.line.text.trim().split(/\s+/).length > MAX_WORDS) continue;
      seen.add(rowTemplate(row.line.text));
    }
    for (const template of seen) counts.set(template, (counts.get(template) ?? 0) + 1);
  }
  const textPages = pages.size;
  const needed = Math.max(MIN_PAGES, Math.ceil(opts.minPageShare * textPages));
  return new Set([...counts].filter(([template, n]) => n >= needed && template !== '').map(([template]) => template));
}

/**
 * Splits running header / footer rows out of body blocks. A body row is furniture when its template is
 * a running template (see {@link runningTemplates}) and it is an edge row of its page, or, for a
 * template with words (not a bare page number), when it is not set larger than the body text (a
 * chart credit repeating the running header; also when it was read into a row beside other text,
 * which then keeps the rest). The rows become blocks of their own in the `top` or
 * `bottom` zone (by which half of the page they are on), right after what remains of their block;
 * blocks in the furniture bands are left as they are.
 */
export function splitRunningRows(blocks: readonly PdfRawBlock[], pageHeights: ReadonlyMap<number, number>, options: RunningRowOptions = {}): PdfRawBlock[] {
  const opts = { ...DEFAULTS, ...options };
  const templates = runningTemplates(blocks, opts);
  if (templates.size === 0) return [...blocks];
  const edges = new Set<PdfLine>();
  for (const rows of rowsByPage(blocks).values()) for (const row of edgeRows(rows, opts.edgeRows)) edges.add(row.line);
  const out: PdfRawBlock[] = [];
  for (const block of blocks) {
    if (block.zone !== 'body' || block.region) {
      out.push(block);
      continue;
    }
    const furniture = (text: string, size: number, edge: boolean): boolean => {
      // Length first: a long row needs no template.
      if (text.length > MAX_CHARS) return false;
      const template = rowTemplate(text);
      if (!templates.has(template)) return false;
      return edge || (letters(template, 3) >= 3 && size <= opts.bodySize * 1.05);
    };
    const kept: PdfLine[] = [];
    const removed: PdfLine[] = [];
    for (const line of block.lines) {
      if (furniture(line.text, line.size, edges.has(line))) {
        removed.push(line);
        continue;
      }
      // A running line read into a row beside other text (a chart credit next to a paragraph line).
      const pieces = line.pieces ?? [];
      const running = pieces.filter((p) => furniture(p.text, p.size, false));
      if (pieces.length < 2 || running.length === 0 || running.length === pieces.length) {
        kept.push(line);
        continue;
      }
      const rest = pieces.filter((p) => !running.includes(p));
      kept.push({ ...line, text: rest.map((p) => p.text).join(' '), bbox: unionBox(rest.map((p) => p.bbox)), pieces: rest });
      for (const piece of running) removed.push({ text: piece.text, bbox: piece.bbox, baseline: piece.bbox[3], size: piece.size, bold: false, spans: [] });
    }
    if (removed.length === 0) {
      out.push(block);
      continue;
    }
    if (kept.length > 0) out.push({ ...rawBlock(block.page_idx, 'body', kept, block.column), ...(block.caption ? { caption: block.caption } : {}) });
    const middle = (pageHeights.get(block.page_idx) ?? 792) / 2;
    for (const line of removed) {
      out.push(rawBlock(block.page_idx, (line.bbox[1] + line.bbox[3]) / 2 < middle ? 'top' : 'bottom', [line]));
    }
  }
  return out;
}
