import { cellYear, findYears, type DocTreeNode } from '@doctree/schema';
import { parseHtmlTable } from './html-table.js';
import { findCurrency, findScale, parseNumberText, type Scale } from './number-text.js';

/** A table node read into header, body, row labels, units and scale. */
export interface TableGrid {
  /** Rectangular grid of every row (header rows first). */
  rows: string[][];
  /** Number of leading header rows in `rows`. */
  headerRows: number;
  /** Column labels: the header rows joined per column (repeated span texts once), e.g. `Years ended December 31 2023`. */
  columns: string[];
  /** Body rows (after the header). */
  body: string[][];
  /** Label of each body row (its first cell that is not a value — years count as labels — or `''`), aligned with `body`. */
  rowLabels: string[];
  /** Unit of each column (`%`, `$`, `ms`…) from its header or its cells; `null` when none. */
  units: Array<string | null>;
  /** Scale the table is stated in (`(Millions)`, `in thousands` in caption or header). */
  scale?: Scale;
  /** Currency of the table (`$`) from caption, header or cells. */
  currency?: string;
  /** Caption text used to find the scale and currency. */
  caption?: string;
  /** Where the cells came from: parsed rows of the node, its HTML, its ` | `-separated text, or nothing. */
  source: 'rows' | 'html' | 'text' | 'empty';
}

/** Options of {@link readTable}. */
export interface ReadTableOptions {
  /** Caption of the table (searched for the scale and currency). */
  caption?: string | undefined;
}

const isNumeric = (cell: string): boolean => parseNumberText(cell) !== undefined;
const isYear = (cell: string): boolean => cellYear(cell.trim(), { prefix: 'fy' }) !== undefined;

/** True for a cell that looks like a value (a number that is not a bare year). */
function isValue(cell: string): boolean {
  return isNumeric(cell) && !isYear(cell);
}

/** The cells of a table node as stored, before any reading, and where they came from. */
export interface TableCells {
  /** Rows of cells, whitespace collapsed (not yet rectangular). */
  rows: string[][];
  /** Header rows the producer declared (`table.header_rows`, `<thead>` / `<th>` rows), when it did. */
  headerRows: number | undefined;
  source: TableGrid['source'];
}

/**
 * The cells of a table node: its parsed `table.rows` when present (the ingest pipeline fills them), else its
 * `table.html` (`parseHtmlTable`: spans, header rows), else its text (` | `-separated lines). Shared by `readTable`
 * and the agents' table observer.
 */
export function tableCells(node: DocTreeNode): TableCells {
  const clean = (c: string): string => c.replace(/\s+/g, ' ').trim();
  if (node.table?.rows && node.table.rows.length > 0) return { rows: node.table.rows.map((r) => r.map(clean)), headerRows: node.table.header_rows, source: 'rows' };
  if (node.table?.html && /<t[dh]\b/i.test(node.table.html)) {
    const parsed = parseHtmlTable(node.table.html);
    return { rows: parsed.rows, headerRows: Math.max(parsed.headerRows, node.table.header_rows ?? 0), source: parsed.rows.length > 0 ? 'html' : 'empty' };
  }
  if (node.text.includes('|')) {
    const rows = node.text
      .split('\n')
      .map((line) => line.split('|').map(clean))
      .filter((r) => r.some((c) => c.length > 0));
    return { rows, headerRows: node.table?.header_rows, source: rows.length > 0 ? 'text' : 'empty' };
  }
  return { rows: [], headerRows: node.table?.header_rows, source: 'empty' };
}

/** Column labels of header rows: each column's header cells joined top to bottom, a spanned text once (`Years ended 2023`). */
export function headerColumns(header: readonly (readonly string[])[], width: number): string[] {
  return Array.from({ length: width }, (_, c) => {
    const parts: string[] = [];
    for (const r of header) {
      const v = r[c] ?? '';
      if (v && !parts.includes(v)) parts.push(v);
    }
    return parts.join(' ');
  });
}

