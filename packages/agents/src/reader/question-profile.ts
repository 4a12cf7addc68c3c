import type { AnswerFormat, Operation, RouterDecision } from '@doctree/schema';
import { conceptsIn, DEFAULT_CONCEPTS, normalizeLabel, type Concept } from '@doctree/toolhub';
import { analysisConcepts, analysisFor, analysisPack } from '../analysis/question-analysis.js';
import { countAnalysis, type CountAnalysis } from '../analysis/count-analysis.js';
import { choiceOptions, ordinalItem, textAnswerType, type ChoiceOptions, type OrdinalItem, type TextAnswerType } from '../analysis/answer-type.js';
import { itemArithmetic, type ItemArithmetic } from '../analysis/item-arithmetic.js';
import type { OperandSides } from '../router/question-signals.js';
import { findNumbers, scaleFromWord, type Scale } from './numbers.js';
import { sentenceSpans, wordTokens } from './text-spans.js';

/** What kind of value answers a question. */
export type AnswerKind = 'count' | 'number' | 'year' | 'date' | 'yes_no' | 'list' | 'entity' | 'text';

/** Objects a "how many" question can count among observations. */
export type CountTarget = 'figure' | 'table' | 'chart' | 'image';

/** A question term with its weight (instruction sentences and generic words weigh less). */
export interface WeightedTerm {
  stem: string;
  word: string;
  weight: number;
}

/** A question read for extraction: kind, expected format, weighted terms, years, units, scale, operations, concepts. */
export interface QuestionProfile {
  question: string;
  kind: AnswerKind;
  /** The router's expected format, else one derived from `kind`. */
  format: AnswerFormat;
  /** True when the router (not this profile) fixed the format. */
  formatFromDecision: boolean;
  countTarget?: CountTarget;
  terms: WeightedTerm[];
  years: number[];
  wantsPercent: boolean;
  wantsCurrency: boolean;
  /**
   * An amount is asked (a currency, a scale, or a financial line item such as revenue or capex), not a rate: percentages
   * in the evidence are changes or shares, not the answer. False when a percent, margin, rate or ratio is asked.
   */
  wantsAmount: boolean;
  /** Scale the answer is asked in (`in USD millions`). */
  scale?: Scale;
  operations: Operation[];
  concepts: Concept[];
  /** Superlative asked (`highest`, `lowest`). */
  extreme?: 'max' | 'min';
  /** Raw numbers written in the question (never answers by themselves). */
  questionNumbers: Set<number>;
  /** What a "how many / how much / number of" question counts or measures (`grams`, `steps`), lower case. */
  measure?: string;
  /** Two line items the question combines ("ratio of A to B", "A as a percentage of B"), when it does. */
  sides?: OperandSides;
  /** 1-based pages the question names ("on page 5", "pages 3-4"): counts count only there. */
  pages: number[];
  /** Every concept of the domain pack the question was read with (sides and cells are matched with them). */
  domainConcepts: readonly Concept[];
  /** The pack's outflow row-label pattern (`Purchases of…`), or null when the pack has none. */
  outflowLabel: RegExp | null;
  /** The pack's words of metrics where lower is better (`error`, `latency`), or null when the pack has none. */
  lowerIsBetter: RegExp | null;
  /** What a count question counts (the count part of the question's analysis). */
  counted?: CountAnalysis;
  /** The options the question names for its answer ("A or B", "before or after"), when it names some. */
  choice?: ChoiceOptions;
  /** The type of short text asked (a person, a place, a code…), for text and entity questions. */
  textType?: TextAnswerType;
  /** The list item asked by its position ("the second step"), for text and entity questions. */
  ordinal?: OrdinalItem;
  /** Arithmetic over items the question names ("how many more … A than B", "the total of A, B and C"). */
  itemArithmetic?: ItemArithmetic;
}

