import type { BBox } from '@doctree/schema';
import { parseCaptionLabel } from '../builder/labels.js';
import type { PdfRule } from './pdf-graphics.js';
import type { PdfLine } from './pdf-lines.js';

/**
 * Table detection from text geometry and page rules (no models, no pixels). Three detectors run in
 * turn, each on the lines the previous ones left:
 *
 * 1. **Grid tables**: horizontal and vertical rules that cross each other; cells are the rule grid.
 * 2. **Borderless tables** (financial statements): three or more rows sharing at least two aligned
 *    numeric columns with a text label column; header rows are the aligned rows just above.
 * 3. **Rule-set tables**: horizontal rules of one width stacked above each other (booktabs style:
 *    top, middle and bottom rules); columns come from the text.
 *
 * Columns from text are the vertical strips that (almost) no cell text crosses. `$` columns join
 * the amount to their right, `%` columns the amount to their left. Pure functions; coordinates are
 * PDF points with a top-left origin.
 */

/** A table found on a page. */
export interface PdfTableRegion {
  kind: 'table';
  bbox: BBox;
  /** Cell texts, one array per row; every row has the same length. */
  rows: string[][];
  /** Leading rows that are column headers. */
  headerRows: number;
  /** Which detector found it (`drawn`: cell shading or boxes around rows of cells). */
  source: 'grid' | 'rules' | 'borderless' | 'drawn';
  /** The text lines the table covers (they leave the text flow). */
  lines: PdfLine[];
}

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
const PROSE_WORDS = 12;

/** A number as printed in tables: `1,577`, `(1,373)`, `$ 5,363`, `12.5%`, `-0.3`, `2018`, `45.2†`. */
const NUMERIC_CELL =
  /^[([]?[-–—−+±~≈<>]?\s?[$€£¥]?\s?[([]?[-–—−]?(?:\d{1,3}(?:[,\u00a0]\d{3})+|\d+)?(?:\.\d+)?(?<=\d)\s?(?:%|x|bps?|pts?)?[)\]]?\s?%?[*†‡§]*$/i;
/** Nil amounts: dashes, `n/a`, `nm`. */
const NIL_CELL = /^(?:[$€£¥]\s?)?(?:[-–—−]+|n\/?a|nm)%?$/i;
/** A year heading a column (`2018`, `FY2018`, `2018 vs 2017` is not one). */
const YEAR_CELL = /^(?:fy\s?)?(?:19|20)\d\d[A-Z]?$/i;
const CURRENCY_ONLY = /^[$€£¥]$/;
const SUFFIX_ONLY = /^(?:%|\)|%\))$/;

const round2 = (n: number): number => Math.round(n * 100) / 100;

/** True for a numeric or nil table cell. */
export function isNumericCell(text: string): boolean {
  const t = text.trim();
  return t.length > 0 && t.length <= 24 && (NUMERIC_CELL.test(t) || NIL_CELL.test(t));
}

const wordCount = (text: string): number => text.split(/\s+/).filter(Boolean).length;

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
    current.text = current.text.replace(/\s+/g, ' ').trim();
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
      current.text += (apart && !/\s$/.test(current.text) && !/^\s/.test(span.text) ? ' ' : '') + span.text;
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

/** Overlap of `[a0, a1]` and `[b0, b1]` (0 when apart). */
const overlap1d = (a0: number, a1: number, b0: number, b1: number): number => Math.max(0, Math.min(a1, b1) - Math.max(a0, b0));

