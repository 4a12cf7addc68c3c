/**
 * "Which item is highest / lowest / best": the label of the row (or column) holding the extreme value in the column
 * (or row) the question names. Tables are read with their header rows (a results table names its columns over two or
 * three lines: a dataset over its settings), packed cells split one value per setting, aggregate rows (totals,
 * averages, a subtotal over the rows under it) left out of the ranking, durations and amounts compared in one unit.
 */
import { numberWordSource, numberWordValue, type AnswerFormat, type Support } from '@doctree/schema';
import type { Candidate, EvidenceEntry, EvidenceSet } from './evidence-model.js';
import { phraseStems } from './evidence-model.js';
import { wordTokens } from './text-spans.js';
import { findNumbers, isYearLike, parseNumberCell, SCALE_FACTORS, type ParsedNumber } from './numbers.js';
import { splitPackedValues } from './packed-cells.js';
import type { QuestionProfile } from './question-profile.js';
import { columnYears, numericAnswer, tableRowSupport } from './table-candidates.js';

/** What an extreme question asks. */
export interface ExtremeAsk {
  /** The extreme of the value as ranked (after a "best"/"worst" is turned by the metric's direction). */
  direction: 'max' | 'min';
  /** Asked as a quality ("best", "worst", "top"): the metric decides whether more or less is better. */
  quality: boolean;
  /** A change between two years is ranked ("grew most from 2019 to 2021"); `fall` when a decline is asked. */
  change?: { from: number; to: number; percent: boolean; fall: boolean };
  /** The item's name is asked ("which…", "who…", "what model…"), not the value. */
  asksLabel: boolean;
  /** The question ranks a total ("the lowest total"): a sum over the value columns when no column is named. */
  total: boolean;
  /** How many items are asked ("the top 3", "the two largest"), when more than one. */
  count?: number;
}

/** A cell value compared across items, in one unit. */
export interface CellQuantity {
  /** Comparable value: durations in days, amounts with their written scale applied. */
  value: number;
  /** The cell text it was read from. */
  raw: string;
  /** How it was read. */
  kind: 'number' | 'duration';
  /** The number as parsed (for plain numbers), to answer with. */
  parsed?: ParsedNumber;
}

const QUALITY_MAX = /\b(?:best|top|better|strongest|outperform(?:s|ed|ing)?)\b/i;
const QUALITY_MIN = /\b(?:worst|weakest|poorest)\b/i;
const CHANGE_WORDS = /\b(?:increase[sd]?|grow(?:th|n|s)?|grew|rise|rose|gain(?:ed|s)?|jump(?:ed|s)?|change[sd]?|decrease[sd]?|decline[sd]?|drop(?:ped|s)?|fall|fell|shr[iu]nk|los[st])\b/i;
const FALL_WORDS = /\b(?:decrease[sd]?|decline[sd]?|drop(?:ped|s)?|fall|fell|shr[iu]nk|los[st])\b/i;
const LABEL_QUESTION = /^\s*(?:(?:in|on|at|for|of|among|from|between)\s+[^,?]*?,?\s*)?(?:which|who|whom|whose)\b|\b(?:which|who)\b|^\s*what\s+(?!(?:is|was|are|were|does|did|do|has|had)\b)[a-z]+/i;
/** "The top 3", "the three largest": how many items a ranking question asks. */
const TOP_N = new RegExp(String.raw`\btop\s+(\d+|${numberWordSource(2, 20)})\b|\b(\d+|${numberWordSource(2, 20)})\s+(?:[a-z]+\s+)?(?:highest|largest|biggest|greatest|most|lowest|smallest|least|fewest|best|worst|longest|shortest)\b`, 'i');
/** Explicit direction marks of a metric header: `↓`, `(lower is better)`. */
const LOWER_MARK = /↓|\blower\s+(?:is\s+)?better\b|\bless\s+is\s+better\b/i;
const HIGHER_MARK = /↑|\bhigher\s+(?:is\s+)?better\b|\bmore\s+is\s+better\b/i;
/** Rows (or columns) that aggregate the items rather than being one of them. */
const AGGREGATE_LABEL = /^\s*(?:total|sub-?total|grand\s+total|sum|average|avg\.?|mean|median|overall|all)\b|\btotals?\s*:?\s*$/i;