/** Question words and generic request words that carry no evidence. */
const QUESTION_STOP = new Set(
  `what which who whom whose when where why how many much is are was were be been do does did the a an of in on for to from by with and or as at
  that this these those it its their there than then according based give provide response answer question details detail shown show shows
  please state report reported document documents page pages value values amount amounts number data information mention mentioned
  mentions describe described statement statements fy fiscal year years usd dollar dollars million millions billion billions thousand thousands
  percent percentage round rounded decimal decimals nearest place places calculate calculated compute computed using use used can could would should will
  about into over under between during any all each per also only if not no yes provided given listed list name named there here whole entire
  me int integer float format write directly`
    .split(/\s+/)
    .filter(Boolean),
);

/** Words that name a comparison or an arithmetic operation rather than what it is about: weigh 0.3 (they rarely label rows). */
const OPERATION_TERMS = new Set(
  `higher lower more less greater smaller larger bigger compared compare comparison difference versus vs gap ratio divided sum combined average mean`
    .split(/\s+/)
    .filter(Boolean),
);

const INSTRUCTION = /^(?:give|provide|answer|round|please|respond|express|use|using|assume|calculate|compute|note|show your|return|format)\b/i;

/**
 * @param quantity the question asks in a currency or scale (`in USD millions`) or names a reporting concept
 *   (`capital expenditure`): a quantity unless it asks who/which/where.
 */
function detectKind(q: string, format: AnswerFormat | null, quantity: boolean, amountWords: RegExp | undefined): { kind: AnswerKind; countTarget?: CountTarget } {
  const lower = q.toLowerCase();
  const count = /\bhow many\b|\bthe number of\b|\bcount (?:of|the)\b/.test(lower);
  if (count) {
    const target = /\bhow many\s+(?:\w+\s+){0,3}?(figures?|tables?|charts?|graphs?|plots?|images?|pictures?|photos?|photographs?|diagrams?|illustrations?)\b/.exec(lower)?.[1];
    if (target) {
      const t = target.replace(/s$/, '');
      const countTarget: CountTarget = t === 'table' ? 'table' : t === 'chart' || t === 'graph' || t === 'plot' ? 'chart' : t === 'figure' || t === 'diagram' || t === 'illustration' ? 'figure' : 'image';
      return { kind: 'count', countTarget };
    }
    return { kind: 'count' };
  }
  if (format === 'List' || /^\s*(?:list|name|enumerate|identify)\b|\bwhat are (?:the|all)\b|\bwhich (?:\w+ ){0,3}(?:are|were)\b/.test(lower)) return { kind: 'list' };
  if (/\banswer\W+yes\W+or\W+no\b/.test(lower) || (/^\s*(?:is|are|was|were|does|do|did|has|have|had|can|could|will|would|should)\b/.test(lower) && !/\bor\b/.test(lower))) return { kind: 'yes_no' };
  if (/\b(?:what|which|in what|in which)\s+(?:fiscal\s+|calendar\s+)?year\b/.test(lower)) return { kind: 'year' };
  if (/\b(?:what|which|on what)\s+(?:is the |was the )?date\b|\bwhen\b/.test(lower)) return { kind: 'date' };
  if (format === 'Int' || format === 'Float') return { kind: 'number' };
  // "What kind of X …" asks a thing, even about a rate or a price.
  if (/(?:^|[,:]\s*)(?:what|which)\s+(?:kinds?|types?|sorts?)\s+of\b/.test(lower)) return { kind: 'text' };
  if (
    (/\bhow (?:much|long|old|far|big|large|high|low)\b|%|\bpercent(?:age)?\b|\bratio\b|\brate\b|\bmargin\b|\bamount\b|\bvalue\b|\bgrowth\b|\bchange\b|\btotal\b|\baverage\b|\bprices?\b|\bcosts?\b|\bexpenses?\b|\bspending\b|\bfees?\b/.test(lower) || (amountWords?.test(lower) ?? false)) &&
    !/^\s*(?:who|which|where)\b/.test(lower)
  ) {
    return { kind: 'number' };
  }
  if (/^\s*(?:who|whose|whom|which|where)\b|\bwhat (?:is|was) the name\b|\bwhat company\b/.test(lower)) return { kind: 'entity' };
  if (quantity) return { kind: 'number' };
  return { kind: 'text' };
}

