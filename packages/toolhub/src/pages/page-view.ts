import type { DocIndex } from '@doctree/index';
import { analyzeQuery } from '@doctree/index';
import { findYears } from '@doctree/schema';
import type { SparseHit, SparseIndex } from '@doctree/schema';
import { navigatorFor, type DocNavigator } from '../navigation/doc-navigator.js';

/** One page of a {@link PageView} search: 0-based `pageIdx` and the lane's score (higher is better). */
export interface PageScore {
  pageIdx: number;
  score: number;
}

/**
 * The page lanes {@link PageView} answers: BM25 over page text, BM25 over page structure, dense over the page's
 * records, and two page signals: `page_coverage` (IDF-weighted share of the query's terms found on the page) and
 * `page_years` (share of the years the query names found on the page).
 */
export type PageLaneName = 'page_text' | 'page_structure' | 'page_dense' | 'page_coverage' | 'page_years';

/** Options of {@link PageView.search}. */
export interface PageSearchOptions {
  /** Pages returned per lane. Default 50. */
  k?: number;
  /** Leaf vectors read for the dense page lane (aggregated by page). Default 400. */
  denseRecords?: number;
  signal?: AbortSignal;
}

/** Defaults of {@link PageSearchOptions}. */
export const PAGE_SEARCH_DEFAULTS = { k: 50, denseRecords: 400 } as const;

/** Text fields of a page document: its own text, the headings that start on it or frame it, its captions. */
const TEXT_BOOSTS = { body: 1, heading: 0, headings_path: 0, caption: 0, title: 0, caption_bag: 0 } as const;
const STRUCTURE_BOOSTS = { body: 0, heading: 2, headings_path: 1, caption: 1.5, title: 0, caption_bag: 0 } as const;

/**
 * Pages as a first-class view of a document index: every page is one BM25F document (fields `body` = the text of the
 * nodes whose text starts on the page, headings included, `heading` = headings of sections starting there,
 * `headings_path` = the section paths of its nodes, `caption` = figure and table captions on it), searched over the
 * whole document whatever a plan's scoping, plus a dense page score (the best cosine of the page's leaf, table and
 * figure records for the query). The page documents and the years of each page are built with the index
 * (`buildPageRecords` of `@doctree/index`) and loaded with it (`index.sparsePages`, `index.pageYears`): a view costs
 * nothing to make. {@link pageViewFor} shares one per index.
 *
 * @example
 * ```ts
 * const pages = pageViewFor(index);
 * const lanes = await pages.search('capital expenditures 2023');   // { page_text: [{ pageIdx, score }…], … }
 * ```
 */
export class PageView {
  readonly index: DocIndex;
  readonly #nav: DocNavigator;
  readonly #sparse: SparseIndex;
  /** Page count with any text. */
  readonly size: number;
  /** Years written on each page with text, by 0-based page, pages ascending. */
  readonly #years = new Map<number, ReadonlySet<number>>();
  /** Every year written on some page. */
  readonly #allYears = new Set<number>();
  /** The last query's text-lane search over every page and its term weights (the coverage and absence signals reuse them). */
  #last: { query: string; hits: SparseHit[]; weights: Map<string, number>; df: Map<string, number> } | undefined;

  constructor(index: DocIndex) {
    this.index = index;
    this.#nav = navigatorFor(index);
    this.#sparse = index.sparsePages;
    for (const [pageIdx, years] of index.pageYears) {
      this.#years.set(pageIdx, new Set(years));
      for (const year of years) this.#allYears.add(year);
    }
    this.size = this.#sparse.size;
  }

  /** BM25F over the pages with the given field boosts, best first. */
  #sparseLane(query: string, boosts: Record<string, number>, k: number): PageScore[] {
    return toPageScores(this.#sparse.search(query, { k, boosts }));
  }

  /**
   * The text lane over every page, with the IDF weights of the query's terms over the pages (`log(1 + n / (1 + df))`,
   * a term found nowhere weighted as one found once: rare, hence telling) and the pages matching each. One search per
   * question: cached for the last query, which the page lanes and the absence signals share.
   */
  #textSearch(query: string): { hits: SparseHit[]; weights: Map<string, number>; df: Map<string, number> } {
    if (this.#last?.query === query) return this.#last;
    const hits = this.#sparse.search(query, { k: Math.max(1, this.size), boosts: TEXT_BOOSTS });
    const df = new Map<string, number>(analyzeQuery(query).map((t) => [t, 0]));
    for (const hit of hits) for (const t of hit.matched.body ?? []) df.set(t, (df.get(t) ?? 0) + 1);
    const n = Math.max(1, this.size);
    const weights = new Map([...df].map(([t, d]) => [t, Math.log(1 + n / (1 + Math.max(1, d)))]));
    this.#last = { query, hits, weights, df };
    return this.#last;
  }