/** Days per duration unit. */
const DAYS: ReadonlyArray<[RegExp, number]> = [
  [/^(?:years?|yrs?)$/i, 365.25],
  [/^(?:months?|mos?)$/i, 30.44],
  [/^(?:weeks?|wks?)$/i, 7],
  [/^days?$/i, 1],
  [/^(?:hours?|hrs?|h)$/i, 1 / 24],
  [/^(?:minutes?|mins?)$/i, 1 / 1440],
  [/^(?:seconds?|secs?|s)$/i, 1 / 86400],
];
const DURATION_RE = /(\d+(?:\.\d+)?)(?:\s*(?:-|–|to)\s*(\d+(?:\.\d+)?))?\s*(years?|yrs?|months?|mos?|weeks?|wks?|days?|hours?|hrs?|minutes?|mins?|seconds?|secs?)\b/gi;
const SPREAD_RE = /^\s*([-−]?\d[\d,]*(?:\.\d+)?%?)\s*(?:\([^()]*\)|±\s*\d+(?:\.\d+)?)\s*$/;

/** What the question asks of an extreme, or undefined when it asks none. */
export function extremeAsk(profile: QuestionProfile): ExtremeAsk | undefined {
  const q = profile.question;
  const quality = QUALITY_MAX.test(q) || QUALITY_MIN.test(q);
  const base = profile.extreme ?? (QUALITY_MIN.test(q) ? 'min' : QUALITY_MAX.test(q) ? 'max' : profile.operations.includes('max') ? 'max' : profile.operations.includes('min') ? 'min' : undefined);
  if (!base) return undefined;
  const years = [...profile.years].sort((a, b) => a - b);
  const change = years.length >= 2 && CHANGE_WORDS.test(q) ? { from: years[0]!, to: years[years.length - 1]!, percent: /%|\bpercent(?:age)?\b|\brate\b/i.test(q), fall: FALL_WORDS.test(q) } : undefined;
  const n = TOP_N.exec(q);
  const count = n ? (numberWordValue(n[1] ?? n[2]!) ?? Number(n[1] ?? n[2])) : undefined;
  return {
    ...(count !== undefined && Number.isInteger(count) && count >= 2 && count <= 20 ? { count } : {}),
    direction: base,
    quality,
    ...(change ? { change } : {}),
    asksLabel: profile.kind === 'entity' || profile.kind === 'year' || (count !== undefined && profile.kind === 'list') || LABEL_QUESTION.test(q),
    total: /\btotal\b/i.test(q),
  };
}

/** Days a duration cell states (`3 years`, `18 months`, `1 year 6 months`); a range counts by the end the extreme asks. */
function durationDays(cell: string, direction: 'max' | 'min'): number | undefined {
  const parts: Array<{ value: number; unit: number; end: number; start: number }> = [];
  for (const m of cell.matchAll(DURATION_RE)) {
    const unit = DAYS.find(([re]) => re.test(m[3]!))?.[1];
    if (unit === undefined) continue;
    const lo = Number(m[1]);
    const hi = m[2] !== undefined ? Number(m[2]) : lo;
    parts.push({ value: direction === 'max' ? Math.max(lo, hi) : Math.min(lo, hi), unit, start: m.index, end: m.index + m[0].length });
  }
  if (parts.length === 0) return undefined;
  // "1 year 6 months": a larger unit followed by a smaller one, nothing but spaces or "and" between, adds up.
  if (parts.length === 2 && parts[0]!.unit > parts[1]!.unit && /^\s*(?:and\s+)?$/i.test(cell.slice(parts[0]!.end, parts[1]!.start))) {
    return parts[0]!.value * parts[0]!.unit + parts[1]!.value * parts[1]!.unit;
  }
  const days = parts.map((p) => p.value * p.unit);
  return direction === 'max' ? Math.max(...days) : Math.min(...days);
}

/** The number a parsed cell stands for, its written scale applied. */
const scaled = (p: ParsedNumber): number => p.value * (p.scale ? SCALE_FACTORS[p.scale] : 1);

/**
 * The comparable quantity of a cell: a duration in days, a number with its written scale (`$1.2 million`), a value
 * with a spread (`84.5(1.1)`, `12.5 ± 0.4`), or the one number of a short cell (`Down 3%`). Years and cells of
 * several numbers (`3840 x 2160`) are not quantities.
 */
export function cellQuantity(cell: string, direction: 'max' | 'min' = 'max'): CellQuantity | null {
  const raw = cell.trim();
  if (!raw) return null;
  const days = durationDays(raw, direction);
  if (days !== undefined) return { value: days, raw, kind: 'duration' };
  const parsed = parseNumberCell(raw) ?? (SPREAD_RE.exec(raw) ? parseNumberCell(SPREAD_RE.exec(raw)![1]!) : null);
  if (parsed) return isYearLike(parsed) ? null : { value: scaled(parsed), raw, kind: 'number', parsed };
  if (raw.length > 40) return null;
  const numbers = findNumbers(raw).filter((n) => !isYearLike(n));
  if (numbers.length !== 1 || findNumbers(raw).length !== 1) return null;
  return { value: scaled(numbers[0]!), raw, kind: 'number', parsed: numbers[0]! };
}

