import { z } from 'zod';
import { AnswerFormatSchema, AnswerValueSchema, SupportSchema, TokenUsageSchema } from './agent.js';
import { PageNumberSchema } from './common.js';

/** Evidence sources of MMLongBench-Doc questions. */
export const EvidenceSourceSchema = z.enum(['Pure-text (Plain-text)', 'Table', 'Chart', 'Figure', 'Generalized-text (Layout)']);
export type EvidenceSource = z.infer<typeof EvidenceSourceSchema>;

/** One eval question (the `questions.jsonl` format; extra fields are kept). */
export const QuestionSchema = z.looseObject({
  id: z.string().min(1),
  /** Document path relative to the dataset folder, e.g. `pdfs/3M_2018_10K.pdf`. */
  doc_file: z.string().min(1),
  question: z.string().min(1),
  answer: AnswerValueSchema,
  answer_format: AnswerFormatSchema.nullable(),
  answerable: z.boolean().default(true),
  /** 1-based physical PDF pages. */
  evidence_pages: z.array(PageNumberSchema),
  evidence_sources: z.array(z.string()).nullable().default(null),
  /** Benchmark (and commit) the record came from, e.g. `FinanceBench (github.com/patronus-ai/financebench @cc39aeb)`. */
  source_benchmark: z.string().optional(),
});
export type Question = z.infer<typeof QuestionSchema>;

const ratio = z.number().min(0).max(1);

/** What a prediction is scored against: the gold answer and pages of its question, with the report's group labels. */
export const PredictionGoldSchema = z.object({
  answer: AnswerValueSchema,
  /** The question's answer format; null for open answers (FinanceBench). */
  answer_format: AnswerFormatSchema.nullable(),
  answerable: z.boolean(),
  /** 1-based evidence pages. */
  evidence_pages: z.array(PageNumberSchema),
  evidence_sources: z.array(z.string()).nullable(),
  /** Report groups by evidence source, e.g. `["table", "text"]`, `["financial-statement"]`, `["unanswerable"]`. */
  source_labels: z.array(z.string()),
  /** Report group by answer format: `Int`, `Float`, `Str`, `List`, `None` or `open`. */
  format_label: z.string(),
});
export type PredictionGold = z.infer<typeof PredictionGoldSchema>;

/** Verdict of the LLM judge on one prediction (or of the rules when the judge's output was unusable). */
export const JudgeVerdictRecordSchema = z.object({
  correct: z.boolean(),
  score: ratio,
  reason: z.string(),
  /** `llm` when the judge's reply validated; `rules` when it fell back to rule scoring. */
  source: z.enum(['llm', 'rules']),
  model: z.string().optional(),
  /** Why the judge fell back to the rules. */
  error: z.string().optional(),
  tokens: TokenUsageSchema.optional(),
});
export type JudgeVerdictRecord = z.infer<typeof JudgeVerdictRecordSchema>;

/** Scores of one prediction. */
export const PredictionScoreSchema = z.object({
  /** Rule score in [0, 1] (MMLongBench-Doc rules: ANLS for Str/None, 0 or 1 otherwise). */
  accuracy: ratio,
  /** Scoring rule that applied, e.g. `int`, `float`, `str-anls`, `str-exact`, `list-exact`, `list-anls`, `numeric`. */
  rule: z.string().min(1),
  /** The prediction as scored (after the rule-based answer extraction). */
  scored_answer: AnswerValueSchema,
  /** False when the system declined ("Not answerable"); MMLongBench-Doc's F1 uses it. */
  answered: z.boolean(),
  /** Evidence-page recall@k by k; empty when the question has no gold pages. */
  recall_at: z.record(z.string(), ratio).default({}),
  hit_at: z.record(z.string(), ratio).default({}),
  /** 1 / rank of the first gold page in the ranked pages (0 when absent); null when there are no gold pages. */
  reciprocal_rank: ratio.nullable().default(null),
  judge: JudgeVerdictRecordSchema.optional(),
});
export type PredictionScore = z.infer<typeof PredictionScoreSchema>;

/** One system's prediction for one question (a line of `predictions.jsonl`). */
export const PredictionSchema = z.object({
  id: z.string().min(1),
  system: z.string().min(1),
  doc_file: z.string().min(1),
  question: z.string(),
  answer: AnswerValueSchema,
  answer_format: AnswerFormatSchema,
  confidence: z.number().min(0).max(1),
  /** Ranked 1-based pages the system retrieved (for recall@k), best first. */
  ranked_pages: z.array(PageNumberSchema),
  /** 1-based pages of the answer's support. */
  pages: z.array(PageNumberSchema),
  support: z.array(SupportSchema),
  latency_ms: z.number().nonnegative(),
  llm_calls: z.number().int().nonnegative().default(0),
  tokens: z.object({ prompt: z.number().int().nonnegative(), completion: z.number().int().nonnegative() }).default({ prompt: 0, completion: 0 }),
  trace_path: z.string().optional(),
  error: z.object({ code: z.string(), message: z.string() }).optional(),
  /** Gold answer and pages of the question (written by the eval runner). */
  gold: PredictionGoldSchema.optional(),
  /** Scores (written by the eval runner). */
  score: PredictionScoreSchema.optional(),
});
export type Prediction = z.infer<typeof PredictionSchema>;