/**
 * Reads a table node: its parsed `table.rows` when present (the ingest pipeline fills them), else its `table.html`,
 * else its text (` | `-separated lines). Header rows are the declared ones, extended over following rows that start
 * with an empty cell and hold no values (a `| 2023 | 2022` year row under a spanning `Years ended` row); a table
 * declared without header whose first row holds no values gets one. Units per column come from the header
 * (`Accuracy (%)`, `Latency (ms)`, `$`) or from the cells (`12%`, `$5`); the scale and currency from the caption,
 * header or first cell (`(Millions)`, `in thousands of $`).
 */
export function readTable(node: DocTreeNode, options: ReadTableOptions = {}): TableGrid {
  const cells = tableCells(node);
  let rows = cells.rows;
  const declared = cells.headerRows ?? 1;
  const source = cells.source;
  const width = Math.max(0, ...rows.map((r) => r.length));
  rows = rows.map((r) => Array.from({ length: width }, (_, c) => r[c] ?? ''));
  let headerRows = Math.min(Math.max(0, declared), rows.length);
  if (headerRows === 0 && rows.length > 1 && !rows[0]!.some(isValue)) headerRows = 1;
  while (headerRows > 0 && headerRows < rows.length - 1) {
    const next = rows[headerRows]!;
    const startsEmpty = (next[0] ?? '').length === 0;
    if (startsEmpty && !next.some(isValue) && next.some((c) => c.length > 0)) headerRows++;
    else break;
  }
  const header = rows.slice(0, headerRows);
  const body = rows.slice(headerRows);
  const columns = headerColumns(header, width);
  const rowLabels = body.map((r) => r.find((c) => c.length > 0 && !isValue(c)) ?? '');
  const caption = options.caption ?? '';
  const topText = [caption, ...columns, rows[0]?.[0] ?? ''].join(' ');
  const scale = findScale(topText);
  const currency = findCurrency(topText) ?? cellCurrency(body);
  const units = columns.map((label, c) => columnUnit(label, body.map((r) => r[c] ?? '')));
  return {
    rows,
    headerRows,
    columns,
    body,
    rowLabels,
    units,
    ...(scale ? { scale } : {}),
    ...(currency ? { currency } : {}),
    ...(caption ? { caption } : {}),
    source,
  };
}

function cellCurrency(body: readonly string[][]): string | undefined {
  for (const row of body) for (const cell of row) {
    const parsed = parseNumberText(cell);
    if (parsed?.currency) return parsed.currency;
  }
  return undefined;
}

/** Unit of a column from its header (`(%)`, `(ms)`, `$`) or, failing that, from most of its value cells. */
function columnUnit(label: string, cells: readonly string[]): string | null {
  const paren = /\(\s*(%|[A-Za-z$€£¥/]{1,8})\s*\)\s*$/.exec(label);
  if (paren) {
    const u = paren[1]!;
    if (findScale(`(${u})`) === undefined) return u === 'USD' ? '$' : u;
  }
  if (/%|\bpercent(age)?\b/i.test(label)) return '%';
  const values = cells.map((c) => parseNumberText(c)).filter((p) => p !== undefined);
  if (values.length === 0) return null;
  const percent = values.filter((p) => p.percent).length;
  if (percent * 2 > values.length) return '%';
  const money = values.filter((p) => p.currency).map((p) => p.currency!);
  if (money.length * 2 > values.length) return money[0]!;
  if (findYears(label).length === 0 && findCurrency(label)) return findCurrency(label)!;
  return null;
}

/** A Markdown rendering of a table grid (header, separator, body), cells escaped for `|`. */
export function tableGridToMarkdown(grid: Pick<TableGrid, 'columns' | 'body' | 'headerRows'>, maxRows = Number.POSITIVE_INFINITY): string {
  const esc = (c: string): string => c.replace(/\|/g, '\\|');
  const width = grid.columns.length;
  if (width === 0) return '';
  const header = grid.headerRows > 0 ? grid.columns : grid.columns.map((_, i) => `col ${i + 1}`);
  const lines = [`| ${header.map(esc).join(' | ')} |`, `| ${header.map(() => '---').join(' | ')} |`];
  for (const row of grid.body.slice(0, maxRows)) lines.push(`| ${row.map(esc).join(' | ')} |`);
  if (grid.body.length > maxRows) lines.push(`| … ${grid.body.length - maxRows} more rows |`);
  return lines.join('\n');
}
