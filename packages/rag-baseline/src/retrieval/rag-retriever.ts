import { BASE_RETRIEVER_DEFAULTS, BaseRetriever, MiniSearchSparseIndex } from '@doctree/index';
import type { BaseRetrieverOptions, SparseBm25Params } from '@doctree/index';
import { DocTreeError } from '@doctree/schema';
import type { Embedder, Hit, RagChunk, RetrieveRequest } from '@doctree/schema';
import { chunkNodeId, embeddingText } from '../chunking/chunk-doc-tree.js';
import type { RagIndex } from '../index/load-rag-index.js';
import { definedOnly } from '../options.js';
import { aggregatePages, type PageAggregation, type PageRanker, type RankedPage } from './ranked-pages.js';

/** Options of {@link RagRetriever}. */
export interface RagRetrieverOptions extends BaseRetrieverOptions {
  /** Query embedder: the one the index was built with (checked, `EMBEDDER_MISMATCH`). */
  embedder: Embedder;
  /** Add a BM25 lane over the chunk texts and fuse it with the dense lane by reciprocal rank (a stronger baseline). Default false. */
  hybrid?: boolean;
  /** Children each lane retrieves before fusion, and children {@link RagRetriever.rankPages} aggregates. Default 100. */
  candidates?: number;
  /** The `k` of reciprocal rank fusion, `1 / (rrfK + rank)`. Default 60. */
  rrfK?: number;
  /** How {@link RagRetriever.rankPages} turns child scores into page scores. Default `max`. */
  pageAggregation?: PageAggregation;
  /** BM25 parameters of the hybrid lane (MiniSearch BM25+: k, b, d). Default MiniSearch's. */
  bm25?: Partial<SparseBm25Params>;
}

/** Defaults of {@link RagRetrieverOptions}. */
export const RAG_RETRIEVER_DEFAULTS = {
  ...BASE_RETRIEVER_DEFAULTS,
  hybrid: false,
  candidates: 100,
  rrfK: 60,
  pageAggregation: 'max',
} as const satisfies Partial<RagRetrieverOptions>;

/** Largest snippet kept on a hit (the full chunk is in the index). */
const SNIPPET_CHARS = 300;

interface Scored {
  chunk: RagChunk;
  position: number;
  score: number;
  dense?: { score: number; rank: number };
  sparse?: { score: number; rank: number };
}

/**
 * The plain RAG baseline retriever: embeds the query with the index's embedder and returns the top-k child chunks by
 * cosine similarity (`rag_dense.search`); with `hybrid` it also searches the chunk texts with BM25 (the minisearch
 * sparse index of `@doctree/index`, body field only) and fuses both rankings by reciprocal rank (`rag_hybrid.search`).
 * Hits are named `<anchor node>#p<NNN>c<NN>`, carry the chunk's page, bbox, char span (`extra.char_span`),
 * `extra.chunk_id`, `extra.parent_id` and `extra.role` (the anchor node's role), and honour the role and page filters
 * before the cut to k. {@link rankPages} aggregates the children by parent page.
 *
 * @example
 * ```ts
 * const index = await loadRagIndex(docDir, { embedder });
 * const retriever = new RagRetriever(index, { embedder, hybrid: true });
 * const hits = await retriever.retrieve({ query: 'capital expenditures 2018', k: 5 });
 * const pages = await retriever.rankPages('capital expenditures 2018', { k: 10 });
 * ```
 */
export class RagRetriever extends BaseRetriever implements PageRanker {
  readonly name: string;
  readonly index: RagIndex;
  readonly #options: Required<Pick<RagRetrieverOptions, 'hybrid' | 'candidates' | 'rrfK' | 'pageAggregation'>> & { embedder: Embedder };
  readonly #sparse: MiniSearchSparseIndex | undefined;
  readonly #position: Map<string, number>;

  /**
   * @throws DocTreeError `EMBEDDER_MISMATCH` when the embedder is not the index's, `CONFIG_INVALID` for bad numbers.
   */
  constructor(index: RagIndex, options: RagRetrieverOptions) {
    super(options);
    const o = { ...RAG_RETRIEVER_DEFAULTS, ...definedOnly(options) };
    if (!o.embedder || o.embedder.id !== index.manifest.embedder.id || o.embedder.dimension !== index.manifest.embedder.dimension) {
      throw new DocTreeError('EMBEDDER_MISMATCH', `the RAG index was built with ${index.manifest.embedder.id} (d=${index.manifest.embedder.dimension}), not ${o.embedder?.id ?? 'no embedder'}`, {
        file: index.ragDir,
        hint: 'Query with the embedder the index was built with, or rebuild the RAG index with this one.',
      });
    }
    if (!Number.isInteger(o.candidates) || o.candidates < 1 || !(o.rrfK >= 0)) {
      throw new DocTreeError('CONFIG_INVALID', `candidates must be a positive integer and rrfK >= 0, got ${String(o.candidates)} and ${String(o.rrfK)}`);
    }
    if (o.pageAggregation !== 'max' && o.pageAggregation !== 'sum') {
      throw new DocTreeError('CONFIG_INVALID', `pageAggregation must be "max" or "sum", got ${JSON.stringify(o.pageAggregation)}`);
    }
    this.index = index;
    this.name = o.hybrid ? 'rag_hybrid.search' : 'rag_dense.search';
    this.#options = { hybrid: o.hybrid, candidates: o.candidates, rrfK: o.rrfK, pageAggregation: o.pageAggregation, embedder: o.embedder };
    this.#position = new Map(index.chunks.map((c, i) => [c.chunk_id, i]));
    if (o.hybrid) {
      this.#sparse = new MiniSearchSparseIndex(options.bm25 ? { bm25: options.bm25 } : {});
      this.#sparse.add(index.chunks.map((c) => ({ id: c.chunk_id, role: c.kind === 'table' ? 'table' : 'paragraph', body: embeddingText(c), filters: { page_idx: c.page_idx } })));
    }
  }

