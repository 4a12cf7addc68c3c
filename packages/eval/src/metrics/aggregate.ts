import { DocTreeError, MetricsFileSchema, MetricsSchema, parseWith } from '@doctree/schema';
import type { MetricGroup, Metrics, MetricsFile, Prediction, PredictionGold, PredictionScore, Question } from '@doctree/schema';

import { answerFormatLabel, evidenceSourceLabels } from '../datasets/evidence-labels.js';
import { JUDGE_SYSTEM_PROMPT, JUDGE_USER_TEMPLATE } from '../judge/llm-judge.js';
import { scoreAnswer } from './answer-score.js';
import type { ScoreAnswerOptions } from './answer-score.js';
import { accuracyAndF1 } from './mmlongbench-score.js';
import { DEFAULT_KS, percentile, retrievalScores } from './retrieval-metrics.js';
import { calibrationMetrics } from './calibration-metrics.js';

/** A prediction that carries its gold answer and scores (every line the eval runner writes). */
export type ScoredPrediction = Prediction & { gold: PredictionGold; score: PredictionScore };

/** The gold side of a question as stored in a prediction, with its report labels. */
export function goldOf(question: Question): PredictionGold {
  return {
    answer: question.answer,
    answer_format: question.answer_format,
    answerable: question.answerable,
    evidence_pages: question.evidence_pages,
    evidence_sources: question.evidence_sources,
    source_labels: evidenceSourceLabels(question),
    format_label: answerFormatLabel(question),
  };
}

/** Options of {@link scorePrediction}. */
export interface ScorePredictionOptions extends ScoreAnswerOptions {
  /** The k of recall@k and hit@k. Default `[1, 3, 5, 10]`. */
  ks?: readonly number[];
}

/**
 * Rule scores of one prediction: answer accuracy ({@link scoreAnswer}) and evidence-page retrieval scores. A
 * prediction that failed with an error scores 0 (its retrieval scores still count what it ranked).
 */
export function scorePrediction(question: Question, prediction: Pick<Prediction, 'answer' | 'ranked_pages' | 'error'>, options: ScorePredictionOptions = {}): PredictionScore {
  const { ks = DEFAULT_KS, ...scoreOptions } = options;
  const answer = scoreAnswer({ answer: question.answer, answer_format: question.answer_format, answerable: question.answerable }, prediction.answer, scoreOptions);
  const retrieval = retrievalScores(prediction.ranked_pages, question.evidence_pages, ks);
  return {
    accuracy: prediction.error ? 0 : answer.score,
    rule: prediction.error ? 'error' : answer.rule,
    scored_answer: answer.scoredAnswer,
    answered: answer.answered,
    recall_at: retrieval.recallAt,
    hit_at: retrieval.hitAt,
    reciprocal_rank: retrieval.reciprocalRank,
  };
}

const mean = (values: readonly number[]): number => (values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length);
const clamp01 = (x: number): number => Math.min(1, Math.max(0, x));

/** Metrics of a group of scored predictions. */
export function groupMetrics(predictions: readonly ScoredPrediction[], ks: readonly number[] = DEFAULT_KS): MetricGroup {
  const withPages = predictions.filter((p) => p.score.reciprocal_rank !== null);
  const recallAt: Record<string, number> = {};
  const hitAt: Record<string, number> = {};
  if (withPages.length > 0) {
    for (const k of ks) {
      recallAt[String(k)] = clamp01(mean(withPages.map((p) => p.score.recall_at[String(k)] ?? 0)));
      hitAt[String(k)] = clamp01(mean(withPages.map((p) => p.score.hit_at[String(k)] ?? 0)));
    }
  }
  const { accuracy, f1 } = accuracyAndF1(
    predictions.map((p) => ({ score: p.score.accuracy, goldAnswerable: p.gold.answerable && p.gold.answer_format !== 'None', predictionAnswered: p.score.answered })),
  );
  const judged = predictions.filter((p) => p.score.judge !== undefined);
  return {
    n: predictions.length,
    n_retrieval: withPages.length,
    recall_at: recallAt,
    hit_at: hitAt,
    mrr: clamp01(mean(withPages.map((p) => p.score.reciprocal_rank ?? 0))),
    accuracy: clamp01(accuracy),
    f1: clamp01(f1),
    ...(judged.length > 0 && judged.length === predictions.length ? { llm_judged_accuracy: mean(judged.map((p) => (p.score.judge!.correct ? 1 : 0))) } : {}),
  };
}

