import type { AnswerFormat, Support } from '@doctree/schema';
import { escapeRegExp, monthNumber } from '@doctree/schema';
import type { ItemArithmetic, ItemOperand } from '../analysis/item-arithmetic.js';
import type { Candidate, EvidenceEntry, EvidenceSet } from './evidence-model.js';
import { findNumbers, findStatedScale, isYearLike, parseNumberCell, scaleFromWord, type ParsedNumber, type Scale } from './numbers.js';
import { supportFor } from './observation-text.js';
import { columnYears, rescale, tableRowSupport } from './table-candidates.js';

/**
 * Arithmetic over items the question names (`profile.itemArithmetic`): each item is found as a row label (or a column
 * header) of one table, or as a label written right before its number in one observation's text (`Lufthansa 12`,
 * `Male | 64`, `English (10)`); each value is read with its own support; the difference, gap, sum or ratio is
 * computed in the order the question names the items. Nothing is computed when an item is not found: no partial
 * answer. An item must be named in the question (a label inside the question's words), never guessed.
 */

/** A value read for one operand. */
interface OperandValue {
  /** The label as the evidence writes it. */
  label: string;
  parsed: ParsedNumber;
  support: Support;
  /** How well the label matches the words naming the item (0–1). */
  quality: number;
  /** Where the value stands (`column "2019"`, `after the label`). */
  where: string;
  /** For a table value: the other line it stands on (the value column's header, or the row of column items). */
  line?: string;
}

/** The result of looking for the items of a question. */
export interface NamedItemResult {
  candidates: Candidate[];
  /** An item named in the question that no observation holding the other items shows (why nothing was computed). */
  missing?: string;
}

/** Words that never name an item on their own (question, copular and function words). */
const FUNCTION_WORDS = new Set(
  'a an the of for in on at to from by with about among between within during that which who whom whose what how many much more less fewer is are was were be been being do does did have has had there their its his her our your this these those and or not no than as per each all any some total number amount value achieved reached attributed according based'.split(
    ' ',
  ),
);

/** Folds a word to a comparable form: lower case, a plural `s` / `ies` folded. */
function fold(word: string): string {
  const w = word.toLowerCase();
  if (!/^[a-z]+$/.test(w) || w.length <= 3) return w;
  if (w.endsWith('ies')) return `${w.slice(0, -3)}y`;
  if (w.endsWith('s') && !/(?:ss|us|is)$/.test(w)) return w.slice(0, -1);
  return w;
}