  /** IDF-weighted share of the query's terms on each page (pages with none are left out), best first. */
  #coverageLane(query: string): PageScore[] {
    const { weights, hits } = this.#textSearch(query);
    let total = 0;
    for (const w of weights.values()) total += w;
    if (total <= 0) return [];
    const out = hits.map((hit) => {
      let s = 0;
      for (const t of new Set(hit.matched.body ?? [])) s += weights.get(t) ?? 0;
      return { pageIdx: pageOf(hit.id), score: s / total };
    });
    return out.filter((p) => p.score > 0).sort((a, b) => b.score - a.score || a.pageIdx - b.pageIdx);
  }

  /** Share of the query's years written on each page (empty when the query names no year), best first. */
  #yearsLane(query: string): PageScore[] {
    const years = [...new Set(findYears(query))];
    if (years.length === 0) return [];
    const out: PageScore[] = [];
    for (const [pageIdx, have] of this.#years) {
      const found = years.filter((y) => have.has(y)).length;
      if (found > 0) out.push({ pageIdx, score: found / years.length });
    }
    return out.sort((a, b) => b.score - a.score || a.pageIdx - b.pageIdx);
  }

  /**
   * What the document lacks of a question: `missingTerms`, the IDF-weighted share of the question's terms found on no
   * page (a name, model or product the document never mentions); `missingYears`, the share of the years it names
   * that no page writes; `pagesOutOfRange`, how many of the given 1-based pages lie beyond the document.
   */
  absence(query: string, pages: readonly number[] = []): { missingTerms: number; missingYears: number; pagesOutOfRange: number } {
    const { weights, df } = this.#textSearch(query);
    let total = 0;
    let missing = 0;
    for (const [t, w] of weights) {
      total += w;
      if ((df.get(t) ?? 0) === 0) missing += w;
    }
    const years = [...new Set(findYears(query))];
    const missingYears = years.length === 0 ? 0 : years.filter((y) => !this.#allYears.has(y)).length / years.length;
    const pageCount = this.#nav.pageCount;
    return { missingTerms: total > 0 ? missing / total : 0, missingYears, pagesOutOfRange: pages.filter((p) => p > pageCount || p < 1).length };
  }

  /** Best cosine per page over the leaf and coarse vectors (`denseRecords` nearest records), best first. */
  async #denseLane(query: string, o: Required<Omit<PageSearchOptions, 'signal'>> & { signal?: AbortSignal }): Promise<PageScore[]> {
    const embedder = this.index.embedder;
    if (!embedder || query.trim() === '') return [];
    const vector = await embedder.embedQuery(query, o.signal ? { signal: o.signal } : {});
    const best = new Map<number, number>();
    const take = (pageIdx: number | undefined, score: number): void => {
      if (pageIdx === undefined || !Number.isInteger(pageIdx)) return;
      if (score > (best.get(pageIdx) ?? -Infinity)) best.set(pageIdx, score);
    };
    for (const view of ['leaf_raw', 'coarse'] as const) {
      const vectors = this.index.vectors[view];
      if (vectors.info.size === 0) continue;
      for (const hit of vectors.search(vector, { k: Math.min(o.denseRecords, vectors.info.size) })) {
        if (view === 'coarse') {
          const record = this.index.denseCoarse.get(hit.id);
          // Sections span pages; a section's heading variants stand for the page it starts on only.
          take(record?.filters.page_idx, hit.score);
        } else take(this.index.denseLeaf.get(hit.id)?.filters.page_idx, hit.score);
      }
    }
    return [...best].map(([pageIdx, score]) => ({ pageIdx, score })).sort((a, b) => b.score - a.score || a.pageIdx - b.pageIdx).slice(0, o.k);
  }

  /**
   * Searches every page lane for the query over the whole document: `page_text` (BM25 over page text),
   * `page_structure` (BM25F over the headings, section paths and captions of the page) and `page_dense` (best cosine
   * of the page's records; empty without a query embedder).
   */
  async search(query: string, options: PageSearchOptions = {}): Promise<Record<PageLaneName, PageScore[]>> {
    const o = { ...PAGE_SEARCH_DEFAULTS, ...options };
    return {
      page_text: toPageScores(this.#textSearch(query).hits.slice(0, o.k)),
      page_structure: this.#sparseLane(query, STRUCTURE_BOOSTS, o.k),
      page_dense: await this.#denseLane(query, o),
      page_coverage: this.#coverageLane(query),
      page_years: this.#yearsLane(query),
    };
  }
}

/** 0-based page of a page document id (`P12` is page 12). */
const pageOf = (id: string): number => Number(id.slice(1)) - 1;

/** Sparse hits over page documents as page scores, in their order. */
const toPageScores = (hits: readonly SparseHit[]): PageScore[] => hits.map((hit) => ({ pageIdx: pageOf(hit.id), score: hit.score }));

const VIEWS = new WeakMap<DocIndex, PageView>();

/** The shared {@link PageView} of an index (made on first use, cached while the index lives). */
export function pageViewFor(index: DocIndex): PageView {
  let view = VIEWS.get(index);
  if (!view) {
    view = new PageView(index);
    VIEWS.set(index, view);
  }
  return view;
}
