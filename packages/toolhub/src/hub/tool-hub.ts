import type { CompiledDomainPack } from '../domain/domain-pack.js';
import { pageFromIndex } from '@doctree/schema';
import type { ChatModelClient, EvidencePack, Hit, PlanStage, Reranker, StrategyPlan, ToolResult } from '@doctree/schema';
import type { DocIndex } from '@doctree/index';
import { createToolContext, type ToolContext } from '../context/tool-context.js';
import { ToolExecutor, type ToolCallOptions, type ToolCallRequest } from '../executor/tool-executor.js';
import { diversifyHits, rerankSteps, resolveRerankFeatures, type RerankContext, type RerankWeights } from '../fusion/feature-rerank.js';
import { reciprocalRankFusion, weightedFusion } from '../fusion/reciprocal-rank-fusion.js';
import { packSteps, type PackNeeds, type PackOptions } from '../pack/mmr-knapsack.js';
import type { AnyToolCard, ToolRegistry } from '../registry/tool-registry.js';
import { expandHits, type ExpandOptions } from '../structure/structure-expand.js';
import { TRACE_HIT_TEXT, TraceRecorder, summarizeHits, traceSnippet } from '../trace/trace-recorder.js';
import { createDefaultRegistry } from './default-cards.js';
import { runSlices, runSlicesCooperatively } from './slices.js';

/** How many of the best fused hits a {@link ToolHubOptions.reranker} sees. */
export const RERANKER_CANDIDATES = 50;
/** Characters of node text (heading path, title, body) given to a reranker per candidate. */
const RERANKER_TEXT_CHARS = 2000;

/** How {@link ToolHub.fuse} combines and orders lane results. */
export interface FuseOptions {
  /** `RRF` (reciprocal rank fusion, default) or `weighted` (min-max-normalised scores × lane weights). */
  method?: 'RRF' | 'weighted';
  /** RRF constant k. Default 60. */
  rrfK?: number;
  /** Lane weights by tool id (RRF: multiplies each lane's 1/(k + rank); weighted: the score weights). */
  laneWeights?: Readonly<Record<string, number>>;
  /** Rerank features to use (plan names accepted: `year`, `unit_match`, `toc_distance`…); empty = all. */
  features?: readonly string[];
  /** Rerank weights over the defaults. */
  weights?: Partial<RerankWeights>;
  /** Spread the top over sections or pages; null / absent = no diversification. */
  diversifyBy?: 'section' | 'page' | null;
  /** Diversification penalty per hit already taken from a group. Default 0.15. */
  diversityPenalty?: number;
  /** Most hits returned. Default all. */
  limit?: number;
}

/** Options of {@link ToolHub.create}. */
export interface ToolHubOptions {
  /** The loaded document index the cards read. */
  index: DocIndex;
  /** The document's domain pack: cards match concepts and abbreviations with it. Default: the finance pack's concepts. */
  domain?: CompiledDomainPack;
  /** Chat model for `rank.llm` (and for cards registered by the agents); absent offline. */
  chat?: ChatModelClient | undefined;
  /** Trace recorder shared with the agent loop. Default: a new one. */
  trace?: TraceRecorder;
  /** Registry to use. Default: {@link createDefaultRegistry} (plus `cards`). */
  registry?: ToolRegistry<ToolContext>;
  /** Extra cards registered on the default registry (reader, judger, vlm… from `@doctree/agents`, your own lanes). */
  cards?: readonly AnyToolCard<ToolContext>[];
  /**
   * Cards that replace registered cards of the same id (e.g. your own `dense.search`), after `cards`. Each
   * replacement is recorded in the trace (a `plan` event naming the card). An id no card has is a `USAGE` error.
   */
  replace?: readonly AnyToolCard<ToolContext>[];
  /** Time limit of each tool call, ms (0 = none). Default 30 000. */
  timeoutMs?: number;
  /** Default fusion / rerank options of {@link ToolHub.fuse}. */
  fuse?: FuseOptions;
  /**
   * A reranker of your own (cross-encoder, LLM ranker…), run by {@link ToolHub.runStage} after fusion and the feature
   * rerank, on the best {@link RERANKER_CANDIDATES} fused hits. It may reorder and drop hits, never add nodes; a failure
   * keeps the fused order with a trace warning. Default none.
   */
  reranker?: Reranker;
  /** Default expansion options of {@link ToolHub.expand}. */
  expand?: ExpandOptions;
  /** Default packing options of {@link ToolHub.pack}. */
  pack?: PackOptions;
}

