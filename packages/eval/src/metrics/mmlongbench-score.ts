/**
 * MMLongBench-Doc's answer scoring (`eval/eval_score.py` of github.com/mayubo2333/MMLongBench-Doc), re-implemented
 * rule for rule so that scores are comparable with published numbers.
 *
 * Deviations, all where the Python code would crash or cannot apply:
 * - A Float question whose gold answer is not a number after cleaning (upstream: uncaught `ValueError`) is scored
 *   with the Str rule (`float-as-str`).
 * - A List answer that starts with `[` but is not a Python literal (upstream: `eval` raises) is one list item.
 * - Two empty lists score 1 (upstream: `IndexError`).
 * - Upstream's `get_clean_string` computes `s.rstrip("mile")`, `s.rstrip("miles")`, `s.rstrip("million")` and discards
 *   the results, so units are NOT stripped; neither are they here.
 * - Python's `\d` matches every Unicode digit; here `\p{Nd}` does the same.
 */
import type { AnswerFormat } from '@doctree/schema';

import { parsePythonLiteral } from '../datasets/python-literal.js';
import { pyFloat, pyFloatRepr, pyIntFromFloat, pyIntFromString, pyRound, pyStr } from './python-compat.js';

/** The ANLS threshold of MMLongBench-Doc: similarities at or below it score 0. */
export const ANLS_THRESHOLD = 0.5;

/** The gold answer of MMLongBench-Doc's unanswerable questions. */
export const NOT_ANSWERABLE = 'Not answerable';

/** Levenshtein distance over Unicode code points (insertions, deletions and substitutions cost 1). */
export function levenshteinDistance(a: string, b: string): number {
  let s1 = Array.from(a);
  let s2 = Array.from(b);
  if (s1.length > s2.length) [s1, s2] = [s2, s1];
  let previous = Array.from({ length: s1.length + 1 }, (_, i) => i);
  for (let i2 = 0; i2 < s2.length; i2++) {
    const current = [i2 + 1];
    for (let i1 = 0; i1 < s1.length; i1++) {
      current.push(s1[i1] === s2[i2] ? previous[i1]! : 1 + Math.min(previous[i1]!, previous[i1 + 1]!, current[i1]!));
    }
    previous = current;
  }
  return previous[s1.length]!;
}

/**
 * Normalised Levenshtein similarity `1 - distance / max(length)`, set to 0 when it is at or below `threshold`
 * (MMLongBench-Doc's `anls_compute`; case-sensitive: clean both strings first). Two empty strings score 1.
 */
export function anls(gold: string, prediction: string, threshold: number = ANLS_THRESHOLD): number {
  const distance = levenshteinDistance(gold, prediction);
  const length = Math.max(Array.from(gold.toUpperCase()).length, Array.from(prediction.toUpperCase()).length);
  const similarity = 1 - (length === 0 ? 0 : distance / length);
  return similarity <= threshold ? 0 : similarity;
}

/**
 * MMLongBench-Doc's `get_clean_string`: lower-case, strip, drop parenthesised parts, one leading and one trailing
 * quote, leading `$` signs and trailing `%` signs.
 *
 * @example
 * ```ts
 * cleanAnswerString(' "$1,482 (millions)" '); // '1,482'
 * ```
 */
