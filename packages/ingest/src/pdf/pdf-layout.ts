import type { PdfLine } from './pdf-lines.js';
import { isPageNumberText } from './pdf-patterns.js';
import { isRegionLine } from './pdf-region-line.js';

/**
 * Page layout from line geometry: the top and bottom furniture bands, a column gutter found in the
 * x-distribution of lines, and the reading order (full-width lines in place, left column before
 * right column between them). Pure functions.
 */

/** Share of the page height that counts as the top / bottom furniture band. */
export const FURNITURE_BAND = 0.075;
/** Smallest font size (points) that reads as a display title when larger than the page's text. */
const DISPLAY_MIN_SIZE = 11;
/** Longest line (characters) still treated as running header / footer text. */
const FURNITURE_MAX_CHARS = 120;

/** A run of lines read in order: one column between two full-width elements, or full-width lines. */
export interface PdfFlow {
  /** 0 = left column, 1 = right column; absent for full-width / one-column flows. */
  column?: number;
  lines: PdfLine[];
}

/** Layout of one page. */
export interface PdfPageLayout {
  /** Lines in the top band (running headers, page numbers), left to right, top to bottom. */
  top: PdfLine[];
  /** Body flows in reading order. */
  flows: PdfFlow[];
  /** Lines in the bottom band (footers, page numbers). */
  bottom: PdfLine[];
  /** Rotated / vertical text (margin stamps). */
  aside: PdfLine[];
  /** `[x0, x1]` of the column gutter on a two-column page. */
  gutter?: [number, number];
}

/** Most common font size on a set of lines, weighted by characters (0.5 pt buckets). */
export function dominantSize(lines: readonly PdfLine[]): number {
  const weights = new Map<number, number>();
  for (const line of lines) {
    const key = Math.round(line.size * 2) / 2;
    weights.set(key, (weights.get(key) ?? 0) + line.text.length);
  }
  let best = 0;
  let bestWeight = -1;
  for (const [size, weight] of weights) {
    if (weight > bestWeight) {
      best = size;
      bestWeight = weight;
    }
  }
  return best;
}

/**
 * Which furniture band a line sits in, if any: its vertical centre within the top or bottom
 * {@link FURNITURE_BAND} of the page, short, and not in a display size (a title near the top edge
 * is not a running header).
 */
export function furnitureBand(line: PdfLine, pageHeight: number, bodySize: number): 'top' | 'bottom' | undefined {
  if (line.vertical || line.text.length > FURNITURE_MAX_CHARS) return undefined;
  // A display size is a title set near the edge, not a running header. A footer in ordinary text size
  // stays furniture on a page whose own text is tiny (a diagram's labels).
  if (bodySize > 0 && line.size > bodySize * 1.3 && line.size > DISPLAY_MIN_SIZE) return undefined;
  const centre = (line.bbox[1] + line.bbox[3]) / 2;
  if (centre < pageHeight * FURNITURE_BAND) return 'top';
  if (centre > pageHeight * (1 - FURNITURE_BAND)) return 'bottom';
  return undefined;
}

/** Sorts lines top to bottom; lines sharing a baseline (within 0.3 em) left to right. */
export function sortRows(lines: readonly PdfLine[]): PdfLine[] {
  const sorted = [...lines].sort((a, b) => a.baseline - b.baseline || a.bbox[0] - b.bbox[0]);
  const out: PdfLine[] = [];
  let row: PdfLine[] = [];
  for (const line of sorted) {
    const first = row[0];
    if (first && Math.abs(line.baseline - first.baseline) > 0.3 * Math.min(first.size, line.size)) {
      out.push(...row.sort((a, b) => a.bbox[0] - b.bbox[0]));
      row = [];
    }
    row.push(line);
  }
  out.push(...row.sort((a, b) => a.bbox[0] - b.bbox[0]));
  return out;
}

/** Share of the text width a line must span to count as running text when looking for a gutter. */
const TEXT_LINE_SHARE = 0.2;

/**
 * Finds the gutter of a two-column page: the widest vertical strip in the middle half of the text
 * area that the fewest running-text lines cross (narrow table cells and figure labels are
 * ignored), with at least three column-wide lines on each side and most lines on one side or the
 * other (full-width titles may cross it). Undefined for one-column pages.
 */
