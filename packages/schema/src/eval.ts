import { z } from 'zod';
import { AnswerFormatSchema, AnswerValueSchema, SupportSchema } from './agent.js';
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
});
export type Question = z.infer<typeof QuestionSchema>;

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
});
export type Prediction = z.infer<typeof PredictionSchema>;

const ratio = z.number().min(0).max(1);
/** Metrics of a group of predictions. */
export const MetricGroupSchema = z.object({
  n: z.number().int().nonnegative(),
  recall_at: z.record(z.string(), ratio),
  hit_at: z.record(z.string(), ratio),
  mrr: ratio,
  accuracy: ratio,
  f1: ratio.optional(),
  llm_judged_accuracy: ratio.optional(),
});
export type MetricGroup = z.infer<typeof MetricGroupSchema>;

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
});
export type Metrics = z.infer<typeof MetricsSchema>;
