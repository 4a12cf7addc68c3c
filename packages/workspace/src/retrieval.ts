import { analyzeQuery } from '@doctree/index';
import type { Embedder } from '@doctree/schema';
import { Bm25Index } from './bm25.js';
import type { ChildRecord } from './chunk-records.js';
import { dot, type LoadedVectors } from './vector-store.js';

/** One retrieved child with its scores. */
export interface ChildHit {
  chunk: ChildRecord;
  /** Final score in [0, 1] (the reranker's when it is on, else the fused score scaled to [0, 1]). */
  score: number;
  /** Cosine of query and child vectors. */
  dense: number;
  /** BM25 score (0 without a BM25 index). */
  lexical: number;
  /** Share of the query's terms the child contains. */
  coverage: number;
}

/** Search options of an {@link EvidenceRetriever}. */
export interface EvidenceSearchOptions {
  /** Children returned. */
  k: number;
  /** Keep only the children this accepts (document filters: citable, year, source type, one document). */
  accept?: (chunk: ChildRecord) => boolean;
}

/**
 * What the workspace needs from retrieval: children of the workspace's documents for a query. The local
 * implementation searches `chunks/` and `index/` directly; a DocTree collection can implement the same interface
 * (mapping its hits back to the workspace's children) without any change to query, audit or verify-citations.
 */
export interface EvidenceRetriever {
  /** Build of the index searched (recorded in every query run). */
  readonly buildId: string;
  /** Models taking part (embedder id, reranker). */
  readonly models: Readonly<Record<string, string | null>>;
  search(query: string, options: EvidenceSearchOptions): Promise<ChildHit[]>;
}

/** Options of the {@link LocalChunkRetriever} constructor. */
export interface LocalChunkRetrieverOptions {
  children: readonly ChildRecord[];
  vectors: LoadedVectors;
  /** BM25 index when built (`workspace build-bm25`); dense only without. */
  bm25?: Bm25Index;
  embedder: Embedder;
  /** Candidates per lane before fusion. Default 50. */
  candidateK?: number;
  /** Rerank the fused candidates by query-term coverage and cosine. Default true. */
  rerank?: boolean;
  /** Reciprocal-rank-fusion constant. Default 60. */
  rrfK?: number;
}

/** Defaults of {@link LocalChunkRetrieverOptions}. */
export const LOCAL_CHUNK_RETRIEVER_DEFAULTS = { candidateK: 50, rerank: true, rrfK: 60 } as const;

/** Id of the workspace's reranker (recorded in query runs). */
export const WORKSPACE_RERANKER_ID = 'doctree-coverage-rerank-v1';

/** Share of `queryTerms` present in `terms`. */
export function termCoverage(queryTerms: readonly string[], terms: ReadonlySet<string>): number {
  const unique = [...new Set(queryTerms)];
  if (unique.length === 0) return 0;
  return unique.filter((t) => terms.has(t)).length / unique.length;
}

/**
 * Hybrid retrieval over the workspace's children: dense (the configured DocTree embedder) and BM25 (DocTree's sparse
 * analyzer) lanes, reciprocal rank fusion, then a rerank of the fused candidates by the mean of query-term coverage
 * and cosine.
 */
export class LocalChunkRetriever implements EvidenceRetriever {
  readonly buildId: string;
  readonly models: Readonly<Record<string, string | null>>;
  readonly #opts: Required<Omit<LocalChunkRetrieverOptions, 'bm25'>> & { bm25: Bm25Index | undefined };
  readonly #terms = new Map<string, Set<string>>();

  constructor(options: LocalChunkRetrieverOptions) {
    this.#opts = { ...LOCAL_CHUNK_RETRIEVER_DEFAULTS, ...options, bm25: options.bm25 };
    this.buildId = options.vectors.meta.build_id;
    this.models = { embedder: options.vectors.meta.embedder_id, bm25: options.bm25 ? options.bm25.buildId : null, reranker: this.#opts.rerank ? WORKSPACE_RERANKER_ID : null };
  }

  #termsOf(chunk: ChildRecord): Set<string> {
    let terms = this.#terms.get(chunk.chunk_id);
    if (!terms) {
      terms = new Set(analyzeQuery(chunk.text));
      this.#terms.set(chunk.chunk_id, terms);
    }
    return terms;
  }

  async search(query: string, options: EvidenceSearchOptions): Promise<ChildHit[]> {
    const { vectors, bm25, embedder, candidateK, rerank, rrfK } = this.#opts;
    const pool = this.#opts.children.filter((c) => vectors.byChunk.has(c.chunk_id) && (options.accept ? options.accept(c) : true));
    if (pool.length === 0 || options.k < 1) return [];
    const q = await embedder.embedQuery(query);
    const queryTerms = analyzeQuery(query);
    const scored = pool.map((chunk) => ({ chunk, dense: dot(q, vectors.byChunk.get(chunk.chunk_id)!), lexical: bm25 ? bm25.score(chunk.chunk_id, queryTerms) : 0 }));
    const fused = new Map<string, number>();
    const lane = (key: 'dense' | 'lexical'): void => {
      const ranked = scored.filter((s) => key === 'dense' || s.lexical > 0).sort((a, b) => b[key] - a[key]).slice(0, candidateK);
      ranked.forEach((s, rank) => fused.set(s.chunk.chunk_id, (fused.get(s.chunk.chunk_id) ?? 0) + 1 / (rrfK + rank + 1)));
    };
    lane('dense');
    if (bm25) lane('lexical');
    const lanes = bm25 ? 2 : 1;
    const candidates = scored
      .filter((s) => fused.has(s.chunk.chunk_id))
      .map((s) => ({ ...s, fused: fused.get(s.chunk.chunk_id)!, coverage: termCoverage(queryTerms, this.#termsOf(s.chunk)) }))
      .sort((a, b) => b.fused - a.fused)
      .slice(0, candidateK);
    const hits: ChildHit[] = candidates.map((c) => ({
      chunk: c.chunk,
      dense: c.dense,
      lexical: c.lexical,
      coverage: c.coverage,
      score: rerank ? (c.coverage + Math.max(0, c.dense)) / 2 : (c.fused * (rrfK + 1)) / lanes,
    }));
    hits.sort((a, b) => b.score - a.score || a.chunk.chunk_id.localeCompare(b.chunk.chunk_id));
    return hits.slice(0, options.k);
  }
}