export function detectGutter(lines: readonly PdfLine[]): [number, number] | undefined {
  const all = lines.filter((l) => !l.vertical);
  if (all.length < 6) return undefined;
  // Extremes by loops, not spreads of mapped arrays (this runs several times a page).
  let left0 = Infinity;
  let right0 = -Infinity;
  for (const l of all) {
    left0 = Math.min(left0, l.bbox[0]);
    right0 = Math.max(right0, l.bbox[2]);
  }
  const minX = Math.floor(left0);
  const maxX = Math.ceil(right0);
  const width = maxX - minX;
  if (width < 150) return undefined;
  const body = all.filter((l) => l.bbox[2] - l.bbox[0] >= TEXT_LINE_SHARE * width);
  if (body.length < 6) return undefined;
  // Coverage: how many lines cross each x (difference array over 1 pt steps).
  const diff = new Int32Array(width + 2);
  for (const l of body) {
    const from = Math.max(0, Math.ceil(l.bbox[0] - minX) + 1);
    const to = Math.min(width, Math.floor(l.bbox[2] - minX) - 1);
    if (to < from) continue;
    diff[from]! += 1;
    diff[to + 1]! -= 1;
  }
  const coverage = new Int32Array(width + 1);
  let running = 0;
  for (let x = 0; x <= width; x++) {
    running += diff[x]!;
    coverage[x] = running;
  }
  const lo = Math.floor(width * 0.25);
  const hi = Math.ceil(width * 0.75);
  let minCoverage = Infinity;
  for (let x = lo; x <= hi; x++) minCoverage = Math.min(minCoverage, coverage[x]!);
  const limit = minCoverage + Math.max(1, Math.round(0.1 * body.length));
  let bestStart = -1;
  let bestEnd = -1;
  for (let x = lo; x <= hi; x++) {
    if (coverage[x]! > limit) continue;
    let end = x;
    while (end + 1 <= hi && coverage[end + 1]! <= limit) end++;
    if (end - x > bestEnd - bestStart) {
      bestStart = x;
      bestEnd = end;
    }
    x = end;
  }
  if (bestStart < 0) return undefined;
  const centre = minX + (bestStart + bestEnd) / 2;
  const left = body.filter((l) => l.bbox[2] <= centre);
  const right = body.filter((l) => l.bbox[0] >= centre);
  const crossing = body.length - left.length - right.length;
  if (left.length < 3 || right.length < 3) return undefined;
  if (crossing > 0.35 * (left.length + right.length)) return undefined;
  const g0 = Math.max(...left.map((l) => l.bbox[2]));
  const g1 = Math.min(...right.map((l) => l.bbox[0]));
  if (g1 - g0 < 4) return undefined;
  const leftWidth = g0 - Math.min(...left.map((l) => l.bbox[0]));
  const rightWidth = Math.max(...right.map((l) => l.bbox[2])) - g1;
  if (leftWidth < 0.3 * width || rightWidth < 0.3 * width) return undefined;
  const wideLeft = left.filter((l) => l.bbox[2] - l.bbox[0] >= 0.6 * leftWidth).length;
  const wideRight = right.filter((l) => l.bbox[2] - l.bbox[0] >= 0.6 * rightWidth).length;
  if (wideLeft < 3 || wideRight < 3) return undefined;
  return [Math.round(g0 * 100) / 100, Math.round(g1 * 100) / 100];
}

/** Share of a region's characters that must sit in column-wide lines for it to read as two columns. */
const COLUMN_TEXT_SHARE = 0.5;

/**
 * Page numbers printed inside the body area (short pages of SEC filings put them right under the
 * text): the bottom-most or top-most body line, alone on its row, set apart by at least one line
 * of space and reading as a page number, moves to the bottom / top band.
 */
