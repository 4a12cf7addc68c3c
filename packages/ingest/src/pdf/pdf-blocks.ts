import type { BBox } from '@doctree/schema';
import type { PdfPageLayout } from './pdf-layout.js';
import { lineFromSpans, lineWeight, unionBox } from './pdf-lines.js';
import type { PdfLine } from './pdf-lines.js';
import { listMarker } from './pdf-patterns.js';
import { isRegionLine } from './pdf-region-line.js';
import type { PdfRegion } from './pdf-region-line.js';

/**
 * Lines into blocks: within one reading flow a new block starts at a wide vertical gap, a font
 * change (size or weight), a list marker, a first-line indent, an outdent after an indented run, or
 * after a short line ending a sentence. Pure functions.
 */

/** Where a block sits on the page. */
export type PdfBlockZone = 'body' | 'top' | 'bottom' | 'aside';

/** A block before typing: lines (one per visual row) plus its dominant font. */
export interface PdfRawBlock {
  page_idx: number;
  zone: PdfBlockZone;
  /** Column on a two-column page (0 left, 1 right). */
  column?: number;
  /** Rows of the block, top to bottom (lines on one baseline merged). */
  lines: PdfLine[];
  bbox: BBox;
  /** Dominant font size by characters. */
  size: number;
  /** True when most characters are bold. */
  bold: boolean;
  font?: string;
  /** True when a row ends in a page number set off by a wide gap or dot leaders (a contents entry). */
  tocLike?: boolean;
  /** The table or figure this block stands for (its only line is the region's placeholder). */
  region?: PdfRegion;
  /** Caption joined to a region block: the caption paragraph and its canonical label (`Table 1`). */
  caption?: { text: string; label: string };
}

/** True for a contents row: dot leaders, or a short trailing number far right of the text. */
export function isTocRow(line: PdfLine): boolean {
  if (/\.{4,}|(?:\. ){3,}|…{2,}/.test(line.text)) return true;
  const spans = line.spans;
  if (spans.length < 2) return false;
  const lastSpan = spans[spans.length - 1]!;
  const previous = spans[spans.length - 2]!;
  return /^(?:\d{1,4}|[ivxlc]{1,6})$/i.test(lastSpan.text.trim()) && lastSpan.bbox[0] - previous.bbox[2] > 2 * line.size;
}

/** Merges lines of one flow that share a row (overlap vertically) into one line, left to right. */
export function mergeRows(lines: readonly PdfLine[]): PdfLine[] {
  const rows: PdfLine[][] = [];
  for (const line of lines) {
    const row = rows[rows.length - 1];
    const last = row?.[row.length - 1];
    if (row && last && !isRegionLine(last) && !isRegionLine(line)) {
      const overlap = Math.min(last.bbox[3], line.bbox[3]) - Math.max(last.bbox[1], line.bbox[1]);
      const smaller = Math.min(last.bbox[3] - last.bbox[1], line.bbox[3] - line.bbox[1]);
      if (smaller > 0 && overlap / smaller >= 0.5) {
        row.push(line);
        continue;
      }
    }
    rows.push([line]);
  }
  return rows.map((row) => {
    if (row.length === 1) return row[0]!;
    const merged = lineFromSpans(row.flatMap((l) => l.spans).sort((a, b) => a.bbox[0] - b.bbox[0]));
    const column = row[0]!.column;
    if (column !== undefined) merged.column = column;
    merged.pieces = [...row].sort((a, b) => a.bbox[0] - b.bbox[0]).map((l) => ({ text: l.text, bbox: l.bbox, size: l.size }));
    return merged;
  });
}

