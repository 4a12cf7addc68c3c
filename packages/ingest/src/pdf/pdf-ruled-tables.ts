import type { BBox } from '@doctree/schema';
import type { PdfRule } from './pdf-graphics.js';
import type { PdfLine } from './pdf-lines.js';
import type { PdfTableRegion } from './pdf-region-types.js';
import { isCaptionLine, PROSE_WORDS, YEAR_CELL, cellRows, columnOf, gridFromRows, groupRows, isNumericCell, joinCell, leadingHeaderRows, prosy, round2, tidyCells, wordCount, type TableFrag } from './pdf-table-grid.js';

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
export function findGridTables(rules: readonly PdfRule[], lines: readonly PdfLine[]): { tables: PdfTableRegion[]; used: Set<PdfRule> } {
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
export function findRuleSetTables(rules: readonly PdfRule[], lines: readonly PdfLine[]): PdfTableRegion[] {
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
export function mergeWrappedRows(rows: readonly string[][], headerRows: number): string[][] {
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
