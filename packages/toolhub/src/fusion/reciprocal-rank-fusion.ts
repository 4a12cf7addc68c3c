import type { Hit } from '@doctree/schema';

/** How one lane ranked a fused hit (`extra.lanes`). */
export interface LaneRank {
  /** Lane (`Hit.method`). */
  method: string;
  /** 1-based rank in that lane. */
  rank: number;
  /** The lane's raw score. */
  score_raw: number;
}

/** Options of {@link reciprocalRankFusion}. */
export interface RrfOptions {
  /** The RRF constant: a hit at rank r in a lane adds `weight / (k + r)`. Default 60 (Cormack et al. 2009). */
  k?: number;
  /** Per-lane weight by `Hit.method`; lanes not listed weigh 1. Default none. */
  weights?: Readonly<Record<string, number>>;
  /**
   * How a node's contributions from several lists combine: `sum` (classic RRF: lanes that agree add up) or `max` (the
   * node's best contribution: lists that are views of one retrieval — e.g. the stages of one plan, where a table indexed
   * in two views would otherwise count twice — cannot push it ahead twice). Default `sum`.
   */
  combine?: 'sum' | 'max';
}

/** Defaults of {@link RrfOptions}. */
export const RRF_DEFAULTS = { k: 60, combine: 'sum' } as const;

/** Options of {@link weightedFusion}. */
export interface WeightedFusionOptions {
  /** Weight of each lane's min-max-normalised score, by `Hit.method`; unknown lanes take `default`. */
  weights?: Readonly<Record<string, number>>;
}

/** docs/design/index-features.md §4 fusion weights (`0.45·dense + 0.35·bm25f`, the rest goes to the rerank's tree prior and intent bonus). */
export const WEIGHTED_FUSION_WEIGHTS: Readonly<Record<string, number>> = {
  'dense.search': 0.45,
  'bm25_node.search': 0.35,
  'table_index.search': 0.35,
  'chart_index.search': 0.35,
  'page_locator.locate': 0.25,
  'figure_finder.find_regions': 0.25,
  default: 0.3,
};

interface Acc {
  hit: Hit;
  bestRank: number;
  score: number;
  lanes: LaneRank[];
  extra: Record<string, unknown>;
}

function fuse(lists: readonly (readonly Hit[])[], contribution: (listIndex: number, rank: number, hit: Hit, list: readonly Hit[]) => number, combine: 'sum' | 'max' = 'sum'): Hit[] {
  const acc = new Map<string, Acc>();
  lists.forEach((list, li) => {
    const seen = new Set<string>();
    let rank = 0;
    for (const hit of list) {
      if (seen.has(hit.node_id)) continue;
      seen.add(hit.node_id);
      rank++;
      const add = contribution(li, rank, hit, list);
      const lane: LaneRank = { method: hit.method, rank, score_raw: hit.score_raw };
      const previous = acc.get(hit.node_id);
      if (!previous) {
        acc.set(hit.node_id, { hit, bestRank: rank, score: add, lanes: [lane], extra: { ...hit.extra } });
        continue;
      }
      previous.score = combine === 'max' ? Math.max(previous.score, add) : previous.score + add;
      previous.lanes.push(lane);
      previous.extra = { ...hit.extra, ...previous.extra };
      if (rank < previous.bestRank) {
        previous.bestRank = rank;
        previous.hit = hit;
      }
    }
  });
  return [...acc.values()]
    .sort((a, b) => b.score - a.score || a.bestRank - b.bestRank || a.hit.node_id.localeCompare(b.hit.node_id))
    .map(({ hit, score, lanes, extra }) => ({
      ...hit,
      score,
      extra: { ...extra, ...hit.extra, via: [...new Set(lanes.map((l) => l.method))], lanes, fused: score },
    }));
}

/**
 * Reciprocal rank fusion: each lane's hits (best first) add `weight / (k + rank)` to their node; nodes are returned
 * best first with `score` set to the sum, the snippet and fields of the lane that ranked them best, and
 * `extra.via` (contributing lanes), `extra.lanes` (`{method, rank, score_raw}` per lane) and `extra.fused`.
 *
 * @example
 * ```ts
 * reciprocalRankFusion([[a, b], [b, c]]); // b: 1/62 + 1/61, a: 1/61, c: 1/62
 * ```
 */
export function reciprocalRankFusion(lists: readonly (readonly Hit[])[], options: RrfOptions = {}): Hit[] {
  const { k, weights, combine } = { ...RRF_DEFAULTS, ...options };
  return fuse(lists, (_li, rank, hit) => (weights?.[hit.method] ?? 1) / (k + rank), combine);
}

/**
 * Weighted score fusion (docs/design/index-features.md §4): each lane's raw scores are min-max normalised to 0..1 (a lone hit gets 1) and
 * summed with per-lane weights. Same output fields as {@link reciprocalRankFusion}.
 */
export function weightedFusion(lists: readonly (readonly Hit[])[], options: WeightedFusionOptions = {}): Hit[] {
  const weights = { ...WEIGHTED_FUSION_WEIGHTS, ...options.weights };
  const ranges = lists.map((list) => {
    const scores = list.map((h) => h.score_raw);
    return { min: Math.min(...scores), max: Math.max(...scores) };
  });
  return fuse(lists, (li, _rank, hit) => {
    const { min, max } = ranges[li]!;
    const norm = max > min ? (hit.score_raw - min) / (max - min) : 1;
    return (weights[hit.method] ?? weights['default'] ?? 0.3) * norm;
  });
}
