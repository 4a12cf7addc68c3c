import { DocTreeError, cellYear, findYears, pageFromIndex } from '@doctree/schema';
import type { DocTreeNode } from '@doctree/schema';
import { analyzeText } from '@doctree/index';
import { z } from 'zod';
import type { HubToolCard } from '../context/tool-context.js';
import type { DocNavigator } from '../navigation/doc-navigator.js';
import { nodeHit } from '../hits/node-hit.js';
import { SCALE_MULTIPLIERS, ScaleSchema, parseNumberText, type Scale } from '../table/number-text.js';
import type { TableGrid } from '../table/table-reader.js';
import { conceptMatch, DEFAULT_CONCEPTS, namedConcepts, normalizeLabel, type Concept } from '../vocabulary/concept-vocabulary.js';

/** One cell picked by `extract.column`. */
export interface ExtractedCell {
  /** Label of its row (as written). */
  row: string;
  /** Label of its column (header rows joined). */
  column: string;
  /** 0-based body row and grid column. */
  row_index: number;
  col_index: number;
  /** The cell as written (`(1,482)`). */
  raw: string;
  /** The number as written with its sign (`-1482`), or null for text / empty / dash cells. */
  value: number | null;
  /** `value` times the table scale (`-1482000000` in a `(Millions)` table), or null. */
  value_scaled: number | null;
  /** Unit of the cell (`%`, or the table currency `$`), or null. */
  unit: string | null;
  /** Written as a percent. */
  percent: boolean;
  /** Scale of the table (`millions`), or null. */
  scale: Scale | null;
  /** The requested row label that found this row (when rows were requested). */
  for_row?: string;
}

/** Data of `extract.column`. */
export interface ExtractColumnData {
  node_id: string;
  /** 1-based page of the table. */
  page: number;
  caption?: string;
  columns: string[];
  scale: Scale | null;
  currency: string | null;
  /** Matched cells, by requested row then column. */
  cells: ExtractedCell[];
  /** Requested row labels that matched no row. */
  missing_rows: string[];
  /** Requested columns (labels or years) that matched no column. */
  missing_columns: string[];
}

/** Zod schema of an {@link ExtractedCell}. */
export const ExtractedCellSchema: z.ZodType<ExtractedCell> = z.object({
  row: z.string(),
  column: z.string(),
  row_index: z.number().int(),
  col_index: z.number().int(),
  raw: z.string(),
  value: z.number().nullable(),
  value_scaled: z.number().nullable(),
  unit: z.string().nullable(),
  percent: z.boolean(),
  scale: ScaleSchema.nullable(),
  for_row: z.string().optional(),
});

/** Zod schema of {@link ExtractColumnData} (the card's declared output). */
export const ExtractColumnDataSchema: z.ZodType<ExtractColumnData> = z.object({
  node_id: z.string(),
  page: z.number().int(),
  caption: z.string().optional(),
  columns: z.array(z.string()),
  scale: ScaleSchema.nullable(),
  currency: z.string().nullable(),
  cells: z.array(ExtractedCellSchema),
  missing_rows: z.array(z.string()),
  missing_columns: z.array(z.string()),
});

/** Options of {@link extractCells}. */
export interface ExtractCellsOptions {
  /** Row labels to find (fuzzy, by analysed terms); none = every body row with a value. */
  rows?: readonly string[];
  /** Column labels or years to find; none = every value column. */
  columns?: readonly (string | number)[];
  /** Smallest share of a label's terms a row / column must hold. Default 0.5. */
  minMatch?: number;
  /** Most rows returned per requested row label (ties). Default 3. */
  maxRowsPerLabel?: number;
  /** Keep only the best row of each requested label (the first of ties). Default false. */
  bestRowOnly?: boolean;
  /** Concepts rows may name in other words (the domain pack's). Default {@link DEFAULT_CONCEPTS}. */
  concepts?: readonly Concept[];
}

/** Defaults of {@link ExtractCellsOptions}. */
export const EXTRACT_CELLS_DEFAULTS = { minMatch: 0.5, maxRowsPerLabel: 3, bestRowOnly: false } as const;