const LABEL_ORDER = ['text', 'table', 'chart', 'figure', 'layout', 'financial-statement', 'unknown', 'unanswerable'];
const FORMAT_ORDER = ['Int', 'Float', 'Str', 'List', 'None', 'open'];

function ordered(keys: Iterable<string>, order: readonly string[]): string[] {
  return [...new Set(keys)].sort((a, b) => {
    const ia = order.indexOf(a);
    const ib = order.indexOf(b);
    if (ia >= 0 && ib >= 0) return ia - ib;
    if (ia >= 0) return -1;
    if (ib >= 0) return 1;
    return a.localeCompare(b);
  });
}

function groupBy(predictions: readonly ScoredPrediction[], keysOf: (p: ScoredPrediction) => readonly string[], order: readonly string[], ks: readonly number[]): Record<string, MetricGroup> {
  const groups = new Map<string, ScoredPrediction[]>();
  for (const p of predictions) {
    for (const key of keysOf(p)) {
      const group = groups.get(key);
      if (group) group.push(p);
      else groups.set(key, [p]);
    }
  }
  // Group labels come from datasets: fromEntries defines own properties (an assignment would take `__proto__` for the prototype).
  return Object.fromEntries(ordered(groups.keys(), order).map((key) => [key, groupMetrics(groups.get(key)!, ks)]));
}

/** Asserts that predictions carry gold and scores (as the eval runner writes them). */
export function assertScored(predictions: readonly Prediction[]): asserts predictions is readonly ScoredPrediction[] {
  const bad = predictions.find((p) => p.gold === undefined || p.score === undefined);
  if (bad) {
    throw new DocTreeError('SCHEMA_INVALID', `prediction ${bad.system}/${bad.id} has no gold answer or score`, {
      hint: 'Metrics need predictions written by runEvaluation, or add them with goldOf() and scorePrediction().',
    });
  }
}

/** Options of {@link computeSystemMetrics}. */
export interface SystemMetricsOptions {
  /** Dataset name. */
  dataset: string;
  /** The k of recall@k and hit@k. Default `[1, 3, 5, 10]`. */
  ks?: readonly number[];
  /** Name shown in reports. */
  label?: string;
  /** The system this one ablates. */
  ablationOf?: string;
  /** Index build time per document of this system, ms. */
  buildMs?: Readonly<Record<string, number>>;
}

/**
 * Metrics of one system: overall, by evidence source and by answer format (recall@k, hit@k, MRR, accuracy, F1,
 * LLM-judged accuracy), latency p50/p95 (of the predictions without errors), LLM calls and tokens per question and the
 * summed index build time. Validated with `MetricsSchema`.
 */
