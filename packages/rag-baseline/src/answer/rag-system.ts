import { randomUUID } from 'node:crypto';
import { AnswerSchema, DocTreeError, pageFromIndex, parseWith, redactSecrets } from '@doctree/schema';
import type { Answer, AnswerReader, Embedder, Hit, Observation, RagChunk, ReadResult, RouterDecision, Support, TraceEvent } from '@doctree/schema';
import { buildRagIndex, type BuildRagIndexOptions } from '../index/build-rag-index.js';
import { loadRagIndex, type RagIndex } from '../index/load-rag-index.js';
import { definedOnly } from '../options.js';
import type { PageAggregation, RankedPage } from '../retrieval/ranked-pages.js';
import { aggregatePages } from '../retrieval/ranked-pages.js';
import { RagRetriever } from '../retrieval/rag-retriever.js';

/** Options of {@link RagSystem}. */
export interface RagSystemOptions {
  /** Query embedder: the one the index was built with. */
  embedder: Embedder;
  /** Fuse a BM25 lane with the dense lane (see {@link RagRetriever}). Default false. */
  hybrid?: boolean;
  /** Most children handed to the reader, best first. Default 8. */
  k?: number;
  /** Token budget of the children handed to the reader (the first child always goes). Default 1500, DocTree's pack budget. */
  ctxTokens?: number;
  /** Children retrieved for the page ranking (and per lane before fusion). Default 100. */
  candidates?: number;
  /** How child scores make page scores. Default `max`. */
  pageAggregation?: PageAggregation;
  /** The `k` of reciprocal rank fusion. Default 60. */
  rrfK?: number;
  /** Secret strings (API keys) removed from traces. Default none. */
  secrets?: readonly string[];
}

/** Defaults of {@link RagSystemOptions}. */
export const RAG_SYSTEM_DEFAULTS = {
  hybrid: false,
  k: 8,
  ctxTokens: 1500,
  candidates: 100,
  pageAggregation: 'max',
  rrfK: 60,
  secrets: [],
} as const satisfies Partial<RagSystemOptions>;

/** Options of {@link RagSystem.open}: the system's options plus how to build the index when it is missing or stale. */
export interface OpenRagSystemOptions extends RagSystemOptions {
  /** Build options other than the embedder (backend, chunking, force…). Default: the build defaults. */
  build?: Omit<BuildRagIndexOptions, 'embedder'>;
}

/** Per-question options of {@link RagSystem.answer}. */
export interface RagAnswerOptions {
  /** Turns the retrieved chunks into an answer: the same reader the DocTree agent uses. */
  reader: AnswerReader;
  /** The router's reading of the question, passed to the reader as is. */
  decision?: RouterDecision;
  /** Trace mode. Default: `llm` when the reader reports token usage, else `offline`. */
  mode?: 'offline' | 'llm';
  /** Cancels retrieval and the reader. */
  signal?: AbortSignal;
}

/** What {@link RagSystem.answer} returns. */
export interface RagAnswer {
  /** The answer in the schema shared with DocTree, with its trace. */
  answer: Answer;
  /** Pages ranked by aggregated child scores, best first (for evidence-page recall@k). */
  rankedPages: RankedPage[];
  /** The child hits retrieved, best first. */
  hits: Hit[];
  /** What the reader saw. */
  observations: Observation[];
  /** Wall time of the whole question, ms. */
  latencyMs: number;
}

/**
 * The plain RAG baseline end to end: top children by dense (or hybrid) similarity → aggregated page ranking →
 * the best children within a token budget as text observations → the injected {@link AnswerReader} → an `Answer`
 * with a `doctree.trace` (retrieval with hits, page fusion, observation, read, finalize). Only retrieval differs from
 * the DocTree agent: same ingest output, embedder, vector backend, reader and answer schema.
 *
 * @example
 * ```ts
 * const rag = await RagSystem.open(docDir, { embedder: new HashingEmbedder() });
 * const { answer, rankedPages } = await rag.answer('What were capital expenditures in 2018?', { reader });
 * ```
 */
export class RagSystem {
  readonly index: RagIndex;
  readonly retriever: RagRetriever;
  readonly #options: Required<Omit<RagSystemOptions, 'embedder'>>;