function termsOf(text: string): string[] {
  return [...new Set(analyzeText(text))];
}

/** Terms of a label with abbreviations written out (`PP&E` → property, plant, equipment). */
function labelTermsOf(text: string): string[] {
  return [...new Set([...analyzeText(text), ...analyzeText(normalizeLabel(text))])];
}

/** Share of `wanted` terms in `have`, with a small bonus for tighter labels (Jaccard) to break ties. */
function matchScore(wanted: readonly string[], have: readonly string[]): number {
  if (wanted.length === 0 || have.length === 0) return 0;
  const set = new Set(have);
  const hit = wanted.filter((t) => set.has(t)).length;
  if (hit === 0) return 0;
  const union = new Set([...wanted, ...have]).size;
  return hit / wanted.length + 0.01 * (hit / union);
}

/** What each word of its own a row adds costs its match score: breaks ties only (far below one term's share). */
const TIE_WORD_COST = 0.002;
/**
 * What a row naming another concept of the pack than the one the label names costs: as much as the tightest label's tie-break
 * (`matchScore`'s Jaccard share), far below one term's share — it decides between rows matching the label alike.
 */
const OTHER_CONCEPT_COST = 0.01;
/** Analysed words that hardly qualify a line item ("Total …", "Net …"), and the share of an added word they count as. */
const LIGHT_WORDS: ReadonlySet<string> = new Set(['total', 'net', 'consolidat']);
const LIGHT_WORD_SHARE = 0.3;

/** Function words that never qualify a line item. */
const FUNCTION_WORDS: ReadonlySet<string> = new Set(['a', 'an', 'and', 'the', 'of', 'in', 'on', 'for', 'to', 'at', 'by', 'from', 'with']);

