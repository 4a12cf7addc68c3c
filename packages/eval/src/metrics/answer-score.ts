import { escapeRegExp, numberWordValue, numberWordsBetween, type AnswerFormat, type AnswerValue } from '@doctree/schema';

import { anls, cleanAnswerString, isDeclinedAnswer, NOT_ANSWERABLE, scoreMmLongBenchAnswer } from './mmlongbench-score.js';
import type { MmLongBenchRule } from './mmlongbench-score.js';
import { extractNumberMentions, numbersMatch, parseNumericAnswer } from './numeric-match.js';
import type { NumberMatchOptions, NumberMention } from './numeric-match.js';
import { pyStr } from './python-compat.js';

/** Rules for open answers (no answer format, e.g. FinanceBench). */
export type OpenAnswerRule = 'numeric' | 'yes-no' | 'key-numbers' | 'text';

/** Every rule {@link scoreAnswer} can apply. */
export type AnswerRule = MmLongBenchRule | OpenAnswerRule;

/** What a prediction is scored against. */
export interface GoldAnswer {
  answer: AnswerValue;
  /** MMLongBench-Doc answer format; null for open answers. */
  answer_format: AnswerFormat | null;
  /** False for unanswerable questions (scored with the `None` rule). Default true. */
  answerable?: boolean;
}

/** Options of {@link scoreAnswer}. */
export interface ScoreAnswerOptions {
  /**
   * Run the rule-based answer extraction before MMLongBench-Doc's scoring ({@link extractAnswerForFormat}); upstream
   * runs an LLM extraction step there. Turn off to score the raw answers exactly as `eval_score.py` would. Default true.
   */
  extract?: boolean;
  /** Options of the numeric matcher used for open answers. */
  numbers?: NumberMatchOptions;
}

/** Defaults of {@link ScoreAnswerOptions}. */
export const SCORE_ANSWER_DEFAULTS = {
  extract: true,
  numbers: {},
} as const satisfies Required<ScoreAnswerOptions>;

/** Result of {@link scoreAnswer}. */
export interface AnswerScore {
  /** In [0, 1]. */
  score: number;
  rule: AnswerRule;
  /** The prediction as scored (after extraction). */
  scoredAnswer: AnswerValue;
  /** False when the prediction declines ("Not answerable"). */
  answered: boolean;
}

/** Number words an `Int` answer may be written as (`zero` … `twenty`), smallest first. */
const INT_WORDS = numberWordsBetween(0, 20);

function mentionText(mention: NumberMention): string {
  // The number as written, signed by an explicit minus only (accounting parentheses give the magnitude).
  const magnitude = Math.abs(mention.base);
  return String(mention.base < 0 && !mention.accountingNegative ? -magnitude : magnitude);
}

function splitListAnswer(text: string): string[] {
  const parts = /[;\n]/.test(text) ? text.split(/[;\n]/) : text.split(/,\s+|\s+and\s+/);
  return parts.map((p) => p.trim().replace(/^[-•*]\s*/, '')).filter((p) => p !== '');
}

/**
 * A rule-based stand-in for MMLongBench-Doc's answer-extraction step (an LLM turns a free-form response into the
 * answer format before `eval_score.py` scores it):
 * - `Int`: an answer that is not a number becomes its first number (`"6 figures"` → `"6"`), or a number word up to twenty;
 * - `Float`: an answer that is not a number after cleaning becomes its first number, without scale words;
 * - `List`: a string that is not a Python list is split on `;` / new lines, else on `, ` and ` and `;
 * - `Str` / `None`: unchanged.
 * An answer that declines ("Not answerable") is always left unchanged.
 */