const FORMAT_OF: Record<AnswerKind, AnswerFormat> = {
  count: 'Int',
  number: 'Float',
  year: 'Int',
  date: 'Str',
  yes_no: 'Str',
  list: 'List',
  entity: 'Str',
  text: 'Str',
};

/** Weighted content terms of a text (instruction sentences such as "Give a response…" weigh 0.3). */
export function weightedTerms(text: string): WeightedTerm[] {
  const terms = new Map<string, WeightedTerm>();
  // Sentences, and the asking part after an instruction's colon ("Using the balance sheet: what is…?") on its own.
  const lines = text.replace(/\?\s+/g, '?\n').replace(/:\s+(?=(?:what|which|who|whom|whose|when|where|why|how|is|are|was|were|does|do|did)\b)/gi, ':\n');
  for (const span of sentenceSpans(lines)) {
    const sentence = lines.slice(span.start, span.end);
    const sentenceWeight = INSTRUCTION.test(sentence) ? 0.3 : 1;
    for (const token of wordTokens(sentence)) {
      const lower = token.word.toLowerCase();
      if (QUESTION_STOP.has(lower) || /^\d/.test(lower) || lower.length < 2) continue;
      if (/^fy\d+$/i.test(lower)) continue;
      const weight = OPERATION_TERMS.has(lower) ? Math.min(0.3, sentenceWeight) : sentenceWeight;
      const prev = terms.get(token.stem);
      if (!prev || prev.weight < weight) terms.set(token.stem, { stem: token.stem, word: lower, weight });
    }
  }
  return [...terms.values()];
}

/**
 * Reads a question for the extractive reader — a view of the question's one analysis (carried with the router's
 * decision, else made here with the default pack): answer kind and format (the router's `expected_format` wins),
 * weighted content terms (instruction sentences such as "Give a response…" weigh 0.3), years (`FY2018`, `2018`),
 * units and the scale asked (`in USD millions`), operations, superlatives and named concepts of the domain pack.
 */