function moveEdgePageNumbers(body: PdfLine[], top: PdfLine[], bottom: PdfLine[]): void {
  if (body.length < 2) return;
  const rows = sortRows(body);
  const edges: Array<{ line: PdfLine; neighbour: PdfLine; band: PdfLine[]; below: boolean }> = [];
  const last = rows[rows.length - 1]!;
  const beforeLast = rows[rows.length - 2]!;
  edges.push({ line: last, neighbour: beforeLast, band: bottom, below: true });
  edges.push({ line: rows[0]!, neighbour: rows[1]!, band: top, below: false });
  for (const { line, neighbour, band, below } of edges) {
    if (!isPageNumberText(line.text)) continue;
    const alone = rows.filter((r) => Math.abs(r.baseline - line.baseline) <= 0.3 * line.size).length === 1;
    const gap = below ? line.bbox[1] - neighbour.bbox[3] : neighbour.bbox[1] - line.bbox[3];
    if (!alone || gap < line.size) continue;
    body.splice(body.indexOf(line), 1);
    band.push(line);
  }
}

/**
 * Lays out one page's lines: furniture bands, vertical text, gutter and reading order. On a
 * two-column page lines crossing the gutter (titles, wide captions) stay in place and separate
 * column runs: everything above reads left column, then right column, then the crossing line.
 */
export function layoutPage(lines: readonly PdfLine[], pageHeight: number): PdfPageLayout {
  const bodySize = dominantSize(lines.filter((l) => !l.vertical));
  const top: PdfLine[] = [];
  const bottom: PdfLine[] = [];
  const aside: PdfLine[] = [];
  const body: PdfLine[] = [];
  for (const line of lines) {
    if (line.vertical) {
      aside.push(line);
      continue;
    }
    if (isRegionLine(line)) {
      body.push(line);
      continue;
    }
    const band = furnitureBand(line, pageHeight, bodySize);
    if (band === 'top') top.push(line);
    else if (band === 'bottom') bottom.push(line);
    else body.push(line);
  }
  moveEdgePageNumbers(body, top, bottom);
  const gutter = detectGutter(body);
  const ordered = sortRows(body);
  const flows: PdfFlow[] = [];
  const pushFull = (lines: PdfLine[]): void => {
    if (lines.length === 0) return;
    const last = flows[flows.length - 1];
    if (last && last.column === undefined) last.lines.push(...lines);
    else flows.push({ lines: [...lines] });
  };
  if (!gutter) {
    pushFull(ordered);
  } else {
    const [g0, g1] = gutter;
    const middle = (g0 + g1) / 2;
    const textLeft = Math.min(...body.map((l) => l.bbox[0]));
    const textRight = Math.max(...body.map((l) => l.bbox[2]));
    const region: PdfLine[] = [];
    // A region between full-width lines reads as two columns when most of its text is in
    // column-wide lines; otherwise (a full-width table or figure labels) it reads row by row.
    const flushRegion = (): void => {
      if (region.length === 0) return;
      let wide = 0;
      let chars = 0;
      for (const line of region) {
        const leftSide = (line.bbox[0] + line.bbox[2]) / 2 < middle;
        const columnWidth = leftSide ? g0 - textLeft : textRight - g1;
        chars += line.text.length;
        if (line.bbox[2] - line.bbox[0] >= 0.6 * columnWidth) wide += line.text.length;
      }
      if (wide < COLUMN_TEXT_SHARE * chars) {
        pushFull(region);
      } else {
        const left = region.filter((l) => (l.bbox[0] + l.bbox[2]) / 2 < middle);
        const right = region.filter((l) => (l.bbox[0] + l.bbox[2]) / 2 >= middle);
        for (const line of left) line.column = 0;
        for (const line of right) line.column = 1;
        if (left.length > 0) flows.push({ column: 0, lines: left });
        if (right.length > 0) flows.push({ column: 1, lines: right });
      }
      region.length = 0;
    };
    for (const line of ordered) {
      if (line.bbox[0] < g0 - 1 && line.bbox[2] > g1 + 1) {
        flushRegion();
        pushFull([line]);
      } else {
        region.push(line);
      }
    }
    flushRegion();
  }
  const layout: PdfPageLayout = { top: sortRows(top), flows, bottom: sortRows(bottom), aside };
  if (gutter) layout.gutter = gutter;
  return layout;
}
