import { headerColumns, tableGridToMarkdown } from '@doctree/toolhub';
import { findStatedScale, isYearLike, parseNumberCell, type Scale } from '../reader/numbers.js';

/** A table as the reader consumes it: labelled columns, body rows, a unit per column and the stated scale. */
export interface StructuredTable {
  /** One label per column; multi-row headers are joined top to bottom (`Revenue 2018`). */
  columns: string[];
  /** Body rows (header rows removed), as wide as `columns`. */
  rows: string[][];
  /** Unit per column (`%`, `$`, `€`…) or null when none is written. */
  units: Array<string | null>;
  /** Scale stated for the table (`million`), when found in the caption, the header or the context. */
  scale?: Scale;
  /** Number of grid rows used as the header. */
  headerRows: number;
  /** GitHub-flavoured Markdown preview. */
  markdown: string;
}

/** Options of {@link structureTable}. */
export interface StructureTableOptions {
  /** Header rows the producer marked (`table.header_rows`, `<thead>`); 0 or absent lets the rows decide. */
  headerRows?: number;
  /** Caption text, searched for a scale (`in millions`). */
  caption?: string;
  /** Nearby text (section heading, preceding paragraph), searched for a scale after the caption and header. */
  context?: readonly string[];
  /** Cap on body rows kept (very long tables are cut; the markdown says so). Default 400. */
  maxRows?: number;
}

const STRUCTURE_DEFAULTS = { headerRows: 0, context: [] as readonly string[], maxRows: 400 } satisfies StructureTableOptions;

const CURRENCY_ONLY = /^(?:US\$|C\$|A\$|[$€£¥₹])$/;
const clean = (cell: string): string => cell.replace(/\s+/g, ' ').trim();

/** True when the cell holds a quantity that is not a year (years label columns; quantities are values). */
function isValue(cell: string): boolean {
  const n = parseNumberCell(cell);
  return n !== null && !isYearLike(n);
}

function headerLike(row: readonly string[]): boolean {
  return !row.slice(1).some(isValue) && !(row.length > 1 && row[0] !== '' && isValue(row[0]!));
}

function detectHeaderRows(rows: readonly string[][], hint: number): number {
  const limit = Math.min(4, rows.length - 1);
  let count = 0;
  if (hint > 0) {
    count = Math.min(hint, Math.max(0, rows.length - 1));
  } else {
    while (count < limit && headerLike(rows[count]!)) {
      const row = rows[count]!;
      const filled = row.filter(Boolean).length;
      // A lone label below a header is a body section row ("Cash flows from operating activities").
      if (count > 0 && filled === 1 && row[0] !== '') break;
      count++;
    }
  }
  // A row of years (or periods) right under the marked header belongs to it.
  while (count > 0 && count < limit) {
    const row = rows[count]!;
    const years = row.slice(1).filter((c) => {
      const n = parseNumberCell(c);
      return (n !== null && isYearLike(n)) || /^(?:FY|Q[1-4]|H[12])\s?'?\d{2,4}$/i.test(c);
    }).length;
    if (years >= 1 && headerLike(row) && (row[0] === '' || findStatedScale(row[0]!) !== undefined)) count++;
    else break;
  }
  return count;
}

function columnUnit(header: string, body: readonly string[]): string | null {
  if (/%|\bpercent(?:age)?\b|\bpct\b/i.test(header)) return '%';
  const currency = /(US\$|C\$|A\$|[$€£¥₹])|\b(USD|EUR|GBP|JPY|RMB|CHF)\b/.exec(header);
  let percents = 0;
  let currencies = 0;
  let numbers = 0;
  let symbol: string | undefined;
  for (const cell of body) {
    const n = parseNumberCell(cell);
    if (!n || isYearLike(n)) continue;
    numbers++;
    if (n.percent) percents++;
    if (n.currency) {
      currencies++;
      symbol ??= n.currency;
    }
  }
  if (numbers > 0 && percents * 2 >= numbers) return '%';
  if (currency) return currency[1] ?? { USD: '$', EUR: '€', GBP: '£', JPY: '¥', RMB: '¥', CHF: 'CHF' }[currency[2]!] ?? currency[2]!;
  if (currencies > 0 && symbol) return symbol;
  return null;
}