/** A value column of a table: a column, or one slot of a column whose cells pack one value per setting. */
interface ValueColumn {
  col: number;
  slot?: number;
  /** The header path (every header line over it, packed setting last). */
  header: string;
  /** The top header line only. */
  top: string;
}

/** A body row with its label (and the table it is in: a table continued over pages reads as one). */
interface BodyRow {
  entry: EvidenceEntry;
  index: number;
  cells: readonly string[];
  label: string;
}

/** A table read for ranking: header paths, value columns, labelled body rows. */
interface Grid {
  entry: EvidenceEntry;
  columns: ValueColumn[];
  rows: BodyRow[];
  caption: string;
  /** Every header line's text (the label column's too). */
  headerText: string;
}

/** A header that is a year alone, and one that is a group's words followed by a year. */
const BARE_YEAR = /^\s*((?:19|20)\d{2})\s*$/;
const GROUP_YEAR = /^(.*[A-Za-z].*?)\s+((?:19|20)\d{2})\s*$/;

const isHeaderRow = (row: readonly string[]): boolean => {
  const rest = row.slice(1).filter((c) => c.trim());
  return rest.length > 0 && rest.every((c) => cellQuantity(c) === null);
};

/** A table's header line, body rows and caption, as observed or as read from text. */
interface RawTable {
  columns: readonly string[];
  rows: readonly (readonly string[])[];
  caption?: string;
}

/** Least lines of a table written in text (cells between ` | `). */
const MIN_TEXT_TABLE_LINES = 3;

/**
 * The tables of an observation: a table observation's own, or the runs of lines a text observation writes as table
 * rows (cells between ` | `, as a section's text holds its tables), each captioned by the line before it.
 */
export function observedTables(entry: EvidenceEntry): RawTable[] {
  const p = entry.observation.payload;
  if (p.kind === 'table') return [{ columns: p.columns, rows: p.rows, ...(p.caption ? { caption: p.caption } : {}) }];
  if (p.kind !== 'text' || !p.text.includes(' | ')) return [];
  const out: RawTable[] = [];
  const lines = p.text.split('\n');
  let run: string[][] = [];
  let caption = '';
  const flush = (): void => {
    if (run.length >= MIN_TEXT_TABLE_LINES) out.push({ columns: run[0]!, rows: run.slice(1), caption: [p.heading_path[p.heading_path.length - 1] ?? '', caption].filter(Boolean).join(' — ') });
    run = [];
  };
  for (const line of lines) {
    const cells = line.includes('|') ? line.split('|').map((c) => c.trim()) : [];
    if (cells.length >= 2) {
      run.push(cells);
      continue;
    }
    flush();
    if (line.trim()) caption = line.trim();
  }
  flush();
  return out;
}

