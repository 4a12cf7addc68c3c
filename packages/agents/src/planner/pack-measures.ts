import { findKeywords, askingSentence } from '../analysis/question-analysis.js';
import type { CompiledDomainPack, CompiledMeasure } from '@doctree/toolhub';
import { MONTH_NAMES } from '@doctree/schema';

import { computationSpec, type ComputationSpec, type ComputationSpecInput, type FormulaOperand } from './definition-formula.js';

/** A measure of the pack a question names, and the words that named it. */
export interface NamedMeasure {
  measure: CompiledMeasure;
  /** The question's words that named it (`quick ratio`). */
  text: string;
}

/**
 * The measure of a pack the question's asking sentence names (the longest wording when several match: "fixed asset
 * turnover" over "asset turnover"), or undefined.
 */
export function namedMeasure(question: string, measures: readonly CompiledMeasure[]): NamedMeasure | undefined {
  const asking = askingSentence(question);
  let best: NamedMeasure | undefined;
  for (const measure of measures) {
    const m = measure.trigger.exec(asking);
    if (m && (!best || m[0].length > best.text.length)) best = { measure, text: m[0] };
  }
  return best;
}

/** What {@link measureSpec} reads besides the question. */
export interface MeasureSpecInput {
  question: string;
  /** The pack the question was analysed with (its measures and statement names). */
  pack: CompiledDomainPack;
  /** The decision's operations. */
  operations: readonly string[];
  /** The years the question names. */
  years: readonly number[];
  /** The expected answer format; a measure is computed only for a number (`Int`, `Float`) or when unknown. */
  format?: string | null;
  /** Names the question writes (the company, a ticker): they say whose measure, not which part of it. */
  entities?: readonly string[];
}

/**
 * Words of an asking sentence that leave a measure of the whole reporting entity unrestricted: the entity itself, the
 * period, and words of the measure's kind. Any other content word ("segment", "europe", "product") restricts the
 * measure to a part, whose figure is read as the document states it rather than computed from entity totals.
 */
const UNRESTRICTING = new Set(
  (
    'ratio ratios rate rates value figure metric measure level times days company company\'s companies firm firm\'s business group corporation ' +
    'entity organization organisation consolidated overall total whole entire annual yearly end ended ending period calendar reported approximately ' +
    'approximate roughly about'
  )
    .split(' ')
    .concat(MONTH_NAMES),
);

/** Words that ask for a measure over several years, averaged (the only multi-year form computed). */
const AVERAGE_WORDS = new Set(['average', 'mean']);
/** Operations over a measure that this plan does not compute (a change or a total of a measure across years). */
const OTHER_OPERATIONS = new Set(['percent_change', 'difference', 'sum', 'count', 'list', 'compare', 'max', 'min', 'trend']);
/** Widest year range averaged. */
const MAX_YEAR_SPAN = 10;

