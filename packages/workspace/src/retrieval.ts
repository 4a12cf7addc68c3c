import { analyzeQuery } from '@doctree/index';
import type { Embedder } from '@doctree/schema';
import { Bm25Index } from './bm25.js';
import type { ChildRecord, ParentRecord } from './chunk-records.js';
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
 * What the workspace needs from its evidence store: children of the workspace's documents for a query, and the
 * parents (pages, or sections of a source without pages) and children the hits name. The local implementation
 * ({@link LocalChunkRetriever}) searches `chunks/` and `index/`; a DocTree collection implements the same interface
 * (its documents are the sources, its DocTree gives the pages) without any change to query, audit or
 * verify-citations. Every implementation passes `runEvidenceRetrieverConformance` of `@doctree/workspace/testing`.
 *
 * Contract: `search` returns at most `k` hits, best first, scores in [0, 1], each child one of {@link child}'s with
 * `parent(parent_id).parent_text.slice(char_start, char_end) === text`, only children `accept` accepts; a parent's
 * text is the text of its page (furniture left out), so a quote taken from a child is verbatim on that page.
 */
export interface EvidenceRetriever {
  /** Build of the index searched (recorded in every query run). */
  readonly buildId: string;
  /** Models taking part (embedder id, `bm25` when a lexical lane takes part, reranker). */
  readonly models: Readonly<Record<string, string | null>>;
  /** doc_uids whose children can be found (verify-citations says MISSING for a cited document outside them). */
  documents(): ReadonlySet<string>;
  /** The parent record of a hit (undefined for an unknown id). */
  parent(parentId: string): ParentRecord | undefined;
  /** The child record of an id (undefined for an unknown id): papers mode regroups an earlier run's hits with it. */
  child(chunkId: string): ChildRecord | undefined;
  search(query: string, options: EvidenceSearchOptions): Promise<ChildHit[]>;
}

/** Options of the {@link LocalChunkRetriever} constructor. */
export interface LocalChunkRetrieverOptions {
  /** Parents of `chunks/parents.jsonl`. */
  parents: readonly ParentRecord[];
  /** Children of `chunks/chunks.jsonl` (only those with a vector are searched). */
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

/** The reranker's score of a child: the mean of query-term coverage and the cosine (negative cosines count 0). */
export function coverageRerankScore(coverage: number, dense: number): number {
  return (coverage + Math.max(0, dense)) / 2;
}

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
  readonly #parents: ReadonlyMap<string, ParentRecord>;
  readonly #children: ReadonlyMap<string, ChildRecord>;
  readonly #documents: ReadonlySet<string>;

  constructor(options: LocalChunkRetrieverOptions) {
    this.#opts = { ...LOCAL_CHUNK_RETRIEVER_DEFAULTS, ...options, bm25: options.bm25 };
    this.#parents = new Map(options.parents.map((p) => [p.parent_id, p] as const));
    this.#children = new Map(options.children.map((c) => [c.chunk_id, c] as const));
    this.#documents = new Set(options.children.filter((c) => options.vectors.byChunk.has(c.chunk_id)).map((c) => c.doc_uid));
    this.buildId = options.vectors.meta.build_id;
    this.models = { embedder: options.vectors.meta.embedder_id, bm25: options.bm25 ? options.bm25.buildId : null, reranker: this.#opts.rerank ? WORKSPACE_RERANKER_ID : null };
  }

  documents(): ReadonlySet<string> {
    return this.#documents;
  }

  parent(parentId: string): ParentRecord | undefined {
    return this.#parents.get(parentId);
  }

  child(chunkId: string): ChildRecord | undefined {
    return this.#children.get(chunkId);
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
      score: rerank ? coverageRerankScore(c.coverage, c.dense) : (c.fused * (rrfK + 1)) / lanes,
    }));
    hits.sort((a, b) => b.score - a.score || a.chunk.chunk_id.localeCompare(b.chunk.chunk_id));
    return hits.slice(0, options.k);
  }
}