/** Reads a table observation into a {@link Grid}, or null when it has no two value columns or rows to rank. */
function readGrid(entry: EvidenceEntry, p: RawTable): Grid | null {
  if (p.rows.length < 2) return null;
  const width = Math.max(p.columns.length, ...p.rows.map((r) => r.length));
  // Header lines: the columns, then leading body rows without a quantity (a dataset over its settings).
  let headerRows = 0;
  while (headerRows < Math.min(3, p.rows.length - 2) && isHeaderRow(p.rows[headerRows]!)) headerRows++;
  const body = p.rows.slice(headerRows);
  const isValueCol = (c: number): boolean => {
    const filled = body.map((r) => r[c] ?? '').filter((x) => x.trim());
    const values = filled.filter((x) => cellQuantity(x) !== null || splitPackedValues(x) !== null);
    return values.length >= 2 && values.length * 2 >= filled.length;
  };
  const valueCols = Array.from({ length: width }, (_, c) => c > 0 && isValueCol(c));
  const levels = [p.columns, ...p.rows.slice(0, headerRows)].map((line) => Array.from({ length: width }, (_, c) => (line[c] ?? '').trim()));
  // A header cell spanning several value columns is written once, over the first of them.
  for (const line of levels) for (let c = 1; c < width; c++) if (!line[c] && valueCols[c] && valueCols[c - 1] && line[c - 1]) line[c] = line[c - 1]!;
  // A group over two year columns lands on one of them ("2021 | Corporate 2020"): the bare year takes the group's words.
  for (const line of levels) {
    for (let c = 1; c < width; c++) {
      const year = BARE_YEAR.exec(line[c]!)?.[1];
      if (!year || !valueCols[c]) continue;
      const group = [line[c + 1], line[c - 1]].map((h) => (h ? GROUP_YEAR.exec(h) : null)).find((m) => m && m[2] !== year);
      if (group) line[c] = `${group[1]!.trim()} ${year}`;
    }
  }
  const columns: ValueColumn[] = [];
  for (let c = 1; c < width; c++) {
    if (!valueCols[c]) continue;
    const path = levels.map((l) => l[c]!).filter(Boolean);
    const header = [...new Set(path)].join(' ');
    // Cells of several values: one column per setting the lowest header line names, when it names as many.
    const packs = body.map((r) => splitPackedValues(r[c] ?? '')).filter((v): v is (string | null)[] => v !== null);
    const names = (path[path.length - 1] ?? '').split(/\s+/).filter(Boolean);
    if (packs.length * 2 >= body.filter((r) => (r[c] ?? '').trim()).length && packs.length > 0) {
      const k = packs[0]!.length;
      if (names.length === k && packs.every((v) => v.length === k)) {
        const above = path.slice(0, -1).join(' ');
        names.forEach((name, slot) => columns.push({ col: c, slot, header: `${above} ${name}`.trim(), top: levels[0]![c]! }));
      }
      continue;
    }
    columns.push({ col: c, header, top: levels[0]![c]! });
  }
  const firstValue = valueCols.indexOf(true);
  if (columns.length === 0 || firstValue < 0) return null;
  const rows: BodyRow[] = [];
  body.forEach((cells, i) => {
    const label = cells.slice(0, firstValue).map((x) => x.trim()).find(Boolean) ?? '';
    if (label) rows.push({ entry, index: headerRows + i, cells, label });
  });
  return { entry, columns, rows, caption: p.caption ?? '', headerText: levels.map((l) => l.join(' ')).join(' \n ') };
}

/** The quantity of a row at a value column. */
function quantityAt(row: BodyRow, column: ValueColumn, direction: 'max' | 'min'): CellQuantity | null {
  const cell = row.cells[column.col] ?? '';
  if (column.slot === undefined) return cellQuantity(cell, direction);
  const slot = splitPackedValues(cell)?.[column.slot];
  const q = slot ? cellQuantity(slot, direction) : null;
  return q ? { ...q, raw: cell.trim() } : null;
}

/** An item ranked: its label, the value compared, and the cells that gave it. */
interface Ranked {
  label: string;
  value: number;
  cells: Array<{ entry: EvidenceEntry; label: string; cell: string }>;
  quantity: CellQuantity;
  row?: BodyRow;
}

/**
 * Rows that add up the rows right under them (a subtotal: its value in every value column is the sum of the next
 * rows'), with those rows: `children` by the subtotal's row index.
 */
function subtotals(grid: Grid): Map<number, BodyRow[]> {
  const out = new Map<number, BodyRow[]>();
  const valueOf = (r: BodyRow, c: ValueColumn): number | undefined => quantityAt(r, c, 'max')?.value;
  grid.rows.forEach((parent, i) => {
    for (let k = 2; i + k < grid.rows.length && k <= 8; k++) {
      const kids = grid.rows.slice(i + 1, i + 1 + k);
      let checked = 0;
      const adds = grid.columns.every((c) => {
        const total = valueOf(parent, c);
        const parts = kids.map((r) => valueOf(r, c));
        if (total === undefined || parts.some((v) => v === undefined)) return total === undefined && parts.every((v) => v === undefined);
        checked++;
        const sum = parts.reduce((a, b) => a! + b!, 0)!;
        return Math.abs(sum - total) <= Math.max(0.5, Math.abs(total) * 0.005);
      });
      if (adds && checked > 0 && kids.some((r) => grid.columns.some((c) => (valueOf(r, c) ?? 0) !== 0))) {
        out.set(parent.index, kids);
        return;
      }
    }
  });
  return out;
}

/** Whether a metric is one where lower is better: marked so, or named by the pack's words. */
function lowerIsBetter(metric: string, profile: QuestionProfile): boolean {
  if (LOWER_MARK.test(metric)) return true;
  if (HIGHER_MARK.test(metric)) return false;
  return profile.lowerIsBetter?.test(metric) ?? false;
}