export function profileQuestion(question: string, decision?: RouterDecision, concepts: readonly Concept[] = DEFAULT_CONCEPTS): QuestionProfile {
  const signals = decision?.signals;
  const expected = signals?.expected_format ?? null;
  const lowerQ = question.toLowerCase();
  // One reading of the question for router, planner and reader.
  const read = analysisFor(question, decision);
  const matchedConcepts = concepts === DEFAULT_CONCEPTS ? analysisConcepts(read) : conceptsIn(question, concepts);
  const quantity =
    matchedConcepts.length > 0 || /\$|\busd\b|\beur\b|\bgbp\b|\bdollars?\b|\beuros?\b|€|£|\b(?:thousands|millions|billions)\b/.test(lowerQ);
  const { kind, countTarget } = detectKind(question, expected, quantity, analysisPack(read).amountWords);
  const terms = weightedTerms(question);
  const lower = question.toLowerCase();
  const years = [...new Set([...(signals?.years ?? []), ...read.years])].sort((a, b) => a - b);
  const units = (signals?.units ?? []).map((u) => u.toLowerCase());
  const wantsPercent = /%|\bpercent(?:age)?\b|\bpct\b/.test(lower) || units.some((u) => u === '%' || u.startsWith('percent'));
  const wantsCurrency = /\$|\busd\b|\beur\b|\bgbp\b|\bdollars?\b|\beuros?\b|€|£/.test(lower) || units.some((u) => /^(?:\$|usd|eur|€|£|gbp|dollars?)$/.test(u));
  const scaleWord = read.scale ?? units.map((u) => scaleFromWord(u)).find(Boolean);
  const scale = scaleWord ? scaleFromWord(scaleWord) : undefined;
  // Abbreviations of the pack written out first: "EPS" asks "earnings per share", a rate.
  const rateAsked = wantsPercent || /\b(?:margins?|rates?|ratios?|shares?\s+of|proportion|yield|returns?\s+on|growth|per\s+share|multiple)\b/.test(normalizeLabel(question, analysisPack(read).abbreviations));
  const wantsAmount = !rateAsked && (wantsCurrency || scale !== undefined || matchedConcepts.some((c) => !c.general));
  const operations = new Set<Operation>([...(signals?.operations ?? []), ...read.operations]);
  const pages = [...new Set([...(signals?.page_hints ?? []), ...read.pages])].sort((a, b) => a - b);
  operations.delete('lookup');
  const sides: OperandSides | undefined = read.operands ? { operation: read.operands.operation, sides: [read.operands.sides[0], read.operands.sides[1]] } : undefined;
  // "percent" is arithmetic only between two items ("A as a percentage of B"); else it names the unit asked.
  if (sides?.operation !== 'percent') operations.delete('percent');
  if (kind === 'count') operations.add('count');
  const extreme = /\b(?:highest|largest|biggest|greatest|most|maximum|top|best|peak)\b/.test(lower)
    ? 'max'
    : /\b(?:lowest|smallest|least|minimum|fewest|worst)\b/.test(lower)
      ? 'min'
      : undefined;
  const questionNumbers = new Set(findNumbers(question).map((n) => Math.abs(n.value)));
  for (const y of years) questionNumbers.add(y);
  const format: AnswerFormat = expected && expected !== 'None' ? expected : FORMAT_OF[kind];
  const choice = kind === 'entity' || kind === 'text' ? choiceOptions(question) : undefined;
  const textType = kind === 'entity' || kind === 'text' ? textAnswerType(question) : undefined;
  const ordinal = kind === 'entity' || kind === 'text' ? ordinalItem(question) : undefined;
  const counted = kind === 'count' ? countAnalysis(read) : undefined;
  const asked = kind === 'yes_no' || kind === 'date' || kind === 'year' ? undefined : itemArithmetic(question);
  // A list question asks the items' values, not arithmetic over them.
  const items = kind === 'list' && asked?.operation !== 'list' ? undefined : asked;
  // A count measures its head noun ("how many pressure settings" counts settings).
  const measure = counted?.noun ?? /\b(?:how many|how much|number of)\s+(?:(?:the|of|different|total|distinct)\s+)*([a-z][a-z-]+)/i.exec(question)?.[1]?.toLowerCase();
  return {
    question,
    kind,
    format,
    formatFromDecision: Boolean(expected && expected !== 'None'),
    ...(countTarget ? { countTarget } : {}),
    terms,
    years,
    wantsPercent,
    wantsCurrency,
    wantsAmount,
    ...(scale ? { scale } : {}),
    operations: [...operations],
    concepts: matchedConcepts,
    ...(extreme ? { extreme } : {}),
    questionNumbers,
    ...(measure ? { measure } : {}),
    ...(sides ? { sides } : {}),
    pages,
    domainConcepts: concepts === DEFAULT_CONCEPTS ? analysisPack(read).concepts : concepts,
    outflowLabel: analysisPack(read).outflowLabel ?? null,
    lowerIsBetter: analysisPack(read).lowerIsBetter ?? null,
    ...(counted ? { counted } : {}),
    ...(choice ? { choice } : {}),
    ...(textType ? { textType } : {}),
    ...(ordinal ? { ordinal } : {}),
    ...(items ? { itemArithmetic: items } : {}),
  };
}

/**
 * The years a computation over time compares: the years asked; or, for a growth rate or a change of one year ("the
 * growth rate of X in 2018", "the change in X in 2018"), that year and the one before it. Empty otherwise.
 */
export function comparedYears(profile: Pick<QuestionProfile, 'years' | 'question' | 'sides'>, operation: string): number[] {
  if (profile.years.length >= 2) return [...profile.years].sort((a, b) => a - b);
  const overTime = operation === 'percent_change' || (operation === 'difference' && !profile.sides && /\b(?:change[sd]?|increase[sd]?|decrease[sd]?|grow(?:th|n|s)?|grew|decline[sd]?|rise|rose|fall|fell)\b/i.test(profile.question));
  if (profile.years.length === 1 && overTime) return [profile.years[0]! - 1, profile.years[0]!];
  return [];
}
