import { YEAR_SOURCE, type BBox } from '@doctree/schema';
import { collapseSpaces, endsInSpace, isRegexSpace, startsWithSpace, type PdfLine } from './pdf-lines.js';
import { parseCaptionLabel } from '../builder/labels.js';
import { overlap1d } from './pdf-geometry.js';

/**
 * The geometry and cell grid shared by the table detectors (`pdf-tables.ts`): a line's fragments, visual rows,
 * text columns, the grid of cells built from rows, and the box of rows (box geometry itself is `pdf-geometry.ts`).
 */

/** A piece of text in one cell candidate: spans of a line closer than {@link FRAG_GAP_EM}. */
export interface TableFrag {
  text: string;
  x0: number;
  x1: number;
  y0: number;
  y1: number;
  size: number;
  bold: boolean;
}

/** Lines on one visual row, split into fragments (left to right). */
export interface TableRow {
  frags: TableFrag[];
  lines: PdfLine[];
  y0: number;
  y1: number;
  size: number;
}

/** Spans of a line further apart than this many font sizes are separate fragments. */
const FRAG_GAP_EM = 0.4;
/** A gap this many font sizes wide becomes a space inside a fragment. */
const SPACE_GAP_EM = 0.15;
/** Narrowest empty strip between two text columns, in points. */
const MIN_COLUMN_GAP = 3;
/** Share of rows that may cross a column gap (a long label, a spanning note). */
const GAP_CROSSING_SHARE = 0.08;
/** Most columns a text-derived table may have. */
const MAX_COLUMNS = 24;
/** A cell with this many words reads as prose. */
export const PROSE_WORDS = 12;

/** A number as printed in tables: `1,482`, `(1,291)`, `$ 4,918`, `12.5%`, `-0.3`, `2018`, `45.2†`. */
const NUMERIC_CELL =
  /^[([]?[-–—−+±~≈<>]?\s?[$€£¥]?\s?[([]?[-–—−]?(?:\d{1,3}(?:[,\u00a0]\d{3})+|\d+)?(?:\.\d+)?(?<=\d)\s?(?:%|x|bps?|pts?)?[)\]]?\s?%?[*†‡§]*$/i;
/** Nil amounts: dashes, `n/a`, `nm`. */
const NIL_CELL = /^(?:[$€£¥]\s?)?(?:[-–—−]+|n\/?a|nm)%?$/i;
/** A year heading a column (`2018`, `FY2018`, `2018 vs 2017` is not one). */
export const YEAR_CELL = new RegExp(`^(?:fy\\s?)?${YEAR_SOURCE}[A-Z]?$`, 'i');
export const CURRENCY_ONLY = /^[$€£¥]$/;
export const SUFFIX_ONLY = /^(?:%|\)|%\))$/;

export const round2 = (n: number): number => Math.round(n * 100) / 100;

/** True for a numeric or nil table cell. */
export function isNumericCell(text: string): boolean {
  const t = text.trim();
  return t.length > 0 && t.length <= 24 && (NUMERIC_CELL.test(t) || NIL_CELL.test(t));
}

/** Words of a text: runs of non-whitespace (`text.split(/\s+/).filter(Boolean).length`, without the arrays). */
export function wordCount(text: string): number {
  let words = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const space = isRegexSpace(text.charCodeAt(i));
    if (!space && !inWord) words++;
    inWord = !space;
  }
  return words;
}