/** Metrics of a group of predictions. */
export const MetricGroupSchema = z.object({
  n: z.number().int().nonnegative(),
  recall_at: z.record(z.string(), ratio),
  hit_at: z.record(z.string(), ratio),
  mrr: ratio,
  accuracy: ratio,
  f1: ratio.optional(),
  llm_judged_accuracy: ratio.optional(),
  /** Questions of the group with gold evidence pages (the denominator of recall@k, hit@k and MRR). */
  n_retrieval: z.number().int().nonnegative().optional(),
});
export type MetricGroup = z.infer<typeof MetricGroupSchema>;

/** One bin of a reliability diagram: the predictions whose confidence falls in `[lo, hi)` (the last bin includes 1). */
export const ReliabilityBinSchema = z.object({
  lo: ratio,
  hi: ratio,
  n: z.number().int().nonnegative(),
  /** Mean confidence of the bin's predictions (null when empty). */
  mean_confidence: ratio.nullable(),
  /** Share of the bin's predictions that were right (null when empty). */
  accuracy: ratio.nullable(),
});
export type ReliabilityBin = z.infer<typeof ReliabilityBinSchema>;

/**
 * How well a system's `confidence` predicts that its output is right (a prediction is right when its rule score is at
 * least 0.5), and how often it declined: expected calibration error over equal-width bins, AUROC of right vs wrong,
 * Brier score, the reliability diagram's bins, and the share of unanswerable and of answerable questions it declined.
 */
export const CalibrationMetricsSchema = z.object({
  n: z.number().int().nonnegative(),
  /** Σ over bins of (bin size / n) · |accuracy − mean confidence|. */
  ece: ratio,
  /** Probability that a right output has higher confidence than a wrong one; null when all are right or all wrong. */
  auroc: ratio.nullable(),
  /** Mean squared difference between confidence and rightness (0/1). */
  brier: ratio,
  bins: z.array(ReliabilityBinSchema),
  /** Share of the unanswerable questions declined ("Not answerable"); null when there are none. */
  unanswerable_declined: ratio.nullable(),
  /** Share of the answerable questions declined; null when there are none. */
  answerable_declined: ratio.nullable(),
});
export type CalibrationMetrics = z.infer<typeof CalibrationMetricsSchema>;

/** `metrics.json` for one system. */
export const MetricsSchema = z.object({
  system: z.string().min(1),
  dataset: z.string().min(1),
  overall: MetricGroupSchema,
  by_source: z.record(z.string(), MetricGroupSchema).default({}),
  by_format: z.record(z.string(), MetricGroupSchema).default({}),
  latency_ms: z.object({ p50: z.number().nonnegative(), p95: z.number().nonnegative() }),
  llm: z.object({ calls_per_question: z.number().nonnegative(), tokens_per_question: z.number().nonnegative() }),
  index_build_ms: z.number().nonnegative().optional(),
  /** Name shown in reports (defaults to `system`). */
  label: z.string().optional(),
  /** For ablations: the id of the system this one ablates (reports group them). */
  ablation_of: z.string().optional(),
  /** Predictions that failed with an error (scored 0). */
  errors: z.number().int().nonnegative().optional(),
  /** Failed LLM calls among the questions answered in the last run, and the questions that fell back offline. */
  llm_failures: z
    .object({
      calls: z.number().int().nonnegative(),
      failed_calls: z.number().int().nonnegative(),
      questions_fallen_back: z.number().int().nonnegative(),
      questions: z.number().int().nonnegative(),
      codes: z.record(z.string(), z.number().int().nonnegative()),
    })
    .optional(),
  /** Whether confidence means the probability of being right (reliability diagram), and how often the system declined. */
  calibration: CalibrationMetricsSchema.optional(),
  /** Documents whose index build time is counted in `index_build_ms`. */
  index_build_docs: z.number().int().nonnegative().optional(),
  /** The LLM judge's accounting, when one judged this system. */
  judge: z
    .object({
      model: z.string(),
      calls: z.number().int().nonnegative(),
      /** Verdicts that fell back to rule scoring (bad or missing judge output). */
      fallbacks: z.number().int().nonnegative(),
      prompt_tokens: z.number().int().nonnegative(),
      completion_tokens: z.number().int().nonnegative(),
    })
    .optional(),
});
export type Metrics = z.infer<typeof MetricsSchema>;

/** `metrics.json` of an evaluation run: one {@link MetricsSchema} entry per system. */
export const MetricsFileSchema = z.object({
  format: z.literal('doctree.eval-metrics'),
  version: z.literal(1),
  dataset: z.string().min(1),
  generated_at: z.string().datetime({ offset: true }),
  /** Questions evaluated per system. */
  n_questions: z.number().int().nonnegative(),
  /** The k of recall@k / hit@k. */
  ks: z.array(z.number().int().positive()).min(1),
  systems: z.array(MetricsSchema),
  /** The LLM judge and its prompt, verbatim; null when answers were scored by rules only. */
  judge: z.object({ model: z.string(), system_prompt: z.string(), user_template: z.string() }).nullable().default(null),
});
export type MetricsFile = z.infer<typeof MetricsFileSchema>;
