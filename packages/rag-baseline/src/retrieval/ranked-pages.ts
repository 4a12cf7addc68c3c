import { DocTreeError, pageFromIndex } from '@doctree/schema';
import type { Hit } from '@doctree/schema';

/** How child scores combine into a page score: the best child (`max`) or all retrieved children (`sum`). */
export type PageAggregation = 'max' | 'sum';

/** One page of a ranking, best first (what evidence-page recall@k is computed on). */
export interface RankedPage {
  /** 1-based page, as in eval data. */
  page: number;
  /** 0-based page. */
  page_idx: number;
  /** `<doc_id>:p<NNN>`. */
  parent_id: string;
  /** Aggregated score (comparable within one ranking only). */
  score: number;
  /** Node ids of the hits that made the page, best first. */
  node_ids: string[];
}

/** Anything that ranks the pages of a document for a query: the RAG retriever and the BM25-over-pages reference. */
export interface PageRanker {
  /** Stable name of the ranker (its `Hit.method`). */
  readonly name: string;
  /** Returns up to `k` pages, best first. */
  rankPages(query: string, options?: { k?: number; signal?: AbortSignal }): Promise<RankedPage[]>;
}

/**
 * Groups hits by their parent page (`extra.parent_id`, else `page_idx`) and scores each page with the best hit
 * (`max`) or the sum of its hits (`sum`). Pages are sorted by score, ties by the rank of their best hit.
 *
 * @throws DocTreeError `USAGE` for an unknown aggregation.
 */
export function aggregatePages(hits: readonly Hit[], aggregation: PageAggregation = 'max'): RankedPage[] {
  if (aggregation !== 'max' && aggregation !== 'sum') {
    throw new DocTreeError('USAGE', `page aggregation must be "max" or "sum", got ${JSON.stringify(aggregation)}`);
  }
  const pages = new Map<string, RankedPage & { firstRank: number }>();
  hits.forEach((hit, rank) => {
    const parentId = typeof hit.extra['parent_id'] === 'string' ? hit.extra['parent_id'] : `${hit.doc_id}:p${String(pageFromIndex(hit.page_idx)).padStart(3, '0')}`;
    const page = pages.get(parentId);
    if (!page) {
      pages.set(parentId, { page: pageFromIndex(hit.page_idx), page_idx: hit.page_idx, parent_id: parentId, score: hit.score_raw, node_ids: [hit.node_id], firstRank: rank });
      return;
    }
    page.node_ids.push(hit.node_id);
    page.score = aggregation === 'max' ? Math.max(page.score, hit.score_raw) : page.score + hit.score_raw;
  });
  return [...pages.values()]
    .sort((a, b) => b.score - a.score || a.firstRank - b.firstRank)
    .map(({ firstRank: _firstRank, ...page }) => page);
}
