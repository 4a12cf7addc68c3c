import { DocTreeError } from '@doctree/schema';
import type { Hit, RetrieveRequest, SectionVariant } from '@doctree/schema';
import { BaseRetriever, VECTOR_VIEWS } from '@doctree/index';
import type { BaseRetrieverOptions, DocIndex, VectorView } from '@doctree/index';
import { navigatorFor, type DocNavigator } from '../navigation/doc-navigator.js';
import { createLaneCheckpoint } from './lane-checkpoint.js';
import { nodeHit, shorten } from '../hits/node-hit.js';

/** Options of the {@link DenseRetriever} constructor. */
export interface DenseRetrieverOptions extends BaseRetrieverOptions {
  /** Vector views searched: `coarse` (section variants, figures, tables), `leaf` (contextual leaf summaries), `leaf_raw` (leaf text). Default all three. */
  views?: readonly VectorView[];
  /** Section variants kept from the coarse view (`heading`, `gist`, `child`, `path`). Default all. */
  variants?: readonly SectionVariant[];
  /** Candidates fetched per view, as a multiple of `k` (variants and chunks of one node collapse into it). Default 4. */
  overfetch?: number;
}

/** Defaults of {@link DenseRetrieverOptions}. */
export const DENSE_RETRIEVER_DEFAULTS: Required<Pick<DenseRetrieverOptions, 'views' | 'overfetch'>> = {
  views: VECTOR_VIEWS,
  overfetch: 4,
};

interface RecordInfo {
  nodeId: string;
  role: string;
  pageIdx: number;
  variant?: SectionVariant;
  text: string;
}

/**
 * The `dense.search` lane: embeds the query with the index's embedder and searches the chosen vector views; a node
 * scores its best record's cosine (section variants `sec_3#h|#g|#c|#p` and leaf chunks collapse into the node).
 * Filters apply inside the vector search. `extra` carries `view`, `record_id` and, for sections, `variant`.
 *
 * @throws DocTreeError `BACKEND_UNAVAILABLE` when the index was loaded without a query embedder.
 */
export class DenseRetriever extends BaseRetriever {
  readonly name = 'dense.search';
  readonly #nav: DocNavigator;
  readonly #options: Omit<DenseRetrieverOptions, keyof BaseRetrieverOptions> & typeof DENSE_RETRIEVER_DEFAULTS;

  constructor(
    readonly index: DocIndex,
    options: DenseRetrieverOptions = {},
  ) {
    const { validateHits, onRetrieve, ...own } = options;
    super({ ...(validateHits !== undefined ? { validateHits } : {}), ...(onRetrieve ? { onRetrieve } : {}) });
    this.#nav = navigatorFor(index);
    this.#options = { ...DENSE_RETRIEVER_DEFAULTS, ...own };
  }

  #record(view: VectorView, id: string): RecordInfo | undefined {
    if (view === 'coarse') {
      const r = this.index.denseCoarse.get(id);
      if (!r) return undefined;
      const nodeId = id.split('#')[0]!;
      const node = this.#nav.node(nodeId);
      return {
        nodeId,
        role: node?.role ?? r.role,
        pageIdx: r.filters.page_idx ?? node?.page_span[0] ?? 0,
        ...(r.variant ? { variant: r.variant } : {}),
        text: r.dense_text,
      };
    }
    const r = this.index.denseLeaf.get(id);
    if (!r) return undefined;
    return { nodeId: r.orig_node_id, role: r.role, pageIdx: r.filters.page_idx ?? 0, text: view === 'leaf_raw' ? r.raw_text : r.dense_text };
  }

  protected async _retrieve(request: RetrieveRequest): Promise<Hit[]> {
    const embedder = this.index.embedder;
    if (!embedder) {
      throw new DocTreeError('BACKEND_UNAVAILABLE', 'dense.search needs the query embedder, but the index was loaded without one', {
        hint: 'Load the index with the embedder it was built with (loadDocIndex(dir, { embedder })).',
      });
    }
    if (request.query.trim().length === 0) return [];
    const vector = await embedder.embedQuery(request.query, request.signal ? { signal: request.signal } : {});
    const roles = request.roles && request.roles.length > 0 ? new Set(request.roles) : undefined;
    const pages = request.pageIdx && request.pageIdx.length > 0 ? new Set(request.pageIdx) : undefined;
    const variants = this.#options.variants && this.#options.variants.length > 0 ? new Set(this.#options.variants) : undefined;
    const k = request.k * this.#options.overfetch + 10;
    const best = new Map<string, { score: number; view: VectorView; id: string; info: RecordInfo }>();
    // each view is searched as its own stretch (the event loop runs between them; an abort stops the lane)
    const checkpoint = createLaneCheckpoint(request.signal);
    for (const view of this.#options.views) {
      await checkpoint();
      const index = this.index.vectors[view];
      if (index.info.size === 0) continue;
      // A filtered search may test the same ids again as it fetches more: each record is looked up once.
      const infos = new Map<string, RecordInfo | undefined>();
      const record = (id: string): RecordInfo | undefined => {
        if (infos.has(id)) return infos.get(id);
        const info = this.#record(view, id);
        infos.set(id, info);
        return info;
      };
      const keep = (id: string): boolean => {
        const info = record(id);
        if (!info) return false;
        if (roles && !roles.has(info.role)) return false;
        if (pages && !pages.has(info.pageIdx)) return false;
        if (variants && info.variant && !variants.has(info.variant)) return false;
        return true;
      };
      const filtering = roles !== undefined || pages !== undefined || variants !== undefined;
      for (const hit of index.search(vector, { k, ...(filtering ? { filter: keep } : {}) })) {
        const info = record(hit.id);
        if (!info) continue;
        const previous = best.get(info.nodeId);
        if (!previous || hit.score > previous.score) best.set(info.nodeId, { score: hit.score, view, id: hit.id, info });
      }
    }
    await checkpoint();
    const hits: Hit[] = [];
    const ranked = [...best].sort((a, b) => b[1].score - a[1].score).slice(0, request.k);
    for (const [nodeId, match] of ranked) {
      const node = this.#nav.node(nodeId);
      if (!node) continue;
      const chunked = match.id.includes('#c') && match.view !== 'coarse';
      hits.push(
        nodeHit(this.#nav, node, {
          method: this.name,
          score: match.score,
          ...(chunked ? { snippet: shorten(this.index.denseLeaf.get(match.id)?.raw_text ?? '') } : {}),
          extra: { view: match.view, record_id: match.id, ...(match.info.variant ? { variant: match.info.variant } : {}) },
        }),
      );
    }
    return hits;
  }
}