/** Content words of the asking sentence besides the measure's wording, the sources it names and the entity. */
function restrictingWords(input: MeasureSpecInput, named: NamedMeasure, averaging: boolean): string[] {
  let rest = askingSentence(input.question).replace(named.text, ' ');
  for (const statement of input.pack.statements) rest = rest.replace(new RegExp(statement.trigger.source, 'gi'), ' ');
  const names = new Set((input.entities ?? []).flatMap((e) => e.toLowerCase().split(/\s+/)).map((w) => w.replace(/['’]s$/, '')));
  return findKeywords(rest, 24)
    .map((w) => w.replace(/['’]s$/, ''))
    .filter((w) => !names.has(w) && !UNRESTRICTING.has(w) && !(averaging && AVERAGE_WORDS.has(w)) && !/^[0-9]/.test(w));
}

/** Years from the oldest to the newest asked, when there are at least two within {@link MAX_YEAR_SPAN}. */
function yearRange(years: readonly number[]): number[] {
  if (years.length < 2) return [];
  const first = years[0]!;
  const last = years[years.length - 1]!;
  return last - first <= MAX_YEAR_SPAN ? Array.from({ length: last - first + 1 }, (_, i) => first + i) : [];
}

/** The measure's formula with each operand variable replaced (`A / B` → `A0 / ((B0 + B1) / 2)`). */
function substitute(formula: string, variable: (name: string) => string): string {
  return formula.replace(/\b[A-H]\b/g, (name) => variable(name));
}

/**
 * The computation of a measure the question names without defining it ("the quick ratio for FY2022"): the measure's
 * formula over its operands, each a line item gathered with its own support at the year asked (the newest year the
 * question names; the table's first value column when it names none), an `average` operand over the year-end
 * balances of that year and the year before. "The FY2019 – FY2021 average of a measure" computes it for each year and
 * averages. A percent measure (or a question asking in percents) is shown × 100.
 *
 * Undefined — the question is read, not computed — when the pack names no measure in the asking sentence, the answer
 * expected is not a number, the question asks another operation over the measure (a change, a sum), or it restricts
 * the measure to a part of the entity (a segment, a region: content words besides the measure, its entity, sources
 * and period).
 *
 * @example
 * ```ts
 * measureSpec({ question: 'What was the quick ratio of Contoso in FY2023?', pack: builtinDomainPack('finance'), operations: ['ratio'], years: [2023], format: 'Float', entities: ['Contoso'] });
 * // { operation: 'formula', formula: '(A - B) / C', expression: '(A - B) / C', defined: 'quick ratio', percent: false,
 * //   operands: [{ name: 'A', phrase: 'current assets', years: [2023], reduce: 'value' }, …] }
 * ```
 */
export function measureSpec(input: MeasureSpecInput): ComputationSpec | undefined {
  if (input.format !== undefined && input.format !== null && input.format !== 'Int' && input.format !== 'Float') return undefined;
  if (input.operations.some((op) => OTHER_OPERATIONS.has(op))) return undefined;
  const named = namedMeasure(input.question, input.pack.measures);
  if (!named) return undefined;
  const years = [...new Set(input.years)].sort((a, b) => a - b);
  const range = input.operations.includes('average') ? yearRange(years) : [];
  const averaging = range.length >= 2;
  if (restrictingWords(input, named, averaging).length > 0) return undefined;
  const { measure } = named;
  const percent = measure.percent || (/%|\bpercent(?:age|s)?\b/i.test(input.question) && measure.formula.includes('/'));
  const shown = (f: string): { formula: string; expression: string } => (percent ? { formula: `(${f}) × 100`, expression: `pct(${f}, 1)` } : { formula: f, expression: f });
  const base = { operation: 'formula' as const, percent, defined: measure.name };
  if (!averaging) {
    const asked = years[years.length - 1];
    const operands: FormulaOperand[] = measure.operands.map((o) =>
      o.reduce === 'average' && asked !== undefined
        ? { name: o.name, phrase: o.phrase, years: [asked - 1, asked], reduce: 'average' }
        : { name: o.name, phrase: o.phrase, years: asked !== undefined ? [asked] : [], reduce: 'value' },
    );
    return { ...base, ...shown(measure.formula), operands };
  }
  // One value of the measure per year, averaged: value operands read year by year (A0, A1…); average operands read
  // from the year before the first (B0 …), each year's average balance the mean of two neighbouring year ends.
  const averageOf = new Set(measure.operands.filter((o) => o.reduce === 'average').map((o) => o.name));
  const operands: FormulaOperand[] = measure.operands.map((o) => ({
    name: o.name,
    phrase: o.phrase,
    years: averageOf.has(o.name) ? [range[0]! - 1, ...range] : range,
    reduce: 'each',
  }));
  const perYear = range.map((_, i) => substitute(measure.formula, (v) => (averageOf.has(v) ? `((${v}${i} + ${v}${i + 1}) / 2)` : `${v}${i}`)));
  const each = perYear.map((f) => shown(f));
  return { ...base, formula: `avg(${each.map((e) => e.formula).join(', ')})`, expression: `avg(${each.map((e) => e.expression).join(', ')})`, operands };
}

/** What {@link planComputation} reads: the computation input, and the pack and answer facts a measure needs. */
export interface PlanComputationInput extends ComputationSpecInput {
  pack?: CompiledDomainPack;
  format?: string | null;
  entities?: readonly string[];
}

/**
 * The computation a plan gathers operands for: a formula the question defines first ({@link computationSpec}), then
 * a measure of the pack the question names ({@link measureSpec}), then the other computations a question asks for
 * (a ratio of two line items, a growth rate…).
 */
export function planComputation(input: PlanComputationInput): ComputationSpec | undefined {
  const spec = computationSpec(input);
  if (spec?.operation === 'formula' || input.pack === undefined) return spec;
  const measured = measureSpec({
    question: input.question,
    pack: input.pack,
    operations: input.operations,
    years: input.years,
    ...(input.format !== undefined ? { format: input.format } : {}),
    ...(input.entities !== undefined ? { entities: input.entities } : {}),
  });
  return measured ?? spec;
}
