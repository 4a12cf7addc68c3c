import { AnswerSchema, DocTreeError, formatIssues } from '@doctree/schema';
import type { Answer, AnswerFormat, QueryType, ReadResult, Support } from '@doctree/schema';
import { NOT_ANSWERABLE } from '../reader/base-reader.js';
import { DEFAULT_ANSWER_CALIBRATION_MODEL } from './answer-calibration-model.js';
import { CALIBRATION_FEATURES, parseAnswerCalibrationModel, type AnswerCalibrationModel, type CalibrationFeature, type LogisticModel } from './answer-calibration-schema.js';
import type { DocumentLacks } from './document-lacks.js';

/** What the calibrator reads of one question. */
export interface CalibrationInput {
  read: Pick<ReadResult, 'answer' | 'answer_format' | 'confidence' | 'support'>;
  verdict?: { pass: boolean; score: number };
  queryType: QueryType;
  /** The page ranking, best first (scores of the page ranker). */
  pages: ReadonlyArray<{ page: number; score: number; features: { coverage: number } }>;
  /**
   * What the document lacks of the question: `missingTerms` from `PageView.absence`, and the names, years and pages it
   * asks about that the document never writes ({@link documentLacks}; older callers pass the shares).
   */
  absence: { missingTerms: number; missingYears: number; pagesOutOfRange: number; missingNames?: number; lacks?: DocumentLacks };
  /** REPLAN passes run. */
  replans: number;
  /** The answer is a value the plan's steps computed from extracted operands (not a number read as written). */
  computed?: boolean;
}

/** The calibrated outcome of one question. */
export interface Calibration {
  features: Record<CalibrationFeature, number>;
  /** Probability that the reader's answer is right (0 when it gave none). */
  pAnswer: number;
  /** Probability that the document does not answer the question. */
  pRefuse: number;
  /** True when the calibrated answer is "Not answerable" while the reader had an answer, or the reader refused. */
  refused: boolean;
  /** The probability that the final output (answer or refusal) is right. */
  confidence: number;
  /** Why it declined (absent when it answers). */
  reason?: string;
}

/** How an {@link AnswerCalibrator} acts on answers (see {@link AnswerCalibratorOptions.mode}). */
export type CalibrationMode = 'apply' | 'lacks' | 'record';

/** Options of {@link AnswerCalibrator}. */
export interface AnswerCalibratorOptions {
  /** The model. Default {@link DEFAULT_ANSWER_CALIBRATION_MODEL} (fitted on dev + wide, see its `fitted`). */
  model?: AnswerCalibrationModel;
  /**
   * `apply` (default): the answer's confidence becomes the calibrated probability and a declined answer becomes "Not
   * answerable" (the withheld answer and its evidence kept in `abstention`); `lacks`: the model's probabilities are only
   * traced and the answer keeps its confidence, but a question about what the document lacks (a page, year or name it
   * never writes, {@link documentLacksAsked}) is declined — for readers the model was not fitted on (a chat model's
   * answers with the shipped offline model); `record`: nothing is changed, features and probabilities are traced (for
   * refitting the model). In `apply` and `record` mode the agent asks its reader for its best answer however weak
   * (`ReadRequest.abstain: 'caller'`), so a model is fitted on the answers it will weigh.
   */
  mode?: CalibrationMode;
}

const ANSWER_WITHOUT_TRACE = AnswerSchema.omit({ trace: true });

const sigmoid = (x: number): number => 1 / (1 + Math.exp(-x));
const squash = (x: number): number => (x > 0 ? x / (1 + x) : 0);

const TYPE_GROUPS: ReadonlyMap<QueryType, CalibrationFeature> = new Map([
  ['lookup', 'type_lookup'],
  ['summary', 'type_lookup'],
  ['table_number', 'type_table'],
  ['chart', 'type_visual'],
  ['figure_count', 'type_visual'],
  ['layout', 'type_visual'],
  ['multi_hop', 'type_multi'],
  ['unanswerable', 'type_unanswerable'],
]);

