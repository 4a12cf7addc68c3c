import { BaseRetriever } from '@doctree/index';
import type { BaseRetrieverOptions } from '@doctree/index';
import type { Embedder, Hit, RetrieveRequest } from '@doctree/schema';
import type { PostgresStore } from './postgres-store.js';

/** Options of {@link PostgresRetriever}. */
export interface PostgresRetrieverOptions extends BaseRetrieverOptions {
  store: PostgresStore;
  /** Collection searched. */
  collection: string;
  /** Embeds queries for the vector lane (the embedder the documents were written with); without one, full text only. */
  embedder?: Embedder;
  /** Restrict to these documents. */
  docIds?: readonly string[];
  /** `Hit.method`. Default `pg.hybrid`. */
  name?: string;
}

/** Defaults of {@link PostgresRetrieverOptions}. */
export const POSTGRES_RETRIEVER_DEFAULTS = {
  name: 'pg.hybrid',
} as const satisfies Partial<PostgresRetrieverOptions>;

/**
 * DocTree's {@link Retriever} over the Postgres store: each query runs {@link PostgresStore.hybridSearch} (HNSW kNN +
 * full text, fused by RRF in SQL) with the request's role and page filters; records of one node (section variants,
 * leaf chunks) collapse into that node, best first. Drop-in for any lane or baseline, so
 * the agent works unchanged on a collection held in Postgres.
 *
 * @example
 * ```ts
 * const retriever = new PostgresRetriever({ store, collection: 'reports', embedder });
 * const hits = await retriever.retrieve({ query: 'net cash from operating activities', k: 5, roles: ['table'] });
 * ```
 */
export class PostgresRetriever extends BaseRetriever {
  readonly name: string;
  readonly #options: PostgresRetrieverOptions & { name: string };

  constructor(options: PostgresRetrieverOptions) {
    super(options);
    this.#options = { ...POSTGRES_RETRIEVER_DEFAULTS, ...options };
    this.name = this.#options.name;
  }

  protected async _retrieve(request: RetrieveRequest): Promise<Hit[]> {
    const { store, collection, embedder, docIds } = this.#options;
    const vector = embedder !== undefined && request.query.trim().length > 0 ? await embedder.embedQuery(request.query, request.signal ? { signal: request.signal } : {}) : undefined;
    const hits = await store.hybridSearch({
      collection,
      query: request.query,
      // Records of one node (section variants `sec_3#h|#g|#c|#p`, leaf chunks `t_9#c1`) collapse into it below.
      k: request.k * 4,
      method: this.name,
      ...(vector === undefined ? {} : { vector, embedderId: embedder!.id }),
      ...(request.roles ? { roles: request.roles } : {}),
      ...(request.pageIdx ? { pageIdx: request.pageIdx } : {}),
      ...(docIds ? { docIds } : {}),
    });
    return collapseRecords(hits, request.k);
  }
}

/**
 * Hits of index records as hits of their document nodes: a record id `node#variant` becomes `node` (the tree's id,
 * what the agent's lanes name), the best-scoring record of a node is kept (its id in `extra.record_id`), at most `k`.
 */
export function collapseRecords(hits: readonly Hit[], k: number): Hit[] {
  const out: Hit[] = [];
  const seen = new Set<string>();
  for (const hit of hits) {
    const cut = hit.node_id.indexOf('#');
    const nodeId = cut > 0 ? hit.node_id.slice(0, cut) : hit.node_id;
    const key = `${hit.doc_id}\u0000${nodeId}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(cut > 0 ? { ...hit, node_id: nodeId, eid: `${hit.doc_id}:${nodeId}`, extra: { ...hit.extra, record_id: hit.node_id } } : hit);
    if (out.length >= k) break;
  }
  return out;
}
