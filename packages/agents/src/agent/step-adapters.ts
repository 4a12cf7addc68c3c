import { yearMentions, type ComputedOperand, type Hit } from '@doctree/schema';
import { isOutflowLabel, type DocNavigator, type ExtractColumnData } from '@doctree/toolhub';
import { hitsOf } from './plan-variables.js';

/**
 * What {@link adaptStepArgs} decided: call the tool with these arguments (and, for a computation, the nodes its
 * operands came from), or skip the step and why.
 */
export type AdaptedStep =
  | { args: Record<string, unknown>; operandNodes?: string[]; operandCells?: ComputedOperand[]; formula?: string; operands?: FormulaOperandTrace[] }
  | { skip: string };

/** One operand value of a formula computation as the trace shows it: the line item, its cell, year, page and node. */
export interface FormulaOperandTrace {
  /** Variable of the formula (`A`, `A0`). */
  name: string;
  /** The line item the question names. */
  item: string;
  /** The row label as written in the table. */
  label: string;
  /** The value used (an average of `cells` for an average balance). */
  value: number;
  year?: number;
  /** Column label(s) of the cell(s). */
  column: string;
  /** The cell(s) as written. */
  raw: string;
  /** 1-based page of the table. */
  page?: number;
  node_id: string;
}

/** Node ids a saved operand value came from: hits, regions, per-figure counts, an extraction's table. */
function operandNodesOf(value: unknown): string[] {
  if (value === null || typeof value !== 'object') return [];
  if (Array.isArray(value)) return value.flatMap(operandNodesOf);
  const v = value as { counts?: unknown; regions?: unknown; node_id?: unknown };
  for (const list of [v.counts, v.regions]) {
    if (Array.isArray(list)) return list.flatMap((r) => (typeof (r as { node_id?: unknown })?.node_id === 'string' ? [(r as { node_id: string }).node_id] : []));
  }
  const hits = hitsOf(value);
  if (hits && hits.length > 0) return hits.map((h) => h.node_id);
  return typeof v.node_id === 'string' ? [v.node_id] : [];
}

/** One numeric operand of a computation, with the year of its column and the line item it came from when known. */
interface Operand {
  value: number;
  unit: string | null;
  percent: boolean;
  scale: string | null;
  year?: number;
  /** The requested row label of an `extract.column` cell (its line item). */
  item?: string;
  /** The table cell it was read from. */
  cell?: ComputedOperand;
}

/** Numeric operands of a saved value: `extract.column` cells, `vlm.count` counts, numbers, or compute results. */
function operandsOf(value: unknown): Operand[] {
  if (typeof value === 'number') return Number.isFinite(value) ? [{ value, unit: null, percent: false, scale: null }] : [];
  if (Array.isArray(value)) return value.flatMap(operandsOf);
  if (value === null || typeof value !== 'object') return [];
  const data = value as Partial<ExtractColumnData> & { value?: unknown; total?: unknown; counts?: unknown };
  if (Array.isArray(data.cells)) {
    return data.cells.flatMap((cell) => {
      if (cell.value === null || !Number.isFinite(cell.value)) return [];
      const year = yearMentions(cell.column, { prefix: 'fy' })[0]?.year;
      const source = typeof data.node_id === 'string' ? { cell: { node_id: data.node_id, row: cell.row, column: cell.column, raw: cell.raw, value: cell.value } } : {};
      return [{ value: cell.value, unit: cell.unit, percent: cell.percent, scale: cell.scale, ...(year !== undefined ? { year } : {}), ...(cell.for_row ? { item: cell.for_row } : {}), ...source }];
    });
  }
  if (typeof data.total === 'number') return [{ value: data.total, unit: null, percent: false, scale: null }];
  if (typeof data.value === 'number') {
    const q = value as { value: number; unit?: string | null; percent?: boolean; scale?: string | null };
    return [{ value: q.value, unit: q.unit ?? null, percent: q.percent ?? false, scale: q.scale ?? null }];
  }
  return [];
}

/** How many things a saved value lists: regions, hits, counts. */
function countOf(value: unknown): number | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const v = value as { total?: unknown; regions?: unknown; hits?: unknown };
  if (typeof v.total === 'number') return v.total;
  if (Array.isArray(v.regions)) return v.regions.length;
  const hits = hitsOf(value);
  return hits?.length;
}

/** Operations that compare two line items of one period (A to B), rather than one line item over periods. */
const BETWEEN_ITEMS = new Set(['ratio', 'percent']);

/**
 * The operands an operation works on: with cells of two or more line items (requested rows), the first cell of each
 * item in the order asked (`ratio(A, B)`, `A − B`…); else the cells of one line item — the first that has enough —
 * sorted by year when every cell has one (so `difference` is newest − oldest and `percent_change` oldest → newest).
 * `ratio` / `percent` never divide one item's years by each other.
 */
