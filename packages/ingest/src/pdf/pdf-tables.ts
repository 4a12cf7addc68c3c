import type { BBox } from '@doctree/schema';
import type { PdfRule } from './pdf-graphics.js';
import type { PdfLine } from './pdf-lines.js';
import type { PdfTableRegion } from './pdf-region-types.js';
import { isCaptionLine, UNITS_ROW, YEAR_CELL, cellRows, gridFromRows, groupRows, isNumericCell, leadingHeaderRows, round2, rowsBox, wordCount } from './pdf-table-grid.js';
import { boxesOverlap, insideBox, ruleBox } from './pdf-geometry.js';
import { findBorderlessTables } from './pdf-borderless-tables.js';
import { findGridTables, findRuleSetTables, mergeRules, mergeWrappedRows } from './pdf-ruled-tables.js';

export type { PdfTableRegion } from './pdf-region-types.js';

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
 * PDF points with a top-left origin. This module runs the detectors (`pdf-ruled-tables.ts`: grid and
 * rule-set tables; `pdf-borderless-tables.ts`) over the shared geometry of `pdf-table-grid.ts`.
 */

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
 * whose only text is one phrase, such as `The Northwind Company and Subsidiaries` / `Consolidated
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
function borderlessAcrossPartitions(lines: readonly PdfLine[], partitions: ReadonlyArray<readonly PdfLine[]>, memo?: BorderlessTableMemo): PdfTableRegion[] {
  const find = (group: readonly PdfLine[]): PdfTableRegion[] => (memo ? memo.find(group) : findBorderlessTables(group));
  const parts = partitions.flatMap((part) => find(part));
  if (partitions.length < 2) return parts;
  const whole = find(lines);
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

/** True when two line lists hold the same lines in the same order. */
function sameLines(a: readonly PdfLine[], b: readonly PdfLine[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Borderless tables found on one page, by the exact list of lines read. A page is read for regions twice when its
 * graphics are read (from the text alone first, to decide on graphics), and the borderless detector, the costliest
 * one, sees the same lines both times unless a grid table took some of them: the second read takes the first's
 * tables. {@link findBorderlessTables} depends on nothing but its lines, and nothing changes a table once found.
 * One memo per page; a few entries (each column and the whole page).
 */
export class BorderlessTableMemo {
  private readonly entries: Array<{ lines: readonly PdfLine[]; tables: readonly PdfTableRegion[] }> = [];

  /** The borderless tables of `lines` (a new array each call; the tables are shared). */
  find(lines: readonly PdfLine[]): PdfTableRegion[] {
    for (const entry of this.entries) if (sameLines(entry.lines, lines)) return [...entry.tables];
    const tables = findBorderlessTables(lines);
    this.entries.push({ lines: [...lines], tables });
    return [...tables];
  }
}

/** Options of {@link findTables}. */
export interface FindTablesOptions {
  /** Line groups read separately by the borderless detector (the columns of a two-column page); all lines by default. */
  partitions?: ReadonlyArray<readonly PdfLine[]>;
  /** Borderless tables already found on this page (see {@link BorderlessTableMemo}); none by default. */
  memo?: BorderlessTableMemo;
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
  add(borderlessAcrossPartitions(free(lines), (options.partitions ?? [lines]).map(free), options.memo));
  const ruleSet = findRuleSetTables(
    merged.filter((r) => !grid.used.has(r) && !tables.some((t) => insideBox(ruleBox(r), t.bbox))),
    free(lines),
  );
  add(ruleSet);
  return tables;
}