  /** Ranks the document's pages: retrieves `candidates` children and aggregates them by parent page. */
  async rankPages(query: string, options: { k?: number; signal?: AbortSignal } = {}): Promise<RankedPage[]> {
    const hits = await this.retrieve({ query, k: this.#options.candidates, ...(options.signal ? { signal: options.signal } : {}) });
    const pages = aggregatePages(hits, this.#options.pageAggregation);
    return options.k === undefined ? pages : pages.slice(0, options.k);
  }

  /** The page aggregation in use. */
  get pageAggregation(): PageAggregation {
    return this.#options.pageAggregation;
  }

  /** Children retrieved per lane and for page ranking. */
  get candidates(): number {
    return this.#options.candidates;
  }

  protected async _retrieve(request: RetrieveRequest): Promise<Hit[]> {
    if (request.query.trim().length === 0) return [];
    const roles = request.roles && request.roles.length > 0 ? new Set(request.roles) : undefined;
    const pages = request.pageIdx && request.pageIdx.length > 0 ? new Set(request.pageIdx) : undefined;
    const allowed = (id: string): boolean => {
      const chunk = this.index.chunkById.get(id);
      return chunk !== undefined && (!roles || roles.has(chunk.role)) && (!pages || pages.has(chunk.page_idx));
    };
    const depth = this.#options.hybrid ? Math.max(request.k, this.#options.candidates) : request.k;
    const scored = new Map<string, Scored>();
    const entry = (id: string): Scored | undefined => {
      const chunk = this.index.chunkById.get(id);
      if (!chunk) return undefined;
      let item = scored.get(id);
      if (!item) {
        item = { chunk, position: this.#position.get(id) ?? 0, score: 0 };
        scored.set(id, item);
      }
      return item;
    };

    const query = await this.#options.embedder.embedQuery(request.query, request.signal ? { signal: request.signal } : {});
    if (query.some((v) => v !== 0)) {
      this.index.vectors.search(query, { k: depth, filter: allowed }).forEach((hit, rank) => {
        const item = entry(hit.id);
        if (item) item.dense = { score: hit.score, rank: rank + 1 };
      });
    }
    if (this.#sparse) {
      this.#sparse.search(request.query, { k: depth, filter: (doc) => allowed(doc.id) }).forEach((hit, rank) => {
        const item = entry(hit.id);
        if (item) item.sparse = { score: hit.score, rank: rank + 1 };
      });
    }
    const rrf = (rank: number | undefined): number => (rank === undefined ? 0 : 1 / (this.#options.rrfK + rank));
    const items = [...scored.values()];
    for (const item of items) item.score = this.#sparse ? rrf(item.dense?.rank) + rrf(item.sparse?.rank) : (item.dense?.score ?? 0);
    items.sort((a, b) => b.score - a.score || a.position - b.position);
    return items.map((item) => this.toHit(item));
  }

  private toHit(item: Scored): Hit {
    const { chunk } = item;
    const snippet = chunk.text.length > SNIPPET_CHARS ? `${chunk.text.slice(0, SNIPPET_CHARS - 1)}…` : chunk.text;
    return {
      eid: chunk.chunk_id,
      doc_id: chunk.doc_id,
      page_idx: chunk.page_idx,
      node_id: chunkNodeId(chunk),
      modality: chunk.kind === 'table' ? 'table' : 'text',
      snippet,
      bbox: chunk.bbox,
      score_raw: item.score,
      method: this.name,
      extra: {
        role: chunk.role,
        chunk_id: chunk.chunk_id,
        parent_id: chunk.parent_id,
        char_span: [chunk.char_start, chunk.char_end],
        ...(item.dense ? { dense_score: item.dense.score, dense_rank: item.dense.rank } : {}),
        ...(item.sparse ? { sparse_score: item.sparse.score, sparse_rank: item.sparse.rank } : {}),
      },
    };
  }
}