/** The ranking direction: the asked extreme, turned for a "best"/"worst" of a lower-is-better metric or a fall. */
function rankDirection(ask: ExtremeAsk, metric: string, profile: QuestionProfile): { direction: 'max' | 'min'; note?: string } {
  let direction = ask.direction;
  const notes: string[] = [];
  if (ask.quality && lowerIsBetter(metric, profile)) {
    direction = direction === 'max' ? 'min' : 'max';
    notes.push(`lower is better for "${metric.trim()}"`);
  }
  if (ask.change?.fall) {
    direction = direction === 'max' ? 'min' : 'max';
    notes.push('a fall is asked: the most negative change');
  }
  return { direction, ...(notes.length > 0 ? { note: notes.join('; ') } : {}) };
}

/** Formats a number for notes. */
const show = (v: number): string => String(Math.round(v * 1e4) / 1e4);

/** The answer for the winning item: its label (a year for a year question), or its value. */
function answerOf(profile: QuestionProfile, ask: ExtremeAsk, top: Ranked, label: string, computed: boolean): { answer: string | number; format: AnswerFormat; display?: string; notes: string[] } {
  if (ask.asksLabel) {
    if (profile.kind === 'year') {
      const year = columnYears(label)[0];
      if (year !== undefined) return { answer: year, format: 'Int', notes: [] };
    }
    const asNumber = /^[-−]?\d+(?:\.\d+)?$/.test(label) && (profile.format === 'Int' || profile.format === 'Float') ? Number(label.replace('−', '-')) : undefined;
    if (asNumber !== undefined) return { answer: asNumber, format: profile.format === 'Int' && Number.isInteger(asNumber) ? 'Int' : 'Float', notes: [] };
    return { answer: label, format: 'Str', notes: [] };
  }
  if (computed || top.quantity.kind === 'duration' || !top.quantity.parsed) {
    const value = Math.round(top.value * 1e4) / 1e4;
    if (top.quantity.kind === 'duration' && !computed) return { answer: top.quantity.raw, format: 'Str', notes: [] };
    return { answer: value, format: Number.isInteger(value) && profile.format !== 'Float' ? 'Int' : 'Float', notes: [] };
  }
  const value = numericAnswer(profile, top.quantity.parsed, undefined, { label });
  return { answer: value.answer, format: value.format, notes: value.notes, ...(value.display !== undefined ? { display: value.display } : {}) };
}

/** Stems of the names a question writes (a capital or a digit inside the word, or a capital not opening the question). */
function namedStems(question: string): Set<string> {
  const out = new Set<string>();
  for (const t of wordTokens(question)) {
    const named = /[A-Z]/.test(t.word.slice(1)) || /\d/.test(t.word) || (/^[A-Z]/.test(t.word) && question.slice(0, t.start).trim() !== '');
    if (named && /[A-Za-z]/.test(t.word)) out.add(t.stem);
  }
  return out;
}

/** Names of the question matched by some item labels but not all: the question names a subset of the items. */
function subsetStems(evidence: EvidenceSet, labels: readonly string[], exclude: ReadonlySet<string>): Set<string> {
  const stems = new Set<string>();
  const sets = labels.map((l) => phraseStems(l));
  const names = namedStems(evidence.profile.question);
  for (const term of evidence.terms) {
    if (term.weight < 0.5 || exclude.has(term.stem) || !names.has(term.stem)) continue;
    const n = sets.filter((s) => s.has(term.stem)).length;
    if (n >= 2 && n < labels.length) stems.add(term.stem);
  }
  return stems;
}

/** A label without the words the question used to pick the subset ("ChatGPT (0.5)" → "0.5"), when something remains. */
function distinguishingPart(label: string, stems: ReadonlySet<string>): string {
  if (stems.size === 0) return label;
  const kept = label
    .split(/\s+/)
    .filter((w) => ![...phraseStems(w)].some((s) => stems.has(s)))
    .join(' ')
    .replace(/^[\s([,:;–—-]+|[\s)\],:;–—-]+$/g, '')
    .trim();
  return kept && /[\p{L}\p{N}]/u.test(kept) ? kept : label;
}

/** Ranks items, best first. */
function rank(items: Ranked[], direction: 'max' | 'min'): Ranked[] {
  return [...items].sort((a, b) => (direction === 'max' ? b.value - a.value : a.value - b.value));
}