function chooseOperands(operation: string, operands: readonly Operand[]): { operands: Operand[]; byItem: boolean } {
  const items = [...new Set(operands.map((o) => o.item))];
  if (items.length >= 2 && items.every((i) => i !== undefined)) {
    const perItem = items.map((item) => operands.filter((o) => o.item === item));
    if (operation === 'difference' || BETWEEN_ITEMS.has(operation) || perItem.every((cells) => cells.length === 1)) return { operands: perItem.map((cells) => cells[0]!), byItem: true };
    operands = perItem.find((cells) => cells.length >= 2) ?? perItem[0]!;
  } else if (BETWEEN_ITEMS.has(operation) && operands.every((o) => o.year !== undefined)) {
    return { operands: [], byItem: false };
  }
  return { operands: operands.every((o) => o.year !== undefined) ? [...operands].sort((a, b) => a.year! - b.year!) : [...operands], byItem: false };
}

/**
 * The `compute.eval` arguments of a plan step written as `{ operation, operands, round }` (the planner's form): cells
 * of an `extract.column` result (see {@link chooseOperands}: two line items compared, or one line item over years),
 * counts of `figure_finder` regions or `vlm.count` totals for `count`.
 */
export function computeArgsFromOperation(args: Readonly<Record<string, unknown>>): AdaptedStep {
  const operation = typeof args['operation'] === 'string' ? args['operation'] : '';
  const precision = typeof args['round'] === 'number' ? { precision: args['round'] } : {};
  if (operation === 'count') {
    const n = countOf(args['operands']);
    if (n === undefined) return { skip: 'nothing to count' };
    return { args: { expression: 'N', variables: { N: n }, ...precision }, operandNodes: operandNodesOf(args['operands']) };
  }
  const found = operandsOf(args['operands']);
  if (found.length === 0) return { skip: `no numbers to ${operation || 'compute'}` };
  const chosen = chooseOperands(operation, found);
  const byItem = chosen.byItem;
  let operands = chosen.operands;
  if (operands.length === 0) return { skip: `${operation} needs two line items, found one over ${found.length} period(s)` };
  // Outflows shown as negatives (`(1,482)` for purchases of PP&E) are compared by their amounts.
  if (operands.every((o) => o.value < 0 && o.cell !== undefined && isOutflowLabel(o.cell.row))) operands = operands.map((o) => ({ ...o, value: -o.value, cell: { ...o.cell!, value: -o.value } }));
  const names = operands.map((_, i) => `v${i}`);
  const variables = Object.fromEntries(operands.map((o, i) => [names[i]!, { value: o.value, unit: o.unit, percent: o.percent, scale: o.scale }]));
  const first = names[0]!;
  const last = names[names.length - 1]!;
  const all = names.join(', ');
  const expressions = new Map<string, string | undefined>(Object.entries({
    sum: `sum(${all})`,
    average: `avg(${all})`,
    max: `max(${all})`,
    min: `min(${all})`,
    // Two line items: the first asked minus the second; one item over years: newest minus oldest.
    difference: names.length >= 2 ? (byItem ? `${first} - ${names[1]}` : `${last} - ${first}`) : undefined,
    percent_change: names.length >= 2 ? `percent_change(${first}, ${last})` : undefined,
    ratio: names.length >= 2 ? `ratio(${names[0]}, ${names[1]})` : undefined,
    percent: names.length >= 2 ? `pct(${names[0]}, ${names[1]})` : undefined,
  }));
  // The operation comes from plan arguments: looked up in a Map, so `constructor` or `toString` is an unknown operation.
  const expression = expressions.get(operation);
  if (expression === undefined) return { skip: names.length < 2 && expressions.has(operation) ? `${operation} needs two numbers, found ${names.length}` : `unknown operation ${JSON.stringify(operation)}` };
  const operandCells = operands.flatMap((o) => (o.cell ? [o.cell] : []));
  return { args: { expression, variables, ...precision }, operandNodes: operandNodesOf(args['operands']), ...(operandCells.length === operands.length ? { operandCells } : {}) };
}

/** One input of a formula step: the operand's name, line item, years, reduction and its saved `extract.column` result. */
interface FormulaInput {
  name: string;
  phrase: string;
  years: number[];
  reduce: 'value' | 'average' | 'each';
  cells: unknown;
}

