import type { DocIndex } from '@doctree/index';
import { analyzeQuery, findYears, MiniSearchSparseIndex } from '@doctree/index';
import type { DocTreeNode, SparseDoc, SparseHit } from '@doctree/schema';
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
 * `headings_path` = the section paths of its nodes, `caption` = figure and table captions on it), searched over the whole document whatever a plan's scoping,
 * plus a dense page score (the best cosine of the page's leaf, table and figure records for the query). Built on first
 * use from the loaded index (pages of a 160-page report in ~50 ms) and cached while the index lives
 * ({@link pageViewFor}).
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
  readonly #sparse: MiniSearchSparseIndex;
  /** Page count with any text. */
  readonly size: number;
  /** Text of each page (all fields), by 0-based page, for the years written on it. */
  readonly #texts = new Map<number, string>();
  /** Years written on each page, by 0-based page (computed when first asked). */
  readonly #years = new Map<number, ReadonlySet<number>>();
  /** The last query's text-lane search over every page (the coverage and absence signals reuse it). */
  #last: { query: string; hits: SparseHit[]; terms: string[] } | undefined;

  constructor(index: DocIndex) {
    this.index = index;
    this.#nav = navigatorFor(index);
    this.#sparse = new MiniSearchSparseIndex({ boosts: { ...TEXT_BOOSTS, ...STRUCTURE_BOOSTS, body: 1 } });
    const docs: SparseDoc[] = [];
    for (const [pageIdx, nodes] of this.#nodesByPage()) {
      const doc = this.#pageDoc(pageIdx, nodes);
      if (!doc) continue;
      docs.push(doc);
      this.#texts.set(pageIdx, [doc.body, doc.headings_path, doc.caption].filter(Boolean).join('\n'));
    }
    this.#sparse.add(docs);
    this.size = docs.length;
  }

  /**
   * Nodes by the page their text belongs to, in reading order: a node's text counts on the page of its first box
   * (else the first page of its span), once — a paragraph or table running over a page break is not indexed twice.
   */
  #nodesByPage(): Map<number, DocTreeNode[]> {
    const pages = new Map<number, DocTreeNode[]>();
    for (const node of this.index.tree.nodes) {
      if (node.role === 'document') continue;
      const pageIdx = node.bboxes[0]?.page_idx ?? node.page_span[0];
      const list = pages.get(pageIdx);
      if (list) list.push(node);
      else pages.set(pageIdx, [node]);
    }
    for (const list of pages.values()) list.sort((a, b) => a.read_order - b.read_order);
    return new Map([...pages].sort((a, b) => a[0] - b[0]));
  }

  #pageDoc(pageIdx: number, nodes: readonly DocTreeNode[]): SparseDoc | undefined {
    const body: string[] = [];
    const headings: string[] = [];
    const captions: string[] = [];
    const paths = new Set<string>();
    for (const node of nodes) {
      const text = node.text.trim();
      if (node.role === 'section') {
        if (text) {
          headings.push(text);
          body.push(text);
        }
        continue;
      }
      if (text) body.push(text);
      if (node.role === 'caption' && text) captions.push(text);
      const path = this.#path(node);
      if (path) paths.add(path);
    }
    if (body.length === 0) return undefined;
    return {
      id: `P${pageIdx + 1}`,
      role: 'section',
      body: body.join('\n'),
      ...(headings.length > 0 ? { heading: headings.join('\n') } : {}),
      ...(paths.size > 0 ? { headings_path: [...paths].join('\n') } : {}),
      ...(captions.length > 0 ? { caption: captions.join('\n') } : {}),
      filters: { page_idx: pageIdx },
    };
  }

  /** Titles of the node's enclosing sections, outermost first. */
  #path(node: DocTreeNode): string {
    const titles: string[] = [];
    let section = this.#nav.sectionOf(node);
    for (let depth = 0; section && depth < 8; depth++) {
      const title = section.title ?? '';
      if (title.trim()) titles.unshift(title.trim());
      section = this.#nav.sectionOf(section);
    }
    return titles.join(' > ');
  }

  /** BM25F over the pages with the given field boosts, best first. */
  #sparseLane(query: string, boosts: Record<string, number>, k: number): PageScore[] {
    return this.#sparse.search(query, { k, boosts }).map((hit) => ({ pageIdx: pageOf(hit.id), score: hit.score }));
  }

  /** The text lane over every page, with the query's analysed terms (cached for the last query). */
  #textSearch(query: string): { hits: SparseHit[]; terms: string[] } {
    if (this.#last?.query !== query) this.#last = { query, hits: this.#sparse.search(query, { k: Math.max(1, this.size), boosts: TEXT_BOOSTS }), terms: analyzeQuery(query) };
    return this.#last;
  }

  /**
   * IDF weights of the query's terms over the pages (`log(1 + n / (1 + df))`, a term found nowhere weighted as one found
   * once: rare, hence telling) and the pages matching each, from one search of the text lane over every page.
   */
  #termWeights(query: string): { weights: Map<string, number>; df: Map<string, number>; hits: SparseHit[] } {
    const { hits, terms } = this.#textSearch(query);
    const df = new Map<string, number>(terms.map((t) => [t, 0]));
    for (const hit of hits) for (const t of hit.matched.body ?? []) df.set(t, (df.get(t) ?? 0) + 1);
    const n = Math.max(1, this.size);
    const weights = new Map([...df].map(([t, d]) => [t, Math.log(1 + n / (1 + Math.max(1, d)))]));
    return { weights, df, hits };
  }

  /** IDF-weighted share of the query's terms on each page (pages with none are left out), best first. */
  #coverageLane(query: string): PageScore[] {
    const { weights, hits } = this.#termWeights(query);
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

  #yearsOn(pageIdx: number): ReadonlySet<number> {
    let years = this.#years.get(pageIdx);
    if (!years) {
      years = new Set(findYears(this.#texts.get(pageIdx) ?? ''));
      this.#years.set(pageIdx, years);
    }
    return years;
  }

  /** Share of the query's years written on each page (empty when the query names no year), best first. */
  #yearsLane(query: string): PageScore[] {
    const years = [...new Set(findYears(query))];
    if (years.length === 0) return [];
    const out: PageScore[] = [];
    for (const pageIdx of this.#texts.keys()) {
      const have = this.#yearsOn(pageIdx);
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
    const { weights, df } = this.#termWeights(query);
    let total = 0;
    let missing = 0;
    for (const [t, w] of weights) {
      total += w;
      if ((df.get(t) ?? 0) === 0) missing += w;
    }
    const years = [...new Set(findYears(query))];
    const missingYears = years.length === 0 ? 0 : years.filter((y) => ![...this.#texts.keys()].some((p) => this.#yearsOn(p).has(y))).length / years.length;
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
      page_text: this.#textSearch(query).hits.slice(0, o.k).map((hit) => ({ pageIdx: pageOf(hit.id), score: hit.score })),
      page_structure: this.#sparseLane(query, STRUCTURE_BOOSTS, o.k),
      page_dense: await this.#denseLane(query, o),
      page_coverage: this.#coverageLane(query),
      page_years: this.#yearsLane(query),
    };
  }
}

/** 0-based page of a page document id (`P12` is page 12). */
const pageOf = (id: string): number => Number(id.slice(1)) - 1;

const VIEWS = new WeakMap<DocIndex, PageView>();

/** The shared {@link PageView} of an index (built on first use, cached while the index lives). */
export function pageViewFor(index: DocIndex): PageView {
  let view = VIEWS.get(index);
  if (!view) {
    view = new PageView(index);
    VIEWS.set(index, view);
  }
  return view;
}
