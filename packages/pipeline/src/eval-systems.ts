import { randomUUID } from 'node:crypto';
import { doctreeCodeFingerprint } from './code-fingerprint.js';
import { createChatClient, createDocTreeAgent, type DocTreeAgent, type DocTreeAgentOptions, ExtractiveReader, finalizeAnswer, LlmReader, LlmRouter, observationText, Observer, RuleRouter, type BaseRouter } from '@doctree/agents';
import { BaseQaSystem, type AnswerRequestOptions, type PrepareRequest, type PrepareResult, type QaSystem, type QaSystemDescription, type SystemAnswer } from '@doctree/eval';
import { estimateTokens, type DocIndex } from '@doctree/index';
import { aggregatePages, PageBm25Retriever, RagSystem, type RankedPage } from '@doctree/rag-baseline';
import { configSecrets, DocTreeError, type Answer, type AnswerReader, type ChatModelClient, type DocTreeConfig, type Observation, type Question, type RouterDecision, type TraceEvent } from '@doctree/schema';
import { EvalDocuments, recordedBuildMs, type EvalDocumentsOptions } from './eval-documents.js';
import type { PreparedDocument } from './prepare-document.js';
import { answerCalibratorFromConfig, pageRankerFromConfig } from './model-files.js';
import { domainPackFromConfig } from './domain-pack-file.js';

/** Ids of the systems {@link createEvalSystems} knows, in report order. */
export const EVAL_SYSTEM_IDS = [
  'doctree',
  'doctree-sparse-only',
  'doctree-dense-only',
  'doctree-no-expansion',
  'doctree-no-replan',
  'doctree-no-router',
  'rag',
  'rag-hybrid',
  'bm25-pages',
] as const;
/** One of {@link EVAL_SYSTEM_IDS}. */
export type EvalSystemId = (typeof EVAL_SYSTEM_IDS)[number];

/** What every system of one evaluation shares, so that only retrieval/navigation differs between them. */
export interface EvalSystemContext {
  /** The documents: one ingest, one embedder and vector backend for all systems. */
  documents: EvalDocuments;
  /** The reader every system answers with (extractive offline, LLM with an endpoint). */
  reader: AnswerReader;
  /** The router whose decision goes to the reader (rules offline, LLM with an endpoint). */
  router: BaseRouter;
  /** The chat model in use, if any. */
  chat?: ChatModelClient;
  /** Resolved configuration. */
  config: DocTreeConfig;
  /** Secrets to keep out of traces. */
  secrets: readonly string[];
}

/** Options of {@link createEvalSystemContext} and {@link createEvalSystems}. */
export interface EvalSystemsOptions extends Omit<EvalDocumentsOptions, 'chat'> {
  /**
   * Chat model for routing, reading and LLM summaries. Default `createChatClient(config)` (none offline); `null`
   * forces the offline path (rule router, extractive reader, extractive summaries) whatever the configuration.
   */
  chat?: ChatModelClient | null;
  /** A reader to use instead of the default one (every system gets it). */
  reader?: AnswerReader;
  /** A router to use instead of the default one (every system gets it). */
  router?: BaseRouter;
  /** The shared context of another call, to add systems to an existing evaluation. */
  context?: EvalSystemContext;
}

/**
 * Builds what the systems of one evaluation share: the documents (ingest + indexes), the reader (`ExtractiveReader`
 * offline, `LlmReader` with an endpoint) and the router (`RuleRouter` offline, `LlmRouter` with an endpoint).
 *
 * @throws DocTreeError `CONFIG_MISSING_SECRET` when the LLM is enabled without a key or base URL.
 */
export function createEvalSystemContext(options: EvalSystemsOptions): EvalSystemContext {
  if (options.context) return options.context;
  const { config } = options;
  const chat = options.chat === null ? undefined : (options.chat ?? createChatClient(config));
  const secrets = configSecrets(config);
  return {
    documents: new EvalDocuments({ ...options, chat: chat ?? null }),
    reader: options.reader ?? (chat ? new LlmReader({ client: chat, secrets }) : new ExtractiveReader()),
    router: options.router ?? (chat ? new LlmRouter({ client: chat, secrets }) : new RuleRouter()),
    ...(chat ? { chat } : {}),
    config,
    secrets,
  };
}