function formulaInputsOf(value: unknown): FormulaInput[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const out: FormulaInput[] = [];
  for (const v of value) {
    if (v === null || typeof v !== 'object') return undefined;
    const i = v as Record<string, unknown>;
    if (typeof i['name'] !== 'string' || !/^[A-Za-z][A-Za-z0-9_]{0,15}$/.test(i['name'])) return undefined;
    const reduce = i['reduce'] === 'average' || i['reduce'] === 'each' ? i['reduce'] : 'value';
    const years = Array.isArray(i['years']) ? i['years'].filter((y): y is number => typeof y === 'number') : [];
    out.push({ name: i['name'], phrase: typeof i['phrase'] === 'string' ? i['phrase'] : i['name'], years, reduce, cells: i['cells'] });
  }
  return out;
}

/**
 * The `compute.eval` arguments of a formula step (`{ expression, inputs: [{ name, phrase, years, reduce, cells }] }`,
 * the planner's form for a computation whose operands were each extracted on their own): each operand's cells of the
 * years asked — one cell (`A`), the mean of the years' cells (an average balance, `A`), or one variable per year
 * oldest first (`A0`, `A1`) — outflows shown as negatives taken by their amounts. Skipped, with the reason, when an
 * operand or one of its years was not found.
 */
export function computeArgsFromFormula(args: Readonly<Record<string, unknown>>, inputs: readonly FormulaInput[]): AdaptedStep {
  const expression = typeof args['expression'] === 'string' ? args['expression'] : '';
  if (expression === '') return { skip: 'no formula to compute' };
  const precision = typeof args['round'] === 'number' ? { precision: args['round'] } : {};
  const variables: Record<string, { value: number; unit: string | null; percent: boolean; scale: string | null }> = {};
  const traced: FormulaOperandTrace[] = [];
  const groups: Array<{ each: boolean; cells: ComputedOperand[] }> = [];
  const nodes: string[] = [];
  for (const input of inputs) {
    const data = input.cells as Partial<ExtractColumnData> | undefined;
    if (data === undefined || data === null || typeof data !== 'object' || !Array.isArray(data.cells) || typeof data.node_id !== 'string') return { skip: `no cells for ${input.name} (${input.phrase})` };
    const nodeId = data.node_id;
    const found = operandsOf(data).filter((o) => o.cell !== undefined);
    if (found.length === 0) return { skip: `${Array.isArray(data.missing_rows) && data.missing_rows.length > 0 ? 'no row' : 'no number'} for ${input.name} (${input.phrase}) in ${nodeId}` };
    let chosen: Operand[];
    if (input.years.length === 0) chosen = [found[0]!];
    else {
      chosen = [];
      for (const year of input.years) {
        const cell = found.find((o) => o.year === year);
        if (!cell) return { skip: `no ${year} value for ${input.name} (${input.phrase}) in ${nodeId}` };
        chosen.push(cell);
      }
      if (input.reduce === 'value') chosen = chosen.slice(-1);
    }
    // Outflows shown as negatives (`(1,482)` for purchases of PP&E) count by their amounts.
    if (chosen.every((o) => o.value < 0 && isOutflowLabel(o.cell!.row))) chosen = chosen.map((o) => ({ ...o, value: -o.value, cell: { ...o.cell!, value: -o.value } }));
    const quantity = (o: Operand, value = o.value) => ({ value, unit: o.unit, percent: o.percent, scale: o.scale });
    const page = typeof data.page === 'number' ? { page: data.page } : {};
    const record = (name: string, group: Operand[], value: number): void => {
      const years = group.flatMap((o) => (o.year !== undefined ? [o.year] : []));
      traced.push({
        name,
        item: input.phrase,
        label: group[0]!.cell!.row,
        value,
        ...(years.length === 1 ? { year: years[0]! } : {}),
        column: group.map((o) => o.cell!.column).join(' | '),
        raw: group.map((o) => o.cell!.raw).join(' | '),
        ...page,
        node_id: nodeId,
      });
    };
    if (input.reduce === 'each') {
      chosen.forEach((o, i) => {
        variables[`${input.name}${i}`] = quantity(o);
        record(`${input.name}${i}`, [o], o.value);
      });
    } else {
      const value = chosen.reduce((sum, o) => sum + o.value, 0) / chosen.length;
      variables[input.name] = quantity(chosen[0]!, value);
      record(input.name, chosen, value);
    }
    groups.push({ each: input.reduce === 'each', cells: chosen.map((o) => o.cell!) });
    if (!nodes.includes(nodeId)) nodes.push(nodeId);
  }
  // Operands read year by year are listed year by year (A0, B0, A1, B1…): the first cells are one of each operand.
  const perYear = groups.length > 1 && groups.every((g) => g.each && g.cells.length === groups[0]!.cells.length);
  const cells = perYear ? groups[0]!.cells.flatMap((_, y) => groups.map((g) => g.cells[y]!)) : groups.flatMap((g) => g.cells);
  // Tables of one report share its scale: a table whose "(Millions)" header was lost reads like unscaled numbers, which
  // would make a ratio across tables off by the scale. Operands without a scale take the one the others agree on.
  const amounts = Object.values(variables).filter((v) => !v.percent);
  const scales = new Set(amounts.map((v) => v.scale).filter((x): x is string => x !== null));
  if (nodes.length >= 2 && scales.size === 1 && amounts.some((v) => v.scale === null)) {
    const [scale] = [...scales];
    for (const v of amounts) if (v.scale === null) v.scale = scale!;
  }
  return {
    args: { expression, variables, ...precision },
    operandNodes: nodes,
    operandCells: cells,
    ...(typeof args['formula'] === 'string' ? { formula: args['formula'] } : {}),
    operands: traced,
  };
}