/** Most common vertical gap between consecutive rows of body text on a page (0.5 pt buckets). */
export function modalRowGap(flows: ReadonlyArray<readonly PdfLine[]>): number | undefined {
  const counts = new Map<number, number>();
  for (const rows of flows) {
    for (let i = 1; i < rows.length; i++) {
      const prev = rows[i - 1]!;
      const row = rows[i]!;
      if (isRegionLine(prev) || isRegionLine(row)) continue;
      const gap = row.bbox[1] - prev.bbox[3];
      if (gap < -1 || gap > 2 * prev.size || Math.abs(prev.size - row.size) > 0.5) continue;
      const key = Math.round(Math.max(0, gap) * 2) / 2;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  }
  let best: number | undefined;
  let bestCount = 0;
  for (const [gap, count] of counts) {
    if (count > bestCount || (count === bestCount && best !== undefined && gap < best)) {
      best = gap;
      bestCount = count;
    }
  }
  return bestCount >= 2 ? best : undefined;
}

/** Builds a raw block from its rows. */
export function rawBlock(pageIdx: number, zone: PdfBlockZone, lines: PdfLine[], column?: number): PdfRawBlock {
  const sizes = new Map<number, number>();
  let boldChars = 0;
  let chars = 0;
  const fonts = new Map<string, number>();
  for (const line of lines) {
    sizes.set(line.size, (sizes.get(line.size) ?? 0) + line.text.length);
    chars += line.text.length;
    if (line.bold) boldChars += line.text.length;
    if (line.font) fonts.set(line.font, (fonts.get(line.font) ?? 0) + line.text.length);
  }
  const top = <K>(m: Map<K, number>): K | undefined => [...m.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
  const block: PdfRawBlock = {
    page_idx: pageIdx,
    zone,
    lines,
    bbox: unionBox(lines.map((l) => l.bbox)),
    size: top(sizes) ?? lines[0]?.size ?? 1,
    bold: chars > 0 && boldChars * 2 > chars,
  };
  const font = top(fonts);
  if (font) block.font = font;
  if (lines.some(isTocRow)) block.tocLike = true;
  if (column !== undefined) block.column = column;
  return block;
}

/** True when one row is all bold and the other all regular (a run-in bold phrase is neither). */
function weightChange(prev: PdfLine, row: PdfLine): boolean {
  const a = lineWeight(prev);
  const b = lineWeight(row);
  return a !== 'mixed' && b !== 'mixed' && a !== b;
}

/** Lines opening a structural heading (`PART II`, `Item 7A.`, `Chapter 3`): a bold one starts a block. */
const STRUCTURAL_HEADING = /^(?:part|item|chapter|article|appendix)\s+(?:[ivx]{1,5}|\d{1,2}[a-z]?)\b/i;

const SENTENCE_END = /[.!?:;]["'”’)\]]?$/;

/** Splits one flow (rows in reading order) into blocks; `rowGap` is the page's usual gap between rows. */
export function segmentFlow(rows: readonly PdfLine[], pageIdx: number, rowGap: number | undefined, column?: number): PdfRawBlock[] {
  if (rows.length === 0) return [];
  const textRows = rows.filter((r) => !isRegionLine(r));
  const left = Math.min(...textRows.map((r) => r.bbox[0]));
  const right = Math.max(...textRows.map((r) => r.bbox[2]));
  const width = Math.max(1, right - left);
  const blocks: PdfRawBlock[] = [];
  let current: PdfLine[] = [];
  let currentIsList = false;
  const flush = (): void => {
    if (current.length > 0) blocks.push(rawBlock(pageIdx, 'body', current, column));
    current = [];
  };
  for (const row of rows) {
    if (isRegionLine(row)) {
      // A table or figure is a block of its own.
      flush();
      currentIsList = false;
      const block = rawBlock(pageIdx, 'body', [row], column);
      block.region = row.region;
      blocks.push(block);
      continue;
    }
    const prev = current[current.length - 1];
    const marker = listMarker(row.text);
    let split = prev === undefined;
    if (prev) {
      const size = Math.min(prev.size, row.size);
      const gap = row.bbox[1] - prev.bbox[3];
      const threshold = Math.max(0.5 * size, (rowGap ?? 0.25 * size) + 0.4 * size);
      const blockLeft = Math.min(...current.map((l) => l.bbox[0]));
      const centred =
        Math.abs((row.bbox[0] + row.bbox[2]) / 2 - (prev.bbox[0] + prev.bbox[2]) / 2) < Math.max(2, 0.5 * size) &&
        row.bbox[0] - left > 2 * size;
      const shortPrev = prev.bbox[2] < right - 0.2 * width;
      if (gap > threshold) split = true;
      else if (Math.abs(prev.size - row.size) >= Math.max(0.9, 0.1 * Math.max(prev.size, row.size))) split = true;
      else if (weightChange(prev, row)) split = true;
      else if (marker) split = true;
      else if (STRUCTURAL_HEADING.test(row.text) && lineWeight(row) === 'bold') split = true;
      else if (STRUCTURAL_HEADING.test(prev.text) && prev.text.length <= 14) split = true;
      else if (!centred && row.bbox[0] - prev.bbox[0] > 0.8 * size && !(currentIsList && current.length >= 1)) {
        // First-line indent of a new paragraph (a hanging list item continues instead).
        split = shortPrev || SENTENCE_END.test(prev.text) || current.length > 1;
      } else if (!centred && current.length >= 2 && row.bbox[0] < blockLeft - 0.8 * size) split = true;
      else if (
        !centred &&
        shortPrev &&
        SENTENCE_END.test(prev.text) &&
        /^[A-Z0-9“"([]/.test(row.text) &&
        Math.abs(row.bbox[0] - blockLeft) < 0.8 * size &&
        !currentIsList
      ) {
        split = true;
      }
    }
    if (split) {
      flush();
      currentIsList = marker !== undefined;
    }
    current.push(row);
  }
  flush();
  return blocks;
}

/** All raw blocks of a laid-out page, in reading order: top band, body flows, bottom band, aside text. */
export function pageBlocks(layout: PdfPageLayout, pageIdx: number): PdfRawBlock[] {
  const flows = layout.flows.map((flow) => ({ column: flow.column, rows: mergeRows(flow.lines) }));
  const rowGap = modalRowGap(flows.map((f) => f.rows));
  const blocks: PdfRawBlock[] = [];
  for (const line of layout.top) blocks.push(rawBlock(pageIdx, 'top', [line]));
  for (const flow of flows) blocks.push(...segmentFlow(flow.rows, pageIdx, rowGap, flow.column));
  for (const line of layout.bottom) blocks.push(rawBlock(pageIdx, 'bottom', [line]));
  for (const line of layout.aside) blocks.push(rawBlock(pageIdx, 'aside', [line]));
  return blocks;
}