export function cleanAnswerString(value: unknown): string {
  let s = pyStr(value).toLowerCase().trim();
  s = s.replace(/\s*\([^)]*\)/g, '').trim();
  s = s.replace(/^['"]|['"]$/g, '').trim();
  s = s.trim().replace(/^\$+/, '').trim();
  s = s.trim().replace(/%+$/, '').trim();
  return s;
}

/**
 * MMLongBench-Doc's `is_exact_match`: answers that must match exactly rather than by ANLS — URLs, `.py`/`ipynb`
 * files, strings starting with `page`, integers and number ranges/phone numbers (`12`, `2015-2016`, `555 1234`),
 * times (`a.m.`/`p.m.`), `YYYY-MM-DD`, `YYYY-MM` and e-mail addresses.
 */
export function isExactMatchAnswer(s: string): boolean {
  if (s.includes('https://')) return true;
  if (s.endsWith('.py') || s.endsWith('ipynb')) return true;
  if (s.startsWith('page')) return true;
  if (/^\p{Nd}+(?:-\p{Nd}+|\s\p{Nd}+)?$/u.test(s)) return true;
  if (s.includes('a.m.') || s.includes('p.m.')) return true;
  if (/^\p{Nd}{4}[-\s]\p{Nd}{2}[-\s]\p{Nd}{2}$/u.test(s)) return true;
  if (/^\p{Nd}{4}[-\s]\p{Nd}{2}$/u.test(s)) return true;
  if (/^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\.[a-zA-Z]{2,}$/.test(s)) return true;
  return false;
}

/** MMLongBench-Doc's `isfloat`: whether Python's `float()` accepts the string. */
export function isFloatString(s: string): boolean {
  return pyFloat(s) !== undefined;
}

/** Options of {@link isFloatEqual}. */
export interface FloatEqualOptions {
  /** Also accept the reference divided or multiplied by 100 (percent vs fraction). Default false. */
  includePercentage?: boolean;
  /** Also accept a relative difference up to 1 % (`math.isclose(rel_tol=0.01)`). Default false. */
  isClose?: boolean;
}

function pyIsClose(a: number, b: number, relativeTolerance: number): boolean {
  if (a === b) return true;
  if (!Number.isFinite(a) || !Number.isFinite(b)) return false;
  return Math.abs(a - b) <= relativeTolerance * Math.max(Math.abs(a), Math.abs(b));
}

function floatPrecision(x: number): number {
  const text = pyFloatRepr(x);
  return text.includes('.') ? text.split('.').pop()!.length : 3;
}

/**
 * MMLongBench-Doc's `is_float_equal`: the prediction equals the reference (or reference/100, reference×100 with
 * `includePercentage`) when both round to the same value at `max(min(precision of either), 2)` decimals — the
 * precision read from Python's `str(float)` — or, with `isClose`, when they are within 1 %.
 */
export function isFloatEqual(reference: unknown, prediction: unknown, options: FloatEqualOptions = {}): boolean {
  const { includePercentage = false, isClose = false } = options;
  const ref = pyFloat(pyStr(reference).trim().replace(/%+$/, '').trim());
  if (ref === undefined) return false;
  const pred = pyFloat(pyStr(prediction).trim().replace(/%+$/, '').trim());
  if (pred === undefined) return false;
  const candidates = includePercentage ? [ref / 100, ref, ref * 100] : [ref];
  for (const item of candidates) {
    if (isClose && pyIsClose(item, pred, 0.01)) return true;
    const precision = Math.max(Math.min(floatPrecision(pred), floatPrecision(item)), 2);
    if (pyRound(pred, precision) === pyRound(item, precision)) return true;
  }
  return false;
}

/** Which MMLongBench-Doc rule scored an answer. */
export type MmLongBenchRule = 'int' | 'float' | 'float-as-str' | 'str-exact' | 'str-anls' | 'none-exact' | 'none-anls' | 'list-length' | 'list-exact' | 'list-anls';

/** Result of {@link scoreMmLongBenchAnswer}. */
export interface MmLongBenchScore {
  /** In [0, 1]: 0/1 for Int, Float and exact matches; the ANLS similarity otherwise. */
  score: number;
  rule: MmLongBenchRule;
}

function toList(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (typeof value === 'string' && value.startsWith('[')) {
    const parsed = parsePythonLiteral(value);
    if (Array.isArray(parsed)) return parsed;
  }
  return [value];
}

function stringScore(gold: unknown, prediction: unknown, format: 'Str' | 'None'): MmLongBenchScore {
  const g = cleanAnswerString(gold);
  const p = cleanAnswerString(prediction);
  const none = format === 'None';
  if (isExactMatchAnswer(g)) return { score: g === p ? 1 : 0, rule: none ? 'none-exact' : 'str-exact' };
  return { score: anls(g, p), rule: none ? 'none-anls' : 'str-anls' };
}

function floatOf(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value !== 'string') return undefined;
  return pyFloat(value);
}

