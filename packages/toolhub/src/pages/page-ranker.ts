import { pageFromIndex } from '@doctree/schema';
import type { Hit } from '@doctree/schema';
import type { PageLaneName, PageScore } from './page-view.js';
import { DEFAULT_PAGE_RANKER_MODEL } from './page-ranker-model.js';
import { PAGE_FEATURES, parsePageRankerModel, type PageFeature, type PageRankerModel } from './page-ranker-schema.js';

/** Node lanes and the page feature each one feeds. */
const LANE_FEATURES: ReadonlyMap<string, PageFeature> = new Map([
  ['bm25_node.search', 'bm25_node_rr'],
  ['dense.search', 'dense_rr'],
  ['table_index.search', 'table_rr'],
  ['chart_index.search', 'chart_rr'],
  ['page_locator.locate', 'locator_rr'],
  ['figure_finder.find_regions', 'figure_rr'],
]);

/** What the page ranker reads for one question. */
export interface PageRankInput {
  /** The page lanes' results over the whole document (see `PageView.search`). */
  pageLanes: Partial<Record<PageLaneName, readonly PageScore[]>>;
  /** Every node lane call of the retrieval (all stages), by tool id. */
  nodeLanes: ReadonlyArray<{ method: string; hits: readonly Hit[] }>;
  /** The fused node ranking of the retrieval, best first. */
  fused: readonly Hit[];
  /** 1-based pages of the evidence pack. */
  packPages: readonly number[];
  /** 1-based pages the answer cites. */
  supportPages: readonly number[];
  /** 1-based pages the question names. */
  pageHints: readonly number[];
}

/** One ranked page with the features that placed it (the trace shows them). */
export interface RankedPageEvidence {
  /** 1-based page. */
  page: number;
  score: number;
  features: Record<PageFeature, number>;
}

/** Options of {@link PageRanker}. */
export interface PageRankerOptions {
  /** The linear model. Default {@link DEFAULT_PAGE_RANKER_MODEL} (fitted on dev + wide, see its `fitted`). */
  model?: PageRankerModel;
}

/** A row of zeros to copy (spreading a small object is far cheaper than building it from entries per page). */
const ZERO_ROW = Object.freeze(Object.fromEntries(PAGE_FEATURES.map((f) => [f, 0]))) as Readonly<Record<PageFeature, number>>;

/** Reciprocal rank of a 0-based rank. */
const rr = (rank: number): number => 1 / (1 + rank);

/** 1-based pages of hits in first-seen order. */
function pageOrder(hits: readonly Hit[]): number[] {
  const out: number[] = [];
  const seen = new Set<number>();
  for (const hit of hits) {
    const page = pageFromIndex(hit.page_idx);
    if (!seen.has(page)) {
      seen.add(page);
      out.push(page);
    }
  }
  return out;
}

/**
 * Ranks a document's pages for a question from every lane at once: the page lanes over the whole document (so a page
 * a lane ranked high stays a candidate whatever a plan's scoping hid), each node lane's best rank on the page (a lane
 * counts once per page, however many of its nodes or stages hit it), the fused node ranking, the evidence pack, the
 * answer's support and the pages the question names. The score is a linear model over {@link PAGE_FEATURES} whose
 * weights are fitted on questions (cross-validated by document; `tools/fit/fit-page-ranker.mjs` refits them on your
 * own questions).
 *
 * @example
 * ```ts
 * const ranker = new PageRanker();
 * const pages = ranker.rank({ pageLanes: await pageViewFor(index).search(q), nodeLanes, fused, packPages, supportPages, pageHints: [] });
 * ```
 */
export class PageRanker {
  readonly model: PageRankerModel;
  readonly #weights: Array<[PageFeature, number]>;

  /** @throws DocTreeError `SCHEMA_INVALID` for a malformed model. */
  constructor(options: PageRankerOptions = {}) {
    this.model = parsePageRankerModel(options.model ?? DEFAULT_PAGE_RANKER_MODEL);
    const weights = new Map(Object.entries(this.model.weights));
    this.#weights = PAGE_FEATURES.map((f) => [f, weights.get(f) ?? 0]);
  }

  /** Features of every candidate page (any page some input names), unscored. */
  features(input: PageRankInput): Map<number, Record<PageFeature, number>> {
    const pages = new Map<number, Record<PageFeature, number>>();
    const row = (page: number): Record<PageFeature, number> => {
      let r = pages.get(page);
      if (!r) {
        r = { ...ZERO_ROW };
        pages.set(page, r);
      }
      return r;
    };
    const raise = (page: number, feature: PageFeature, value: number): void => {
      const r = row(page);
      if (value > r[feature]) r[feature] = value;
    };
    const top5 = new Map<number, number>();
    let laneCount = 0;
    const countTop5 = (order: readonly number[]): void => {
      if (order.length === 0) return;
      laneCount++;
      for (const page of order.slice(0, 5)) top5.set(page, (top5.get(page) ?? 0) + 1);
    };
    for (const lane of ['page_text', 'page_structure', 'page_dense'] as const) {
      const list = input.pageLanes[lane] ?? [];
      const best = list[0]?.score ?? 0;
      list.forEach((p, rank) => {
        const page = pageFromIndex(p.pageIdx);
        raise(page, `${lane}_rr`, rr(rank));
        raise(page, `${lane}_norm`, best > 0 ? Math.max(0, p.score) / best : 0);
      });
      countTop5(list.map((p) => pageFromIndex(p.pageIdx)));
    }
    for (const lane of input.nodeLanes) {
      const feature = LANE_FEATURES.get(lane.method) ?? 'other_lane_rr';
      const order = pageOrder(lane.hits);
      order.forEach((page, rank) => raise(page, feature, rr(rank)));
      countTop5(order);
    }
    pageOrder(input.fused).forEach((page, rank) => raise(page, 'fused_rr', rr(rank)));
    for (const page of input.packPages) raise(page, 'pack', 1);
    for (const page of input.supportPages) raise(page, 'support', 1);
    for (const page of input.pageHints) raise(page, 'hint', 1);
    for (const [page, count] of top5) row(page).lanes_top5 = laneCount > 0 ? count / laneCount : 0;
    for (const p of input.pageLanes.page_coverage ?? []) raise(pageFromIndex(p.pageIdx), 'coverage', p.score);
    for (const p of input.pageLanes.page_years ?? []) raise(pageFromIndex(p.pageIdx), 'year_match', p.score);
    // A page next to one a page lane ranked high (a table or an argument continued over the page break).
    for (const [lane, feature] of [['page_text', 'neighbor_text_rr'], ['page_dense', 'neighbor_dense_rr']] as const) {
      (input.pageLanes[lane] ?? []).slice(0, 10).forEach((p, rank) => {
        const page = pageFromIndex(p.pageIdx);
        for (const next of [page - 1, page + 1]) if (pages.has(next)) raise(next, feature, rr(rank));
      });
    }
    for (const [page, r] of pages) r.early_page = page <= 3 ? 1 : 0;
    return pages;
  }

  /** Scores a feature row with the model. */
  score(features: Record<PageFeature, number>): number {
    let s = 0;
    for (const [f, w] of this.#weights) s += w * features[f];
    return s;
  }

  /** Candidate pages, best first (ties: the lower page first). */
  rank(input: PageRankInput): RankedPageEvidence[] {
    return [...this.features(input)]
      .map(([page, features]) => ({ page, score: this.score(features), features }))
      .sort((a, b) => b.score - a.score || a.page - b.page);
  }
}