  /**
   * @throws DocTreeError `EMBEDDER_MISMATCH` (not the index's embedder), `CONFIG_INVALID` (bad numbers).
   */
  constructor(index: RagIndex, options: RagSystemOptions) {
    const o = { ...RAG_SYSTEM_DEFAULTS, ...definedOnly(options) };
    if (!Number.isInteger(o.k) || o.k < 1 || !Number.isInteger(o.ctxTokens) || o.ctxTokens < 1) {
      throw new DocTreeError('CONFIG_INVALID', `k and ctxTokens must be positive integers, got ${String(o.k)} and ${String(o.ctxTokens)}`);
    }
    this.index = index;
    this.retriever = new RagRetriever(index, { embedder: options.embedder, hybrid: o.hybrid, candidates: Math.max(o.candidates, o.k), pageAggregation: o.pageAggregation, rrfK: o.rrfK });
    this.#options = { hybrid: o.hybrid, k: o.k, ctxTokens: o.ctxTokens, candidates: Math.max(o.candidates, o.k), pageAggregation: o.pageAggregation, rrfK: o.rrfK, secrets: o.secrets };
  }

  /**
   * Builds `<docDir>/rag/` when missing or stale (a no-op otherwise), loads it and returns the system.
   *
   * @throws DocTreeError from {@link buildRagIndex} and {@link loadRagIndex}.
   */
  static async open(docDir: string, options: OpenRagSystemOptions): Promise<RagSystem> {
    const { build, ...system } = options;
    await buildRagIndex(docDir, { ...build, embedder: options.embedder });
    const index = await loadRagIndex(docDir, { embedder: options.embedder, ...(build?.backend ? { backend: build.backend } : {}) });
    return new RagSystem(index, system);
  }

  /** Ranks the document's pages for a question (no reader involved). */
  rankPages(question: string, options: { k?: number; signal?: AbortSignal } = {}): Promise<RankedPage[]> {
    return this.retriever.rankPages(question, options);
  }

