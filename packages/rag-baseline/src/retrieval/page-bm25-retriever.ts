import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { analyzeText, BASE_RETRIEVER_DEFAULTS, BaseRetriever, MiniSearchSparseIndex } from '@doctree/index';
import type { BaseRetrieverOptions, SparseBm25Params } from '@doctree/index';
import { DocTreeError, DocTreeSchema, pageFromIndex, parseWith } from '@doctree/schema';
import type { BBox, DocTree, Hit, RetrieveRequest } from '@doctree/schema';
import { pageUnits, ragParentId, type PageUnit } from '../chunking/chunk-doc-tree.js';
import { definedOnly } from '../options.js';
import { aggregatePages, type PageRanker, type RankedPage } from './ranked-pages.js';

/** Options of {@link PageBm25Retriever}. */
export interface PageBm25RetrieverOptions extends BaseRetrieverOptions {
  /** BM25 parameters (MiniSearch BM25+: k, b, d). Default MiniSearch's (k 1.2, b 0.7, d 0.5). */
  bm25?: Partial<SparseBm25Params>;
  /** Pages {@link PageBm25Retriever.rankPages} returns when no `k` is given. Default 50. */
  pages?: number;
}

/** Defaults of {@link PageBm25RetrieverOptions}. */
export const PAGE_BM25_RETRIEVER_DEFAULTS = {
  ...BASE_RETRIEVER_DEFAULTS,
  pages: 50,
} as const satisfies Partial<PageBm25RetrieverOptions>;

const SNIPPET_CHARS = 300;

interface IndexedPage {
  parentId: string;
  pageIdx: number;
  units: PageUnit[];
  /** Analysed terms of each unit, for naming the hit after the unit that matches best. */
  unitTerms: Array<Set<string>>;
}

/**
 * The "BM25 over pages" reference: one BM25 document per page holding the page's full text (every node's own text,
 * headings included), no embeddings, no structure. Searched with the minisearch sparse index and analyser of
 * `@doctree/index`. A hit stands for a page (`modality: 'page'`, `extra.role: 'page'`); it is named after the node
 * on the page that matches most query terms (`t_12#p003`), so that it can be shown and cited like other hits.
 *
 * @example
 * ```ts
 * const bm25 = await PageBm25Retriever.fromDocDir('data/default/3M_2018_10K');
 * const pages = await bm25.rankPages('capital expenditures 2018', { k: 10 });  // [{ page: 60, score, … }, …]
 * ```
 */
export class PageBm25Retriever extends BaseRetriever implements PageRanker {
  readonly name = 'bm25_page.search';
  readonly docId: string;
  readonly #sparse: MiniSearchSparseIndex;
  readonly #pages = new Map<string, IndexedPage>();
  readonly #defaultPages: number;

  /** Indexes every page of the tree that has text. */
  constructor(tree: DocTree, options: PageBm25RetrieverOptions = {}) {
    super(options);
    const o = { ...PAGE_BM25_RETRIEVER_DEFAULTS, ...definedOnly(options) };
    if (!Number.isInteger(o.pages) || o.pages < 1) throw new DocTreeError('CONFIG_INVALID', `pages must be a positive integer, got ${String(o.pages)}`);
    this.#defaultPages = o.pages;
    this.docId = tree.doc.doc_id;
    this.#sparse = new MiniSearchSparseIndex(options.bm25 ? { bm25: options.bm25 } : {});
    const docs = [];
    for (const [pageIdx, units] of pageUnits(tree)) {
      const parentId = ragParentId(tree.doc.doc_id, pageIdx);
      const texts = units.map((u) => tree.text.slice(u.start, u.end));
      this.#pages.set(parentId, { parentId, pageIdx, units, unitTerms: texts.map((t) => new Set(analyzeText(t))) });
      docs.push({ id: parentId, role: 'section' as const, body: texts.join('\n\n'), filters: { page_idx: pageIdx } });
    }
    this.#sparse.add(docs);
  }

  /**
   * Reads and validates `<docDir>/doctree.mm.json` and indexes its pages.
   *
   * @throws DocTreeError `INPUT_NOT_FOUND` (no tree), `SCHEMA_INVALID` (not a valid DocTree).
   */
  static async fromDocDir(docDir: string, options: PageBm25RetrieverOptions = {}): Promise<PageBm25Retriever> {
    const file = join(docDir, 'doctree.mm.json');
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (cause) {
      throw new DocTreeError('INPUT_NOT_FOUND', 'no doctree.mm.json in this folder', { file, cause, hint: 'Run `doctree ingest <file>` first.' });
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (cause) {
      throw new DocTreeError('SCHEMA_INVALID', `doctree.mm.json is not valid JSON: ${(cause as Error).message}`, { file, cause });
    }
    return new PageBm25Retriever(parseWith(DocTreeSchema, json, { file, what: 'DocTree' }), options);
  }

  /** Ranks the document's pages by BM25 (up to `k`, default the `pages` option). */
  async rankPages(query: string, options: { k?: number; signal?: AbortSignal } = {}): Promise<RankedPage[]> {
    const hits = await this.retrieve({ query, k: options.k ?? this.#defaultPages, ...(options.signal ? { signal: options.signal } : {}) });
    return aggregatePages(hits, 'max');
  }

  protected async _retrieve(request: RetrieveRequest): Promise<Hit[]> {
    const pages = request.pageIdx && request.pageIdx.length > 0 ? new Set(request.pageIdx) : undefined;
    const results = this.#sparse.search(request.query, { k: request.k, ...(pages ? { filter: (doc) => pages.has(doc.filters.page_idx ?? -1) } : {}) });
    return results.map((result) => {
      const page = this.#pages.get(result.id)!;
      const matched = new Set(Object.values(result.matched).flat());
      let best = 0;
      let bestCount = -1;
      page.unitTerms.forEach((terms, i) => {
        let count = 0;
        for (const term of matched) if (terms.has(term)) count++;
        if (count > bestCount) {
          bestCount = count;
          best = i;
        }
      });
      const unit = page.units[best]!;
      const text = unit.node.text.trim();
      const box = unit.node.bboxes.find((b) => b.page_idx === page.pageIdx)?.bbox ?? null;
      return {
        eid: page.parentId,
        doc_id: this.docId,
        page_idx: page.pageIdx,
        node_id: `${unit.node.node_id}#p${String(pageFromIndex(page.pageIdx)).padStart(3, '0')}`,
        modality: 'page' as const,
        snippet: text.length > SNIPPET_CHARS ? `${text.slice(0, SNIPPET_CHARS - 1)}…` : text,
        bbox: box as BBox | null,
        score_raw: result.score,
        method: this.name,
        extra: { role: 'page', parent_id: page.parentId, matched: [...matched] },
      };
    });
  }
}