/** Index of the column a fragment belongs to: most overlap, else nearest centre. */
function columnOf(frag: TableFrag, columns: ReadonlyArray<readonly [number, number]>): number {
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
function joinCell(parts: readonly string[]): string {
  return parts.join(' ').replace(/\s+/g, ' ').trim();
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
const UNITS_ROW = /^\(?(?:(?:dollars|amounts|figures|\$|€|£)\s+)?(?:in\s+)?(?:millions|thousands|billions)\b.{0,60}\)?$|^\((?:dollars|amounts|\$|in)\b.{0,40}(?:millions|thousands|billions)\b.{0,50}\)$/i;

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
  const texts = (c: number): string[] => {
    const out: string[] = [];
    for (const row of body) for (const f of row.frags) if (columnOf(f, cols) === c) out.push(f.text);
    return out;
  };
  for (let c = 0; c < cols.length; ) {
    const inside = texts(c);
    if (inside.length === 0 && cols.length > 1) {
      cols.splice(c, 1);
      continue;
    }
    if (c + 1 < cols.length && inside.every((t) => CURRENCY_ONLY.test(t))) {
      cols = [...cols.slice(0, c), [cols[c]![0], cols[c + 1]![1]], ...cols.slice(c + 2)];
      continue;
    }
    if (c > 0 && inside.every((t) => SUFFIX_ONLY.test(t))) {
      cols = [...cols.slice(0, c - 1), [cols[c - 1]![0], cols[c]![1]], ...cols.slice(c + 1)];
      c--;
      continue;
    }
    c++;
  }
  return cols;
}

/** Joins the currency signs of a merged `$` column with the amount (`$5,363`) and tidies cells. */
function tidyCells(grid: string[][]): string[][] {
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
function prosy(grid: readonly (readonly string[])[]): boolean {
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
function cellRows(rows: readonly (readonly string[])[]): boolean {
  const multi = rows.filter((r) => r.filter((c) => c !== '').length >= 2).length;
  const amounts = rows.filter((r) => r.slice(1).filter((c) => c !== '' && isNumericCell(c)).length >= 2).length;
  return multi >= 0.5 * rows.length || amounts >= 2;
}

/**
 * Header rows of a table of amounts: the leading rows (at most four) before the first row holding
 * an amount that is not a year; 0 when that leaves fewer than two rows or there are no amounts.
 */
function leadingHeaderRows(rows: readonly TableRow[]): number {
  const first = rows.findIndex((r) => r.frags.some((f, i) => i > 0 && isNumericCell(f.text) && !YEAR_CELL.test(f.text.trim())));
  return first > 0 && first <= 4 && rows.length - first >= 2 ? first : 0;
}

/** Union box of rows. */
function rowsBox(rows: readonly TableRow[]): BBox {
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

const isCaptionLine = (line: PdfLine): boolean => parseCaptionLabel(line.text) !== undefined;

// ------------------------------------------------------------------------------------------------
// Borderless (numeric) tables
// ------------------------------------------------------------------------------------------------

/** Rows a borderless table needs with aligned amounts. */
const MIN_NUMERIC_ROWS = 3;
/** Most header rows looked for above a numeric run. */
const MAX_HEADER_ROWS = 8;

interface ClassifiedRow {
  row: TableRow;
  kind: 'numeric' | 'label' | 'other';
  /** Numeric fragments right of the label. */
  numbers: TableFrag[];
}

function classifyRow(row: TableRow, width: number): ClassifiedRow {
  const frags = row.frags;
  if (row.lines.some(isCaptionLine)) return { row, kind: 'other', numbers: [] };
  const numbers = frags.filter((f) => isNumericCell(f.text));
  const labelled = frags.some((f) => !isNumericCell(f.text) && !CURRENCY_ONLY.test(f.text) && !SUFFIX_ONLY.test(f.text));
  const words = Math.max(0, ...frags.map((f) => wordCount(f.text)));
  if (numbers.length >= 2 || (numbers.length === 1 && labelled && frags[0] !== numbers[0])) {
    // A long row label is fine; running text with a trailing figure is not.
    return words >= 2 * PROSE_WORDS ? { row, kind: 'other', numbers: [] } : { row, kind: 'numeric', numbers };
  }
  const first = frags[0];
  const text = frags.map((f) => f.text).join(' ');
  const span = (frags[frags.length - 1]?.x1 ?? 0) - (first?.x0 ?? 0);
  // A label row may be long (`Adjustments to reconcile net earnings to net cash provided by …`) but not run across the page.
  if (words >= 2 * PROSE_WORDS || (words >= PROSE_WORDS && span > 0.8 * width)) return { row, kind: 'other', numbers: [] };
  if (numbers.length === 0 && text.length <= 160 && span <= 0.75 * width && frags.length <= 3) return { row, kind: 'label', numbers: [] };
  return { row, kind: 'other', numbers: [] };
}

/**
 * Right edges shared by numeric fragments of a run: `[x0, x1]` bands of the amount columns. A band
 * made only of the first fragments of their rows is the label column (years or codes as row
 * labels), not an amount column.
 */
function numericBands(rows: readonly ClassifiedRow[]): Array<[number, number]> {
  const numeric = rows.filter((r) => r.kind === 'numeric');
  const edges = numeric.flatMap((r) => r.numbers.map((f) => ({ x0: f.x0, x1: f.x1, size: f.size, lead: f === r.row.frags[0] })));
  edges.sort((a, b) => a.x1 - b.x1);
  const bands: Array<{ x0: number; x1: number; last: number; count: number; lead: boolean }> = [];
  for (const e of edges) {
    const band = bands[bands.length - 1];
    const tolerance = Math.max(3, 0.5 * e.size);
    if (band && e.x1 - band.last <= tolerance) {
      band.x0 = Math.min(band.x0, e.x0);
      band.x1 = Math.max(band.x1, e.x1);
      band.last = e.x1;
      band.count++;
      band.lead &&= e.lead;
    } else {
      bands.push({ x0: e.x0, x1: e.x1, last: e.x1, count: 1, lead: e.lead });
    }
  }
  const support = Math.max(2, Math.ceil(0.25 * numeric.length));
  return bands.filter((b) => b.count >= support && !b.lead).map((b) => [b.x0, b.x1] as [number, number]);
}

/**
 * True when a fragment heads a numeric column: it overlaps a band (widened by half an em) or its
 * centre lies in the slot between the previous band and this band's right edge (a year centred
 * over `$` and amount).
 */
function overBand(frag: TableFrag, bands: ReadonlyArray<readonly [number, number]>): boolean {
  const pad = 0.5 * frag.size;
  const centre = (frag.x0 + frag.x1) / 2;
  return bands.some(([a, b], i) => {
    if (overlap1d(frag.x0, frag.x1, a - pad, b + pad) > 0) return true;
    const slotStart = i === 0 ? a - 1.5 * (b - a) : bands[i - 1]![1] + pad;
    return centre >= slotStart && centre <= b + pad;
  });
}

/** A data row: an amount aligned with a numeric band that is not a year heading. */
function isDataRow(row: ClassifiedRow, bands: ReadonlyArray<readonly [number, number]>): boolean {
  if (row.kind !== 'numeric') return false;
  return row.numbers.some((f) => !YEAR_CELL.test(f.text.trim()) && bands.some(([a, b]) => f.x1 >= a - 1 && f.x1 <= b + Math.max(3, 0.5 * f.size)));
}

/** A row fit to head the numeric columns: short fragments, at least one over a numeric band. */
function isHeaderRow(row: TableRow, bands: ReadonlyArray<readonly [number, number]>): boolean {
  if (row.lines.some(isCaptionLine)) return false;
  if (row.frags.some((f) => wordCount(f.text) > 8)) return false;
  return row.frags.some((f) => overBand(f, bands));
}

/** Finds borderless tables among lines of one column (or one-column page), top to bottom. */
export function findBorderlessTables(lines: readonly PdfLine[]): PdfTableRegion[] {
  const rows = groupRows(lines.filter((l) => !l.vertical));
  if (rows.length < MIN_NUMERIC_ROWS) return [];
  let left = Infinity;
  let right = -Infinity;
  for (const row of rows) {
    for (const f of row.frags) {
      left = Math.min(left, f.x0);
      right = Math.max(right, f.x1);
    }
  }
  const width = Math.max(1, right - left);
  const classified = rows.map((r) => classifyRow(r, width));
  const tables: PdfTableRegion[] = [];
  const used = new Set<number>();
  let start = -1;
  let lastNumeric = -1;
  const close = (): void => {
    if (start >= 0 && lastNumeric >= start) {
      for (const [from, to] of splitRun(classified, start, lastNumeric)) {
        const table = runTable(classified, rows, from, to, used);
        if (table) tables.push(table);
      }
    }
    start = -1;
    lastNumeric = -1;
  };
  let labelRun = 0;
  for (let i = 0; i < classified.length; i++) {
    const row = classified[i]!;
    const prev = classified[i - 1];
    const size = Math.max(row.row.size, prev?.row.size ?? 0);
    const near = prev !== undefined && row.row.y0 - prev.row.y1 <= 2.5 * size && Math.abs(row.row.size - prev.row.size) <= Math.max(1.5, 0.25 * size);
    if (row.kind === 'other' || !near) {
      close();
      labelRun = 0;
      if (row.kind === 'other') continue;
    }
    if (row.kind === 'label') {
      labelRun++;
      if (labelRun > 4) {
        close();
        labelRun = 4;
      }
      if (start < 0) start = i - labelRun + 1;
      continue;
    }
    labelRun = 0;
    if (start < 0) start = i;
    lastNumeric = i;
  }
  close();
  return tables;
}

/**
 * Splits a run of rows where a second table starts: after data rows, a row of column headings
 * (several pieces over the amount columns, years or words, no amounts) opens a new table.
 */
function splitRun(classified: readonly ClassifiedRow[], start: number, end: number): Array<[number, number]> {
  const run = classified.slice(start, end + 1);
  const bands = numericBands(run);
  if (bands.length < 2) return [[start, end]];
  const firstData = run.findIndex((r) => isDataRow(r, bands));
  if (firstData < 0) return [[start, end]];
  for (let k = firstData + 1; k < run.length; k++) {
    const r = run[k]!;
    if (isDataRow(r, bands) || r.row.frags.length < 2 || !isHeaderRow(r.row, bands)) continue;
    const headings = r.kind === 'label' || (r.kind === 'numeric' && r.numbers.every((f) => YEAR_CELL.test(f.text.trim())));
    if (!headings) continue;
    let lastData = k - 1;
    while (lastData > firstData && run[lastData]!.kind !== 'numeric') lastData--;
    return [[start, start + lastData], ...splitRun(classified, start + k, end)];
  }
  return [[start, end]];
}

/** Validates one run of rows `[start, end]` (inclusive) and builds its table with header rows above. */
function runTable(classified: readonly ClassifiedRow[], rows: readonly TableRow[], start: number, end: number, used: Set<number>): PdfTableRegion | undefined {
  const run = classified.slice(start, end + 1);
  const numeric = run.filter((r) => r.kind === 'numeric');
  if (numeric.length < MIN_NUMERIC_ROWS) return undefined;
  const bands = numericBands(run);
  if (bands.length < 2) return undefined;
  const inBand = (f: TableFrag): boolean => bands.some(([a, b]) => f.x1 >= a - 1 && f.x1 <= b + Math.max(3, 0.5 * f.size));
  const aligned = numeric.filter((r) => r.numbers.filter(inBand).length >= 1);
  if (aligned.length < Math.max(MIN_NUMERIC_ROWS, 0.7 * numeric.length)) return undefined;
  if (!numeric.some((r) => r.numbers.filter(inBand).length >= 2)) return undefined;
  const firstBand = Math.min(...bands.map((b) => b[0]));
  const labelled = numeric.filter((r) => {
    const first = r.row.frags[0];
    return first !== undefined && first.x1 <= firstBand + 1 && !inBand(first);
  });
  if (labelled.length < 0.5 * numeric.length) return undefined;
  // Leading rows: the header is the contiguous block of aligned rows ending at the last one before
  // the first data row; rows between it and the data are section labels; rows above it (titles) stay text.
  const firstData = run.findIndex((r) => isDataRow(r, bands));
  if (firstData < 0) return undefined;
  let headerEnd = -1;
  for (let i = 0; i < firstData; i++) if (isHeaderRow(run[i]!.row, bands)) headerEnd = i;
  let headerStart = headerEnd;
  while (headerStart > 0 && isHeaderRow(run[headerStart - 1]!.row, bands)) headerStart--;
  let bodyStart = firstData;
  if (headerEnd >= 0) {
    bodyStart = headerEnd + 1;
  } else if (firstData > 0) {
    // Without a header, one label row tight above the first data row is a section label.
    const above = run[firstData - 1]!.row;
    const data = run[firstData]!.row;
    if (data.y0 - above.y1 <= 0.6 * data.size && Math.abs(above.size - data.size) < 0.5) bodyStart = firstData - 1;
  }
  const header: TableRow[] = headerEnd >= 0 ? run.slice(headerStart, headerEnd + 1).map((r) => r.row) : [];
  let top = start + (headerEnd >= 0 ? headerStart : bodyStart);
  for (let i = top - 1; i >= 0 && top - i <= MAX_HEADER_ROWS; i--) {
    const candidate = rows[i]!;
    const below = rows[top]!;
    if (used.has(i) || below.y0 - candidate.y1 > 1.6 * Math.max(candidate.size, below.size)) break;
    const units = candidate.frags.length === 1 && UNITS_ROW.test(candidate.frags[0]!.text);
    if (!units && !isHeaderRow(candidate, bands)) break;
    header.unshift(candidate);
    top = i;
  }
  const body = run.slice(bodyStart).map((r) => r.row);
  const grid = gridFromRows(header, body);
  if (!grid) return undefined;
  for (let i = top; i <= end; i++) used.add(i);
  const all = [...header, ...body];
  return { kind: 'table', bbox: rowsBox(all), rows: grid.rows, headerRows: grid.headerRows, source: 'borderless', lines: all.flatMap((r) => r.lines) };
}

// ------------------------------------------------------------------------------------------------
// Ruled tables
// ------------------------------------------------------------------------------------------------

/** Tolerance (points) for rules that meet or line up. */
const RULE_SNAP = 2.5;
/** Two rules this close (points) are a double rule. */
const DOUBLE_RULE_GAP = 4;
/** Collinear rule pieces this close (points) are one rule (cell borders drawn per column, dashes). */
const RULE_JOIN_GAP = 10;

/** Merges collinear rules that overlap or nearly touch (drawn in pieces per cell, dashed, or twice). */
export function mergeRules(rules: readonly PdfRule[]): PdfRule[] {
  const out: PdfRule[] = [];
  for (const orientation of ['h', 'v'] as const) {
    const list = rules.filter((r) => r.orientation === orientation).sort((a, b) => a.at - b.at || a.from - b.from);
    // Bucket rules by position, then merge along each bucket.
    let bucket: PdfRule[] = [];
    const flush = (): void => {
      bucket.sort((a, b) => a.from - b.from);
      let current: PdfRule | undefined;
      for (const rule of bucket) {
        if (current && rule.from <= current.to + RULE_JOIN_GAP) {
          current.to = Math.max(current.to, rule.to);
          current.width = Math.max(current.width, rule.width);
        } else {
          if (current) out.push(current);
          current = { ...rule };
        }
      }
      if (current) out.push(current);
      bucket = [];
    };
    for (const rule of list) {
      const head = bucket[0];
      if (head && Math.abs(rule.at - head.at) > 1.2) flush();
      bucket.push(rule);
    }
    flush();
  }
  return out;
}

/** Clusters sorted positions closer than `tolerance` into their means. */
function clusterPositions(values: readonly number[], tolerance: number): number[] {
  const sorted = [...values].sort((a, b) => a - b);
  const out: number[] = [];
  let group: number[] = [];
  for (const v of sorted) {
    if (group.length > 0 && v - group[group.length - 1]! > tolerance) {
      out.push(group.reduce((s, x) => s + x, 0) / group.length);
      group = [];
    }
    group.push(v);
  }
  if (group.length > 0) out.push(group.reduce((s, x) => s + x, 0) / group.length);
  return out;
}

/** Lines whose centre lies inside a box (widened by `pad`), captions excepted. */
function linesInside(lines: readonly PdfLine[], box: BBox, pad = 1): PdfLine[] {
  return lines.filter((l) => {
    const cx = (l.bbox[0] + l.bbox[2]) / 2;
    const cy = (l.bbox[1] + l.bbox[3]) / 2;
    return cx >= box[0] - pad && cx <= box[2] + pad && cy >= box[1] - pad && cy <= box[3] + pad && !isCaptionLine(l);
  });
}

/** Union-find over indices. */
class DisjointSet {
  private readonly parent: number[];
  constructor(n: number) {
    this.parent = Array.from({ length: n }, (_, i) => i);
  }
  find(i: number): number {
    let root = i;
    while (this.parent[root] !== root) root = this.parent[root]!;
    while (this.parent[i] !== root) {
      const next = this.parent[i]!;
      this.parent[i] = root;
      i = next;
    }
    return root;
  }
  union(a: number, b: number): void {
    const ra = this.find(a);
    const rb = this.find(b);
    if (ra !== rb) this.parent[rb] = ra;
  }
}

/** Most crossing tests between horizontal and vertical rules on one page. */
const MAX_GRID_PAIRS = 250_000;

/** Builds a grid table from crossing rules; cells come from the rule lines. */
function gridTable(hs: readonly PdfRule[], vs: readonly PdfRule[], lines: readonly PdfLine[]): PdfTableRegion | undefined {
  const x0 = Math.min(...hs.map((h) => h.from), ...vs.map((v) => v.at));
  const x1 = Math.max(...hs.map((h) => h.to), ...vs.map((v) => v.at));
  const y0 = Math.min(...vs.map((v) => v.from), ...hs.map((h) => h.at));
  const y1 = Math.max(...vs.map((v) => v.to), ...hs.map((h) => h.at));
  // Cell borders are rules crossing a good part of the table; short ones belong to a nested table
  // or a split cell, whose text then joins the enclosing cell.
  const xs = ruleEdges(vs, y1 - y0);
  const ys = ruleEdges(hs, x1 - x0);
  const colEdges = clusterPositions([x0, x1, ...xs], DOUBLE_RULE_GAP);
  const rowEdges = clusterPositions([y0, y1, ...ys], DOUBLE_RULE_GAP);
  if (colEdges.length < 3 || rowEdges.length < 2) return undefined;
  const box: BBox = [round2(x0), round2(y0), round2(x1), round2(y1)];
  const inside = linesInside(lines, box);
  if (inside.length === 0) return undefined;
  const columns = colEdges.slice(1).map((e, i) => [colEdges[i]!, e] as [number, number]);
  const rows: string[][] = [];
  const bands = rowEdges.slice(1).map((e, i) => [rowEdges[i]!, e] as [number, number]);
  for (const [top, bottom] of bands) {
    const bandLines = inside.filter((l) => {
      const cy = (l.bbox[1] + l.bbox[3]) / 2;
      return cy >= top && cy < bottom;
    });
    if (bandLines.length === 0) continue;
    const textRows = groupRows(bandLines);
    // A band holding several full rows of cells (no rule between them) splits into text rows.
    const full = textRows.filter((r) => new Set(r.frags.map((f) => columnOfEdges(f, columns))).size >= 2);
    const split = full.length >= 2 && full.length >= 0.6 * textRows.length;
    const groups = split ? textRows.map((r) => [r]) : [textRows];
    for (const group of groups) {
      const parts: string[][] = columns.map(() => []);
      for (const row of group) for (const frag of row.frags) parts[columnOfEdges(frag, columns)]!.push(frag.text);
      rows.push(parts.map(joinCell));
    }
  }
  const filled = rows.flat().filter((c) => c !== '').length;
  if (rows.length < 2 || filled < 3 || prosy(rows)) return undefined;
  const first = rows[0]!;
  const headerRows = rows.length >= 3 && first.every((c) => !isNumericCell(c)) && first.some((c) => c !== '') ? 1 : 0;
  return { kind: 'table', bbox: box, rows: tidyCells(rows), headerRows, source: 'grid', lines: inside };
}

/** Positions of rules whose pieces at one position together cover at least a third of `span`. */
function ruleEdges(rules: readonly PdfRule[], span: number): number[] {
  const byPosition = new Map<number, number>();
  for (const rule of rules) {
    const key = Math.round(rule.at / DOUBLE_RULE_GAP);
    byPosition.set(key, (byPosition.get(key) ?? 0) + (rule.to - rule.from));
  }
  return rules.filter((r) => (byPosition.get(Math.round(r.at / DOUBLE_RULE_GAP)) ?? 0) >= span / 3).map((r) => r.at);
}

/** Column of a fragment between rule edges: by its centre. */
function columnOfEdges(frag: TableFrag, columns: ReadonlyArray<readonly [number, number]>): number {
  const centre = (frag.x0 + frag.x1) / 2;
  const index = columns.findIndex(([a, b]) => centre >= a && centre < b);
  return index >= 0 ? index : columnOf(frag, columns);
}

/** Finds grid tables (crossing horizontal and vertical rules) and returns them with the rules they used. */
function findGridTables(rules: readonly PdfRule[], lines: readonly PdfLine[]): { tables: PdfTableRegion[]; used: Set<PdfRule> } {
  const hs = rules.filter((r) => r.orientation === 'h' && r.to - r.from >= 10);
  const vs = rules.filter((r) => r.orientation === 'v' && r.to - r.from >= 6);
  const used = new Set<PdfRule>();
  if (hs.length < 2 || vs.length < 2 || hs.length * vs.length > MAX_GRID_PAIRS) return { tables: [], used };
  const all = [...hs, ...vs];
  const sets = new DisjointSet(all.length);
  const byX = vs.map((v, i) => ({ v, i: hs.length + i })).sort((a, b) => a.v.at - b.v.at);
  for (let h = 0; h < hs.length; h++) {
    const rule = hs[h]!;
    // First vertical rule at or right of the horizontal rule's start (binary search).
    let lo = 0;
    let hi = byX.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (byX[mid]!.v.at < rule.from - RULE_SNAP) lo = mid + 1;
      else hi = mid;
    }
    for (let k = lo; k < byX.length && byX[k]!.v.at <= rule.to + RULE_SNAP; k++) {
      const { v, i } = byX[k]!;
      if (rule.at >= v.from - RULE_SNAP && rule.at <= v.to + RULE_SNAP) sets.union(h, i);
    }
  }
  const groups = new Map<number, number[]>();
  all.forEach((_, i) => {
    const root = sets.find(i);
    const list = groups.get(root) ?? [];
    list.push(i);
    groups.set(root, list);
  });
  const tables: PdfTableRegion[] = [];
  for (const members of groups.values()) {
    const gh = members.filter((i) => i < hs.length).map((i) => all[i]!);
    const gv = members.filter((i) => i >= hs.length).map((i) => all[i]!);
    if (gh.length < 2 || gv.length < 2) continue;
    const table = gridTable(gh, gv, lines);
    if (!table) continue;
    tables.push(table);
    for (const r of [...gh, ...gv]) used.add(r);
  }
  return { tables, used };
}

/** Finds tables bounded by stacked horizontal rules of one width (booktabs style). */
function findRuleSetTables(rules: readonly PdfRule[], lines: readonly PdfLine[]): PdfTableRegion[] {
  const hs = rules.filter((r) => r.orientation === 'h' && r.to - r.from >= 60).sort((a, b) => a.from - b.from || a.at - b.at);
  // Groups of rules with the same extent.
  const groups: PdfRule[][] = [];
  for (const rule of hs) {
    const tolerance = Math.max(6, 0.03 * (rule.to - rule.from));
    const group = groups.find((g) => Math.abs(g[0]!.from - rule.from) <= tolerance && Math.abs(g[0]!.to - rule.to) <= tolerance);
    if (group) group.push(rule);
    else groups.push([rule]);
  }
  const tables: PdfTableRegion[] = [];
  const taken = new Set<PdfLine>();
  for (const group of groups) {
    if (group.length < 2) continue;
    group.sort((a, b) => a.at - b.at);
    const from = Math.min(...group.map((r) => r.from));
    const to = Math.max(...group.map((r) => r.to));
    // Split the stack where prose sits between two rules, and after a double rule (a table's foot).
    const segments: PdfRule[][] = [];
    let current: PdfRule[] = [group[0]!];
    for (let i = 1; i < group.length; i++) {
      const top = group[i - 1]!.at;
      const bottom = group[i]!.at;
      const between = linesInside(lines, [from, top, to, bottom], 0);
      const prose = between.some((l) => wordCount(l.text) >= PROSE_WORDS && l.bbox[2] - l.bbox[0] >= 0.6 * (to - from));
      const doubled = i >= 2 && top - group[i - 2]!.at <= DOUBLE_RULE_GAP && bottom - top > DOUBLE_RULE_GAP;
      if (prose || doubled) {
        segments.push(current);
        current = [group[i]!];
      } else {
        current.push(group[i]!);
      }
    }
    segments.push(current);
    for (const segment of segments) {
      if (segment.length < 2) continue;
      const top = segment[0]!.at;
      const bottom = segment[segment.length - 1]!.at;
      const box: BBox = [round2(from), round2(top), round2(to), round2(bottom)];
      const inside = linesInside(lines, box, 0).filter((l) => !taken.has(l) && l.bbox[0] >= from - 3 && l.bbox[2] <= to + 3);
      const rows = groupRows(inside);
      if (rows.length < 3) continue;
      // Rows above the first inner rule are the header.
      const inner = segment.slice(1, -1).map((r) => r.at);
      const firstInner = inner[0];
      let headerCount = firstInner !== undefined ? rows.filter((r) => r.y1 <= firstInner + 1).length : 0;
      if (headerCount > 4 || headerCount >= rows.length - 1) headerCount = 0;
      if (headerCount === 0) headerCount = leadingHeaderRows(rows);
      const header = rows.slice(0, headerCount);
      const body = rows.slice(headerCount);
      // Column headings set right above the top rule (`December 31, 2022` over the amounts).
      const above = groupRows(lines.filter((l) => !taken.has(l) && !inside.includes(l) && l.bbox[3] <= top + 1 && l.bbox[3] >= top - 4 * (body[0]?.size ?? 10) && l.bbox[0] >= from - 3 && l.bbox[2] <= to + 3));
      let edge = top;
      for (let i = above.length - 1; i >= 0 && header.length < 6; i--) {
        const row = above[i]!;
        const heading = row.frags.every((f) => wordCount(f.text) <= 6 && f.x0 > from + 0.3 * (to - from)) && !row.lines.some(isCaptionLine);
        if (!heading || edge - row.y1 > 1.2 * row.size) break;
        header.unshift(row);
        edge = row.y0;
      }
      const grid = gridFromRows(header, body);
      if (!grid) continue;
      if (!cellRows(grid.rows)) continue;
      const used = [...header.flatMap((r) => r.lines).filter((l) => !inside.includes(l)), ...inside];
      for (const l of used) taken.add(l);
      const bbox: BBox = [box[0], round2(Math.min(box[1], edge)), box[2], box[3]];
      tables.push({ kind: 'table', bbox, rows: grid.rows, headerRows: grid.headerRows, source: 'rules', lines: used });
    }
  }
  return tables;
}

/**
 * Joins rows of wrapped cell text into the row above: a body row with an empty first cell and no
 * amounts continues the cells of the previous row (a shaded HTML-style table with multi-line cells).
 */
function mergeWrappedRows(rows: readonly string[][], headerRows: number): string[][] {
  const out: string[][] = [];
  rows.forEach((row, i) => {
    const prev = out[out.length - 1];
    const wrapped = i > headerRows && prev !== undefined && row[0] === '' && row.every((c) => c === '' || !isNumericCell(c) || YEAR_CELL.test(c));
    if (wrapped) {
      out[out.length - 1] = prev.map((c, j) => [c, row[j] ?? ''].filter(Boolean).join(' '));
      return;
    }
    out.push([...row]);
  });
  return out;
}

/**
 * A table from the lines inside a drawn region (cell shading, boxes) whose text forms rows of
 * cells: columns from the text, leading all-bold rows as the header. Undefined when the rows do not
 * hold up as a table.
 */
export function tableFromLines(lines: readonly PdfLine[], bbox: BBox): PdfTableRegion | undefined {
  const rows = groupRows(lines.filter((l) => !isCaptionLine(l)));
  let headerCount = 0;
  while (headerCount < Math.min(3, rows.length - 2) && rows[headerCount]!.frags.every((f) => f.bold)) headerCount++;
  headerCount = Math.max(headerCount, leadingHeaderRows(rows));
  const found = gridFromRows(rows.slice(0, headerCount), rows.slice(headerCount));
  if (!found) return undefined;
  const grid = { rows: mergeWrappedRows(found.rows, found.headerRows), headerRows: found.headerRows };
  if (!cellRows(grid.rows)) return undefined;
  const box = rowsBox(rows);
  const union: BBox = [Math.min(box[0], bbox[0]), Math.min(box[1], bbox[1]), Math.max(box[2], bbox[2]), Math.max(box[3], bbox[3])];
  return { kind: 'table', bbox: union.map(round2) as BBox, rows: grid.rows, headerRows: grid.headerRows, source: 'drawn', lines: rows.flatMap((r) => r.lines) };
}

/** Most leading rows taken out of a table as its title. */
const MAX_TITLE_ROWS = 4;

/** The one text of a title row: every non-empty cell holds the same phrase (a title spanning cells is repeated in each). */
function titleRowText(row: readonly string[]): string | undefined {
  const texts = [...new Set(row.map((c) => c.trim()).filter((c) => c !== ''))];
  if (texts.length !== 1) return undefined;
  const text = texts[0]!;
  const letters = (text.match(/\p{L}/gu) ?? []).length;
  if (letters < 6 || wordCount(text) < 2 || isNumericCell(text) || YEAR_CELL.test(text)) return undefined;
  // A units line or a row label (`Current assets:`) belongs to the table.
  if (UNITS_ROW.test(text) || /:$/.test(text)) return undefined;
  return text;
}

/**
 * Takes a table's title rows out of it: leading rows (at most four, while the table keeps two rows)
 * whose only text is one phrase, such as `The Boeing Company and Subsidiaries` / `Consolidated
 * Statements of Equity` / `Years ended December 31` inside a shaded statement. Their lines go back to
 * the text flow above the table, where they are typed like any other text (a statement title becomes
 * a heading); the table's box starts below them and header rows are recounted. Returns the table
 * unchanged when there is no such row or its lines cannot be told apart.
 */
export function peelTitleRows(table: PdfTableRegion): PdfTableRegion {
  const titles: string[] = [];
  while (titles.length < MAX_TITLE_ROWS && table.rows.length - titles.length > 2) {
    const text = titleRowText(table.rows[titles.length]!);
    if (text === undefined) break;
    titles.push(text);
  }
  if (titles.length === 0) return table;
  const norm = (s: string): string => s.replace(/\s+/g, ' ').trim();
  const titleText = titles.map(norm);
  const isTitleLine = (line: PdfLine): boolean => {
    const text = norm(line.text);
    return text !== '' && titleText.some((t) => t === text || t.includes(text));
  };
  const candidates = table.lines.filter(isTitleLine);
  const rest = table.lines.filter((l) => !candidates.includes(l));
  if (candidates.length === 0 || rest.length === 0) return table;
  // Title lines sit above everything that stays in the table.
  const restTop = Math.min(...rest.map((l) => l.bbox[1]));
  const peeled = candidates.filter((l) => l.bbox[3] <= restTop + 1);
  if (peeled.length === 0 || peeled.length !== candidates.length) return table;
  const rows = table.rows.slice(titles.length);
  const remaining = Math.max(0, table.headerRows - titles.length);
  const firstAmount = rows.findIndex((r) => r.some((c, i) => i > 0 && c !== '' && isNumericCell(c) && !YEAR_CELL.test(c.trim())));
  const headerRows = remaining > 0 ? remaining : firstAmount > 0 && firstAmount <= 4 && rows.length - firstAmount >= 2 ? firstAmount : 0;
  const top = Math.max(table.bbox[1], Math.max(...peeled.map((l) => l.bbox[3])) + 0.5);
  return { ...table, rows, headerRows, bbox: [table.bbox[0], round2(Math.min(top, restTop)), table.bbox[2], table.bbox[3]], lines: rest };
}

/**
 * Borderless tables of a page read in partitions (the columns of a two-column page). A statement whose
 * label column a gutter test took for a column of its own would come out without its labels: a table
 * found on the whole page replaces the partition tables it holds entirely, when it has more lines.
 */
function borderlessAcrossPartitions(lines: readonly PdfLine[], partitions: ReadonlyArray<readonly PdfLine[]>): PdfTableRegion[] {
  const parts = partitions.flatMap((part) => findBorderlessTables(part));
  if (partitions.length < 2) return parts;
  const whole = findBorderlessTables(lines);
  const out = [...parts];
  for (const table of whole) {
    const held = out.filter((t) => boxesOverlap(t.bbox, table.bbox));
    if (held.length === 0) continue;
    const lineSet = new Set(table.lines);
    const covered = held.every((t) => t.lines.every((l) => lineSet.has(l)));
    if (!covered || table.lines.length <= held.reduce((n, t) => n + t.lines.length, 0)) continue;
    for (const t of held) out.splice(out.indexOf(t), 1);
    out.push(table);
  }
  return out;
}

/** Options of {@link findTables}. */
export interface FindTablesOptions {
  /** Line groups read separately by the borderless detector (the columns of a two-column page); all lines by default. */
  partitions?: ReadonlyArray<readonly PdfLine[]>;
}

/**
 * Finds the tables of one page: grid tables, then borderless tables, then rule-set tables among the
 * remaining lines. Regions never overlap; every table lists the lines it covers.
 */
export function findTables(lines: readonly PdfLine[], rules: readonly PdfRule[], options: FindTablesOptions = {}): PdfTableRegion[] {
  const merged = mergeRules(rules);
  const grid = findGridTables(merged, lines);
  const tables = [...grid.tables];
  const taken = new Set(tables.flatMap((t) => t.lines));
  const free = (list: readonly PdfLine[]): PdfLine[] => list.filter((l) => !taken.has(l));
  const add = (found: readonly PdfTableRegion[]): void => {
    for (const table of found) {
      if (tables.some((t) => boxesOverlap(t.bbox, table.bbox))) continue;
      tables.push(table);
      for (const l of table.lines) taken.add(l);
    }
  };
  // Amount columns are the surest sign of a table; rule stacks then catch tables of words.
  add(borderlessAcrossPartitions(free(lines), (options.partitions ?? [lines]).map(free)));
  const ruleSet = findRuleSetTables(
    merged.filter((r) => !grid.used.has(r) && !tables.some((t) => insideBox(ruleBox(r), t.bbox))),
    free(lines),
  );
  add(ruleSet);
  return tables;
}

/** Box of a rule. */
export function ruleBox(rule: PdfRule): BBox {
  const half = rule.width / 2;
  return rule.orientation === 'h' ? [rule.from, rule.at - half, rule.to, rule.at + half] : [rule.at - half, rule.from, rule.at + half, rule.to];
}

/** True when `inner` lies inside `outer` (with a small tolerance). */
export function insideBox(inner: BBox, outer: BBox, pad = 2): boolean {
  return inner[0] >= outer[0] - pad && inner[1] >= outer[1] - pad && inner[2] <= outer[2] + pad && inner[3] <= outer[3] + pad;
}

/** True when two boxes overlap by more than a sliver. */
export function boxesOverlap(a: BBox, b: BBox, slack = 1): boolean {
  return Math.min(a[2], b[2]) - Math.max(a[0], b[0]) > slack && Math.min(a[3], b[3]) - Math.max(a[1], b[1]) > slack;
}