  /**
   * Answers one question. Supports the reader returns for nodes or pages it was not shown are dropped (with a
   * `warning` event); `pages` are the 1-based pages of the remaining supports, sorted and unique.
   *
   * @throws DocTreeError `USAGE` (empty question or no reader), `CANCELLED`, `TOOL_FAILED` (the reader failed or
   *   returned an invalid answer), and retrieval errors.
   */
  async answer(question: string, options: RagAnswerOptions): Promise<RagAnswer> {
    if (typeof question !== 'string' || question.trim().length === 0) {
      throw new DocTreeError('USAGE', 'the question must be a non-empty string');
    }
    const reader = options?.reader;
    if (!reader || typeof reader.read !== 'function') {
      throw new DocTreeError('USAGE', 'RagSystem.answer needs { reader }', { hint: 'Pass the AnswerReader the DocTree agent uses (extractive offline, LLM when configured).' });
    }
    const started = performance.now();
    const startedAt = new Date().toISOString();
    const events: TraceEvent[] = [];
    const now = (): number => Math.max(0, performance.now() - started);
    const signal = options.signal;

    const retrievalStart = performance.now();
    const hits = await this.retriever.retrieve({ query: question, k: this.#options.candidates, ...(signal ? { signal } : {}) });
    const retrievalMs = performance.now() - retrievalStart;
    events.push({
      type: 'tool_call',
      t_ms: now(),
      attempt: 0,
      tool_id: this.retriever.name,
      args: { k: this.#options.candidates, hybrid: this.#options.hybrid, embedder: this.index.manifest.embedder.id },
      status: 'ok',
      n_hits: hits.length,
      latency_ms: retrievalMs,
      hits: hits.map((h) => ({ node_id: h.node_id, page_idx: h.page_idx, score: h.score_raw })),
    });
    const rankedPages = aggregatePages(hits, this.#options.pageAggregation);
    events.push({
      type: 'fuse',
      t_ms: now(),
      attempt: 0,
      message: `children aggregated by parent page (${this.#options.pageAggregation})`,
      data: { aggregation: this.#options.pageAggregation, pages: rankedPages.slice(0, 20).map((p) => ({ page: p.page, score: p.score })) },
    });

    const chosen: RagChunk[] = [];
    const chosenHits: Hit[] = [];
    let tokens = 0;
    for (const hit of hits) {
      if (chosen.length >= this.#options.k) break;
      const chunk = this.index.chunkById.get(String(hit.extra['chunk_id']));
      if (!chunk) continue;
      if (chosen.length > 0 && tokens + chunk.tokens > this.#options.ctxTokens) continue;
      chosen.push(chunk);
      chosenHits.push(hit);
      tokens += chunk.tokens;
    }
    const observations = chosen.map((chunk, i) => chunkObservation(chunk, chosenHits[i]!.node_id));
    events.push({
      type: 'observe',
      t_ms: now(),
      attempt: 0,
      message: `${observations.length} chunks, ${tokens} tokens of ${this.#options.ctxTokens}`,
      data: { observations: observations.map((o) => ({ node_id: o.node_id, page: o.page })), tokens, budget_tokens: this.#options.ctxTokens },
    });

    const readStart = performance.now();
    let result: ReadResult;
    try {
      result = await reader.read({ question, observations, ...(options.decision ? { decision: options.decision } : {}), ...(signal ? { signal } : {}) });
    } catch (error) {
      if (DocTreeError.isInstance(error)) throw error;
      throw new DocTreeError('TOOL_FAILED', `reader ${reader.id} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    if (signal?.aborted) throw new DocTreeError('CANCELLED', 'the RAG answer was cancelled', { cause: signal.reason });
    events.push({
      type: 'read',
      t_ms: now(),
      attempt: 0,
      tool_id: 'reader.answer',
      status: 'ok',
      latency_ms: performance.now() - readStart,
      message: reader.id,
      ...(result?.usage ? { tokens: result.usage } : {}),
      data: { reader: reader.id, answer_format: result?.answer_format, confidence: result?.confidence, notes: result?.notes ?? [] },
    });

    const observed = new Map(observations.map((o) => [o.node_id, o.page]));
    const support: Support[] = [];
    const dropped: string[] = [];
    for (const item of Array.isArray(result?.support) ? result.support : []) {
      if (observed.get(item?.node_id) === item?.page) support.push(item);
      else dropped.push(`${String(item?.node_id)}@p${String(item?.page)}`);
    }
    if (dropped.length > 0) {
      events.push({ type: 'warning', t_ms: now(), attempt: 0, message: `dropped ${dropped.length} support(s) for nodes or pages the reader was not shown`, data: { dropped } });
    }
    const pages = [...new Set(support.map((s) => s.page))].sort((a, b) => a - b);
    events.push({ type: 'finalize', t_ms: now(), attempt: 0, data: { pages, support: support.length, answer_format: result?.answer_format } });
    const usage = result?.usage;
    const candidate = {
      answer: result?.answer,
      answer_format: result?.answer_format,
      confidence: result?.confidence,
      support,
      pages,
      trace: {
        format: 'doctree.trace',
        version: 1,
        trace_id: randomUUID(),
        doc_id: this.index.manifest.doc_id,
        question,
        started_at: startedAt,
        mode: options.mode ?? (usage ? 'llm' : 'offline'),
        events,
        llm: { calls: usage ? 1 : 0, prompt_tokens: usage?.prompt ?? 0, completion_tokens: usage?.completion ?? 0, cost_usd: null },
        replans: 0,
      },
    };
    const answer = redactSecrets(parseWith(AnswerSchema, candidate, { what: `answer from reader ${reader.id}`, code: 'TOOL_FAILED' }), this.#options.secrets);
    return { answer, rankedPages, hits, observations, latencyMs: performance.now() - started };
  }
}

/** A chunk as the reader sees it: a text observation with its char span, 1-based page, heading path and bbox. */
export function chunkObservation(chunk: RagChunk, nodeId: string): Observation {
  return {
    node_id: nodeId,
    modality: 'text',
    payload: { kind: 'text', text: chunk.text, heading_path: chunk.heading_path, char_span: [chunk.char_start, chunk.char_end] },
    page: pageFromIndex(chunk.page_idx),
    bbox: chunk.bbox,
  };
}
