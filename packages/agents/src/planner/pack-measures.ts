import { findKeywords, askingSentence } from '../analysis/question-analysis.js';
import type { CompiledDomainPack, CompiledMeasure } from '@doctree/toolhub';

import { computationSpec, type ComputationPart, type ComputationSpec, type ComputationSpecInput, type FormulaOperand } from './definition-formula.js';

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
    'approximate roughly about january february march april may june july august september october november december'
  ).split(' '),
);

/** Words that ask for a measure over several years, averaged (the only multi-year form computed). */
const AVERAGE_WORDS = new Set(['average', 'mean']);
/** Operations over a measure that this plan does not compute (a change or a total of a measure across years). */
const OTHER_OPERATIONS = new Set(['percent_change', 'difference', 'sum', 'count', 'list', 'compare', 'max', 'min', 'trend']);
/** Widest year range averaged. */
const MAX_YEAR_SPAN = 10;

/**
 * Words of a question about how a measure changed between two years, or whether it moved one way: they say what is
 * asked of the measure, not which part of the entity it is about.
 */
const CHANGE_WORDS = new Set(
  (
    'change changed changes changing difference differ differed improve improved improves improving improvement worsen worsened worsens worsening ' +
    'deteriorate deteriorated deteriorates deteriorating deterioration weaken weakened weakening strengthen strengthened strengthening ' +
    'increase increased increases increasing decrease decreased decreases decreasing decline declined declines declining rise rose risen rises rising ' +
    'fall fell fallen falls falling drop dropped drops dropping grow grew grown grows growing higher lower better worse percentage percent points point ' +
    'move moved compared compare comparison relative prior previous preceding last year years fiscal trend trending direction much many how ' +
    'between from since versus vs over during profile trajectory course path'
  ).split(' '),
);

