import type { PdfLine } from './pdf-lines.js';
import type { PdfTableRegion } from './pdf-region-types.js';
import { isCaptionLine, CURRENCY_ONLY, PROSE_WORDS, SUFFIX_ONLY, UNITS_ROW, YEAR_CELL, gridFromRows, groupRows, isNumericCell, rowsBox, wordCount, type TableFrag, type TableRow } from './pdf-table-grid.js';
import { overlap1d } from './pdf-geometry.js';


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