/**
 * Turns an answer's raw signals into the probability that it is right, and declines when "the document does not say"
 * is the likelier right output. Both probabilities come from logistic models fitted with cross-validation grouped by
 * document (`tools/fit/fit-answer-calibration.mjs`), so `confidence` means what it says: of the answers given with
 * confidence 0.7, about 70 % were right on documents the model never saw.
 *
 * @example
 * ```ts
 * const calibration = new AnswerCalibrator().calibrate({ read, verdict, queryType: 'lookup', pages, absence, replans: 0 });
 * if (calibration.refused) console.log('Not answerable:', calibration.reason);
 * ```
 */
export class AnswerCalibrator {
  readonly model: AnswerCalibrationModel;
  readonly mode: CalibrationMode;

  /** @throws DocTreeError `SCHEMA_INVALID` for a malformed model, `USAGE` for an unknown mode. */
  constructor(options: AnswerCalibratorOptions = {}) {
    this.model = parseAnswerCalibrationModel(options.model ?? DEFAULT_ANSWER_CALIBRATION_MODEL);
    this.mode = options.mode ?? 'apply';
    if (!['apply', 'lacks', 'record'].includes(this.mode)) throw new DocTreeError('USAGE', `calibration mode must be apply, lacks or record, not ${String(this.mode)}`);
  }

  /**
   * The calibrator an agent uses by default for a reader: the model's own mode (`apply`) when the model was fitted on
   * that kind of reader, else `lacks` (declines only what the document lacks; the reader's confidence stays).
   */
  static forReader(reader: 'extractive' | 'llm', model: AnswerCalibrationModel = DEFAULT_ANSWER_CALIBRATION_MODEL): AnswerCalibrator {
    const parsed = parseAnswerCalibrationModel(model);
    return new AnswerCalibrator({ model: parsed, mode: parsed.reader === reader ? 'apply' : 'lacks' });
  }

  /** The feature row of one question. */
  features(input: CalibrationInput): Record<CalibrationFeature, number> {
    const f = Object.fromEntries(CALIBRATION_FEATURES.map((name) => [name, 0])) as Record<CalibrationFeature, number>;
    const { read } = input;
    const format: AnswerFormat = read.answer_format;
    f.reader_confidence = clamp01(read.confidence);
    f.judge_score = input.verdict ? clamp01(input.verdict.score) : 0.5;
    f.judge_failed = input.verdict && !input.verdict.pass ? 1 : 0;
    f.reader_refused = format === 'None' ? 1 : 0;
    f.format_number = format === 'Int' || format === 'Float' ? 1 : 0;
    f.format_list = format === 'List' ? 1 : 0;
    f.format_text = format === 'Str' ? 1 : 0;
    const ranked = input.pages.map((p) => p.page);
    const supportRanks = read.support.map((s) => ranked.indexOf(s.page)).filter((r) => r >= 0);
    f.support_rank = supportRanks.length > 0 ? 1 / (1 + Math.min(...supportRanks)) : 0;
    f.support_count = Math.min(1, read.support.length / 4);
    f.page_top_score = squash(input.pages[0]?.score ?? 0);
    f.page_margin = input.pages.length > 1 ? clamp01((input.pages[0]!.score - input.pages[1]!.score) / Math.max(1e-9, Math.abs(input.pages[0]!.score))) : input.pages.length === 1 ? 1 : 0;
    f.best_coverage = Math.max(0, ...input.pages.slice(0, 5).map((p) => p.features.coverage));
    f.missing_terms = clamp01(input.absence.missingTerms);
    const lacks = input.absence.lacks;
    f.missing_years = lacks ? (lacks.years.length > 0 ? lacks.missingYears.length / lacks.years.length : 0) : clamp01(input.absence.missingYears);
    f.missing_names = lacks ? (lacks.names.length > 0 ? lacks.missingNames.length / lacks.names.length : 0) : clamp01(input.absence.missingNames ?? 0);
    f.page_out_of_range = (lacks ? lacks.pagesOutOfRange.length : input.absence.pagesOutOfRange) > 0 ? 1 : 0;
    f.missing_parts = lacks && lacks.missingParts.length > 0 ? 1 : 0;
    f.missing_phrases = lacks && lacks.phrases.length > 0 ? lacks.missingPhrases.length / lacks.phrases.length : 0;
    f.missing_numbers = lacks && lacks.numbers.length > 0 ? lacks.missingNumbers.length / lacks.numbers.length : 0;
    f.missing_dates = lacks && lacks.dates.length > 0 ? lacks.missingDates.length / lacks.dates.length : 0;
    f.replans = Math.min(1, input.replans / 2);
    f.computed_answer = input.computed ? 1 : 0;
    const group = TYPE_GROUPS.get(input.queryType);
    if (group) f[group] = 1;
    return f;
  }