/** Content words of the asking sentence besides the measure's wording, the sources it names and the entity. */
function restrictingWords(input: MeasureSpecInput, named: NamedMeasure, averaging: boolean, changing = false): string[] {
  let rest = askingSentence(input.question).replace(named.text, ' ');
  for (const statement of input.pack.statements) rest = rest.replace(new RegExp(statement.trigger.source, 'gi'), ' ');
  const names = new Set((input.entities ?? []).flatMap((e) => e.toLowerCase().split(/\s+/)).map((w) => w.replace(/['’]s$/, '')));
  return findKeywords(rest, 24)
    .map((w) => w.replace(/['’]s$/, ''))
    .filter((w) => !names.has(w) && !UNRESTRICTING.has(w) && !(averaging && AVERAGE_WORDS.has(w)) && !(changing && CHANGE_WORDS.has(w)) && !/^[0-9]/.test(w));
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
  const { operands, perYear } = yearByYear(measure, range);
  const each = perYear.map((f) => shown(f));
  return { ...base, formula: `avg(${each.map((e) => e.formula).join(', ')})`, expression: `avg(${each.map((e) => e.expression).join(', ')})`, operands };
}

/**
 * One value of a measure per year: value operands read year by year (A0, A1…); average operands read from the year
 * before the first (B0 …), each year's average balance the mean of two neighbouring year ends.
 */
function yearByYear(measure: CompiledMeasure, years: readonly number[]): { operands: FormulaOperand[]; perYear: string[] } {
  const averageOf = new Set(measure.operands.filter((o) => o.reduce === 'average').map((o) => o.name));
  const operands: FormulaOperand[] = measure.operands.map((o) => ({
    name: o.name,
    phrase: o.phrase,
    years: averageOf.has(o.name) ? [years[0]! - 1, ...years] : [...years],
    reduce: 'each',
  }));
  const perYear = years.map((_, i) => substitute(measure.formula, (v) => (averageOf.has(v) ? `((${v}${i} + ${v}${i + 1}) / 2)` : `${v}${i}`)));
  return { operands, perYear };
}

/** What a question asks of a measure between two years: its change, or whether it moved one way. */
export type MeasureChangeAsk =
  /** How much it changed (newest − oldest; in points for a percent measure). */
  | { kind: 'change' }
  /** How much it fell (oldest − newest). */
  | { kind: 'fall' }
  /** Its relative change (`percent_change`), for a measure that is not a percentage. */
  | { kind: 'percent_change' }
  /** Yes/no: did it move `up` / `down`; `better` / `worse` follow the measure's direction. */
  | { kind: 'direction'; direction: 'up' | 'down' | 'better' | 'worse' };

/** Change words of an asking sentence, by what they ask (generic language: a measure of any field moves so). */
const BETTER = /\b(?:improv(?:e|es|ed|ing|ement)|strengthen(?:s|ed|ing)?|better)\b/i;
const WORSE = /\b(?:worsen(?:s|ed|ing)?|deteriorat(?:e|es|ed|ing|ion)|weaken(?:s|ed|ing)?|worse)\b/i;
const UP = /\b(?:increas(?:e|es|ed|ing)|ris(?:e|es|en|ing)|rose|gr(?:ow|ows|ew|own|owing)|higher)\b/i;
const DOWN = /\b(?:decreas(?:e|es|ed|ing)|declin(?:e|es|ed|ing)|f(?:all|alls|ell|allen|alling)|drop(?:s|ped|ping)?|lower)\b/i;
const CHANGE = /\b(?:chang(?:e|es|ed|ing)|differ(?:ence|ed)?|percentage\s+points?)\b/i;
/** Negation in the asking sentence: the question is left to the reader. */
const NEGATED = /\b(?:not|never|no)\b|n['’]t\b/i;
/** An answer instruction ("answer yes or no") is not part of the claim. */
const YES_OR_NO = /\byes\W+or\W+no\b/gi;
/** A question about why a measure moved, or what moved it, asks an explanation rather than a computation. */
const EXPLANATION = /^\s*(?:why|explain|describe)\b|\bwhat\s+(?:drove|caused|explains?|led\s+to|contributed)\b|\breasons?\b|\bdrivers?\b|\bdue\s+to\b|\bbecause\b/i;
/** Basis points: a unit the computation does not show. */
const BASIS_POINTS = /\bbasis\s+points?\b|\bbps\b/i;

/**
 * What the asking sentence asks of the measure it names between two years, or undefined when it asks none of these
 * (a value at one year) or asks it ambiguously (both up and down words, a negation).
 *
 * A yes/no question asks a direction: `better` / `worse` ("improve", "deteriorate") or `up` / `down` ("increase",
 * "decline"); another question asks a change ("how did it change", "by how many percentage points"), a fall ("how
 * much did it decline") or a relative change (the router read a percent change and the measure is not a percentage).
 */
export function measureChangeAsk(asking: string, yesNo: boolean, operations: readonly string[], measure: CompiledMeasure): MeasureChangeAsk | undefined {
  const claim = asking.replace(YES_OR_NO, ' ');
  if (NEGATED.test(claim) || BASIS_POINTS.test(claim) || EXPLANATION.test(claim)) return undefined;
  const found = { better: BETTER.test(claim), worse: WORSE.test(claim), up: UP.test(claim), down: DOWN.test(claim) };
  if (yesNo) {
    const asked = (Object.keys(found) as Array<keyof typeof found>).filter((k) => found[k]);
    // "improve" and "increase" together ("did it improve, increasing …") name one direction only when they agree.
    if (asked.length === 0) return undefined;
    const up = asked.map((k) => (k === 'up' ? true : k === 'down' ? false : (k === 'better') === measure.higherIsBetter));
    if (!up.every((u) => u === up[0])) return undefined;
    const direction = asked.length === 1 ? asked[0]! : up[0] ? 'up' : 'down';
    return { kind: 'direction', direction };
  }
  const changing = CHANGE.test(claim);
  if (!changing && !found.up && !found.down && !found.better && !found.worse) return undefined;
  // A percentage's change is told in points; a plain measure's percent change is relative.
  if (operations.includes('percent_change') && !measure.percent && !/\bpercentage\s+points?\b/i.test(claim)) return { kind: 'percent_change' };
  if (!changing && found.down && !found.up) return { kind: 'fall' };
  return { kind: 'change' };
}

/** The two years compared: the oldest and the newest named, or the year named and the year before it. */
function comparedYears(years: readonly number[]): [number, number] | undefined {
  const sorted = [...new Set(years)].sort((a, b) => a - b);
  if (sorted.length === 0) return undefined;
  if (sorted.length === 1) return [sorted[0]! - 1, sorted[0]!];
  const first = sorted[0]!;
  const last = sorted[sorted.length - 1]!;
  return last - first <= MAX_YEAR_SPAN ? [first, last] : undefined;
}

/** What {@link measureChangeSpec} reads besides the measure spec's input. */
export interface MeasureChangeSpecInput extends MeasureSpecInput {
  /** The question asks for a yes or a no. */
  yesNo?: boolean;
}

/**
 * The computation of how a measure the question names changed between two years, or whether it improved / rose /
 * fell: the measure at each year (each operand read at its own years, one value per year — `reduce: "each"` —, an
 * `average` operand from the year before the older one), then
 * - a change: newer − older (percentage points for a percent measure, the measure's unit otherwise; older − newer
 *   when the question asks how much it fell; a relative change when it asks a percent change of a plain measure);
 * - a yes/no direction: the change newer − older, with operation `increase` / `decrease` (the reader answers Yes when
 *   the sign agrees, No otherwise); "improve" / "worsen" follow the measure's `higherIsBetter`.
 * Both years' values are {@link ComputationSpec.parts}. The years are the oldest and newest named, or the year named
 * ("as of FY2024") and the year before.
 *
 * Undefined — the question is read, not computed — when no measure is named, no change or direction is asked, no
 * year is named, the answer expected is neither a number nor a yes/no, or the question restricts the measure to a
 * part of the entity.
 *
 * @example
 * ```ts
 * measureChangeSpec({ question: 'Did the current ratio of Contoso improve in FY2024?', yesNo: true, pack: builtinDomainPack('finance'), operations: [], years: [2024], entities: ['Contoso'] });
 * // { operation: 'increase', formula: '(A1 / B1) − (A0 / B0)', expression: '(A1 / B1) - (A0 / B0)', parts: [{ year: 2023, … }, { year: 2024, … }], … }
 * ```
 */
export function measureChangeSpec(input: MeasureChangeSpecInput): ComputationSpec | undefined {
  const yesNo = input.yesNo === true;
  if (!yesNo && input.format !== undefined && input.format !== null && input.format !== 'Int' && input.format !== 'Float') return undefined;
  const named = namedMeasure(input.question, input.pack.measures);
  if (!named) return undefined;
  const { measure } = named;
  const ask = measureChangeAsk(askingSentence(input.question), yesNo, input.operations, measure);
  if (!ask) return undefined;
  const years = comparedYears(input.years);
  if (!years) return undefined;
  if (restrictingWords(input, named, false, true).length > 0) return undefined;
  const { operands, perYear } = yearByYear(measure, years);
  const percent = measure.percent;
  const shown = (f: string): { formula: string; expression: string } => (percent ? { formula: `(${f}) × 100`, expression: `pct(${f}, 1)` } : { formula: f, expression: f });
  const [older, newer] = perYear.map(shown) as [{ formula: string; expression: string }, { formula: string; expression: string }];
  const parts: ComputationPart[] = years.map((year, i) => ({ label: `${measure.name} ${year}`, year, ...shown(perYear[i]!) }));
  const base = { percent: percent && ask.kind !== 'percent_change', defined: measure.name, operands, parts };
  const minus = (a: { formula: string; expression: string }, b: { formula: string; expression: string }) => ({ formula: `(${a.formula}) − (${b.formula})`, expression: `(${a.expression}) - (${b.expression})` });
  switch (ask.kind) {
    case 'change':
      return { ...base, operation: 'formula', ...minus(newer, older) };
    case 'fall':
      return { ...base, operation: 'formula', ...minus(older, newer) };
    case 'percent_change':
      return { ...base, percent: true, operation: 'formula', formula: `(${newer.formula} − ${older.formula}) / |${older.formula}| × 100`, expression: `percent_change(${older.expression}, ${newer.expression})` };
    case 'direction': {
      const up = ask.direction === 'up' || ask.direction === 'down' ? ask.direction === 'up' : (ask.direction === 'better') === measure.higherIsBetter;
      return { ...base, operation: up ? 'increase' : 'decrease', ...minus(newer, older) };
    }
  }
}

/** What {@link planComputation} reads: the computation input, and the pack and answer facts a measure needs. */
export interface PlanComputationInput extends ComputationSpecInput {
  pack?: CompiledDomainPack;
  format?: string | null;
  entities?: readonly string[];
  /** The question asks for a yes or a no (a measure's direction between two years is then computed). */
  yesNo?: boolean;
}

/**
 * The computation a plan gathers operands for: a formula the question defines first ({@link computationSpec}), then
 * the change or direction between two years of a measure of the pack the question names ({@link measureChangeSpec}),
 * then the measure itself ({@link measureSpec}; not for a yes/no question), then the other computations a question asks for
 * (a ratio of two line items, a growth rate…).
 */
export function planComputation(input: PlanComputationInput): ComputationSpec | undefined {
  const spec = computationSpec(input);
  if (spec?.operation === 'formula' || input.pack === undefined) return spec;
  const measureInput: MeasureSpecInput = {
    question: input.question,
    pack: input.pack,
    operations: input.operations,
    years: input.years,
    ...(input.format !== undefined ? { format: input.format } : {}),
    ...(input.entities !== undefined ? { entities: input.entities } : {}),
  };
  const changed = measureChangeSpec({ ...measureInput, ...(input.yesNo !== undefined ? { yesNo: input.yesNo } : {}) });
  if (changed) return changed;
  if (input.yesNo === true) return spec;
  return measureSpec(measureInput) ?? spec;
}
