import { DocTreeError, formatIssues } from '@doctree/schema';
import { z } from 'zod';

/**
 * Features of one answered question, each in 0..1: how sure the reader and the judger were, what was answered, how
 * well the retrieval agreed, and what the document lacks of the question. New features are appended (rows cached by the
 * fitting script keep their order; a model without a feature's weight weighs it 0).
 */
export const CALIBRATION_FEATURES = [
  'reader_confidence',
  'judge_score',
  'judge_failed',
  'reader_refused',
  'format_number',
  'format_list',
  'format_text',
  'support_rank',
  'support_count',
  'page_top_score',
  'page_margin',
  'best_coverage',
  'missing_terms',
  'missing_years',
  'missing_names',
  'page_out_of_range',
  'replans',
  'type_lookup',
  'type_table',
  'type_visual',
  'type_multi',
  'type_unanswerable',
  'computed_answer',
  'missing_parts',
  'missing_phrases',
  'missing_numbers',
  'missing_dates',
] as const;
/**
 * The direction each feature can push, by construction (+1 raises, −1 lowers the probability): more reader confidence,
 * a passing judge, better page agreement or coverage, a computed answer never make the answer less likely right; what
 * the document lacks never makes it more likely right, and never makes "the document does not say" less likely. The
 * fitting script constrains the weights to these signs (features not listed are free), so that a model fitted on one
 * set of documents cannot learn a confound backwards (say, "questions fully covered by a page are rarely right").
 */
export const CALIBRATION_FEATURE_SIGNS: Readonly<{ answer: Readonly<Record<string, 1 | -1>>; refuse: Readonly<Record<string, 1 | -1>> }> = Object.freeze({
  answer: Object.freeze({
    reader_confidence: 1,
    judge_score: 1,
    judge_failed: -1,
    support_rank: 1,
    support_count: 1,
    page_top_score: 1,
    page_margin: 1,
    best_coverage: 1,
    missing_terms: -1,
    missing_years: -1,
    missing_names: -1,
    page_out_of_range: -1,
    computed_answer: 1,
    missing_parts: -1,
    missing_phrases: -1,
    missing_numbers: -1,
    missing_dates: -1,
  }),
  refuse: Object.freeze({
    reader_refused: 1,
    best_coverage: -1,
    page_top_score: -1,
    missing_terms: 1,
    missing_years: 1,
    missing_names: 1,
    page_out_of_range: 1,
    missing_parts: 1,
    missing_phrases: 1,
    missing_numbers: 1,
    missing_dates: 1,
  }),
});

/** One of {@link CALIBRATION_FEATURES}. */
export type CalibrationFeature = (typeof CALIBRATION_FEATURES)[number];

/** One logistic regression: bias and weights by feature name. */
export const LogisticSchema = z.object({
  bias: z.number().finite(),
  /** Feature name → weight; missing names weigh 0, unknown names are refused. */
  weights: z.record(z.string(), z.number().finite()),
});

/** See {@link LogisticSchema}. */
export type LogisticModel = z.infer<typeof LogisticSchema>;

/**
 * The answer calibration model: two logistic regressions over {@link CALIBRATION_FEATURES} — `answer`, the probability
 * that the reader's answer is right, and `refuse`, the probability that the document does not answer the question.
 * The agent answers when `answer` is the likelier of the two to be right, else it declines ("Not answerable"); the
 * probability of what it says is its confidence.
 */
export const AnswerCalibrationModelSchema = z.object({
  format: z.literal('doctree.answer-calibration'),
  version: z.literal(1),
  answer: LogisticSchema,
  refuse: LogisticSchema,
  /**
   * Declines when `P(not answerable) > P(answer right) + refuse_margin`. Fitted to the best accuracy while refusing at
   * most a set share of answerable questions (a positive margin answers more often than pure accuracy would). Default 0.
   */
  refuse_margin: z.number().finite().default(0),
  /**
   * The reader whose answers the model was fitted on: `extractive` (the offline reader) or `llm` (a chat model's
   * answers). An agent applies a model only to answers of its kind. Default `extractive`.
   */
  reader: z.enum(['extractive', 'llm']).default('extractive'),
  /** How the model was obtained (script, questions, folds, cross-validated metrics). Informational. */
  fitted: z.record(z.string(), z.unknown()).optional(),
});
/** See {@link AnswerCalibrationModelSchema}. */
export type AnswerCalibrationModel = z.infer<typeof AnswerCalibrationModelSchema>;

/**
 * Validates an answer calibration model (a parsed JSON file).
 *
 * @throws DocTreeError `SCHEMA_INVALID` for a malformed model or an unknown feature name.
 */
export function parseAnswerCalibrationModel(value: unknown, file?: string): AnswerCalibrationModel {
  const parsed = AnswerCalibrationModelSchema.safeParse(value);
  if (!parsed.success) {
    throw new DocTreeError('SCHEMA_INVALID', `not an answer calibration model: ${formatIssues(parsed.error)}`, {
      ...(file ? { file } : {}),
      hint: 'Write one with `node tools/fit/fit-answer-calibration.mjs`.',
    });
  }
  const known = new Set<string>(CALIBRATION_FEATURES);
  const unknown = [...Object.keys(parsed.data.answer.weights), ...Object.keys(parsed.data.refuse.weights)].filter((name) => !known.has(name));
  if (unknown.length > 0) throw new DocTreeError('SCHEMA_INVALID', `unknown calibration feature(s) ${[...new Set(unknown)].join(', ')}`, { ...(file ? { file } : {}), hint: `Known: ${CALIBRATION_FEATURES.join(', ')}.` });
  return parsed.data;
}