/** The configuration every system records in `run.json` (no secrets): resuming with another one is refused. */
function sharedConfig(context: EvalSystemContext): Record<string, unknown> {
  const { config } = context;
  return {
    embedder: config.embedder.kind === 'hashing' ? { kind: 'hashing', dimension: config.embedder.dimension } : { kind: config.embedder.kind },
    vector_backend: config.index.backend,
    reader: context.reader.id,
    router: context.router.name,
    llm: context.chat ? { model: context.chat.model } : 'none',
    ctx_tokens: config.agent.ctx_tokens,
  };
}

/**
 * The reader's result finalized exactly as the DocTree agent finalizes its own (value normalised to its format,
 * supports de-duplicated, pages from the supports), so that answers differ only by the evidence they were read from.
 */
function finalizeLike(answer: Answer): Answer {
  return finalizeAnswer({ read: { answer: answer.answer, answer_format: answer.answer_format, confidence: answer.confidence, support: answer.support }, trace: answer.trace });
}

/** The DocTree agent's switches an ablation turns off (see `DocTreeAgentOptions`). */
export interface DocTreeAblation {
  /** Retrieval lanes: `both` (default), `sparse` (no dense search) or `dense` (no keyword lanes). */
  lanes?: 'both' | 'sparse' | 'dense';
  /** Structure expansion of ranked hits. Default true. */
  expansion?: boolean;
  /** REPLAN passes after the first. Default `agent.max_replans` of the configuration. */
  maxReplans?: number;
  /** Router: `auto` (default: LLM router with an endpoint, else rules) or `single-template` (no router). */
  router?: 'auto' | 'single-template';
}

/** Options of {@link DocTreeQaSystem}. */
export interface DocTreeQaSystemOptions {
  /** System id. Default `doctree`. */
  id?: string;
  /** Report label. Default `DocTree`. */
  label?: string;
  /** The switches this system turns off; an ablation has `ablationOf: 'doctree'`. Default none (the full system). */
  ablation?: DocTreeAblation;
  /** The id of the system this one ablates (reports group it there). Default none. */
  ablationOf?: string;
  /**
   * Parts of your own, per document: agent options over the ones this system derives (`retrievers`, `reader`,
   * `judger`, `planner`, `router`, `hub.replace`, `policies`…), given the document's loaded index. Default none.
   */
  agent?: (index: DocIndex) => Partial<Omit<DocTreeAgentOptions, 'index'>>;
  /**
   * What those parts are (JSON, no secrets: names, settings), recorded in the system's configuration so a rerun with
   * other parts answers again. Default none.
   */
  parts?: Record<string, unknown>;
  /**
   * Where the agent's index comes from, given the document the shared ingest and index prepared (e.g. the same
   * document written to and read back from another store). Called once per prepared folder. Default the prepared
   * document's own index.
   */
  index?: (prepared: PreparedDocument, signal: AbortSignal | undefined) => Promise<DocIndex>;
}

/** The DocTree ablations {@link createEvalSystems} knows: id → label and switch. */
export const DOCTREE_ABLATIONS: Readonly<Record<string, { label: string; ablation: DocTreeAblation }>> = {
  'doctree-sparse-only': { label: 'DocTree − dense lanes (sparse only)', ablation: { lanes: 'sparse' } },
  'doctree-dense-only': { label: 'DocTree − keyword lanes (dense only)', ablation: { lanes: 'dense' } },
  'doctree-no-expansion': { label: 'DocTree − structure expansion', ablation: { expansion: false } },
  'doctree-no-replan': { label: 'DocTree − REPLAN', ablation: { maxReplans: 0 } },
  'doctree-no-router': { label: 'DocTree − router (single template)', ablation: { router: 'single-template' } },
};

