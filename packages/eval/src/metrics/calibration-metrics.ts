import type { CalibrationMetrics, Prediction, PredictionGold, PredictionScore, ReliabilityBin } from '@doctree/schema';

/** What calibration reads of a scored prediction (every `ScoredPrediction` is one). */
export type CalibratedPrediction = Pick<Prediction, 'answer' | 'confidence' | 'error'> & { gold: Pick<PredictionGold, 'answerable'>; score: Pick<PredictionScore, 'accuracy'> };

/** Rule score from which a prediction counts as right for calibration (MMLongBench-Doc's ANLS threshold). */
export const RIGHT_FROM_SCORE = 0.5;

/** Options of {@link calibrationMetrics}. */
export interface CalibrationMetricsOptions {
  /** Equal-width confidence bins of the reliability diagram and the ECE. Default 10. */
  bins?: number;
}

const NOT_ANSWERABLE = /^not answerable$/i;

/**
 * How well the predictions' `confidence` says how likely they are right: ECE over equal-width bins, AUROC of right
 * vs wrong, Brier score, the reliability diagram's bins, and the shares of unanswerable and answerable questions
 * declined. A prediction is right when its rule score is at least {@link RIGHT_FROM_SCORE}; errors count as wrong.
 *
 * @example
 * ```ts
 * const c = calibrationMetrics(scored);
 * console.log(`ECE ${c.ece.toFixed(3)}, AUROC ${c.auroc?.toFixed(3)}`);
 * ```
 */
export function calibrationMetrics(predictions: readonly CalibratedPrediction[], options: CalibrationMetricsOptions = {}): CalibrationMetrics {
  const k = Math.max(1, Math.floor(options.bins ?? 10));
  const rows = predictions.map((p) => ({
    confidence: Number.isFinite(p.confidence) ? Math.min(1, Math.max(0, p.confidence)) : 0,
    right: p.error === undefined && p.score.accuracy >= RIGHT_FROM_SCORE ? 1 : 0,
  }));
  const n = rows.length;
  const bins: ReliabilityBin[] = [];
  let ece = 0;
  for (let b = 0; b < k; b++) {
    const lo = b / k;
    const hi = (b + 1) / k;
    const inBin = rows.filter((r) => r.confidence >= lo && (r.confidence < hi || (b === k - 1 && r.confidence <= 1)));
    const meanConfidence = inBin.length > 0 ? inBin.reduce((a, r) => a + r.confidence, 0) / inBin.length : null;
    const accuracy = inBin.length > 0 ? inBin.reduce((a, r) => a + r.right, 0) / inBin.length : null;
    if (meanConfidence !== null && accuracy !== null) ece += (inBin.length / n) * Math.abs(accuracy - meanConfidence);
    bins.push({ lo, hi, n: inBin.length, mean_confidence: meanConfidence, accuracy });
  }
  const brier = n > 0 ? rows.reduce((a, r) => a + (r.confidence - r.right) ** 2, 0) / n : 0;
  const declined = (p: CalibratedPrediction): boolean => p.error === undefined && typeof p.answer === 'string' && NOT_ANSWERABLE.test(p.answer.trim());
  const unanswerable = predictions.filter((p) => !p.gold.answerable);
  const answerable = predictions.filter((p) => p.gold.answerable);
  return {
    n,
    ece: Math.min(1, ece),
    auroc: auroc(rows),
    brier,
    bins,
    unanswerable_declined: unanswerable.length > 0 ? unanswerable.filter(declined).length / unanswerable.length : null,
    answerable_declined: answerable.length > 0 ? answerable.filter(declined).length / answerable.length : null,
  };
}

/** AUROC by ranks (ties count half); null when every row is right or every row is wrong. */
function auroc(rows: ReadonlyArray<{ confidence: number; right: number }>): number | null {
  const positives = rows.filter((r) => r.right === 1).length;
  const negatives = rows.length - positives;
  if (positives === 0 || negatives === 0) return null;
  const sorted = [...rows].sort((a, b) => a.confidence - b.confidence);
  let rankSum = 0;
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j < sorted.length && sorted[j]!.confidence === sorted[i]!.confidence) j++;
    const midRank = (i + 1 + j) / 2;
    for (let t = i; t < j; t++) if (sorted[t]!.right === 1) rankSum += midRank;
    i = j;
  }
  return (rankSum - (positives * (positives + 1)) / 2) / (positives * negatives);
}