/** The candidate for one ranking of one table. */
function candidateOf(
  evidence: EvidenceSet,
  ask: ExtremeAsk,
  grid: Grid,
  ranked: Ranked[],
  what: { metric: string; direction: 'max' | 'min'; note?: string; match: number; strip: ReadonlySet<string>; computed: boolean; how: string },
): Candidate | null {
  if (ranked.length < 2) return null;
  const [top, second] = ranked as [Ranked, Ranked];
  // "The top 3": the first items in order, unless a tie straddles the cut.
  const many = ask.count !== undefined && ask.asksLabel ? ask.count : 1;
  if (many > 1 && (ranked.length <= many || ranked[many - 1]!.value === ranked[many]!.value)) return null;
  // A tie at the top names no single item.
  if (many === 1 && top.value === second.value && ask.asksLabel) return null;
  const label = distinguishingPart(top.label, what.strip);
  const answer =
    many > 1
      ? { answer: ranked.slice(0, many).map((r) => distinguishingPart(r.label, what.strip)), format: 'List' as const, notes: [`the first ${many}: ${ranked.slice(0, many).map((r) => `"${r.label}" (${show(r.value)})`).join(', ')}`] }
      : answerOf(evidence.profile, ask, top, label, what.computed);
  const context = evidence.coverage([grid.caption, what.metric, grid.headerText, ...grid.columns.map((c) => c.header), ...(what.strip.size > 0 ? [top.label] : [])].join(' \n '));
  if (context.score < 0.15) return null;
  const support: Support[] = ranked.slice(0, many).flatMap((r) => r.cells.map((c) => tableRowSupport(c.entry, c.label, c.cell)));
  // What a person reads: the item with the value that ranks it.
  const display = 'display' in answer ? answer.display : many === 1 && typeof answer.answer === 'string' ? `${answer.answer} (${top.cells.map((c) => c.cell).join(' → ')})` : undefined;
  return {
    answer: answer.answer,
    format: answer.format,
    // A ranking asked in so many words ("the top 3") outranks listing the column.
    score: 0.25 + context.score + 0.1 * what.match + (many > 1 ? 0.3 : 0),
    support,
    notes: [
      `${what.direction} of ${what.how} "${what.metric}" in ${grid.entry.observation.node_id}: "${top.label}" (${top.cells.map((c) => c.cell).join(', ')}${what.computed ? ` → ${show(top.value)}` : ''})`,
      `runner-up "${second.label}" (${show(second.value)})${ranked.length > 2 ? ` of ${ranked.length} items` : ''}`,
      ...(what.note ? [what.note] : []),
      ...(label !== top.label ? [`answered with what tells "${top.label}" apart from the other items the question names`] : []),
      ...answer.notes,
    ],
    ...(display !== undefined ? { display } : {}),
  };
}