/**
 * Scores a prediction against a gold answer with MMLongBench-Doc's rule for the answer format:
 * - `Int`: `int(gold) == int(float(prediction))` (so `6.7` counts as 6);
 * - `Float`: both cleaned and parsed, then {@link isFloatEqual} with percentages and 1 % tolerance;
 * - `Str` and `None`: cleaned, then exact match for {@link isExactMatchAnswer} golds, ANLS otherwise;
 * - `List`: Python list literals are parsed; lengths must agree; items are cleaned and sorted; numeric or
 *   exact-match golds must match item for item, others score the minimum pairwise ANLS.
 */
export function scoreMmLongBenchAnswer(gold: unknown, prediction: unknown, format: AnswerFormat): MmLongBenchScore {
  switch (format) {
    case 'Int': {
      const g = typeof gold === 'number' ? pyIntFromFloat(gold) : typeof gold === 'string' ? pyIntFromString(gold) : undefined;
      const pf = floatOf(prediction);
      const p = pf === undefined ? undefined : pyIntFromFloat(pf);
      if (g === undefined || p === undefined) return { score: g === undefined && gold === '' ? 1 : 0, rule: 'int' };
      return { score: g === p ? 1 : 0, rule: 'int' };
    }
    case 'Float': {
      const g = pyFloat(cleanAnswerString(pyStr(gold)));
      if (g === undefined) {
        const fallback = stringScore(gold, prediction, 'Str');
        return { score: fallback.score, rule: 'float-as-str' };
      }
      const p = pyFloat(cleanAnswerString(pyStr(prediction)));
      if (p === undefined) return { score: 0, rule: 'float' };
      return { score: isFloatEqual(g, p, { includePercentage: true, isClose: true }) ? 1 : 0, rule: 'float' };
    }
    case 'Str':
    case 'None':
      return stringScore(gold, prediction, format);
    case 'List': {
      const goldList = toList(gold);
      const predList = toList(prediction);
      if (goldList.length !== predList.length) return { score: 0, rule: 'list-length' };
      if (goldList.length === 0) return { score: 1, rule: 'list-exact' };
      const g = goldList.map(cleanAnswerString).sort();
      const p = predList.map(cleanAnswerString).sort();
      if (isFloatString(g[0]!) || isExactMatchAnswer(g[0]!)) return { score: g.join('-') === p.join('-') ? 1 : 0, rule: 'list-exact' };
      return { score: Math.min(...g.map((gv, i) => anls(gv, p[i]!))), rule: 'list-anls' };
    }
  }
}

/** One scored sample for {@link accuracyAndF1}. */
export interface ScoredSample {
  /** Score in [0, 1]. */
  score: number;
  /** The gold answer is not "Not answerable". */
  goldAnswerable: boolean;
  /** The prediction is not "Not answerable". */
  predictionAnswered: boolean;
}

/**
 * MMLongBench-Doc's `eval_acc_and_f1`: accuracy is the mean score; recall is the summed score of answerable questions
 * over their number; precision the same sum over the number of predictions that answered; F1 their harmonic mean
 * (0 when undefined). Returns zeros for no samples.
 */
export function accuracyAndF1(samples: readonly ScoredSample[]): { accuracy: number; f1: number } {
  if (samples.length === 0) return { accuracy: 0, f1: 0 };
  const accuracy = samples.reduce((sum, s) => sum + s.score, 0) / samples.length;
  const answerable = samples.filter((s) => s.goldAnswerable);
  const answered = samples.filter((s) => s.predictionAnswered).length;
  if (answerable.length === 0 || answered === 0) return { accuracy, f1: 0 };
  const gained = answerable.reduce((sum, s) => sum + s.score, 0);
  const recall = gained / answerable.length;
  const precision = gained / answered;
  const f1 = recall + precision > 0 ? (2 * recall * precision) / (recall + precision) : 0;
  return { accuracy, f1 };
}

/**
 * Whether a prediction declines to answer: its cleaned form (see {@link cleanAnswerString}, then without a final
 * full stop) is `not answerable`. Upstream compares the raw string with `"Not answerable"`; this is the one
 * deliberate leniency (case and a trailing period), since its inputs came from an LLM extraction step that normalised them.
 */
export function isDeclinedAnswer(prediction: unknown): boolean {
  return cleanAnswerString(prediction).replace(/\.$/, '').trim() === 'not answerable';
}