  /** Calibrates one question: both probabilities, the choice between answering and declining, and why. */
  calibrate(input: CalibrationInput): Calibration {
    const features = this.features(input);
    const readerRefused = input.read.answer_format === 'None';
    const modelled = calibrationDecision(this.model, features, readerRefused);
    // Not fitted on this reader: its answer and confidence stand unless the document lacks what is asked.
    const decision =
      this.mode === 'lacks'
        ? (() => {
            const refused = readerRefused || documentLacksAsked(features);
            return { ...modelled, refused, confidence: refused && !readerRefused ? modelled.pRefuse : clamp01(input.read.confidence) };
          })()
        : modelled;
    const lacking = input.absence.lacks ? lackingReason(input.absence.lacks) : undefined;
    return { features, ...decision, ...(decision.refused ? { reason: lacking ?? reasonOf(features, readerRefused, decision.pAnswer, decision.pRefuse) } : {}) };
  }
}

/**
 * The policy that declines what the document cannot answer, whatever the models say: a page it does not have, a
 * labelled part (`Figure 7`) it never labels although it labels others of the kind, a year it never writes (every year
 * the question names), a month of a year it never writes (every date the question names), a name it never mentions,
 * a name of several words it never writes together (its words only apart: another organisation built from the
 * document's words). True for a feature row (see {@link CALIBRATION_FEATURES}) that shows one of them.
 */
export function documentLacksAsked(features: Readonly<Record<CalibrationFeature, number>>): boolean {
  return features.page_out_of_range === 1 || features.missing_parts === 1 || features.missing_years === 1 || features.missing_dates === 1 || features.missing_names > 0 || features.missing_phrases > 0;
}

/**
 * The calibrated decision for one feature row: P(the reader's answer is right) (0 when the reader gave none),
 * P(the document does not answer), and whether to decline — when the reader gave no answer, when declining is likelier
 * right by the model's margin, or when the document lacks what is asked ({@link documentLacksAsked}). The fitting
 * script decides with this same function.
 */
export function calibrationDecision(
  model: AnswerCalibrationModel,
  features: Readonly<Record<CalibrationFeature, number>>,
  readerRefused: boolean,
): { pAnswer: number; pRefuse: number; refused: boolean; confidence: number } {
  const pAnswer = readerRefused ? 0 : sigmoid(linear(model.answer, features));
  const pRefuse = sigmoid(linear(model.refuse, features));
  const refused = readerRefused || pRefuse > pAnswer + model.refuse_margin || documentLacksAsked(features);
  return { pAnswer, pRefuse, refused, confidence: refused ? pRefuse : pAnswer };
}