/** Splits a line into fragments at gaps wider than {@link FRAG_GAP_EM} font sizes. */
export function lineFrags(line: PdfLine): TableFrag[] {
  const spans = line.spans.length > 0 ? [...line.spans].sort((a, b) => a.bbox[0] - b.bbox[0]) : [];
  if (spans.length === 0) {
    return [{ text: line.text, x0: line.bbox[0], x1: line.bbox[2], y0: line.bbox[1], y1: line.bbox[3], size: line.size, bold: line.bold }];
  }
  const frags: TableFrag[] = [];
  let current: TableFrag | undefined;
  let boldChars = 0;
  let chars = 0;
  const close = (): void => {
    if (!current) return;
    current.text = collapseSpaces(current.text);
    current.bold = chars > 0 && boldChars * 2 > chars;
    if (current.text) frags.push(current);
    current = undefined;
    boldChars = 0;
    chars = 0;
  };
  for (const span of spans) {
    const size = Math.max(span.size, current?.size ?? 0);
    const gap = current ? span.bbox[0] - current.x1 : 0;
    if (current && gap > FRAG_GAP_EM * size) close();
    if (!current) {
      current = { text: span.text, x0: span.bbox[0], x1: span.bbox[2], y0: span.bbox[1], y1: span.bbox[3], size: span.size, bold: span.bold };
    } else {
      const apart = gap > SPACE_GAP_EM * size || gap < -0.5 * size || (span.spaceBefore === true && gap > -0.1 * size);
      const spaced = endsInSpace(current.text) || startsWithSpace(span.text);
      current.text += (apart && !spaced ? ' ' : '') + span.text;
      current.x1 = Math.max(current.x1, span.bbox[2]);
      current.y0 = Math.min(current.y0, span.bbox[1]);
      current.y1 = Math.max(current.y1, span.bbox[3]);
      current.size = Math.max(current.size, span.size);
    }
    const n = span.text.trim().length;
    chars += n;
    if (span.bold) boldChars += n;
  }
  close();
  return frags;
}

/**
 * Groups lines into visual rows (top to bottom): a line joins the row whose first line it overlaps
 * vertically by half the smaller height. Fragments of a row are sorted left to right.
 */
export function groupRows(lines: readonly PdfLine[]): TableRow[] {
  const sorted = [...lines].sort((a, b) => a.bbox[1] + a.bbox[3] - (b.bbox[1] + b.bbox[3]) || a.bbox[0] - b.bbox[0]);
  const rows: TableRow[] = [];
  let anchor: BBox | undefined;
  for (const line of sorted) {
    const row = rows[rows.length - 1];
    if (row && anchor) {
      const overlap = Math.min(anchor[3], line.bbox[3]) - Math.max(anchor[1], line.bbox[1]);
      const smaller = Math.min(anchor[3] - anchor[1], line.bbox[3] - line.bbox[1]);
      if (smaller > 0 && overlap >= 0.5 * smaller) {
        row.lines.push(line);
        row.frags.push(...lineFrags(line));
        row.y0 = Math.min(row.y0, line.bbox[1]);
        row.y1 = Math.max(row.y1, line.bbox[3]);
        row.size = Math.max(row.size, line.size);
        continue;
      }
    }
    anchor = line.bbox;
    rows.push({ frags: lineFrags(line), lines: [line], y0: line.bbox[1], y1: line.bbox[3], size: line.size });
  }
  for (const row of rows) row.frags.sort((a, b) => a.x0 - b.x0);
  return rows;
}

/**
 * Intervals `[x0, x1]` covered by fragments, split at strips at least {@link MIN_COLUMN_GAP} wide
 * that at most `allowance` fragments cross. Linear in the width (a difference array over 1 pt steps).
 */