/** The section a node id names: the node itself when it is a section, else the section holding it. */
function sectionIdOf(nav: DocNavigator, nodeId: string): string | undefined {
  const node = nav.node(nodeId);
  if (!node) return undefined;
  if (node.role === 'section' || node.role === 'document') return node.node_id;
  return nav.sectionOf(node)?.node_id;
}

/** First section among hits (or the section of the first hit). */
function firstSection(nav: DocNavigator, hits: readonly Hit[]): string | undefined {
  const section = hits.find((h) => nav.node(h.node_id)?.role === 'section');
  if (section) return section.node_id;
  for (const hit of hits) {
    const id = sectionIdOf(nav, hit.node_id);
    if (id) return id;
  }
  return undefined;
}

/**
 * Turns a plan step's resolved arguments into the arguments its tool card takes, where the planner writes them in
 * its own terms: `compute.eval` from `{ expression, inputs }` (a formula over operands extracted one by one, see
 * {@link computeArgsFromFormula}) or `{ operation, operands }`, `extract.column` from candidate tables given as hits, `rank.llm` from `{ candidates, k }`,
 * `extract.heading_first` and `structure.children` from hit lists or a non-section node (its section), and hit lists
 * of `structure.expand` / `pack.mmr_knapsack` given as saved tool results. A step that cannot run (nothing to
 * compute, no section, no candidates) is skipped with the reason.
 */
export function adaptStepArgs(tool: string, args: Readonly<Record<string, unknown>>, nav: DocNavigator): AdaptedStep {
  switch (tool) {
    case 'compute.eval': {
      const inputs = formulaInputsOf(args['inputs']);
      if (inputs !== undefined) return computeArgsFromFormula(args, inputs);
      return typeof args['expression'] === 'string' ? { args: { ...args } } : computeArgsFromOperation(args);
    }
    case 'extract.column': {
      if (args['tables'] === undefined || (Array.isArray(args['tables']) && args['tables'].length > 0 && args['tables'].every((t) => typeof t === 'string'))) return { args: { ...args } };
      const tables = [...new Set((hitsOf(args['tables']) ?? []).filter((h) => nav.node(h.node_id)?.role === 'table').map((h) => h.node_id))].slice(0, 20);
      if (tables.length === 0) return { skip: 'no table to read' };
      return { args: { ...args, tables } };
    }
    case 'rank.llm': {
      if (Array.isArray(args['hits'])) return { args: { ...args } };
      const hits = hitsOf(args['candidates']) ?? [];
      if (hits.length === 0) return { skip: 'no candidates to rerank' };
      const { candidates: _c, k, ...rest } = args;
      return { args: { ...rest, hits: hits.slice(0, 500), ...(typeof k === 'number' ? { top: Math.min(100, k) } : {}) } };
    }
    case 'extract.heading_first':
    case 'structure.children': {
      const { nodes, pages: _pages, ...rest } = args;
      if (typeof rest['title'] === 'string') return { args: rest };
      let nodeId = typeof rest['node_id'] === 'string' ? sectionIdOf(nav, rest['node_id']) : undefined;
      if (nodeId === undefined && nodes !== undefined) nodeId = firstSection(nav, hitsOf(nodes) ?? []);
      if (nodeId === undefined) return { skip: 'no section to look in' };
      return { args: { ...rest, node_id: nodeId } };
    }
    case 'structure.expand': {
      const hits = args['hits'] !== undefined ? hitsOf(args['hits']) : undefined;
      if (args['hits'] !== undefined && (hits === undefined || hits.length === 0) && !Array.isArray(args['node_ids'])) return { skip: 'no hits to expand' };
      return { args: { ...args, ...(hits ? { hits: hits.slice(0, 2000) } : {}) } };
    }
    case 'pack.mmr_knapsack': {
      const hits = hitsOf(args['candidates']);
      if (hits === undefined || hits.length === 0) return { skip: 'no candidates to pack' };
      return { args: { ...args, candidates: hits.slice(0, 5000) } };
    }
    default:
      return { args: { ...args } };
  }
}