/** A sentence naming what the document lacks (the missing pages, years or names), or undefined. */
function lackingReason(lacks: DocumentLacks): string | undefined {
  if (lacks.pagesOutOfRange.length > 0) return `the document has no page ${lacks.pagesOutOfRange.join(', ')}`;
  if (lacks.missingParts.length > 0) return `the document has no ${lacks.missingParts.join(', ')}`;
  if (lacks.years.length > 0 && lacks.missingYears.length === lacks.years.length) return `the document never mentions ${lacks.missingYears.join(', ')}`;
  if (lacks.dates.length > 0 && lacks.missingDates.length === lacks.dates.length) return `the document never writes a date in ${lacks.missingDates.join(', ')}`;
  if (lacks.missingNames.length > 0) return `the document never mentions ${lacks.missingNames.map((n) => `"${n}"`).join(', ')}`;
  if (lacks.missingPhrases.length > 0) return `the document never writes ${lacks.missingPhrases.map((n) => `"${n}"`).join(', ')} (only their words apart)`;
  if (lacks.missingNumbers.length > 0 && lacks.missingNumbers.length === lacks.numbers.length) return `the document never writes ${lacks.missingNumbers.join(', ')}`;
  return undefined;
}

function linear(model: LogisticModel, features: Readonly<Record<CalibrationFeature, number>>): number {
  let s = model.bias;
  for (const name of CALIBRATION_FEATURES) {
    const w = Object.hasOwn(model.weights, name) ? model.weights[name]! : 0;
    s += w * features[name];
  }
  return s;
}

function clamp01(x: number): number {
  return Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0;
}

/** A sentence for people: the strongest reason the evidence does not carry an answer. */
function reasonOf(f: Record<CalibrationFeature, number>, readerRefused: boolean, pAnswer: number, pRefuse: number): string {
  if (f.page_out_of_range) return 'the question names a page the document does not have';
  if (f.missing_parts) return 'the question names a figure, table or section the document does not label';
  if (f.missing_years >= 0.5) return 'the document never mentions the year(s) the question asks about';
  if (f.missing_dates >= 0.5) return 'the document never writes a date in the month(s) the question asks about';
  if (f.missing_names >= 0.5) return 'the document never mentions the name(s) the question asks about';
  if (f.missing_phrases >= 0.5) return 'the document never writes the name(s) the question asks about, only their words apart';
  if (f.missing_numbers >= 0.5) return 'the document never writes the number(s) the question quotes';
  if (f.missing_terms >= 0.3) return `the document never mentions ${Math.round(f.missing_terms * 100)} % of what the question names (by weight)`;
  if (readerRefused) return 'the reader found no answer in the evidence';
  return `the best answer found is likely wrong (probability right ${pAnswer.toFixed(2)} vs ${pRefuse.toFixed(2)} that the document does not say)`;
}

/**
 * The answer as calibrated: its confidence is the calibrated probability; a declined answer becomes "Not answerable"
 * (format `None`, no support, no pages) with `abstention` holding the reason, the withheld answer and its evidence.
 *
 * @throws DocTreeError `SCHEMA_INVALID` when the result is not a valid Answer.
 */
export function calibratedAnswer(answer: Answer, calibration: Calibration, evidence: readonly Support[] = answer.support): Answer {
  const confidence = clamp01(calibration.confidence);
  const next: Answer = !calibration.refused
    ? { ...answer, confidence }
    : {
        ...answer,
        answer: NOT_ANSWERABLE,
        answer_format: 'None',
        confidence,
        support: [],
        pages: [],
        abstention: {
          reason: calibration.reason ?? 'the evidence does not carry an answer',
          ...(answer.answer_format !== 'None' ? { withheld: { answer: answer.answer, answer_format: answer.answer_format, confidence: clamp01(calibration.pAnswer) } } : {}),
          evidence: evidence.slice(0, 8),
        },
      };
  if (next.answer_format === 'None') delete next.display;
  // The trace was validated when the answer was finalized: only what calibration changed is checked again.
  const { trace, ...rest } = next;
  const parsed = ANSWER_WITHOUT_TRACE.safeParse(rest);
  if (!parsed.success) throw new DocTreeError('SCHEMA_INVALID', `the calibrated answer is not a valid Answer: ${formatIssues(parsed.error)}`);
  return { ...parsed.data, trace };
}