/**
 * The DocTree agent as an evaluated system: per document a `DocTreeAgent` over the document's index (the shared
 * ingest and index of {@link EvalDocuments}), with the shared chat model (LLM router, reader and judger) or offline
 * (rule router, extractive reader, rule judger), the configuration's `agent.max_replans` and `agent.ctx_tokens`, and
 * an ablation's switches. `rankedPages` are the agent's (answer support, then the evidence pack, then ranked hits).
 */
export class DocTreeQaSystem extends BaseQaSystem {
  readonly id: string;
  readonly #context: EvalSystemContext;
  readonly #options: DocTreeQaSystemOptions;
  readonly #agents = new Map<string, { docDir: string; prepared: DocIndex; agent: DocTreeAgent }>();

  constructor(context: EvalSystemContext, options: DocTreeQaSystemOptions = {}) {
    super();
    this.#context = context;
    this.#options = options;
    this.id = options.id ?? 'doctree';
  }

  /** The agent switches in effect. */
  get switches(): Required<DocTreeAblation> {
    const a = this.#options.ablation ?? {};
    return { lanes: a.lanes ?? 'both', expansion: a.expansion ?? true, maxReplans: a.maxReplans ?? this.#context.config.agent.max_replans, router: a.router ?? 'auto' };
  }

  override describe(): QaSystemDescription {
    const ablated = Object.keys(this.#options.ablation ?? {});
    return {
      label: this.#options.label ?? 'DocTree',
      code: doctreeCodeFingerprint(),
      description: ablated.length === 0 ? 'DocTree agent: router, planner, ToolHub stages, observer, reader, judger, REPLAN' : `DocTree agent without: ${ablated.join(', ')}`,
      ...(this.#options.ablationOf !== undefined ? { ablationOf: this.#options.ablationOf } : {}),
      config: {
        ...sharedConfig(this.#context),
        system: 'doctree',
        agent: this.switches,
        page_ranker: this.#context.config.agent.page_ranker,
        ...(this.#options.parts !== undefined ? { parts: this.#options.parts } : this.#options.agent !== undefined ? { parts: 'custom (undescribed)' } : {}),
      },
    };
  }

  async #agent(path: string, signal: AbortSignal | undefined): Promise<DocTreeAgent> {
    const prepared = await this.#context.documents.prepare(path, signal);
    const cached = this.#agents.get(path);
    if (cached !== undefined && cached.docDir === prepared.docDir && cached.prepared === prepared.index) return cached.agent;
    const index = this.#options.index ? await this.#options.index(prepared, signal) : prepared.index;
    const { lanes, expansion, maxReplans, router } = this.switches;
    const { chat, config, secrets } = this.#context;
    const pageRanker = await pageRankerFromConfig(config);
    const domainPack = await domainPackFromConfig(config);
    const calibrator = await answerCalibratorFromConfig(config, chat ? 'llm' : 'extractive');
    const { chat: customChat, ...custom } = this.#options.agent?.(index) ?? {};
    const agent = createDocTreeAgent({
      index,
      config,
      chat: customChat ?? chat ?? null,
      vlm: null,
      ...(pageRanker ? { pageRanker } : {}),
      ...(domainPack ? { domainPack } : {}),
      ...(calibrator ? { calibrator } : {}),
      ...(chat ? {} : { reader: this.#context.reader }),
      router: router === 'single-template' ? 'single-template' : chat ? 'auto' : 'rules',
      lanes,
      expansion,
      maxReplans,
      secrets,
      ...custom,
    });
    this.#agents.set(path, { docDir: prepared.docDir, prepared: prepared.index, agent });
    return agent;
  }

  protected override async _prepare(doc: PrepareRequest): Promise<PrepareResult> {
    const prepared = await this.#context.documents.prepare(doc.path, doc.signal);
    return { buildMs: recordedBuildMs(prepared.manifest.timings_ms) };
  }

  protected async _answer(question: Question, options: AnswerRequestOptions): Promise<SystemAnswer> {
    const agent = await this.#agent(options.path, options.signal);
    const run = await agent.ask(question.question, options.signal ? { signal: options.signal } : {});
    return {
      answer: run.answer,
      rankedPages: run.rankedPages,
      latencyMs: run.usage.latencyMs,
      llm: { calls: run.usage.llmCalls, promptTokens: run.usage.promptTokens, completionTokens: run.usage.completionTokens },
    };
  }
}

/** Options of {@link RagQaSystem}. */
export interface RagQaSystemOptions {
  /** Fuse BM25 over the chunks with the dense lane (RRF). Default false. */
  hybrid?: boolean;
  /** System id. Default `rag`, or `rag-hybrid` with `hybrid`. */
  id?: string;
}

/**
 * The RAG baseline as an evaluated system: the document's chunk index (`<docDir>/rag/`, built once with the same
 * embedder and vector backend as the DocTree index, from the same `doctree.mm.json`), top children aggregated by
 * page, the best chunks within `agent.ctx_tokens` to the shared reader with the shared router's decision.
 */
export class RagQaSystem extends BaseQaSystem {
  readonly id: string;
  readonly #context: EvalSystemContext;
  readonly #hybrid: boolean;
  readonly #systems = new Map<string, RagSystem>();

  constructor(context: EvalSystemContext, options: RagQaSystemOptions = {}) {
    super();
    this.#context = context;
    this.#hybrid = options.hybrid ?? false;
    this.id = options.id ?? (this.#hybrid ? 'rag-hybrid' : 'rag');
  }

  override describe(): QaSystemDescription {
    return {
      label: this.#hybrid ? 'RAG hybrid (dense + BM25 chunks)' : 'RAG (dense chunks)',
      code: doctreeCodeFingerprint(),
      description: `~200-token chunks, top children by ${this.#hybrid ? 'cosine fused with BM25 (RRF)' : 'cosine'}, aggregated by page (max)`,
      config: { ...sharedConfig(this.#context), system: 'rag', hybrid: this.#hybrid },
    };
  }

  protected override async _prepare(doc: PrepareRequest): Promise<PrepareResult> {
    const index = await this.#context.documents.ragIndex(doc.path, doc.signal);
    return { buildMs: recordedBuildMs(index.manifest.timings_ms) };
  }

  async #system(path: string, signal: AbortSignal | undefined): Promise<RagSystem> {
    const index = await this.#context.documents.ragIndex(path, signal);
    let system = this.#systems.get(index.ragDir);
    if (system === undefined || system.index !== index) {
      const { embedder } = await this.#context.documents.components();
      system = new RagSystem(index, { embedder, hybrid: this.#hybrid, ctxTokens: this.#context.config.agent.ctx_tokens, secrets: this.#context.secrets });
      this.#systems.set(index.ragDir, system);
    }
    return system;
  }

  protected async _answer(question: Question, options: AnswerRequestOptions): Promise<SystemAnswer> {
    const { signal } = options;
    const system = await this.#system(options.path, signal);
    const decision = await this.#context.router.route(question.question, signal ? { signal } : {});
    const result = await system.answer(question.question, { reader: this.#context.reader, decision, ...(signal ? { signal } : {}) });
    return { answer: finalizeLike(result.answer), rankedPages: result.rankedPages.map((p) => p.page), latencyMs: result.latencyMs };
  }
}

/** Options of {@link Bm25PagesQaSystem}. */
export interface Bm25PagesQaSystemOptions {
  /** System id. Default `bm25-pages`. */
  id?: string;
  /** Pages ranked per question. Default 50. */
  pages?: number;
}

/** Defaults of {@link Bm25PagesQaSystemOptions}. */
export const BM25_PAGES_DEFAULTS = { id: 'bm25-pages', pages: 50 } as const satisfies Bm25PagesQaSystemOptions;

/**
 * The "BM25 over pages" reference: one BM25 document per page (`PageBm25Retriever`), no embeddings, no structure.
 * Its ranking is what recall@k measures. It also answers, so that it appears in every table: the best pages, best
 * first, are observed node by node in reading order (the page's best-matching node first) until `agent.ctx_tokens`
 * is spent, and read by the shared reader with the shared router's decision.
 */
export class Bm25PagesQaSystem extends BaseQaSystem {
  readonly id: string;
  readonly #context: EvalSystemContext;
  readonly #pages: number;
  readonly #rankers = new Map<string, { docDir: string; ranker: PageBm25Retriever; buildMs: number }>();
  readonly #observer = new Observer();

  constructor(context: EvalSystemContext, options: Bm25PagesQaSystemOptions = {}) {
    super();
    const o = { ...BM25_PAGES_DEFAULTS, ...options };
    if (!Number.isInteger(o.pages) || o.pages < 1) throw new DocTreeError('CONFIG_INVALID', `pages must be a positive integer, got ${String(o.pages)}`);
    this.#context = context;
    this.id = o.id;
    this.#pages = o.pages;
  }

  override describe(): QaSystemDescription {
    return {
      label: 'BM25 over pages (reference)',
      code: doctreeCodeFingerprint(),
      description: 'one BM25 document per page; the best pages read in reading order within the context budget',
      config: { ...sharedConfig(this.#context), system: 'bm25-pages', pages: this.#pages },
    };
  }

  async #ranker(path: string, signal: AbortSignal | undefined): Promise<{ ranker: PageBm25Retriever; buildMs: number }> {
    const prepared = await this.#context.documents.prepare(path, signal);
    const cached = this.#rankers.get(path);
    if (cached !== undefined && cached.docDir === prepared.docDir) return cached;
    const started = performance.now();
    const ranker = new PageBm25Retriever(prepared.index.tree, { pages: this.#pages });
    const entry = { docDir: prepared.docDir, ranker, buildMs: performance.now() - started };
    this.#rankers.set(path, entry);
    return entry;
  }

  protected override async _prepare(doc: PrepareRequest): Promise<PrepareResult> {
    return { buildMs: (await this.#ranker(doc.path, doc.signal)).buildMs };
  }

  protected async _answer(question: Question, options: AnswerRequestOptions): Promise<SystemAnswer> {
    const { signal } = options;
    const started = performance.now();
    const startedAt = new Date().toISOString();
    const now = (): number => Math.max(0, performance.now() - started);
    const prepared = await this.#context.documents.prepare(options.path, signal);
    const { ranker } = await this.#ranker(options.path, signal);
    const { index } = prepared;
    const events: TraceEvent[] = [];

    const t0 = performance.now();
    const hits = await ranker.retrieve({ query: question.question, k: this.#pages, ...(signal ? { signal } : {}) });
    events.push({
      type: 'tool_call',
      t_ms: now(),
      attempt: 0,
      tool_id: ranker.name,
      args: { k: this.#pages },
      status: 'ok',
      n_hits: hits.length,
      latency_ms: performance.now() - t0,
      hits: hits.map((h) => ({ node_id: h.node_id, page_idx: h.page_idx, score: h.score_raw })),
    });
    const ranked: RankedPage[] = aggregatePages(hits, 'max');

    // Observe the best pages, node by node, until the context budget is spent.
    const budget = this.#context.config.agent.ctx_tokens;
    const observations: Observation[] = [];
    let tokens = 0;
    const graph = index.graph;
    outer: for (const hit of hits) {
      const best = hit.node_id.split('#')[0]!;
      const onPage = graph
        .onPage(hit.page_idx + 1)
        .map((id) => index.view.node(id))
        .filter((n) => n !== undefined && n.role !== 'section')
        .sort((a, b) => a!.read_order - b!.read_order)
        .map((n) => n!.node_id);
      const order = [best, ...onPage.filter((id) => id !== best)];
      for (const id of order) {
        if (signal?.aborted) throw new DocTreeError('CANCELLED', `answering ${question.id} was cancelled`);
        const [observation] = await this.#observer.observe([id], index, signal ? { signal } : {});
        if (observation === undefined || observations.some((o) => o.node_id === observation.node_id)) continue;
        const cost = estimateTokens(observationText(observation).text);
        if (observations.length > 0 && tokens + cost > budget) break outer;
        observations.push(observation);
        tokens += cost;
      }
    }
    events.push({
      type: 'observe',
      t_ms: now(),
      attempt: 0,
      message: `${observations.length} nodes from the best pages, ${tokens} tokens of ${budget}`,
      data: { observations: observations.map((o) => ({ node_id: o.node_id, page: o.page })), tokens, budget_tokens: budget },
    });

    const decision: RouterDecision = await this.#context.router.route(question.question, signal ? { signal } : {});
    const reader = this.#context.reader;
    const t1 = performance.now();
    const read = await reader.read({ question: question.question, observations, decision, ...(signal ? { signal } : {}) });
    if (signal?.aborted) throw new DocTreeError('CANCELLED', `answering ${question.id} was cancelled`);
    events.push({ type: 'read', t_ms: now(), attempt: 0, tool_id: 'reader.answer', status: 'ok', latency_ms: performance.now() - t1, message: reader.id, ...(read.usage ? { tokens: read.usage } : {}) });
    const observed = new Map(observations.map((o) => [o.node_id, o.page]));
    const support = read.support.filter((s) => observed.get(s.node_id) === s.page);
    events.push({ type: 'finalize', t_ms: now(), attempt: 0, data: { support: support.length, answer_format: read.answer_format } });
    const answer = finalizeAnswer({
      read: { ...read, support },
      trace: {
        format: 'doctree.trace',
        version: 1,
        trace_id: randomUUID(),
        doc_id: index.manifest.doc_id,
        question: question.question,
        started_at: startedAt,
        mode: read.usage ? 'llm' : 'offline',
        events,
        llm: { calls: read.usage ? 1 : 0, prompt_tokens: read.usage?.prompt ?? 0, completion_tokens: read.usage?.completion ?? 0, cost_usd: null },
        replans: 0,
      },
    });
    return { answer, rankedPages: ranked.map((p) => p.page), latencyMs: performance.now() - started };
  }
}

/** Options of {@link createEvalSystems}. */
export type CreateEvalSystemsOptions = EvalSystemsOptions;

/**
 * Creates the named evaluation systems over one shared context (documents, reader, router): `doctree` (the agent),
 * its ablations `doctree-sparse-only`, `doctree-dense-only`, `doctree-no-expansion`, `doctree-no-replan` and
 * `doctree-no-router` (each with `ablationOf: 'doctree'`), `rag` (dense chunks), `rag-hybrid` (dense + BM25 chunks)
 * and `bm25-pages` (the BM25-over-pages reference).
 *
 * @example
 * ```ts
 * const systems = createEvalSystems(['rag', 'bm25-pages'], { config });
 * await runEvaluation({ questions, systems, outDir: 'out/eval', documentsDir });
 * ```
 * @throws DocTreeError `USAGE` for an unknown or repeated id (listing the valid ones), `CONFIG_MISSING_SECRET`.
 */
export function createEvalSystems(ids: readonly string[], options: CreateEvalSystemsOptions): QaSystem[] {
  if (ids.length === 0) throw new DocTreeError('USAGE', 'no systems given', { hint: `Choose from: ${EVAL_SYSTEM_IDS.join(', ')}.` });
  const unknown = ids.filter((id) => !(EVAL_SYSTEM_IDS as readonly string[]).includes(id));
  if (unknown.length > 0) {
    throw new DocTreeError('USAGE', `unknown system${unknown.length > 1 ? 's' : ''} ${unknown.map((id) => `"${id}"`).join(', ')}`, { hint: `Valid systems: ${EVAL_SYSTEM_IDS.join(', ')}.` });
  }
  const repeated = ids.filter((id, i) => ids.indexOf(id) !== i);
  if (repeated.length > 0) throw new DocTreeError('USAGE', `system "${repeated[0]}" is given twice`);
  const context = createEvalSystemContext(options);
  return ids.map((id) => {
    switch (id as EvalSystemId) {
      case 'rag':
        return new RagQaSystem(context);
      case 'rag-hybrid':
        return new RagQaSystem(context, { hybrid: true });
      case 'bm25-pages':
        return new Bm25PagesQaSystem(context);
      case 'doctree':
        return new DocTreeQaSystem(context);
      default: {
        const ablation = DOCTREE_ABLATIONS[id]!;
        return new DocTreeQaSystem(context, { id, label: ablation.label, ablation: ablation.ablation, ablationOf: 'doctree' });
      }
    }
  });
}