export function extractAnswerForFormat(prediction: AnswerValue, format: AnswerFormat): AnswerValue {
  if (isDeclinedAnswer(prediction)) return prediction;
  if (format === 'Int' || format === 'Float') {
    if (typeof prediction === 'number') return prediction;
    const text = pyStr(prediction);
    const cleaned = format === 'Int' ? text.trim() : cleanAnswerString(text);
    if (/^[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$/i.test(cleaned)) return prediction;
    const first = extractNumberMentions(text)[0];
    if (first !== undefined) return mentionText(first);
    if (format === 'Int') {
      const word = INT_WORDS.find((w) => new RegExp(`\\b${w}\\b`, 'i').test(text));
      if (word !== undefined) return String(numberWordValue(word));
    }
    return prediction;
  }
  if (format === 'List') {
    if (Array.isArray(prediction) || typeof prediction !== 'string' || prediction.trim().startsWith('[')) return prediction;
    return splitListAnswer(prediction);
  }
  return prediction;
}

const YES_NO = /^\W*(yes|no)\b/i;

/**
 * Scores an open answer (no answer format), FinanceBench style:
 * - `numeric`: the gold is one number with decorations (`$1482.00`): some number of the prediction must match it
 *   ({@link numbersMatch}: scale words, implicit scale, percent, 1 % tolerance); years are ignored unless the gold is one;
 * - `yes-no`: the gold starts with yes/no: the prediction must start with the same word;
 * - `key-numbers`: the gold is a sentence with amounts (`Freight revenue was $612mn in FY 2021`): every amount (not years)
 *   must be matched by a number of the prediction;
 * - `text`: otherwise, 1 when the cleaned gold appears in the cleaned prediction as whole words, else ANLS.
 * Rule scores are a floor for open answers; configure the LLM judge for a faithful verdict.
 */
export function scoreOpenAnswer(gold: string, prediction: AnswerValue, options: NumberMatchOptions = {}): { score: number; rule: OpenAnswerRule } {
  const predText = pyStr(prediction);
  const goldNumber = parseNumericAnswer(gold);
  if (goldNumber !== undefined) {
    const predNumber = parseNumericAnswer(predText);
    const candidates = predNumber !== undefined ? [predNumber] : extractNumberMentions(predText).filter((m) => goldNumber.yearLike || !m.yearLike);
    return { score: candidates.some((m) => numbersMatch(goldNumber, m, options)) ? 1 : 0, rule: 'numeric' };
  }
  const goldYesNo = YES_NO.exec(gold);
  if (goldYesNo) {
    const predYesNo = YES_NO.exec(predText);
    return { score: predYesNo !== null && predYesNo[1]!.toLowerCase() === goldYesNo[1]!.toLowerCase() ? 1 : 0, rule: 'yes-no' };
  }
  const amounts = extractNumberMentions(gold).filter((m) => !m.yearLike);
  if (amounts.length > 0) {
    const predMentions = extractNumberMentions(predText);
    const found = (a: NumberMention): boolean => predMentions.some((m) => !m.yearLike && numbersMatch(a, m, options));
    return { score: amounts.every(found) ? 1 : 0, rule: 'key-numbers' };
  }
  const g = cleanAnswerString(gold);
  const p = cleanAnswerString(predText);
  if (g !== '' && new RegExp(`(^|\\W)${escapeRegExp(g)}($|\\W)`).test(p)) return { score: 1, rule: 'text' };
  return { score: anls(g, p), rule: 'text' };
}

/**
 * Scores one prediction: MMLongBench-Doc's rule for its answer format ({@link scoreMmLongBenchAnswer}, after
 * {@link extractAnswerForFormat}); the `None` rule for unanswerable questions; {@link scoreOpenAnswer} for open
 * answers (answer format null).
 *
 * @example
 * ```ts
 * scoreAnswer({ answer: '$1482.00', answer_format: null }, '1.482 billion'); // { score: 1, rule: 'numeric', … }
 * scoreAnswer({ answer: '6', answer_format: 'Int' }, 'There are 6 figures'); // { score: 1, rule: 'int', … }
 * ```
 */
export function scoreAnswer(gold: GoldAnswer, prediction: AnswerValue, options: ScoreAnswerOptions = {}): AnswerScore {
  const { extract, numbers } = { ...SCORE_ANSWER_DEFAULTS, ...options };
  const answered = !isDeclinedAnswer(prediction);
  const unanswerable = gold.answerable === false || gold.answer_format === 'None';
  const format: AnswerFormat | null = unanswerable ? 'None' : gold.answer_format;
  if (format === null) {
    const { score, rule } = scoreOpenAnswer(pyStr(gold.answer), prediction, numbers);
    return { score, rule, scoredAnswer: prediction, answered };
  }
  const scored = extract ? extractAnswerForFormat(prediction, format) : prediction;
  const goldAnswer = unanswerable && gold.answer_format !== 'None' && gold.answer === '' ? NOT_ANSWERABLE : gold.answer;
  const { score, rule } = scoreMmLongBenchAnswer(goldAnswer, scored, format);
  return { score, rule, scoredAnswer: scored, answered };
}