export function computeSystemMetrics(system: string, predictions: readonly Prediction[], options: SystemMetricsOptions): Metrics {
  assertScored(predictions);
  const ks = options.ks ?? DEFAULT_KS;
  const ok = predictions.filter((p) => p.error === undefined);
  const latencies = (ok.length > 0 ? ok : predictions).map((p) => p.latency_ms);
  const judged = predictions.filter((p) => p.score.judge !== undefined).map((p) => p.score.judge!);
  const builds = Object.values(options.buildMs ?? {});
  const metrics: Metrics = {
    system,
    dataset: options.dataset,
    overall: groupMetrics(predictions, ks),
    by_source: groupBy(predictions, (p) => p.gold.source_labels, LABEL_ORDER, ks),
    by_format: groupBy(predictions, (p) => [p.gold.format_label], FORMAT_ORDER, ks),
    latency_ms: { p50: percentile(latencies, 50), p95: percentile(latencies, 95) },
    llm: {
      calls_per_question: mean(predictions.map((p) => p.llm_calls)),
      tokens_per_question: mean(predictions.map((p) => p.tokens.prompt + p.tokens.completion)),
    },
    ...(builds.length > 0 ? { index_build_ms: builds.reduce((a, b) => a + b, 0), index_build_docs: builds.length } : {}),
    ...(options.label !== undefined ? { label: options.label } : {}),
    ...(options.ablationOf !== undefined ? { ablation_of: options.ablationOf } : {}),
    errors: predictions.length - ok.length,
    ...(predictions.length > 0 ? { calibration: calibrationMetrics(predictions) } : {}),
    ...(judged.length > 0
      ? {
          judge: {
            model: judged.find((j) => j.model !== undefined)?.model ?? 'unknown',
            calls: judged.length,
            fallbacks: judged.filter((j) => j.source === 'rules').length,
            prompt_tokens: judged.reduce((a, j) => a + (j.tokens?.prompt ?? 0), 0),
            completion_tokens: judged.reduce((a, j) => a + (j.tokens?.completion ?? 0), 0),
          },
        }
      : {}),
  };
  return parseWith(MetricsSchema, metrics, { what: `metrics of ${system}`, code: 'INTERNAL' });
}

/** A system as described to {@link computeMetrics}. */
export interface MetricsSystemInfo {
  id: string;
  label?: string;
  ablationOf?: string;
  /** Index build time per document, ms. */
  buildMs?: Readonly<Record<string, number>>;
}

/** Options of {@link computeMetrics}. */
export interface ComputeMetricsOptions {
  dataset: string;
  /** Systems in report order; default: the systems of the predictions in order of appearance. */
  systems?: readonly MetricsSystemInfo[];
  ks?: readonly number[];
  /** Model of the LLM judge when one was used (its prompt is recorded). */
  judgeModel?: string | null;
  /** Timestamp; default now. */
  generatedAt?: Date;
}

/**
 * The `metrics.json` of a run (format `doctree.eval-metrics`, version 1): per-system {@link computeSystemMetrics},
 * the k values and the judge prompt, verbatim, when a judge was used.
 */
export function computeMetrics(predictions: readonly Prediction[], options: ComputeMetricsOptions): MetricsFile {
  const ks = options.ks ?? DEFAULT_KS;
  const systems: readonly MetricsSystemInfo[] = options.systems ?? [...new Set(predictions.map((p) => p.system))].map((id) => ({ id }));
  const bySystem = new Map<string, Prediction[]>();
  for (const p of predictions) {
    const list = bySystem.get(p.system);
    if (list) list.push(p);
    else bySystem.set(p.system, [p]);
  }
  const file: MetricsFile = {
    format: 'doctree.eval-metrics',
    version: 1,
    dataset: options.dataset,
    generated_at: (options.generatedAt ?? new Date()).toISOString(),
    n_questions: Math.max(0, ...systems.map((s) => bySystem.get(s.id)?.length ?? 0)),
    ks: [...ks],
    systems: systems.map((s) =>
      computeSystemMetrics(s.id, bySystem.get(s.id) ?? [], {
        dataset: options.dataset,
        ks,
        ...(s.label !== undefined ? { label: s.label } : {}),
        ...(s.ablationOf !== undefined ? { ablationOf: s.ablationOf } : {}),
        ...(s.buildMs !== undefined ? { buildMs: s.buildMs } : {}),
      }),
    ),
    judge: options.judgeModel ? { model: options.judgeModel, system_prompt: JUDGE_SYSTEM_PROMPT, user_template: JUDGE_USER_TEMPLATE } : null,
  };
  return parseWith(MetricsFileSchema, file, { what: 'metrics file', code: 'INTERNAL' });
}
