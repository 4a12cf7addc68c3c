import type { Hit, RetrieveRequest, SparseDoc, SparseField, SparseHit } from '@doctree/schema';
import { BaseRetriever } from '@doctree/index';
import type { BaseRetrieverOptions, DocIndex } from '@doctree/index';
import { navigatorFor, type DocNavigator } from '../navigation/doc-navigator.js';
import { nodeHit, shorten } from '../hits/node-hit.js';
import { createLaneCheckpoint } from './lane-checkpoint.js';

/** Which sparse indexes a BM25 search reads: `coarse` (sections, figures, tables) and/or `leaf` (paragraphs…). */
export type SparseSource = 'coarse' | 'leaf';

/** Options of the {@link Bm25NodeRetriever} constructor. */
export interface Bm25NodeRetrieverOptions extends BaseRetrieverOptions {
  /** Sparse indexes searched. Default both. */
  sources?: readonly SparseSource[];
  /** Per-field BM25F boosts over the index's own (e.g. `{ labels: 5 }`). Default none. */
  boosts?: Partial<Record<SparseField, number>>;
  /** Candidates fetched per index, as a multiple of `k` (chunks of one node collapse into it). Default 3. */
  overfetch?: number;
}

/** Defaults of {@link Bm25NodeRetrieverOptions}. */
export const BM25_NODE_RETRIEVER_DEFAULTS: Required<Pick<Bm25NodeRetrieverOptions, 'sources' | 'overfetch'>> = {
  sources: ['coarse', 'leaf'],
  overfetch: 3,
};

/**
 * The `bm25_node.search` lane: BM25F over the sparse coarse docs (section headings/paths/child labels/schemas,
 * figure and table titles, captions, schemas, labels) and leaf docs (paragraph text), merged at node level — a node's
 * score is its best record's (leaf chunks `t_2#c0` collapse into `t_2`, keeping the matching chunk as snippet). Role and
 * page filters are applied inside the search, so `k` hits come back even when most of the document is filtered out.
 * `extra` carries `source`, `record_id` and `matched` (query terms per BM25F field) for the rerank features.
 */
export class Bm25NodeRetriever extends BaseRetriever {
  readonly name = 'bm25_node.search';
  readonly #nav: DocNavigator;
  readonly #options: Omit<Bm25NodeRetrieverOptions, keyof BaseRetrieverOptions> & typeof BM25_NODE_RETRIEVER_DEFAULTS;

  constructor(
    readonly index: DocIndex,
    options: Bm25NodeRetrieverOptions = {},
  ) {
    const { validateHits, onRetrieve, ...own } = options;
    super({ ...(validateHits !== undefined ? { validateHits } : {}), ...(onRetrieve ? { onRetrieve } : {}) });
    this.#nav = navigatorFor(index);
    this.#options = { ...BM25_NODE_RETRIEVER_DEFAULTS, ...own };
  }

  protected async _retrieve(request: RetrieveRequest): Promise<Hit[]> {
    const roles = request.roles && request.roles.length > 0 ? new Set(request.roles) : undefined;
    const pages = request.pageIdx && request.pageIdx.length > 0 ? new Set(request.pageIdx) : undefined;
    const filter = roles || pages ? (doc: SparseDoc): boolean => (!roles || roles.has(doc.role)) && (!pages || pages.has(doc.filters.page_idx ?? -1)) : undefined;
    const k = request.k * this.#options.overfetch + 10;
    const search = (source: SparseSource): Array<SparseHit & { source: SparseSource }> => {
      if (!this.#options.sources.includes(source)) return [];
      const index = source === 'coarse' ? this.index.sparseCoarse : this.index.sparseLeaf;
      return index
        .search(request.query, { k, ...(filter ? { filter } : {}), ...(this.#options.boosts ? { boosts: this.#options.boosts } : {}) })
        .map((h) => ({ ...h, source }));
    };
    // each source is searched as its own stretch (the event loop runs between them; an abort stops the lane)
    const checkpoint = createLaneCheckpoint(request.signal);
    const found: Array<SparseHit & { source: SparseSource }> = [];
    for (const source of ['coarse', 'leaf'] as const) {
      await checkpoint();
      found.push(...search(source));
    }
    await checkpoint();
    const best = new Map<string, SparseHit & { source: SparseSource }>();
    for (const hit of found) {
      const nodeId = hit.id.split('#')[0]!;
      const previous = best.get(nodeId);
      if (!previous || hit.score > previous.score) best.set(nodeId, hit);
    }
    const hits: Hit[] = [];
    const ranked = [...best].sort((a, b) => b[1].score - a[1].score).slice(0, request.k);
    for (const [nodeId, hit] of ranked) {
      const node = this.#nav.node(nodeId);
      if (!node) continue;
      const chunk = hit.id.includes('#c') ? this.index.denseLeaf.get(hit.id)?.raw_text : undefined;
      hits.push(
        nodeHit(this.#nav, node, {
          method: this.name,
          score: hit.score,
          ...(chunk ? { snippet: shorten(chunk) } : {}),
          extra: { source: hit.source, record_id: hit.id, matched: hit.matched },
        }),
      );
    }
    return hits;
  }
}
