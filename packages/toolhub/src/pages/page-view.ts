import type { DocIndex } from '@doctree/index';
import { analyzeQuery, analyzeText, findYears, MiniSearchSparseIndex } from '@doctree/index';
import type { DocTreeNode, SparseDoc } from '@doctree/schema';
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
  /** Analysed terms of each page's text fields, by 0-based page. */
  readonly #terms = new Map<number, ReadonlySet<string>>();
  /** Years written on each page, by 0-based page. */
  readonly #years = new Map<number, ReadonlySet<number>>();
  /** Pages holding each term. */
  readonly #df = new Map<string, number>();

  constructor(index: DocIndex) {
    this.index = index;
    this.#nav = navigatorFor(index);
    this.#sparse = new MiniSearchSparseIndex({ boosts: { ...TEXT_BOOSTS, ...STRUCTURE_BOOSTS, body: 1 } });
    const docs: SparseDoc[] = [];
    for (const [pageIdx, nodes] of this.#nodesByPage()) {
      const doc = this.#pageDoc(pageIdx, nodes);
      if (!doc) continue;
      docs.push(doc);
      const text = [doc.body, doc.heading, doc.headings_path, doc.caption].filter(Boolean).join('\n');
      const terms = new Set(analyzeText(text));
      this.#terms.set(pageIdx, terms);
      for (const term of terms) this.#df.set(term, (this.#df.get(term) ?? 0) + 1);
      this.#years.set(pageIdx, new Set(findYears(text)));
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
    return this.#sparse.search(query, { k, boosts }).map((hit) => ({ pageIdx: Number(hit.id.slice(1)) - 1, score: hit.score }));
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

  /** IDF-weighted share of the query's terms on each page (pages with none are left out), best first. */
  #coverageLane(query: string): PageScore[] {
    const terms = analyzeQuery(query);
    const n = Math.max(1, this.size);
    const idf = terms.map((t) => Math.log(1 + n / (1 + (this.#df.get(t) ?? 0))));
    const total = idf.reduce((a, b) => a + b, 0);
    if (total <= 0) return [];
    const out: PageScore[] = [];
    for (const [pageIdx, have] of this.#terms) {
      let s = 0;
      terms.forEach((t, i) => {
        if (have.has(t)) s += idf[i]!;
      });
      if (s > 0) out.push({ pageIdx, score: s / total });
    }
    return out.sort((a, b) => b.score - a.score || a.pageIdx - b.pageIdx);
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
   * Searches every page lane for the query over the whole document: `page_text` (BM25 over page text),
   * `page_structure` (BM25F over the headings, section paths and captions of the page) and `page_dense` (best cosine
   * of the page's records; empty without a query embedder).
   */
  async search(query: string, options: PageSearchOptions = {}): Promise<Record<PageLaneName, PageScore[]>> {
    const o = { ...PAGE_SEARCH_DEFAULTS, ...options };
    return {
      page_text: this.#sparseLane(query, TEXT_BOOSTS, o.k),
      page_structure: this.#sparseLane(query, STRUCTURE_BOOSTS, o.k),
      page_dense: await this.#denseLane(query, o),
      page_coverage: this.#coverageLane(query),
      page_years: this.#yearsLane(query),
    };
  }
}

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