/** Ranks rows by the value column (or the sum / change of columns) the question names. */
function rowRanking(evidence: EvidenceSet, ask: ExtremeAsk, grid: Grid): { candidate: Candidate | null; group: string } {
  const { profile } = evidence;
  const subtotal = subtotals(grid);
  const childOf = new Set([...subtotal.values()].flat().map((r) => r.index));
  // The question may name a group whose rows it ranks ("which kind of X…"): the rows under a subtotal it names.
  let rows = grid.rows.filter((r) => !AGGREGATE_LABEL.test(r.label));
  const named = [...subtotal.entries()].map(([i, kids]) => ({ parent: grid.rows.find((r) => r.index === i)!, kids })).filter(({ parent }) => {
    const own = phraseStems(parent.label);
    return evidence.terms.some((t) => t.weight >= 0.5 && own.has(t.stem) && !rows.some((r) => r !== parent && !childOf.has(r.index) && phraseStems(r.label).has(t.stem)));
  });
  let group = '';
  if (named.length === 1) {
    rows = named[0]!.kids;
    group = named[0]!.parent.label;
  } else {
    rows = rows.filter((r) => !subtotal.has(r.index));
  }
  // The value column: the one whose header path names most of the question (its years first).
  const scored = grid.columns.map((c, i) => {
    const cov = evidence.coverage(c.header);
    const years = columnYears(c.header);
    let s = cov.score;
    if (!ask.change && profile.years.length > 0) s += years.some((y) => profile.years.includes(y)) ? 0.5 : years.length > 0 ? -0.5 : 0;
    return { c, i, s, matched: new Set(cov.matched.map((t) => t.stem)) };
  });
  const best = [...scored].sort((a, b) => b.s - a.s || a.i - b.i)[0]!;
  const headerStems = best.s > 0 ? best.matched : new Set<string>();
  // A subset of the items the question names ("… of model X"): only those rows.
  const strip = subsetStems(
    evidence,
    rows.map((r) => r.label),
    headerStems,
  );
  if (strip.size > 0) {
    const subset = rows.filter((r) => [...phraseStems(r.label)].some((s) => strip.has(s)));
    if (subset.length >= 2) rows = subset;
  }
  const stripped = rows.length < grid.rows.length && strip.size > 0 && rows.every((r) => [...phraseStems(r.label)].some((s) => strip.has(s))) ? strip : new Set<string>();
  const metricOf = (header: string): string => header || grid.columns[0]!.header;
  // A change between two years: the difference (or percent change) of their columns.
  if (ask.change) {
    const yearCol = (y: number): (typeof scored)[number] | undefined => scored.filter((s) => columnYears(s.c.header).includes(y)).sort((a, b) => b.s - a.s || a.i - b.i)[0];
    const from = yearCol(ask.change.from);
    const to = yearCol(ask.change.to);
    if (!from || !to || from.c === to.c) return { candidate: null, group };
    const { direction, note } = rankDirection(ask, '', profile);
    const items: Ranked[] = [];
    for (const r of rows) {
      const a = quantityAt(r, from.c, direction);
      const b = quantityAt(r, to.c, direction);
      if (!a || !b) continue;
      if (ask.change.percent && a.value === 0) continue;
      const value = ask.change.percent ? ((b.value - a.value) / Math.abs(a.value)) * 100 : b.value - a.value;
      items.push({ label: r.label, value, quantity: b, row: r, cells: [{ entry: r.entry, label: r.label, cell: a.raw }, { entry: r.entry, label: r.label, cell: b.raw }] });
    }
    const how = `${ask.change.percent ? 'percent change' : 'change'} from "${from.c.header}" to "${to.c.header}"${group ? ` among the rows under "${group}"` : ''} of`;
    return { group, candidate: candidateOf(evidence, ask, grid, rank(items, direction), { metric: `${from.c.header} → ${to.c.header}`, direction, ...(note ? { note } : {}), match: Math.min(from.s, to.s), strip: stripped, computed: true, how }) };
  }
  // A total asked and no column named: the sum over the value columns.
  if (ask.total && best.s <= 0 && grid.columns.length >= 2) {
    const { direction, note } = rankDirection(ask, grid.columns.map((c) => c.header).join(' '), profile);
    const items: Ranked[] = [];
    for (const r of rows) {
      const qs = grid.columns.map((c) => quantityAt(r, c, direction));
      if (qs.some((q) => q === null)) continue;
      const value = qs.reduce((sum, q) => sum + q!.value, 0);
      items.push({ label: r.label, value, quantity: qs[0]!, row: r, cells: [{ entry: r.entry, label: r.label, cell: qs[qs.length - 1]!.raw }] });
    }
    const how = `the total over ${grid.columns.map((c) => `"${c.header}"`).join(', ')}${group ? ` among the rows under "${group}"` : ''} of`;
    return { group, candidate: candidateOf(evidence, ask, grid, rank(items, direction), { metric: 'total', direction, ...(note ? { note } : {}), match: 0, strip: stripped, computed: true, how }) };
  }
  const column = best.c;
  const metric = metricOf(column.header);
  const { direction, note } = rankDirection(ask, `${metric} ${profile.question}`, profile);
  const items: Ranked[] = [];
  for (const r of rows) {
    const q = quantityAt(r, column, direction);
    if (q) items.push({ label: r.label, value: q.value, quantity: q, row: r, cells: [{ entry: r.entry, label: r.label, cell: q.raw }] });
  }
  return { group, candidate: candidateOf(evidence, ask, grid, rank(items, direction), { metric, direction, ...(note ? { note } : {}), match: Math.max(0, best.s), strip: stripped, computed: false, how: `column${group ? ` (rows under "${group}")` : ''}` }) };
}