/** Plan fields {@link ToolHub.runStage} reads besides the stage (all optional; StrategyPlan defaults apply). */
export interface StagePlan {
  rerank?: Partial<StrategyPlan['rerank']>;
  pack?: Partial<StrategyPlan['pack']>;
  coverage_gate?: number;
}

/** What {@link ToolHub.runStage} knows besides the stage and the query. */
export interface StageContext {
  /** Plan-level rerank, pack and coverage settings. */
  plan?: StagePlan;
  /** Signals for the rerank and lanes (page hints, units, years, labels, intent…); `query` comes from the call. */
  rerank?: Omit<RerankContext, 'query'>;
  /** Needs the pack's coverage is measured against. */
  needs?: PackNeeds;
  /** Extra arguments per lane (`{ 'dense.search': { views: ['coarse'] } }`), merged over the stage's. */
  laneArgs?: Readonly<Record<string, Record<string, unknown>>>;
  /** Expansion options over the hub's. */
  expand?: ExpandOptions;
  /** Packing options over the hub's and the plan's. */
  pack?: PackOptions;
  /** Cancels the lanes. */
  signal?: AbortSignal;
  /** Time limit per lane call, ms. */
  timeoutMs?: number;
  /**
   * A cooperative checkpoint awaited between the stage's parts (each lane, fusion and rerank, expansion, packing): it
   * yields to the event loop so no part of a stage blocks it with the others, and rejects the stage when it throws
   * (the agent's pause throws `CANCELLED` once the question's signal aborts). Absent: the stage runs in one go.
   */
  pause?: () => Promise<void>;
}

/** Result of {@link ToolHub.runStage}. */
export interface StageResult {
  stage: string;
  /** One result per lane call, in `stage.methods` order (errors included). */
  results: ToolResult[];
  /** Fused, reranked, diversified hits cut to `k_pages` pages and `k_nodes` nodes. */
  ranked: Hit[];
  /** `ranked` plus its structure expansion. */
  candidates: Hit[];
  pack: EvidencePack;
  /** `pack.coverage`. */
  coverage: number;
  /** Coverage reached the plan's gate (default 0.5). */
  passed: boolean;
  /** Methods of the stage that are registered but not retrieval lanes (expansion and packing run anyway). */
  skipped: string[];
}

/** Default coverage gate (StrategyPlan's). */
const DEFAULT_COVERAGE_GATE = 0.5;

/** The checkpoint of a stage run without a pause. */
const noPause = (): Promise<void> => Promise.resolve();

/** Lanes that take page hints as the pages to look at. */
const PAGE_LANES = new Set(['page_locator.locate', 'figure_finder.find_regions']);

/**
 * The ToolHub facade over one document: a registry of tool cards (the defaults plus any extra), an executor with a
 * trace, and the retrieval pipeline of docs/design/agent-loop.md §4 — concurrent lanes → RRF + feature rerank → structure expansion →
 * MMR knapsack pack with coverage. The agent loop calls {@link runStage} per plan stage, and {@link call} for steps.
 *
 * @example
 * ```ts
 * const hub = ToolHub.create({ index });
 * const stage = await hub.runStage({ stage: 'primary', methods: ['bm25_node.search', 'dense.search', 'table_index.search'], k_pages: 8, k_nodes: 50, page_window: 1 },
 *   'What were capital expenditures in 2023?', { rerank: { years: [2023] }, needs: { years: [2023], keywords: ['capital expenditures'] } });
 * stage.pack.items.forEach((i) => console.log(i.page, i.node_id, i.text.slice(0, 60)));
 * ```
 */
export class ToolHub {
  readonly index: DocIndex;
  readonly context: ToolContext;
  readonly registry: ToolRegistry<ToolContext>;
  readonly executor: ToolExecutor<ToolContext>;
  readonly trace: TraceRecorder;
  readonly #options: ToolHubOptions;