/** Label tokens: words and numbers folded; articles dropped (a lower-case `a` is an article, an upper-case `A` a name). */
export function labelTokens(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/[A-Za-z0-9]+(?:[.'’][A-Za-z0-9]+)*\+?/g)) {
    const raw = m[0];
    if (raw === 'a' || /^(?:the|an)$/i.test(raw)) continue;
    out.push(fold(raw));
  }
  return out;
}

/** Index of `needle` as a contiguous run inside `hay`, or −1. */
function indexOfRun(hay: readonly string[], needle: readonly string[]): number {
  if (needle.length === 0 || needle.length > hay.length) return -1;
  outer: for (let i = 0; i + needle.length <= hay.length; i++) {
    for (let j = 0; j < needle.length; j++) if (hay[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

/** A label worth matching: some token that is not a function word. */
const meaningful = (tokens: readonly string[]): boolean => tokens.some((t) => !FUNCTION_WORDS.has(t));

/**
 * How well a label names an operand (0 when it does not): for an item written whole, the share of the longer of the
 * two that the shorter covers (at least half); for a clause, a label written inside the clause (or the one year both
 * name), longer labels better.
 */
export function labelQuality(label: string, operand: ItemOperand): number {
  const l = labelTokens(label);
  if (l.length === 0 || !meaningful(l)) return 0;
  const o = labelTokens(operand.text);
  if (operand.whole) {
    const q = indexOfRun(l, o) >= 0 ? o.length / l.length : indexOfRun(o, l) >= 0 ? l.length / o.length : 0;
    return q >= 0.5 ? q : 0;
  }
  if (indexOfRun(o, l) >= 0) return Math.min(1, 0.5 + 0.25 * l.length);
  const years = columnYears(label);
  if (years.length === 1 && l.length <= 2 && columnYears(operand.text).includes(years[0]!)) return 1;
  return 0;
}

/** Leading non-numeric cells of a row (a year in the first cell is a label too), joined; and where values start. */
function rowLabel(row: readonly string[]): { label: string; first: number } {
  const parts: string[] = [];
  let c = 0;
  for (; c < row.length; c++) {
    const parsed = row[c] ? parseNumberCell(row[c]!) : null;
    if (parsed && !(c === 0 && isYearLike(parsed))) break;
    if (row[c] && !parts.includes(row[c]!)) parts.push(row[c]!);
  }
  return { label: parts.join(' '), first: c };
}

const numberAt = (cell: string | undefined): ParsedNumber | null => {
  const parsed = cell ? parseNumberCell(cell) : null;
  return parsed && !isYearLike(parsed) ? parsed : null;
};

/** The index of the best label for each operand (distinct), or undefined when one operand has none. */
function assign(labels: readonly string[], operands: readonly ItemOperand[]): Array<{ index: number; quality: number }> | undefined {
  const out: Array<{ index: number; quality: number }> = [];
  for (const operand of operands) {
    let best: { index: number; quality: number } | undefined;
    labels.forEach((label, index) => {
      if (out.some((o) => o.index === index)) return;
      const quality = labelQuality(label, operand);
      // The longest label wins among those a clause holds; among whole items, the closest.
      if (quality > 0 && (!best || quality > best.quality || (quality === best.quality && label.length > labels[best.index]!.length))) best = { index, quality };
    });
    if (!best) return undefined;
    out.push(best);
  }
  return out;
}

/** How well a header names what the question measures (its terms, its years). */
function headerScore(evidence: EvidenceSet, header: string): number {
  const { years } = evidence.profile;
  const named = columnYears(header);
  const yearScore = years.length > 0 && named.length > 0 ? (named.some((y) => years.includes(y)) ? 0.5 : -0.5) : 0;
  return evidence.coverage(header).score + yearScore;
}

/** Picks the best of several lines by score; undefined when none scores above 0 or two tie at the top. */
function pickBest(options: ReadonlyArray<{ index: number; score: number }>): { index: number; score: number } | undefined {
  if (options.length === 1) return { index: options[0]!.index, score: 0 };
  const sorted = [...options].sort((a, b) => b.score - a.score);
  const [top, next] = sorted;
  if (!top || top.score <= 0 || (next && next.score >= top.score - 1e-9)) return undefined;
  return top;
}

/** The operands' values in one table: items as row labels (values in the column the question names) or as column headers. */
function tableValues(evidence: EvidenceSet, entry: EvidenceEntry, operands: readonly ItemOperand[]): { values: OperandValue[]; found: number } {
  const p = entry.observation.payload;
  if (p.kind !== 'table' || p.rows.length === 0) return { values: [], found: 0 };
  const rows = p.rows.map((row) => ({ row, ...rowLabel(row) }));
  let found = 0;
  // Items as row labels (rows holding a number: a section heading row names no value).
  const byRow = assign(rows.map((r) => (r.row.some((cell, c) => c >= r.first && numberAt(cell)) ? r.label : '')), operands);
  found = Math.max(found, operands.filter((o) => rows.some((r) => labelQuality(r.label, o) > 0)).length);
  if (byRow) {
    const width = Math.max(...p.rows.map((r) => r.length));
    const columns: Array<{ index: number; score: number }> = [];
    for (let c = 1; c < width; c++) if (byRow.every((a) => c >= rows[a.index]!.first && numberAt(rows[a.index]!.row[c]))) columns.push({ index: c, score: headerScore(evidence, p.columns[c] ?? '') });
    const column = pickBest(columns);
    if (column) {
      const header = p.columns[column.index] ?? '';
      return {
        found: operands.length,
        values: byRow.map((a) => {
          const r = rows[a.index]!;
          const cell = r.row[column.index]!;
          return { label: r.label, parsed: numberAt(cell)!, support: tableRowSupport(entry, r.label, cell), quality: a.quality, where: `row "${r.label}", column "${header}"`, line: header };
        }),
      };
    }
  }
  // Items as column headers (years, settings), values in the row the question names.
  const byColumn = assign(p.columns.map((h, c) => (c === 0 ? '' : h)), operands);
  found = Math.max(found, operands.filter((o) => p.columns.some((h, c) => c > 0 && labelQuality(h, o) > 0)).length);
  if (byColumn) {
    const candidates = rows.map((r, index) => ({ index, r })).filter(({ r }) => r.label && byColumn.every((a) => a.index >= r.first && numberAt(r.row[a.index])));
    const row = pickBest(candidates.map(({ index, r }) => ({ index, score: evidence.coverage(r.label).primary })));
    if (row) {
      const r = rows[row.index]!;
      return {
        found: operands.length,
        values: byColumn.map((a) => {
          const cell = r.row[a.index]!;
          return { label: p.columns[a.index]!, parsed: numberAt(cell)!, support: tableRowSupport(entry, r.label, cell), quality: a.quality, where: `column "${p.columns[a.index]}", row "${r.label}"`, line: r.label };
        }),
      };
    }
  }
  return { values: [], found };
}

/** Separators allowed between a label and its number in running text (`:`, `|`, `=`, an opening parenthesis, a dash). */
const LABEL_GAP = /^[ \t:|=([–—-]{0,4}/;

/** What stands right before a label in running text: the start, a line break, a cell or list mark, or a value. */
const LABEL_START = /(?:^|[\n|•·;,:]|[\d%)])[ \t]*$/;
/** What may follow a value read after its label. */
const VALUE_END = /^(?:$|[ \t]*(?:[\n|),;]|[^\S\n]+[^\d\s/–-]|[^\S\n]*$))/;

/** Word runs of a clause that may name an item (longest first), skipping function words and small numbers alone. */
function clausePhrases(text: string): string[] {
  const ws = [...text.matchAll(/[A-Za-z0-9]+(?:[.'’][A-Za-z0-9]+)*\+?/g)].map((m) => m[0]);
  const out: string[] = [];
  for (let n = Math.min(4, ws.length); n >= 1; n--) {
    for (let i = 0; i + n <= ws.length; i++) {
      const run = ws.slice(i, i + n);
      if (FUNCTION_WORDS.has(run[0]!.toLowerCase()) || FUNCTION_WORDS.has(run[n - 1]!.toLowerCase())) continue;
      // A label names something in words (not "65+" alone, nor a month before a day number).
      if (!meaningful(run.map(fold)) || !run.some((w) => /[A-Za-z]/.test(w)) || monthNumber(run[n - 1]!) !== undefined /* a day number after a month is a date, not a value */) continue;
      out.push(run.join(' '));
    }
  }
  return out;
}

/** The first place `phrase` is written in `text` right before a number: the label's span and the number. */
function labelledNumber(text: string, phrase: string): { start: number; end: number; mention: ReturnType<typeof findNumbers>[number] } | undefined {
  const words = phrase.split(/\s+/).map((w) => `${escapeRegExp(w)}${/[A-Za-z]$/.test(w) ? '(?:s|es)?' : ''}`);
  const re = new RegExp(`(?<![A-Za-z0-9])${words.join('[^A-Za-z0-9\\n]{1,3}')}(?![A-Za-z0-9])`, 'gi');
  for (const m of text.matchAll(re)) {
    // A label starts a line, a cell or a list entry, or follows the previous label's value ("A 31 B 17").
    if (!LABEL_START.test(text.slice(Math.max(0, m.index - 16), m.index))) continue;
    const after = m.index + m[0].length;
    const rest = text.slice(after, after + 40);
    const gap = LABEL_GAP.exec(rest)?.[0].length ?? 0;
    // Read after the gap, so "(10)" after a label is ten, not an accounting negative.
    const mention = findNumbers(rest.slice(gap))[0];
    if (!mention || mention.start !== 0 || isYearLike(mention)) continue;
    // The number ends there: not a range, a date or a code ("18-24", "18-September", "3/4").
    if (!VALUE_END.test(rest.slice(gap + mention.end).replace(/^\)/, ''))) continue;
    return { start: m.index, end: after + gap + mention.end, mention: { ...mention, start: after + gap, end: after + gap + mention.end } };
  }
  return undefined;
}

/** The operands' values written in one observation's text, each as a label followed by its number. */
function textValues(entry: EvidenceEntry, operands: readonly ItemOperand[]): { values: OperandValue[]; found: number } {
  const text = entry.text.text;
  const values: OperandValue[] = [];
  const starts: number[] = [];
  let found = 0;
  for (const operand of operands) {
    // An enumerated item may carry a verb of the question ("Coastal Air publish"): its longest run written before a number.
    const size = labelTokens(operand.text).length || 1;
    const phrases = operand.whole ? clausePhrases(operand.text).filter((p) => labelTokens(p).length / size >= 0.5) : clausePhrases(operand.text);
    let hit: OperandValue | undefined;
    for (const phrase of phrases) {
      const at = labelledNumber(text, phrase);
      // Each item has its own value (two items never share one number).
      if (!at || starts.includes(at.mention.start)) continue;
      starts.push(at.mention.start);
      const tokens = labelTokens(phrase).length;
      hit = {
        label: text.slice(at.start, at.mention.start).replace(/[\s:|=([–—-]+$/, ''),
        parsed: at.mention,
        support: supportFor(entry.observation, at.start, at.end, entry.text),
        quality: operand.whole ? 0.8 * (tokens / size) : Math.min(0.85, 0.55 + 0.1 * tokens),
        where: 'written after its label',
      };
      break;
    }
    if (!hit) return { values: [], found };
    found++;
    values.push(hit);
  }
  return { values, found };
}

const round4 = (value: number): number => Math.round(value * 1e4) / 1e4;

/** Combines the operand values; undefined for a ratio over zero. */
function combine(operation: Exclude<ItemArithmetic['operation'], 'list'>, values: readonly number[]): { value: number; formula: string } | undefined {
  const [a, b] = values as [number, number];
  switch (operation) {
    case 'difference':
      return { value: a - b, formula: 'A − B' };
    case 'gap':
      return { value: Math.abs(a - b), formula: '|A − B|' };
    case 'sum':
      return { value: values.reduce((s, v) => s + v, 0), formula: values.map((_, i) => String.fromCharCode(65 + i)).join(' + ') };
    case 'ratio':
      return b === 0 ? undefined : { value: a / b, formula: 'A / B' };
  }
}

/** Scale of a table: its payload scale, else one stated in its caption or columns. */
function entryScale(entry: EvidenceEntry): Scale | undefined {
  const p = entry.observation.payload;
  if (p.kind !== 'table') return undefined;
  return (p.scale ? scaleFromWord(p.scale) : undefined) ?? findStatedScale([p.caption ?? '', ...p.columns].join(' '));
}

/**
 * An operand none of whose words (function words and small numbers aside) the evidence writes anywhere (text,
 * headings, captions, column headers) while another operand's words are there: the document does not show that item.
 */
function absentOperand(evidence: EvidenceSet, operands: readonly ItemOperand[]): ItemOperand | undefined {
  const present = new Set<string>();
  for (const e of evidence.entries) {
    const p = e.observation.payload;
    const around = p.kind === 'text' ? p.heading_path.join(' ') : p.kind === 'table' ? [p.caption ?? '', ...p.columns].join(' ') : (p.caption ?? '');
    for (const t of labelTokens(`${e.text.text}\n${around}`)) present.add(t);
  }
  const words = operands.map((o) => labelTokens(o.text).filter((t) => !FUNCTION_WORDS.has(t) && !/^\d{1,2}$/.test(t)));
  const seen = words.map((ws) => ws.some((t) => present.has(t)));
  const at = words.findIndex((ws, i) => ws.length > 0 && !seen[i]);
  return at >= 0 && seen.some(Boolean) ? operands[at] : undefined;
}

/** Most score a computation over values read from different tables keeps (each item's table found on its own). */
const SPLIT_TABLES_PENALTY = 0.1;

/**
 * Each operand read on its own from the tables (its best-matching table), when all stand on the same line (the
 * same column header or row label): a table continued over pages, or one item per table. Undefined unless every
 * operand is found so and the values come from two or more tables.
 */
function splitTableValues(evidence: EvidenceSet, operands: readonly ItemOperand[]): { values: OperandValue[]; rank: number } | undefined {
  const values: OperandValue[] = [];
  let rank = 0;
  for (const operand of operands) {
    let best: { value: OperandValue; rank: number } | undefined;
    for (const entry of evidence.entries) {
      if (entry.observation.payload.kind !== 'table') continue;
      const value = tableValues(evidence, entry, [operand]).values[0];
      if (value && (!best || value.quality > best.value.quality)) best = { value, rank: entry.rank };
    }
    if (!best) return undefined;
    values.push(best.value);
    rank = Math.max(rank, best.rank);
  }
  const line = (v: OperandValue): string => labelTokens(v.line ?? '').join(' ');
  if (values.some((v) => v.line === undefined || line(v) !== line(values[0]!))) return undefined;
  if (new Set(values.map((v) => v.support.node_id)).size < 2) return undefined;
  return { values, rank };
}

/** A candidate from the operand values: the list of values, or their combination with the formula in the notes. */
function itemCandidate(evidence: EvidenceSet, ask: ItemArithmetic, values: readonly OperandValue[], where: string, score: number, scale: Scale | undefined): Candidate | undefined {
  const quality = Math.min(...values.map((v) => v.quality));
  const operands = values.map((v, i) => `${String.fromCharCode(65 + i)} = "${v.label}" ${v.parsed.raw} (${v.where}, p. ${v.support.page})`);
  if (ask.operation === 'list') {
    return {
      answer: values.map((v) => `${v.parsed.value}${v.parsed.percent ? '%' : ''}`),
      format: 'List',
      score: score + 0.4 * quality,
      support: values.map((v) => v.support),
      notes: [`one value per item the question names, ${where}, in the order asked: ${operands.join('; ')}`],
    };
  }
  const result = combine(ask.operation, values.map((v) => v.parsed.value));
  if (!result) return undefined;
  const percent = values.every((v) => v.parsed.percent);
  const additive = ask.operation !== 'ratio';
  const scaled = additive ? rescale(round4(result.value), values.find((v) => v.parsed.scale)?.parsed.scale ?? scale, evidence.profile.scale) : { value: round4(result.value) };
  const value = scaled.value;
  const format: AnswerFormat = Number.isInteger(value) && evidence.profile.format !== 'Float' ? 'Int' : 'Float';
  return {
    answer: value,
    format,
    score: score + 0.4 * quality,
    support: values.map((v) => v.support),
    computed: true,
    ...(percent && additive ? { display: `${value}%` } : {}),
    notes: [`${ask.operation} of the items the question names, ${where}: ${operands.join('; ')}; ${result.formula} = ${value}`, ...(scaled.note ? [scaled.note] : [])],
  };
}

/**
 * Candidates computed over the items the question names (see the module comment): one per observation holding every
 * item, scored by the weakest item match, plus a bonus (the question asks for the computation); else, for tables,
 * each item from its own table when all stand on the same line. `missing` names an item the evidence lacks.
 */
export function namedItemArithmetic(evidence: EvidenceSet): NamedItemResult {
  const ask = evidence.profile.itemArithmetic;
  if (!ask || ask.operands.length < 2) return { candidates: [] };
  const candidates: Candidate[] = [];
  let best = 0;
  for (const entry of evidence.entries) {
    // A table's items are its row labels or column headers; text holds labels written right before their values.
    const { values, found } = entry.observation.payload.kind === 'table' ? tableValues(evidence, entry, ask.operands) : textValues(entry, ask.operands);
    best = Math.max(best, found);
    if (values.length !== ask.operands.length) continue;
    const candidate = itemCandidate(evidence, ask, values, `in ${entry.observation.node_id}`, 0.7 - 0.01 * entry.rank, entryScale(entry));
    if (candidate) candidates.push(candidate);
  }
  if (candidates.length === 0) {
    const split = splitTableValues(evidence, ask.operands);
    const candidate = split && itemCandidate(evidence, ask, split.values, 'each in its own table', 0.7 - SPLIT_TABLES_PENALTY - 0.01 * split.rank, undefined);
    if (candidate) candidates.push(candidate);
  }
  candidates.sort((a, b) => b.score - a.score);
  if (candidates.length === 0) {
    const absent = absentOperand(evidence, ask.operands);
    if (absent) return { candidates: [], missing: `"${absent.text}" is named nowhere in the evidence, so nothing is computed from the other items` };
  }
  // Nothing of the question found, or every item found but no value shared by all (columns that tie): nothing is missing.
  if (candidates.length > 0 || best === 0 || best >= ask.operands.length) return { candidates: candidates.slice(0, 2) };
  const shown = ask.operands.map((o) => o.text).join(' / ');
  return { candidates: [], missing: `only ${best} of the ${ask.operands.length} items asked (${shown}) are in one observation` };
}