/** Ranks columns by the row the question names (items across, the metric down): the column's header answers. */
function columnRanking(evidence: EvidenceSet, ask: ExtremeAsk, grid: Grid): { candidate: Candidate | null; rowScore: number } {
  const { profile } = evidence;
  // The metric row: the one naming question words no other row names ("weekend" of "weekday / weekend visitors"); words
  // several rows share pick a subset of items, not a metric.
  const stemsOf = grid.rows.map((r) => phraseStems(r.label));
  const metricRows = grid.rows
    .map((r, i) => {
      const unique = evidence.coverage(r.label).matched.filter((t) => stemsOf.every((s, j) => j === i || !s.has(t.stem)));
      return { r, cov: { score: unique.reduce((sum, t) => sum + t.weight, 0) / evidence.totalWeight } };
    })
    .filter((x) => x.cov.score > 0 && grid.columns.filter((c) => quantityAt(x.r, c, ask.direction) !== null).length >= 2)
    .sort((a, b) => b.cov.score - a.cov.score);
  const best = metricRows[0];
  if (!best) return { candidate: null, rowScore: 0 };
  const { direction, note } = rankDirection(ask, `${best.r.label} ${profile.question}`, profile);
  const yearAsked = profile.kind === 'year';
  // Years across are items only when a year is asked; otherwise they pick the period, not the item.
  const bareYear = (h: string): boolean => columnYears(h).length > 0 && !/[a-z]{3,}/i.test(h.replace(/\b(?:fy|fiscal|year|years|ended|as of)\b/gi, ''));
  let columns = grid.columns.filter((c) => !AGGREGATE_LABEL.test(c.header) && !/\bchange\b|%\s*$/i.test(c.header) && (yearAsked || !bareYear(c.header)));
  // Columns of the years asked only (a header of several items by year).
  if (!yearAsked && profile.years.length > 0) {
    const inYears = columns.filter((c) => columnYears(c.header).some((y) => profile.years.includes(y)));
    if (inYears.length >= 2) columns = inYears;
  }
  const items: Ranked[] = [];
  for (const c of columns) {
    const q = quantityAt(best.r, c, direction);
    if (!q) continue;
    // The years asked pick the columns; they are not part of the item's name.
    const named = yearAsked ? c.header : (c.top || c.header).replace(/\s+/g, ' ').trim();
    const label = yearAsked ? named : named.replace(/\b(?:19|20)\d{2}\b/g, (y) => (profile.years.includes(Number(y)) ? '' : y)).replace(/\s+/g, ' ').trim() || named;
    if (!label) continue;
    items.push({ label, value: q.value, quantity: q, cells: [{ entry: best.r.entry, label: best.r.label, cell: q.raw }] });
  }
  const candidate = candidateOf(evidence, ask, grid, rank(items, direction), { metric: best.r.label, direction, ...(note ? { note } : {}), match: best.cov.score, strip: new Set(), computed: false, how: 'row' });
  return { candidate, rowScore: best.cov.score };
}

/** The observed tables read as grids, a table continued over pages (the same header lines) joined into one. */
function continuedGrids(entries: readonly EvidenceEntry[]): Grid[] {
  const byHeader = new Map<string, Grid>();
  const out: Grid[] = [];
  for (const grid of entries.flatMap((entry) => observedTables(entry).map((t) => readGrid(entry, t)))) {
    if (!grid) continue;
    const key = `${grid.headerText.toLowerCase().replace(/\s+/g, ' ')}\u0000${grid.columns.map((c) => `${c.col}.${c.slot ?? ''}`).join(',')}`;
    const first = byHeader.get(key);
    if (first) {
      const seen = new Set(first.rows.map((r) => `${r.label}\u0000${r.cells.join('|')}`));
      first.rows.push(...grid.rows.filter((r) => !seen.has(`${r.label}\u0000${r.cells.join('|')}`)));
      continue;
    }
    byHeader.set(key, grid);
    out.push(grid);
  }
  return out;
}

/**
 * "Which item is highest / lowest / best" over the observed tables: per table, the ranking of its rows by the column
 * the question names (its header path matched against the question; the years asked; the change between two years
 * asked; a sum over the columns for a "total" no column names), or — when a row label names the question's metric
 * better than any column header does, or a year is asked of year columns — the ranking of its columns by that row.
 * "Best"/"worst" follow the metric's direction (the domain pack's lower-is-better words, `↓` marks). Totals,
 * averages and subtotals are not items; a subtotal the question names ranks the rows under it. The answer is the
 * item's label (a year, for a year question) or, when the question asks the value, the value; the notes name the
 * column, the direction and the runner-up.
 */
export function tableExtremeCandidates(evidence: EvidenceSet): Candidate[] {
  const ask = extremeAsk(evidence.profile);
  if (!ask) return [];
  const out: Candidate[] = [];
  for (const grid of continuedGrids(evidence.entries)) {
    const byRows = grid.rows.length >= 2 ? rowRanking(evidence, ask, grid) : { candidate: null, group: '' };
    const byColumns = ask.change ? { candidate: null, rowScore: 0 } : columnRanking(evidence, ask, grid);
    const columnsNamed = Math.max(0, ...grid.columns.map((c) => evidence.coverage(c.header).score));
    const yearColumns = evidence.profile.kind === 'year' && grid.columns.filter((c) => columnYears(c.header).length > 0).length >= 2 && !grid.rows.some((r) => columnYears(r.label).length > 0);
    // Items across: a row names the metric better than any column header does (or a year is asked of year columns).
    // A row the question names as a group of rows (a subtotal) is not a metric.
    const across = byColumns.candidate && !byRows.group && (yearColumns || byColumns.rowScore > columnsNamed + 0.1);
    const chosen = across ? byColumns.candidate : (byRows.candidate ?? (byColumns.rowScore >= 0.2 ? byColumns.candidate : null));
    if (chosen) out.push(chosen);
  }
  return out;
}