  private constructor(options: ToolHubOptions) {
    this.#options = options;
    this.index = options.index;
    this.context = createToolContext({ index: options.index, chat: options.chat, domain: options.domain });
    this.registry = options.registry ?? createDefaultRegistry();
    if (options.cards) for (const card of options.cards) this.registry.register(card);
    for (const card of options.replace ?? []) this.registry.register(card, { replace: true });
    this.trace = options.trace ?? new TraceRecorder();
    for (const r of this.registry.replacements()) {
      this.trace.record({ type: 'plan', message: `tool card ${r.id} replaced: ${r.by}`, data: { replaced_card: r.id, replaced: r.replaced, by: r.by } });
    }
    this.executor = new ToolExecutor({ registry: this.registry, context: this.context, trace: this.trace, ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}) });
  }

  /**
   * Creates a hub over a loaded index.
   *
   * @throws DocTreeError `USAGE` when an extra card's id is taken, or a `replace` card's id is not.
   */
  static create(options: ToolHubOptions): ToolHub {
    return new ToolHub(options);
  }

  /** Calls one tool card through the executor (validated, timed, traced; failures are error results). */
  call(toolId: string, args: Record<string, unknown> = {}, options: ToolCallOptions = {}): Promise<ToolResult> {
    return this.executor.call({ tool_id: toolId, args }, options);
  }

  /** Runs several calls; retrieval lanes run concurrently. Results are in input order. */
  runLanes(calls: readonly ToolCallRequest[], options: ToolCallOptions = {}): Promise<ToolResult[]> {
    return this.executor.callMany(calls, options);
  }

  /**
   * Fuses lane results (error results are skipped) with RRF (or weighted scores), reranks them with the docs/design/index-features.md §4
   * features when a rerank context is given, and diversifies by section or page when asked. Records a `fuse` event.
   */
  fuse(results: readonly (ToolResult | readonly Hit[])[], context?: RerankContext, options: FuseOptions = {}): Hit[] {
    return runSlices(this.#fuseSteps(results, context, options));
  }

  /**
   * {@link fuse} in slices: `await pause()` runs between fusion, each reranked hit, diversity and the trace event (a
   * cooperative checkpoint such as the agent's `createPause`; when it throws, e.g. `CANCELLED`, nothing is recorded).
   * Same hits and trace as {@link fuse}.
   */
  fuseInSlices(results: readonly (ToolResult | readonly Hit[])[], context: RerankContext | undefined, options: FuseOptions, pause: () => Promise<void>): Promise<Hit[]> {
    return runSlicesCooperatively(this.#fuseSteps(results, context, options), pause);
  }

  /** The work of {@link fuse}, yielding between its slices (fusion, each reranked hit, diversity, the trace). */
  *#fuseSteps(results: readonly (ToolResult | readonly Hit[])[], context: RerankContext | undefined, options: FuseOptions): Generator<void, Hit[]> {
    const o = { ...this.#options.fuse, ...options };
    const lists = results.map((r) => (Array.isArray(r) ? (r as readonly Hit[]) : (r as ToolResult).status === 'ok' ? (r as ToolResult).hits : []));
    const fused = o.method === 'weighted' ? weightedFusion(lists, o.laneWeights ? { weights: o.laneWeights } : {}) : reciprocalRankFusion(lists, { ...(o.rrfK ? { k: o.rrfK } : {}), ...(o.laneWeights ? { weights: o.laneWeights } : {}) });
    yield;
    let ranked = context ? yield* rerankSteps(this.context.nav, fused, context, { ...(o.features ? { features: o.features } : {}), ...(o.weights ? { weights: o.weights } : {}) }) : fused;
    yield;
    if (o.diversifyBy) ranked = diversifyHits(ranked, o.diversifyBy, o.diversityPenalty !== undefined ? { penalty: o.diversityPenalty } : {});
    if (o.limit !== undefined) ranked = ranked.slice(0, o.limit);
    const unknown = o.features ? resolveRerankFeatures(o.features).unknown : [];
    this.trace.record({
      type: 'fuse',
      n_hits: ranked.length,
      hits: summarizeHits(ranked, 20),
      data: {
        method: o.method ?? 'RRF',
        lanes: lists.map((l, i) => ({ tool_id: Array.isArray(results[i]) ? (l[0]?.method ?? 'hits') : (results[i] as ToolResult).tool_id, n_hits: l.length })),
        reranked: context !== undefined,
        ...(o.diversifyBy ? { diversify_by: o.diversifyBy } : {}),
        ...(unknown.length > 0 ? { unknown_features: unknown } : {}),
      },
    });
    return ranked;
  }

  /** Structure expansion of ranked hits (see `expandHits`); records an `expand` event. */
  expand(hits: readonly Hit[], options: ExpandOptions = {}): Hit[] {
    const candidates = expandHits(this.context.nav, hits, { ...this.#options.expand, ...options });
    this.trace.record({ type: 'expand', n_hits: candidates.length, data: { from: hits.length, added: candidates.length - Math.min(hits.length, candidates.length) } });
    return candidates;
  }

  /** MMR knapsack packing with coverage (see `packEvidence`); records a `pack` event. */
  pack(candidates: readonly Hit[], options: PackOptions = {}): EvidencePack {
    return runSlices(this.#packSteps(candidates, options));
  }

  /**
   * {@link pack} in slices: `await pause()` runs after each candidate's evidence text and each packed item (see
   * {@link fuseInSlices}). Same pack and trace as {@link pack}.
   */
  packInSlices(candidates: readonly Hit[], options: PackOptions, pause: () => Promise<void>): Promise<EvidencePack> {
    return runSlicesCooperatively(this.#packSteps(candidates, options), pause);
  }

  /** The work of {@link pack}, yielding between its slices (each candidate's text, each item packed, the trace). */
  *#packSteps(candidates: readonly Hit[], options: PackOptions): Generator<void, EvidencePack> {
    const pack = yield* packSteps(this.context.nav, candidates, { ...(this.context.domain ? { concepts: this.context.domain.concepts } : {}), ...this.#options.pack, ...options });
    yield;
    this.trace.record({
      type: 'pack',
      n_hits: pack.items.length,
      hits: pack.items.map((i, n) => ({ node_id: i.node_id, page_idx: i.page - 1, score: Math.round(i.score * 1e6) / 1e6, ...(n < TRACE_HIT_TEXT.hits * 2 ? { snippet: traceSnippet(i.text) } : {}) })),
      data: { total_tokens: pack.total_tokens, budget_tokens: pack.budget_tokens, coverage: pack.coverage, needs_covered: pack.needs_covered, needs_missing: pack.needs_missing },
    });
    return pack;
  }

  /**
   * Runs the configured {@link Reranker} over the best fused hits (the rest keep their order after them). Hits the
   * reranker returns for nodes it was not given, or twice, are dropped with a warning; a failure (other than a
   * cancellation) keeps the fused order with a warning. Records a `fuse` event with the reranker's order.
   */
  async #rerankWith(reranker: Reranker, query: string, fused: readonly Hit[], signal: AbortSignal | undefined): Promise<Hit[]> {
    const head = fused.slice(0, RERANKER_CANDIDATES);
    const byId = new Map(head.map((hit) => [hit.node_id, hit] as const));
    const candidates = head.map((hit) => {
      const node = this.context.nav.node(hit.node_id);
      const surface = node ? this.context.nav.surface(node) : undefined;
      const text = surface ? [surface.path, surface.title, surface.body].filter((part) => part !== '').join('\n') : '';
      return { hit, text: text.slice(0, RERANKER_TEXT_CHARS) };
    });
    let out: Hit[];
    try {
      out = await reranker.rerank({ query, candidates, ...(signal ? { signal } : {}) });
      if (!Array.isArray(out)) throw new Error('rerank() did not return an array of hits');
    } catch (error) {
      if (signal?.aborted || (error as { code?: unknown }).code === 'CANCELLED') throw error;
      this.trace.record({ type: 'warning', message: `reranker ${reranker.name} failed (${error instanceof Error ? error.message : String(error)}); the fused order is kept` });
      return [...fused];
    }
    const seen = new Set<string>();
    const kept: Hit[] = [];
    let dropped = 0;
    for (const hit of out) {
      const id = typeof hit?.node_id === 'string' ? hit.node_id : undefined;
      const original = id !== undefined ? byId.get(id) : undefined;
      if (id === undefined || original === undefined || seen.has(id)) {
        dropped++;
        continue;
      }
      seen.add(id);
      kept.push({ ...original, ...(typeof hit.score === 'number' && Number.isFinite(hit.score) ? { score: hit.score } : {}) });
    }
    if (dropped > 0) this.trace.record({ type: 'warning', message: `reranker ${reranker.name} returned ${dropped} hit(s) for nodes it was not given (or twice); dropped` });
    const ranked = [...kept, ...fused.slice(RERANKER_CANDIDATES)];
    this.trace.record({ type: 'fuse', n_hits: ranked.length, hits: summarizeHits(ranked, 20), data: { method: `reranker:${reranker.name}`, candidates: head.length, kept: kept.length } });
    return ranked;
  }

  /**
   * Runs one plan stage: its retrieval methods as concurrent lanes (`query`, `k = k_nodes`, `roles`; page hints as
   * `pages` ± `page_window` for the page lanes; table years / units / labels from the rerank context; `laneArgs`
   * merged on top), then {@link fuse} with the plan's rerank settings, a cut to the best `k_pages` pages and `k_nodes`
   * nodes, {@link expand}, and {@link pack} with the plan's pack settings and the needs. Unknown methods give error
   * results (the stage goes on); registered non-retrieval methods are listed in `skipped`.
   */
  async runStage(stage: PlanStage, query: string, context: StageContext = {}): Promise<StageResult> {
    const plan = context.plan ?? {};
    const signals = context.rerank ?? {};
    const skipped: string[] = [];
    const calls: ToolCallRequest[] = [];
    for (const method of stage.methods) {
      if (this.registry.has(method) && this.registry.get(method).kind !== 'retrieval') {
        skipped.push(method);
        continue;
      }
      const args: Record<string, unknown> = { query, k: stage.k_nodes, ...(stage.roles && stage.roles.length > 0 ? { roles: stage.roles } : {}) };
      if (PAGE_LANES.has(method) && signals.page_hints && signals.page_hints.length > 0) {
        args['pages'] = [...signals.page_hints];
        args['page_window'] = stage.page_window;
      }
      if (method === 'table_index.search') {
        if (signals.years?.length) args['years'] = [...signals.years];
        if (signals.units?.length) args['units'] = [...signals.units];
        if (signals.labels?.length) args['labels'] = [...signals.labels];
      }
      if (method === 'chart_index.search' && signals.labels?.length) args['labels'] = [...signals.labels];
      calls.push({ tool_id: method, args: { ...args, ...context.laneArgs?.[method] } });
    }
    if (skipped.length > 0) this.trace.record({ type: 'warning', message: `stage ${stage.stage}: ${skipped.join(', ')} are not retrieval lanes; skipped` });
    const pause = context.pause ?? noPause;
    const callOptions: ToolCallOptions = {
      ...(context.signal ? { signal: context.signal } : {}),
      ...(context.timeoutMs !== undefined ? { timeoutMs: context.timeoutMs } : {}),
      ...(context.pause ? { pause: context.pause } : {}),
    };
    await pause();
    const results = await this.executor.callMany(calls, callOptions);
    // Fusion, rerank and packing run in slices with the pause between them (the same work as fuse() and pack()).
    const fused = await runSlicesCooperatively(
      this.#fuseSteps(
        results,
        { ...signals, query },
        {
          ...(plan.rerank?.fuse ? { method: plan.rerank.fuse } : {}),
          ...(plan.rerank?.features ? { features: plan.rerank.features } : {}),
          diversifyBy: plan.rerank?.diversify_by ?? null,
        },
      ),
      pause,
    );
    await pause();
    const reranked = this.#options.reranker ? await this.#rerankWith(this.#options.reranker, query, fused, context.signal) : fused;
    await pause();
    const ranked = cutToPages(reranked, stage.k_pages, stage.k_nodes);
    const candidates = this.expand(ranked, context.expand);
    await pause();
    const pack = await runSlicesCooperatively(
      this.#packSteps(candidates, {
        ...(plan.pack?.ctx_tokens !== undefined ? { budgetTokens: plan.pack.ctx_tokens } : {}),
        ...(plan.pack?.mmr_lambda !== undefined ? { lambda: plan.pack.mmr_lambda } : {}),
        ...(plan.pack?.per_page_limit !== undefined ? { perPageLimit: plan.pack.per_page_limit } : {}),
        ...(plan.pack?.attach && plan.pack.attach.length > 0 ? { attach: plan.pack.attach } : {}),
        ...context.pack,
        ...(context.needs ? { needs: context.needs } : {}),
      }),
      pause,
    );
    await pause();
    const gate = plan.coverage_gate ?? DEFAULT_COVERAGE_GATE;
    return { stage: stage.stage, results, ranked, candidates, pack, coverage: pack.coverage, passed: pack.coverage >= gate, skipped };
  }
}

/** Keeps hits (in order) from the first `kPages` distinct pages, at most `kNodes` of them. */
export function cutToPages(hits: readonly Hit[], kPages: number, kNodes: number): Hit[] {
  const pages = new Set<number>();
  const out: Hit[] = [];
  for (const hit of hits) {
    if (out.length >= kNodes) break;
    if (!pages.has(hit.page_idx)) {
      if (pages.size >= kPages) continue;
      pages.add(hit.page_idx);
    }
    out.push(hit);
  }
  return out;
}

/** 1-based pages of hits, sorted and unique (for people and eval data). */
export function hitPages(hits: readonly Hit[]): number[] {
  return [...new Set(hits.map((h) => pageFromIndex(h.page_idx)))].sort((a, b) => a - b);
}
