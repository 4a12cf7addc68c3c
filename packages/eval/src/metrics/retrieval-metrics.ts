/**
 * Evidence-page retrieval metrics over ranked 1-based pages. Duplicates in the ranking count once, at their best
 * rank (a system that returns page 7 twice does not fill two of its k slots with it).
 */

/** The k of recall@k and hit@k reported by default. */
export const DEFAULT_KS: readonly number[] = [1, 3, 5, 10];

/** Ranked pages without duplicates, best first. */
export function uniqueRanking(rankedPages: readonly number[]): number[] {
  const seen = new Set<number>();
  const out: number[] = [];
  for (const page of rankedPages) {
    if (!seen.has(page)) {
      seen.add(page);
      out.push(page);
    }
  }
  return out;
}

/**
 * Fraction of the gold pages among the first `k` distinct ranked pages. Undefined (`NaN`) without gold pages:
 * such questions are left out of recall averages.
 *
 * @example
 * ```ts
 * recallAtK([9, 4, 7], [4, 5], 2); // 0.5
 * ```
 */
export function recallAtK(rankedPages: readonly number[], goldPages: readonly number[], k: number): number {
  const gold = new Set(goldPages);
  if (gold.size === 0) return Number.NaN;
  const top = uniqueRanking(rankedPages).slice(0, k);
  return top.filter((p) => gold.has(p)).length / gold.size;
}

/** 1 when any gold page is among the first `k` distinct ranked pages, else 0; `NaN` without gold pages. */
export function hitAtK(rankedPages: readonly number[], goldPages: readonly number[], k: number): number {
  const gold = new Set(goldPages);
  if (gold.size === 0) return Number.NaN;
  return uniqueRanking(rankedPages).slice(0, k).some((p) => gold.has(p)) ? 1 : 0;
}

/** `1 / rank` of the first gold page in the distinct ranking (0 when none is ranked); `NaN` without gold pages. */
export function reciprocalRank(rankedPages: readonly number[], goldPages: readonly number[]): number {
  const gold = new Set(goldPages);
  if (gold.size === 0) return Number.NaN;
  const rank = uniqueRanking(rankedPages).findIndex((p) => gold.has(p));
  return rank < 0 ? 0 : 1 / (rank + 1);
}

/** Retrieval scores of one question. */
export interface RetrievalScores {
  /** recall@k by k (as a string key, as in `metrics.json`); empty without gold pages. */
  recallAt: Record<string, number>;
  hitAt: Record<string, number>;
  /** Null without gold pages. */
  reciprocalRank: number | null;
}

/** recall@k and hit@k for every k, and the reciprocal rank, of one question. */
export function retrievalScores(rankedPages: readonly number[], goldPages: readonly number[], ks: readonly number[] = DEFAULT_KS): RetrievalScores {
  if (new Set(goldPages).size === 0) return { recallAt: {}, hitAt: {}, reciprocalRank: null };
  const recallAt: Record<string, number> = {};
  const hitAt: Record<string, number> = {};
  for (const k of ks) {
    recallAt[String(k)] = recallAtK(rankedPages, goldPages, k);
    hitAt[String(k)] = hitAtK(rankedPages, goldPages, k);
  }
  return { recallAt, hitAt, reciprocalRank: reciprocalRank(rankedPages, goldPages) };
}

/**
 * The `q`-th percentile (0–100) with linear interpolation between closest ranks (NumPy's default); 0 for no values.
 *
 * @example
 * ```ts
 * percentile([10, 20, 30, 40], 50); // 25
 * ```
 */
export function percentile(values: readonly number[], q: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const position = (Math.min(Math.max(q, 0), 100) / 100) * (sorted.length - 1);
  const lower = Math.floor(position);
  const upper = Math.ceil(position);
  return sorted[lower]! + (sorted[upper]! - sorted[lower]!) * (position - lower);
}
