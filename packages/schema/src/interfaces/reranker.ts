import type { Hit } from '../agent.js';

/** One node to rerank: its hit and the text a reranker reads (heading path + content, bounded). */
export interface RerankCandidate {
  hit: Hit;
  text: string;
}

/** A rerank request: the question and the fused candidates, best first. */
export interface RerankRequest {
  query: string;
  candidates: readonly RerankCandidate[];
  signal?: AbortSignal;
}

/**
 * Reorders fused retrieval hits (a cross-encoder, an LLM ranker, rules of your own). It runs after DocTree's fusion and
 * feature rerank, before the stage keeps its best pages and nodes. It returns hits of the request (by `node_id`), best
 * first; it may drop hits but never invent nodes (unknown node ids are dropped with a trace warning) and sets `score`
 * to its own score when it has one. Plug it in with `DocTreeAgentOptions.reranker` or `ToolHubOptions.reranker`;
 * `runRerankerConformance` (`@doctree/toolhub/testing`) checks an implementation.
 */
export interface Reranker {
  /** Stable name, shown in the trace. */
  readonly name: string;
  rerank(request: RerankRequest): Promise<Hit[]>;
}
