import type { Hit } from '../agent.js';

/** A retrieval request. */
export interface RetrieveRequest {
  query: string;
  k: number;
  /** Restrict to these node roles. */
  roles?: readonly string[];
  /** Restrict to these 0-based pages. */
  pageIdx?: readonly number[];
  signal?: AbortSignal;
}

/** Anything that maps a query to ranked node hits: a lane of the ToolHub, the RAG baseline, a fake. */
export interface Retriever {
  /** Stable name used as `Hit.method`. */
  readonly name: string;
  retrieve(request: RetrieveRequest): Promise<Hit[]>;
}