function coveredIntervals(frags: readonly TableFrag[], allowance: number): Array<[number, number]> {
  if (frags.length === 0) return [];
  let minX = Infinity;
  let maxX = -Infinity;
  for (const f of frags) {
    minX = Math.min(minX, f.x0);
    maxX = Math.max(maxX, f.x1);
  }
  const origin = Math.floor(minX);
  const width = Math.ceil(maxX) - origin;
  if (width <= 0 || width > 5000) return [[minX, maxX]];
  const diff = new Int32Array(width + 2);
  for (const f of frags) {
    const from = Math.max(0, Math.floor(f.x0 - origin));
    const to = Math.min(width, Math.ceil(f.x1 - origin));
    diff[from]! += 1;
    diff[to + 1]! -= 1;
  }
  const out: Array<[number, number]> = [];
  let running = 0;
  let start: number | undefined;
  let gapStart: number | undefined;
  for (let x = 0; x <= width; x++) {
    running += diff[x]!;
    if (running > allowance) {
      if (start === undefined) start = x;
      else if (gapStart !== undefined && x - gapStart >= MIN_COLUMN_GAP) {
        out.push([start + origin, gapStart + origin]);
        start = x;
      }
      gapStart = undefined;
    } else if (start !== undefined && gapStart === undefined) {
      gapStart = x;
    }
  }
  if (start !== undefined) out.push([start + origin, (gapStart ?? width) + origin]);
  return out;
}

/**
 * Column intervals `[x0, x1]` from the x-distribution of fragments: the strips at least
 * {@link MIN_COLUMN_GAP} wide that at most {@link GAP_CROSSING_SHARE} of the rows cross separate
 * columns. Fragments lying wholly inside such a strip (a `$` sign printed in a few rows only) form
 * columns of their own. Each interval is tightened to the fragments centred in it.
 */
export function inferColumns(rows: readonly TableRow[]): Array<[number, number]> {
  const frags = rows.flatMap((r) => r.frags);
  const main = coveredIntervals(frags, Math.floor(GAP_CROSSING_SHARE * rows.length));
  const orphans = frags.filter((f) => !main.some(([a, b]) => overlap1d(f.x0, f.x1, a, b) > 0));
  const columns = [...main, ...coveredIntervals(orphans, 0)].sort((a, b) => a[0] - b[0]);
  return columns.map(([a, b]) => {
    let lo = Infinity;
    let hi = -Infinity;
    for (const f of frags) {
      const c = (f.x0 + f.x1) / 2;
      if (c >= a - 0.5 && c <= b + 0.5) {
        lo = Math.min(lo, f.x0);
        hi = Math.max(hi, f.x1);
      }
    }
    return lo <= hi ? ([lo, hi] as [number, number]) : ([a, b] as [number, number]);
  });
}

/** Index of the column a fragment belongs to: most overlap, else nearest centre. */
export function columnOf(frag: TableFrag, columns: ReadonlyArray<readonly [number, number]>): number {
  let best = -1;
  let bestOverlap = 0;
  columns.forEach(([a, b], i) => {
    const o = overlap1d(frag.x0, frag.x1, a, b);
    if (o > bestOverlap) {
      best = i;
      bestOverlap = o;
    }
  });
  if (best >= 0) return best;
  const centre = (frag.x0 + frag.x1) / 2;
  let nearest = 0;
  let distance = Infinity;
  columns.forEach(([a, b], i) => {
    const d = centre < a ? a - centre : centre > b ? centre - b : 0;
    if (d < distance) {
      nearest = i;
      distance = d;
    }
  });
  return nearest;
}

/** Joins fragment texts of one cell. */
export function joinCell(parts: readonly string[]): string {
  return collapseSpaces(parts.join(' '));
}

/** One table row as cells, with the fragments that made it (for label merging). */
interface GridRow {
  cells: string[];
  /** x0 of the first fragment of the first cell, when there is one. */
  labelX?: number;
}

/** Assigns a row's fragments to columns (body rows: one column each, by overlap). */
function bodyCells(row: TableRow, columns: ReadonlyArray<readonly [number, number]>): GridRow {
  const parts: string[][] = columns.map(() => []);
  let labelX: number | undefined;
  for (const frag of row.frags) {
    const c = columnOf(frag, columns);
    parts[c]!.push(frag.text);
    if (c === 0) labelX = Math.min(labelX ?? Infinity, frag.x0);
  }
  return { cells: parts.map(joinCell), ...(labelX !== undefined ? { labelX } : {}) };
}