/** Words of a label as stems, keeping words the search analyser drops as stop words ("other" qualifies a row). */
function wordsOf(text: string): string[] {
  return (normalizeLabel(text).toLowerCase().match(/[a-z][a-z&'-]*/g) ?? []).filter((w) => !FUNCTION_WORDS.has(w)).map((w) => analyzeText(w)[0] ?? w);
}

/** Words a row label adds to a requested label's words. */
function ownWords(rowLabel: string, wanted: ReadonlySet<string>): string[] {
  return wordsOf(rowLabel).filter((w) => !wanted.has(w));
}

/** Rows of a grid matching a requested label at least `minMatch`, with their scores (see {@link extractCells}). */
function scoreRows(grid: TableGrid, labelTerms: readonly string[][], label: string, minMatch: number, concepts: readonly Concept[] = DEFAULT_CONCEPTS): Array<{ i: number; score: number; extra: number }> {
  const wanted = labelTermsOf(label);
  const wantedWords = new Set(wordsOf(label));
  const named = namedConcepts(label, concepts).map((n) => ({ concept: n.concept, terms: labelTermsOf(n.phrase) }));
  // Concepts other than those the label names, when it names one (a label naming none may be any of them).
  const others = named.length > 0 ? concepts.filter((c) => !named.some((n) => n.concept === c)) : [];
  return labelTerms
    .map((terms, i) => {
      // A row naming a concept of the label in the document's words ("Purchases of PP&E" for "capex") covers the
      // words that named it; the label's other words still have to match.
      const covered = named.filter((n) => conceptMatch(grid.rowLabels[i] ?? '', [n.concept]).score > 0).flatMap((n) => n.terms);
      // Between rows matching the label alike, one that names another concept of the pack than the label's is another
      // line item ("Income before income taxes" for "income tax", "Cost of revenues" for "revenue").
      const other = others.length > 0 && conceptMatch(grid.rowLabels[i] ?? '', others).score > 0 ? OTHER_CONCEPT_COST : 0;
      const have = covered.length > 0 ? [...terms, ...covered] : terms;
      // Among rows covering the label alike, the one adding fewer words of its own wins ("Total current liabilities"
      // over "Other current liabilities"); "total", "net" and "consolidated" barely qualify a line item. A row naming
      // the concept in the document's own words counts as one added word (it is the item, worded differently).
      const added = ownWords(grid.rowLabels[i] ?? '', wantedWords);
      const own = added.reduce((n, t) => n + (LIGHT_WORDS.has(t) ? LIGHT_WORD_SHARE : 1), 0);
      return { i, score: matchScore(wanted, have) - TIE_WORD_COST * own - other, extra: covered.length > 0 ? Math.min(1, own) : own };
    })
    // A heading row without numbers ("Current assets:") names a group, not the line item.
    .filter((s) => s.score >= minMatch && (grid.body[s.i] ?? []).some((c, ci) => ci > 0 && c !== grid.rowLabels[s.i] && parseNumberText(c) !== undefined));
}

/**
 * How well a table answers a request, to choose among candidate tables: per requested row, its best row's share of
 * the label's words, less a penalty for each word the row adds (a "total current liabilities" row is a worse "total
 * liabilities" than a "Total liabilities" row elsewhere) and for a row negative in every year asked, plus the share of
 * the requested years its columns hold.
 */
function tableFit(grid: TableGrid, rows: readonly string[], years: readonly number[], minMatch: number, concepts?: readonly Concept[]): number {
  const labelTerms = grid.rowLabels.map(labelTermsOf);
  const yearColumns = grid.columns.flatMap((c, i) => (findYears(c).some((y) => years.includes(y)) ? [i] : []));
  const rowFit = (s: { score: number; extra: number }): number => Math.min(1, s.score) - EXTRA_WORD_PENALTY * s.extra;
  let fit = 0;
  for (const label of rows) {
    const scored = scoreRows(grid, labelTerms, label, minMatch, concepts);
    if (scored.length === 0) continue;
    const best = scored.reduce((a, b) => (rowFit(b) > rowFit(a) ? b : a));
    // An amount asked by name is a positive balance or total; a row shown in parentheses throughout is an outflow or a
    // change of it (the cash-flow line "Inventories (251)" is not the inventory balance).
    const values = yearColumns.length > 0 ? yearColumns.map((c) => parseNumberText(grid.body[best.i]?.[c] ?? '')?.value).filter((v): v is number => v !== undefined) : [];
    fit += rowFit(best) - (values.length > 0 && values.every((v) => v < 0) ? NEGATIVE_ROW_PENALTY : 0);
  }
  const found = years.filter((y) => grid.columns.some((c) => findYears(c).includes(y))).length;
  return fit / Math.max(1, rows.length) + (years.length > 0 ? found / years.length : 0);
}

/** What each word a row label adds to a requested label costs in {@link tableFit}. */
const EXTRA_WORD_PENALTY = 0.15;
/** What a row whose values in the asked years are all negative costs in {@link tableFit}. */
const NEGATIVE_ROW_PENALTY = 0.2;

/** Columns holding at least one number that is not the row's label. */
function valueColumns(grid: TableGrid): number[] {
  const out: number[] = [];
  for (let c = 0; c < grid.columns.length; c++) {
    if (grid.body.some((r, i) => (r[c] ?? '') !== grid.rowLabels[i] && parseNumberText(r[c] ?? '') !== undefined)) out.push(c);
  }
  return out;
}

/**
 * Picks cells of a parsed table by row labels and column labels or years: rows match by the share of a label's
 * analysed terms in the row label, abbreviations written out (so `capital expenditures PP&E` finds `Purchases of
 * property, plant and equipment (PP&E)`), or by naming the same reporting concept in other words (`capex` finds
 * `Purchases of property, plant and equipment`; the shared concept vocabulary); a year matches a column whose header
 * names it; other column labels match by terms. Each cell comes back as written and as a number with its unit, percent
 * flag and the table's scale (`(1,482)` in a `(Millions)` table → `value -1482`, `value_scaled -1.482e9`).
 */
export function extractCells(grid: TableGrid, options: ExtractCellsOptions = {}): Pick<ExtractColumnData, 'cells' | 'missing_rows' | 'missing_columns'> {
  const { minMatch, maxRowsPerLabel, bestRowOnly } = { ...EXTRACT_CELLS_DEFAULTS, ...options };
  const missingRows: string[] = [];
  const missingColumns: string[] = [];
  const labelTerms = grid.rowLabels.map(labelTermsOf);
  let rows: number[] = [];
  const forRow = new Map<number, string>();
  if (options.rows && options.rows.length > 0) {
    for (const label of options.rows) {
      const scored = scoreRows(grid, labelTerms, label, minMatch, options.concepts);
      if (scored.length === 0) {
        missingRows.push(label);
        continue;
      }
      const best = Math.max(...scored.map((s) => s.score));
      for (const s of scored.filter((x) => x.score >= best - 1e-9).slice(0, bestRowOnly ? 1 : maxRowsPerLabel)) {
        if (rows.includes(s.i)) continue;
        rows.push(s.i);
        forRow.set(s.i, label);
      }
    }
  } else {
    rows = grid.body.map((_, i) => i).filter((i) => grid.body[i]!.some((c, ci) => ci > 0 && parseNumberText(c) !== undefined));
  }
  let columns: number[] = [];
  const candidates = valueColumns(grid);
  if (options.columns && options.columns.length > 0) {
    for (const spec of options.columns) {
      const text = String(spec);
      const years = typeof spec === 'number' ? [spec] : findYears(text);
      let found: number[] = [];
      if (years.length > 0 && cellYear(text.trim(), { prefix: 'fy' }) !== undefined) {
        found = candidates.filter((c) => findYears(grid.columns[c] ?? '').includes(years[0]!));
      } else {
        const wanted = termsOf(text);
        const scored = candidates.map((c) => ({ c, score: matchScore(wanted, termsOf(grid.columns[c] ?? '')) })).filter((s) => s.score >= minMatch);
        const best = Math.max(0, ...scored.map((s) => s.score));
        found = scored.filter((s) => s.score >= best - 1e-9).map((s) => s.c);
      }
      if (found.length === 0) missingColumns.push(text);
      for (const c of found) if (!columns.includes(c)) columns.push(c);
    }
  } else {
    columns = candidates;
  }
  const multiplier = grid.scale ? SCALE_MULTIPLIERS[grid.scale] : 1;
  const cells: ExtractedCell[] = [];
  for (const r of rows) {
    for (const c of columns) {
      const raw = grid.body[r]?.[c] ?? '';
      const parsed = parseNumberText(raw);
      const percent = parsed?.percent ?? false;
      const unit = percent ? '%' : (parsed?.currency ?? grid.units[c] ?? grid.currency ?? null);
      const ownScale = parsed?.scale;
      const scale = ownScale ?? (percent ? null : (grid.scale ?? null));
      const factor = ownScale ? SCALE_MULTIPLIERS[ownScale] : percent ? 1 : multiplier;
      cells.push({
        row: grid.rowLabels[r] ?? '',
        column: grid.columns[c] ?? '',
        row_index: r,
        col_index: c,
        raw,
        value: parsed ? parsed.value : null,
        value_scaled: parsed ? parsed.value * factor : null,
        unit,
        percent,
        scale,
        ...(forRow.has(r) ? { for_row: forRow.get(r)! } : {}),
      });
    }
  }
  return { cells, missing_rows: missingRows, missing_columns: missingColumns };
}

/** The table a caller names: a node id (`tab_1`) or a label (`Table 1`). */
export function findTable(nav: DocNavigator, ref: string): DocTreeNode {
  const node = nav.node(ref) ?? nav.node(nav.resolveLabel(ref) ?? '');
  if (!node) throw new DocTreeError('TOOL_ARGS_INVALID', `no table ${JSON.stringify(ref)} in document ${nav.docId}`, { hint: 'Give a table node_id from table_index.search, or its label (Table 2).' });
  if (node.role !== 'table') throw new DocTreeError('TOOL_ARGS_INVALID', `${node.node_id} is a ${node.role}, not a table`, { nodeId: node.node_id });
  return node;
}

/** The candidate table of `tables` that fits the request best (the first of ties: search order). */
function bestTable(nav: DocNavigator, args: ExtractColumnArgs, concepts?: readonly Concept[]): DocTreeNode {
  const tables = (args.tables ?? []).map((id) => nav.node(id)).filter((n): n is DocTreeNode => n !== undefined && n.role === 'table');
  if (tables.length === 0) throw new DocTreeError('TOOL_ARGS_INVALID', `none of ${JSON.stringify(args.tables ?? [])} is a table of document ${nav.docId}`);
  let best = tables[0]!;
  let bestFit = Number.NEGATIVE_INFINITY;
  for (const node of tables) {
    const fit = tableFit(nav.table(node), args.rows ?? [], args.years ?? [], args.min_match, concepts);
    if (fit > bestFit + 1e-9) [best, bestFit] = [node, fit];
  }
  return best;
}

/** Arguments of `extract.column`. */
export const ExtractColumnArgsSchema = z.object({
  /** Table node id (`tab_1`) or label (`Table 1`). */
  node_id: z.string().min(1).optional(),
  /**
   * Candidate tables (node ids, e.g. a table search's hits, best first) when `node_id` is not given: the one whose rows
   * match the requested labels most exactly and whose columns hold the requested years is read (see {@link tableFit}).
   */
  tables: z.array(z.string().min(1)).min(1).max(20).optional(),
  /** Row labels to find; none = all rows with values. */
  rows: z.array(z.string().min(1)).max(50).optional(),
  /** Column labels to find; none = all value columns (unless `years` is given). */
  columns: z.array(z.string().min(1)).max(50).optional(),
  /** Years whose columns to read. */
  years: z.array(z.number().int().min(1000).max(2999)).max(50).optional(),
  /** Smallest share of a label's terms a row/column must hold. */
  min_match: z.number().min(0).max(1).default(EXTRACT_CELLS_DEFAULTS.minMatch),
  /** Keep only the best-matching row of each requested row label (`rows` as alternative wordings of one line item each). */
  best_row_only: z.boolean().default(EXTRACT_CELLS_DEFAULTS.bestRowOnly),
}).refine((a) => a.node_id !== undefined || a.tables !== undefined, { message: 'give node_id or tables' });
/** Parsed {@link ExtractColumnArgsSchema}. */
export type ExtractColumnArgs = z.infer<typeof ExtractColumnArgsSchema>;

/** `extract.column`: cells of a table by row labels and columns / years, with units and scale (see {@link extractCells}). */
export const extractColumnCard: HubToolCard<ExtractColumnArgs, ExtractColumnData> = {
  id: 'extract.column',
  description:
    'Reads cells of a table (node_id or label) by row labels and column labels or years; returns each cell as written and as a number with unit, percent flag and the table scale such as "(Millions)". Rows match by terms, abbreviations (PP&E) and concept wordings (capex ~ purchases of property, plant and equipment). Args: node_id (or tables: candidate node ids, the best-fitting one is read), rows, columns, years, min_match, best_row_only.',
  args: ExtractColumnArgsSchema,
  output: ExtractColumnDataSchema,
  kind: 'extract',
  async run(args, context) {
    const nav = context.nav;
    const concepts = context.domain?.concepts;
    const node = args.node_id !== undefined ? findTable(nav, args.node_id) : bestTable(nav, args, concepts);
    const grid = nav.table(node);
    if (grid.body.length === 0) throw new DocTreeError('TOOL_FAILED', `table ${node.node_id} has no readable cells`, { nodeId: node.node_id });
    const columns = [...(args.columns ?? []), ...(args.years ?? [])];
    const result = extractCells(grid, { ...(args.rows ? { rows: args.rows } : {}), ...(columns.length > 0 ? { columns } : {}), minMatch: args.min_match, bestRowOnly: args.best_row_only, ...(concepts ? { concepts } : {}) });
    const caption = nav.captionOf(node)?.text;
    return {
      hits: [nodeHit(nav, node, { method: 'extract.column', score: 1, extra: { n_cells: result.cells.length } })],
      data: {
        node_id: node.node_id,
        page: pageFromIndex(nav.pageIdxOf(node)),
        ...(caption ? { caption } : {}),
        columns: grid.columns,
        scale: grid.scale ?? null,
        currency: grid.currency ?? null,
        ...result,
      },
    };
  },
};