/** ToolHub's Markdown of the grid (every column labelled, even by an empty header), then the note. */
function markdownTable(columns: readonly string[], rows: readonly string[][], note?: string): string {
  const table = tableGridToMarkdown({ columns: [...columns], body: rows.map((r) => [...r]), headerRows: 1 });
  return table && note ? `${table}\n${note}` : table;
}

/**
 * Turns a cell grid into columns, body rows, per-column units and the table's scale. Handles what PDF and HTML
 * converters produce: header rows the producer did not mark (detected: leading rows without quantities, plus a row of
 * years under them), multi-row headers (joined per column), currency symbols in their own column (`$ | 4,918`, folded
 * into the column's unit), empty columns and rows, `(Millions)` / `in thousands` scales in the caption, the header or
 * nearby text.
 */
export function structureTable(grid: readonly (readonly string[])[], options: StructureTableOptions = {}): StructuredTable {
  const opts = { ...STRUCTURE_DEFAULTS, ...options };
  let rows = grid.map((r) => r.map(clean)).filter((r) => r.some(Boolean));
  const width = rows.reduce((w, r) => Math.max(w, r.length), 0);
  rows = rows.map((r) => Array.from({ length: width }, (_, c) => r[c] ?? ''));
  const headerRows = rows.length > 1 ? detectHeaderRows(rows, opts.headerRows) : 0;
  const head = rows.slice(0, headerRows);
  let body = rows.slice(headerRows);

  // Fold currency-only and percent-only columns into their neighbours' units; drop empty columns.
  const keep: number[] = [];
  const forcedUnit = new Map<number, string>();
  for (let c = 0; c < width; c++) {
    const values = body.map((r) => r[c]!).filter(Boolean);
    const headerText = head.map((r) => r[c]!).filter(Boolean);
    if (values.length > 0 && values.every((v) => CURRENCY_ONLY.test(v)) && c + 1 < width) {
      forcedUnit.set(c + 1, values[0] === 'US$' ? '$' : values[0]!);
      continue;
    }
    if (values.length > 0 && values.every((v) => v === '%') && keep.length > 0) {
      forcedUnit.set(keep[keep.length - 1]!, '%');
      continue;
    }
    if (values.length === 0 && headerText.length === 0) continue;
    // A column whose header is a spanned copy of its left neighbour and whose cells are all empty is layout.
    if (values.length === 0 && keep.length > 0 && headerText.join(' ') === head.map((r) => r[keep[keep.length - 1]!]!).filter(Boolean).join(' ')) continue;
    keep.push(c);
  }
  const columns = headerColumns(
    head.map((r) => keep.map((c) => r[c]!)),
    keep.length,
  );
  const truncated = body.length > opts.maxRows ? body.length - opts.maxRows : 0;
  body = body.slice(0, opts.maxRows).map((r) => keep.map((c) => r[c]!));
  const units = keep.map((c, i) => forcedUnit.get(c) ?? columnUnit(columns[i]!, body.map((r) => r[i]!)));
  const scale =
    (opts.caption ? findStatedScale(opts.caption) : undefined) ??
    head.flat().reduce<Scale | undefined>((found, cell) => found ?? findStatedScale(cell), undefined) ??
    body.slice(0, 2).flat().reduce<Scale | undefined>((found, cell) => found ?? (parseNumberCell(cell) ? undefined : findStatedScale(cell)), undefined) ??
    opts.context.reduce<Scale | undefined>((found, text) => found ?? findStatedScale(text), undefined);
  const note = truncated > 0 ? `(${truncated} more rows not shown)` : undefined;
  return {
    columns,
    rows: body,
    units,
    ...(scale ? { scale } : {}),
    headerRows,
    markdown: markdownTable(columns, body, note),
  };
}