/** Assigns a header row's fragments: a fragment over several columns is repeated in each. */
function headerCells(row: TableRow, columns: ReadonlyArray<readonly [number, number]>): GridRow {
  const parts: string[][] = columns.map(() => []);
  for (const frag of row.frags) {
    const covered: number[] = [];
    columns.forEach(([a, b], i) => {
      const o = overlap1d(frag.x0, frag.x1, a, b);
      if (o > 0 && (o >= 0.4 * Math.max(1, b - a) || o >= 0.6 * Math.max(1, frag.x1 - frag.x0))) covered.push(i);
    });
    if (covered.length === 0) covered.push(columnOf(frag, columns));
    for (const c of covered) parts[c]!.push(frag.text);
  }
  return { cells: parts.map(joinCell) };
}

/** Words a row label cannot end with when it continues on the next line. */
const CONTINUED_LABEL = /(?:[,(&/]|\b(?:and|or|of|to|for|in|on|the|from|by|with|at|less|plus|including|excluding|per))$/i;
/** A units line above a statement (`(Dollars in millions)`, `(In thousands, except per share data)`). */
export const UNITS_ROW = /^\(?(?:(?:dollars|amounts|figures|\$|€|£)\s+)?(?:in\s+)?(?:millions|thousands|billions)\b.{0,60}\)?$|^\((?:dollars|amounts|\$|in)\b.{0,40}(?:millions|thousands|billions)\b.{0,50}\)$/i;

/** Merges a label-only row with the indented continuation below it (`Adjustments to reconcile … to net cash` / `provided by operating activities`). */
function mergeContinuations(rows: GridRow[]): GridRow[] {
  const out: GridRow[] = [];
  for (const row of rows) {
    const prev = out[out.length - 1];
    const label = row.cells[0] ?? '';
    if (
      prev &&
      prev.cells.slice(1).every((c) => c === '') &&
      prev.cells[0] !== '' &&
      label !== '' &&
      prev.labelX !== undefined &&
      row.labelX !== undefined &&
      row.labelX >= prev.labelX - 0.5 &&
      (/^[a-z(]/.test(label) || CONTINUED_LABEL.test(prev.cells[0]!))
    ) {
      prev.cells = row.cells.map((c, i) => (i === 0 ? `${prev.cells[0]} ${c}` : c));
      continue;
    }
    out.push({ ...row, cells: [...row.cells] });
  }
  return out;
}

/**
 * Joins `$` columns into the column to their right and `%` / `)` columns into the one to their
 * left (judged on body rows), and drops columns no body fragment falls in.
 */
function mergeSymbolColumns(body: readonly TableRow[], columns: Array<[number, number]>): Array<[number, number]> {
  let cols = columns.map((c) => [...c] as [number, number]);
  const frags = body.flatMap((row) => row.frags);
  // The column of each body fragment, worked out again only when the columns change (not for every column asked).
  let assigned: number[] | undefined;
  const texts = (c: number): string[] => {
    assigned ??= frags.map((f) => columnOf(f, cols));
    const out: string[] = [];
    for (let k = 0; k < frags.length; k++) if (assigned[k] === c) out.push(frags[k]!.text);
    return out;
  };
  for (let c = 0; c < cols.length; ) {
    const inside = texts(c);
    if (inside.length === 0 && cols.length > 1) {
      cols.splice(c, 1);
      assigned = undefined;
      continue;
    }
    if (c + 1 < cols.length && inside.every((t) => CURRENCY_ONLY.test(t))) {
      cols = [...cols.slice(0, c), [cols[c]![0], cols[c + 1]![1]], ...cols.slice(c + 2)];
      assigned = undefined;
      continue;
    }
    if (c > 0 && inside.every((t) => SUFFIX_ONLY.test(t))) {
      cols = [...cols.slice(0, c - 1), [cols[c - 1]![0], cols[c]![1]], ...cols.slice(c + 1)];
      assigned = undefined;
      c--;
      continue;
    }
    c++;
  }
  return cols;
}

/** Joins the currency signs of a merged `$` column with the amount (`$4,918`) and tidies cells. */
export function tidyCells(grid: string[][]): string[][] {
  return grid.map((r) =>
    r.map((c) =>
      c
        .replace(/^([$€£¥])\s+(?=[\d(.\-–—])/, '$1')
        .replace(/(\d)\s+(%|\))/g, '$1$2')
        .replace(/\s+/g, ' ')
        .trim(),
    ),
  );
}

/** True when a table's cells read like running text rather than table cells. */
export function prosy(grid: readonly (readonly string[])[]): boolean {
  const cells = grid.flat().filter((c) => c !== '');
  if (cells.length === 0) return true;
  const long = cells.filter((c) => wordCount(c) >= PROSE_WORDS).length;
  return long > 0.2 * cells.length;
}

/** Builds the cell grid of a text-derived table; undefined when it does not hold up as a table. */
export function gridFromRows(
  header: readonly TableRow[],
  body: readonly TableRow[],
  options: { columns?: Array<[number, number]> } = {},
): { rows: string[][]; headerRows: number } | undefined {
  const inferred = options.columns ?? inferColumns(body);
  if (inferred.length < 2 || inferred.length > MAX_COLUMNS) return undefined;
  const merged = mergeSymbolColumns(body, inferred);
  // Headings over columns left empty in every body row (`Level 1` … `Level 3`) open columns of their own.
  const orphans = header.flatMap((r) => r.frags).filter((f) => !merged.some(([a, b]) => overlap1d(f.x0, f.x1, a, b) > 0) && f.x0 > merged[0]![1]);
  const columns = [...merged, ...coveredIntervals(orphans, 0)].sort((a, b) => a[0] - b[0]);
  if (columns.length < 2 || columns.length > MAX_COLUMNS) return undefined;
  const headerGrid = header.map((r) => headerCells(r, columns).cells).filter((r) => r.some((c) => c !== ''));
  const bodyGrid = mergeContinuations(body.map((r) => bodyCells(r, columns))).map((r) => r.cells);
  const rows = tidyCells([...headerGrid, ...bodyGrid]);
  if (bodyGrid.length < 2 || prosy(rows)) return undefined;
  return { rows, headerRows: headerGrid.length };
}

/**
 * True when enough rows hold several cells: half of them, or at least two rows with two or more
 * amounts (a statement whose section rows hold only a label).
 */
export function cellRows(rows: readonly (readonly string[])[]): boolean {
  const multi = rows.filter((r) => r.filter((c) => c !== '').length >= 2).length;
  const amounts = rows.filter((r) => r.slice(1).filter((c) => c !== '' && isNumericCell(c)).length >= 2).length;
  return multi >= 0.5 * rows.length || amounts >= 2;
}

/**
 * Header rows of a table of amounts: the leading rows (at most four) before the first row holding
 * an amount that is not a year; 0 when that leaves fewer than two rows or there are no amounts.
 */
export function leadingHeaderRows(rows: readonly TableRow[]): number {
  const first = rows.findIndex((r) => r.frags.some((f, i) => i > 0 && isNumericCell(f.text) && !YEAR_CELL.test(f.text.trim())));
  return first > 0 && first <= 4 && rows.length - first >= 2 ? first : 0;
}

/** Union box of rows. */
export function rowsBox(rows: readonly TableRow[]): BBox {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const row of rows) {
    for (const line of row.lines) {
      x0 = Math.min(x0, line.bbox[0]);
      y0 = Math.min(y0, line.bbox[1]);
      x1 = Math.max(x1, line.bbox[2]);
      y1 = Math.max(y1, line.bbox[3]);
    }
  }
  return [round2(x0), round2(y0), round2(x1), round2(y1)];
}

/** True for a caption line (`Table 3: …`, `Figure 2.`): never a table row. */
export const isCaptionLine = (line: PdfLine): boolean => parseCaptionLabel(line.text) !== undefined;
