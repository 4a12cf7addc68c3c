import { DOCTREE_ERROR_CODES as ERROR_CODES, DocTreeError, pageFromIndex, redactSecrets } from '@doctree/schema';
import type { Answer, AnswerReader, ChatModelClient, Hit, Observation, QueryPlanner, QuestionRouter, Reranker, RouterDecision, StrategyPlan, Trace, TraceEvent } from '@doctree/schema';
import { detectDomainPack, detectDomainPackInSlices, type CompiledDomainPack, type DomainPackChoice } from '@doctree/toolhub';
import { analyzeQuery, type DocIndex } from '@doctree/index';
import { hitScore, needsFromDecision, nodeHit, PageRanker, pageViewFor, ToolHub, TraceRecorder } from '@doctree/toolhub';
import type { PageLaneName, PageRankInput, PageScore, RankedPageEvidence } from '@doctree/toolhub';
import type { AnyToolCard, ToolContext, ToolHubOptions, TraceRecorderOptions } from '@doctree/toolhub';
import { analyzeQuestion, attachAnalysis } from '../analysis/question-analysis.js';
import { AnswerCalibrator, calibratedAnswer, type Calibration } from '../finalizer/answer-calibrator.js';
import { DocumentWords, documentLacks } from '../finalizer/document-lacks.js';
import { finalizeAnswer, type FinalizeAnswerOptions } from '../finalizer/finalize-answer.js';
import type { AnswerJudger, JudgeVerdict } from '../judger/answer-judger.js';
import { LlmJudger } from '../judger/llm-judger.js';
import { RuleJudger } from '../judger/rule-judger.js';
import { Observer, type ObserverOptions } from '../observer/observe.js';
import { PLANNER_TOOL_IDS, type PlanFlag } from '../planner/plan-vocabulary.js';
import { cardOutputsOf } from '../planner/plan-references.js';
import { replan } from '../planner/replan.js';
import { blankDecision, TemplatePlanner } from '../planner/template-planner.js';
import { ExtractiveReader } from '../reader/extractive-reader.js';
import { LlmReader } from '../reader/llm-reader.js';
import { LlmRouter } from '../router/llm-router.js';
import { RuleRouter } from '../router/rule-router.js';
import { answersComputedValue, createAgentCards, type AgentCardSession, type ReadRecord, type VisionOptions } from './agent-cards.js';
import { DEFAULT_AGENT_POLICIES, type AgentPolicies, type Pass } from './agent-policies.js';
import { createCardSession } from './card-session.js';
import { resolveRetrieverLanes, type ResolvedRetrieverLanes, type RetrieverLane } from './retriever-lanes.js';
import { AgentMemory, type AttemptRecord, type MemorySession } from './agent-memory.js';
import { packForPlan, runPlanStages, type LaneAblation, type PlanRetrieval } from './stage-runner.js';
import { createPause } from './cooperative.js';
import { warmDocument } from './document-warmup.js';
import { runPlanSteps, type StepOutcome } from './step-runner.js';
import { runWithLlmTrace, TracedChatClient } from './traced-chat-client.js';
import { traceListener } from './trace-listener.js';

/** How the agent routes questions (the eval's router ablation, or a router of your own). */
export type RouterChoice = 'auto' | 'rules' | 'single-template' | QuestionRouter;

/** Options of {@link DocTreeAgent}. Every component is injectable; defaults follow the mode (offline or with `chat`). */
export interface DocTreeAgentOptions {
  /** The loaded document index the agent answers from. */
  index: DocIndex;
  /**
   * Chat model of the LLM path (`createChatClient(config)` of this package, a `DryRunChatClient`…). Absent: offline
   * (rule router, template planner, extractive reader, rule judger). Wrapped in a {@link TracedChatClient} so every
   * call is an `llm_call` trace event.
   */
  chat?: ChatModelClient;
  /**
   * Router: `auto` (default: the LLM router with `chat`, else the rule router), `rules` (rule router always),
   * `single-template` (no router: the lookup template for every question — the "no router" ablation), or a router.
   */
  router?: RouterChoice;
  /** Planner. Default a {@link TemplatePlanner} (`ctxTokens`, vision steps when `vision` is set). */
  planner?: QueryPlanner;
  /** Template planner used by REPLAN's `switch_template` fallbacks. Default the planner when it is one, else a new one. */
  templates?: TemplatePlanner;
  /** Reader. Default an {@link LlmReader} (extractive fallback) with `chat`, else an {@link ExtractiveReader}. */
  reader?: AnswerReader;
  /** Reader asked when the judger says `fallback`. Default an {@link ExtractiveReader} with `chat`, none offline. */
  fallbackReader?: AnswerReader;
  /** Judger. Default an {@link LlmJudger} (rule checks first) with `chat`, else a {@link RuleJudger}. */
  judger?: AnswerJudger;
  /** Observer options (text / table / image limits; the image observer's VLM comes from `vision`). */
  observer?: ObserverOptions;
  /** Vision model for `vlm.answer` / `vlm.count` and figure observations; absent: those cards are not configured. */
  vision?: VisionOptions;
  /**
   * ToolHub options (time limit per call, fusion, expansion and packing defaults), extra tool cards (`cards`; those
   * of kind `retrieval` are lanes plans may name) and cards replacing built-in ones of the same id (`replace`, traced).
   */
  hub?: Pick<ToolHubOptions, 'timeoutMs' | 'fuse' | 'expand' | 'pack'> & { cards?: readonly AnyToolCard<ToolContext>[]; replace?: readonly AnyToolCard<ToolContext>[] };
  /**
   * Retrievers of your own as retrieval lanes (any `Retriever`, e.g. a `BaseRetriever` that passes
   * `runRetrieverConformance`): added beside the built-in text lanes in every stage of the default planner and fused
   * with them, or (`{ retriever, id: 'dense.search', replace: true }`) replacing a built-in lane. A planner of your
   * own names them itself (`retrievalLanes` of its options). Default none.
   */
  retrievers?: readonly RetrieverLane[];
  /**
   * A reranker of your own (any `Reranker` of `@doctree/schema`, e.g. a cross-encoder; check it with
   * `runRerankerConformance` of `@doctree/toolhub/testing`), run in every stage after fusion and the feature rerank.
   * Default none.
   */
  reranker?: Reranker;
  /** Memory (stage and observation caches shared across questions of this index). Default a new {@link AgentMemory}. */
  memory?: AgentMemory;
  /** REPLAN passes after the first, at most (`agent.max_replans`). Default 2. */
  maxReplans?: number;
  /** Evidence budget of the pack, tokens (`agent.ctx_tokens`), for the default planner. Default 1500. */
  ctxTokens?: number;
  /** With `chat`, the default planner reranks the expanded candidates with `rank.llm` before reading. Default false. */
  rankWithLlm?: boolean;
  /** Lane ablation: `both` (default), `sparse` (no dense search) or `dense` (no keyword lanes). */
  lanes?: LaneAblation;
  /** Structure expansion of ranked hits (ablation switch). Default true. */
  expansion?: boolean;
  /** Retrieval passes with the plan's coverage fallbacks while coverage is below the gate, per attempt. Default 1. */
  coveragePasses?: number;
  /**
   * When an LLM call fails (timeout, 429s, unreachable endpoint): `fallback` (default) answers with the rule / extractive
   * component and records the failure in the trace; `fail` stops the question with that `DocTreeError` (`LLM_TIMEOUT`…).
   */
  onLlmError?: 'fallback' | 'fail';
  /**
   * Overall time budget of the LLM calls of one question, ms (`llm.question_budget_ms`), retries and waits included.
   * Once spent, calls in flight are aborted and every further LLM call of the question fails at once with
   * `LLM_TIMEOUT`: with `onLlmError: 'fallback'` the offline components answer, with `fail` the question stops with
   * `LLM_TIMEOUT`. The trace records a `warning` when the budget runs out. Default 90000.
   */
  llmBudgetMs?: number;
  /** Strings never written to traces or messages (API keys). Default none. */
  secrets?: readonly string[];
  /** Trace recorder options (hits kept per event, clock). */
  trace?: Omit<TraceRecorderOptions, 'secrets'>;
  /** Finalizer options (confidence blend, supports kept). */
  finalize?: FinalizeAnswerOptions;
  /**
   * Ranks the document's pages for {@link AgentRun.rankedPages} from every lane (page lanes over the whole document,
   * node lanes, fused hits, pack, support). Default a {@link PageRanker} with its fitted default model.
   */
  pageRanker?: PageRanker;
  /**
   * The domain pack questions and evidence are read with (`selectDomainPack` of `@doctree/toolhub` reads the
   * `domain.pack` setting). Default: chosen from the document's first pages — finance for a 10-K / 10-Q / annual report
   * / earnings release, else generic ({@link detectDomainPack}).
   */
  domainPack?: CompiledDomainPack;
  /**
   * Calibrates the answer: its confidence becomes the probability it is right, and it declines ("Not answerable",
   * with the reason and the evidence kept) when refusing is the likelier right output. Default offline an
   * {@link AnswerCalibrator} with its fitted default model (fitted on the offline reader's answers); with `chat`, the
   * same in `lacks` mode (declines questions about pages, years or names the document lacks; the model's probabilities
   * are traced, the chat model's confidence stays) — pass `AnswerCalibrator.forReader('llm', model)` with a model
   * fitted on your model's runs (`reader: "llm"`) to apply it. `false` skips calibration.
   */
  calibrator?: AnswerCalibrator | false;
  /**
   * The loop's decisions (which pass to keep, stopping without new evidence, reading again with the fallback reader,
   * REPLAN), each replaceable; unset ones are {@link DEFAULT_AGENT_POLICIES}.
   */
  policies?: Partial<AgentPolicies>;
  /**
   * Pages are ranked, with their best nodes as evidence: the best nodes of the top `evidencePages` ranked pages join the
   * evidence pack the reader reads when the stages left them out (scoping narrows, never hides). Default 3; 0 reads the
   * stages' pack only.
   */
  evidencePages?: number;
}

/** Defaults of {@link DocTreeAgentOptions}. */
export const DOCTREE_AGENT_DEFAULTS = {
  router: 'auto',
  maxReplans: 2,
  ctxTokens: 1500,
  lanes: 'both',
  expansion: true,
  coveragePasses: 1,
  onLlmError: 'fallback',
  llmBudgetMs: 90_000,
  evidencePages: 3,
} as const satisfies Partial<DocTreeAgentOptions>;

/** A step of the loop, reported to {@link AskOptions.onEvent} (progress displays, logs). */
export interface AgentEvent {
  type: 'route' | 'plan' | 'retrieve' | 'steps' | 'read' | 'judge' | 'replan' | 'finalize';
  /** 0 for the first pass, +1 per REPLAN. */
  attempt: number;
  /** One line for people. */
  message: string;
}

/** Per-question options of {@link DocTreeAgent.ask}. */
export interface AskOptions {
  /** Cancels the question (`CANCELLED`). */
  signal?: AbortSignal;
  /** REPLAN passes for this question, overriding the agent's. */
  maxReplans?: number;
  /** Receives each step of the loop. Must not throw (exceptions are ignored). */
  onEvent?: (event: AgentEvent) => void;
  /**
   * Receives each event of the question's trace as it is recorded (secrets scrubbed): every tool call with its hits,
   * LLM call, fusion, packing… while the question runs, not after it. Must not throw (exceptions are ignored).
   */
  onTraceEvent?: (event: TraceEvent) => void;
}

/** Token, call and time accounting of one question. */
export interface AgentUsage {
  llmCalls: number;
  promptTokens: number;
  completionTokens: number;
  /** USD, when prices are configured. */
  costUsd: number | null;
  /** Error codes of failed LLM calls (each one was answered by a fallback). */
  llmErrors: string[];
  toolCalls: number;
  replans: number;
  latencyMs: number;
}

/** Everything one question produced. */
export interface AgentRun {
  /** The answer (`--json` prints exactly this), its trace included. */
  answer: Answer;
  /**
   * 1-based pages, unique, best first (recall@k reads this): the page ranker's order, then any page of the answer,
   * the ranked hits, the pack and the candidates it did not rank.
   */
  rankedPages: number[];
  /** The page ranker's pages with the features that placed them, best first. */
  pageRanking: RankedPageEvidence[];
  /** The calibration of the answer (absent with `calibrator: false`), with the reader's answer before it. */
  calibration?: Calibration & { raw: Pick<Answer, 'answer' | 'answer_format' | 'confidence'> };
  decision: RouterDecision;
  /** The plan of the pass whose answer was kept. */
  plan: StrategyPlan;
  /** Every plan run, in order (the first, then one per REPLAN). */
  plans: StrategyPlan[];
  /** What the kept answer was read from. */
  observations: Observation[];
  /** The judger's verdict on the kept answer. */
  verdict?: JudgeVerdict;
  /** One record per pass: plan, coverage, new / reused nodes, verdict, what REPLAN changed. */
  attempts: AttemptRecord[];
  /** The steps of the kept pass. */
  steps: StepOutcome[];
  usage: AgentUsage;
}

const READER_ID = 'reader.answer';
const JUDGER_ID = 'judger.verify';

/**
 * The DocTree agent (docs/design/agent-loop.md §1): Router → Planner → ToolHub stages (concurrent lanes, fusion, rerank, expansion,
 * packing; `when` / `within` / `view` / `pages` / `query_terms`; coverage fallbacks) → Steps executor (`extract.*`,
 * `compute.eval`, `structure.children`, `figure_finder`, `vlm.*`, with `$VAR` references) → Observer on the evidence
 * → Reader → Judger → REPLAN while the judger asks for it (at most `maxReplans` times) → Finalizer. Reader, judger and
 * vision run as the `reader.answer`, `judger.verify`, `vlm.answer` and `vlm.count` tool cards of the question's
 * ToolHub, so the trace replays the whole path. Memory caches stage results and observations and de-duplicates the
 * nodes visited across passes. Prompts carry focused windows only (question, router hints, packed evidence items),
 * never the document. Works offline by default; with `chat`, the LLM router, reader and judger (rule fallbacks).
 *
 * @example
 * ```ts
 * const agent = new DocTreeAgent({ index });                  // offline
 * const run = await agent.ask('What were capital expenditures in 2023?');
 * console.log(run.answer.answer, run.answer.pages, run.rankedPages.slice(0, 5));
 * ```
 */
export class DocTreeAgent {
  readonly index: DocIndex;
  readonly router: QuestionRouter | undefined;
  readonly planner: QueryPlanner;
  readonly reader: AnswerReader;
  readonly judger: AnswerJudger;
  readonly memory: AgentMemory;
  /** The traced chat client (undefined offline). */
  readonly chat: TracedChatClient | undefined;
  readonly #options: DocTreeAgentOptions & Required<Pick<DocTreeAgentOptions, keyof typeof DOCTREE_AGENT_DEFAULTS>>;
  readonly #templates: TemplatePlanner;
  readonly #fallbackReader: AnswerReader | undefined;
  readonly #observer: Observer;
  readonly #vision: VisionOptions | undefined;
  readonly #secrets: string[];
  readonly #pageRanker: PageRanker;
  /** Chosen on first use (the first ask, or {@link domainPack}): detection scans the whole tree. */
  #domain: DomainPackChoice | undefined;
  readonly #calibrator: AnswerCalibrator | undefined;
  /** The document's text lower-cased once (names the questions mention are looked up in it). */
  #documentWords: DocumentWords | undefined;
  readonly #policies: AgentPolicies;
  readonly #lanes: ResolvedRetrieverLanes;

  /**
   * @throws DocTreeError `USAGE` when the index is missing or an option is out of range.
   */
  constructor(options: DocTreeAgentOptions) {
    if (!options?.index?.tree || !options.index.view) throw new DocTreeError('USAGE', 'DocTreeAgent needs a loaded document index', { hint: 'Load one with prepareDocument() or loadDocIndex().' });
    const o = { ...DOCTREE_AGENT_DEFAULTS, ...definedOnly(options) } as DocTreeAgentOptions & Required<Pick<DocTreeAgentOptions, keyof typeof DOCTREE_AGENT_DEFAULTS>>;
    if (!Number.isInteger(o.maxReplans) || o.maxReplans < 0 || o.maxReplans > 10) throw new DocTreeError('USAGE', `maxReplans must be an integer in 0..10, got ${String(o.maxReplans)}`);
    if (!['both', 'sparse', 'dense'].includes(o.lanes)) throw new DocTreeError('USAGE', `lanes must be both, sparse or dense, not ${String(o.lanes)}`);
    if (!Number.isInteger(o.evidencePages) || o.evidencePages < 0 || o.evidencePages > 20) throw new DocTreeError('USAGE', `evidencePages must be an integer in 0..20, got ${String(o.evidencePages)}`);
    if (!(Number.isFinite(o.llmBudgetMs) && o.llmBudgetMs > 0)) throw new DocTreeError('USAGE', `llmBudgetMs must be a positive number of ms, got ${String(o.llmBudgetMs)}`);
    if (!Number.isInteger(o.ctxTokens) || o.ctxTokens < 100) throw new DocTreeError('USAGE', `ctxTokens must be an integer of at least 100, got ${String(o.ctxTokens)}`);
    this.#options = o;
    this.#secrets = [...(o.secrets ?? [])];
    this.index = o.index;
    const secrets = { secrets: this.#secrets };
    this.chat = o.chat ? (o.chat instanceof TracedChatClient ? o.chat : new TracedChatClient(o.chat, secrets)) : undefined;
    const vision = o.vision ? { ...o.vision, client: o.vision.client instanceof TracedChatClient ? o.vision.client : new TracedChatClient(o.vision.client, secrets) } : undefined;
    this.#vision = vision;
    const choice = o.router;
    this.router =
      typeof choice === 'object' ? choice : choice === 'single-template' ? undefined : choice === 'auto' && this.chat ? new LlmRouter({ client: this.chat, ...secrets }) : new RuleRouter();
    this.#lanes = resolveRetrieverLanes(o.retrievers ?? []);
    const templateOptions = { ctxTokens: o.ctxTokens, vlm: vision !== undefined, rankWithLlm: this.chat !== undefined && o.rankWithLlm === true, singleTemplate: choice === 'single-template', lanes: this.#lanes.lanes };
    this.#templates = o.templates ?? (o.planner instanceof TemplatePlanner ? o.planner : new TemplatePlanner(templateOptions));
    this.planner = o.planner ?? (o.templates ? o.templates : this.#templates);
    this.reader = o.reader ?? (this.chat ? new LlmReader({ client: this.chat, ...secrets }) : new ExtractiveReader());
    this.#fallbackReader = o.fallbackReader ?? (this.chat ? new ExtractiveReader() : undefined);
    this.judger = o.judger ?? (this.chat ? new LlmJudger({ client: this.chat, ...secrets }) : new RuleJudger());
    this.memory = o.memory ?? new AgentMemory();
    this.#observer = new Observer(o.observer ?? {});
    this.#pageRanker = o.pageRanker ?? new PageRanker();
    this.#policies = { ...DEFAULT_AGENT_POLICIES, ...definedOnly(o.policies ?? {}) };
    if (o.domainPack) this.#domain = { pack: o.domainPack, chosenBy: 'config', hits: [] };
    // The shipped calibration was fitted on the offline reader's answers; with a chat model only its document-lacks
    // policy applies (and the probabilities are traced for fitting one on that model's runs) until such a model is given.
    this.#calibrator = o.calibrator === false ? undefined : (o.calibrator ?? AnswerCalibrator.forReader(this.chat ? 'llm' : 'extractive'));
  }

  /** The domain pack of this document and how it was chosen (`config`: given; `document`: detected; `default`: generic). */
  get domainPack(): DomainPackChoice {
    this.#domain ??= detectDomainPack(this.index.tree);
    return this.#domain;
  }

  /** `llm` when a chat model is configured, else `offline`. */
  get mode(): Trace['mode'] {
    return this.chat ? 'llm' : 'offline';
  }

  /**
   * Answers one question about the document.
   *
   * @throws DocTreeError `USAGE` (empty or too long question), `CANCELLED`, an `LLM_*` error with `onLlmError: 'fail'`,
   *   or the error of a component that cannot go on.
   */
  async ask(question: string, options: AskOptions = {}): Promise<AgentRun> {
    if (typeof question !== 'string' || question.trim() === '') throw new DocTreeError('USAGE', 'the question is empty', { hint: 'Ask a question about the document.' });
    if (question.length > 4000) throw new DocTreeError('USAGE', `the question has ${question.length} characters, more than 4000`, { hint: 'Ask a shorter question.' });
    const trace = new TraceRecorder({ ...this.#options.trace, secrets: this.#secrets, ...traceListener(this.#options.trace?.onRecord, options.onTraceEvent) });
    const budget = this.chat || this.#vision ? { budgetMs: this.#options.llmBudgetMs } : {};
    return runWithLlmTrace(trace, () => this.#loop(question.trim(), trace, options), this.#secrets, budget);
  }

  async #loop(question: string, trace: TraceRecorder, options: AskOptions): Promise<AgentRun> {
    const started = performance.now();
    const o = this.#options;
    const signal = options.signal;
    const maxReplans = options.maxReplans ?? o.maxReplans;
    const policies = this.#policies;
    const emit = (type: AgentEvent['type'], attempt: number, message: string): void => {
      try {
        options.onEvent?.({ type, attempt, message: redactSecrets(message, this.#secrets) });
      } catch {
        // A progress hook must not break the question.
      }
    };
    const checkCancelled = (): void => {
      if (signal?.aborted) throw new DocTreeError('CANCELLED', 'the question was cancelled', { cause: signal.reason });
    };
    // Every step and long loop yields to the event loop (no stretch over ~10 ms) and stops once the signal aborts.
    const pause = createPause(signal ? { signal } : {});
    const session = this.memory.session(question);
    // Per-document structures (node terms, table grids, page view, document words), built in slices on first use.
    this.#documentWords = await warmDocument(this.index, pause);

    // 1) Router
    checkCancelled();
    // The document's domain pack is detected from its first pages on the first ask (in slices, with the question's pause).
    this.#domain ??= await detectDomainPackInSlices(this.index.tree, {}, pause);
    const domain = this.domainPack;
    await pause();
    // The question is analysed once, with the document's domain pack; the analysis travels with the decision.
    const analysis = analyzeQuestion(question, { pack: domain.pack, pageCount: this.index.tree.doc.page_count });
    await pause();
    const decision = this.router
      ? await this.router.route(question, { pageCount: this.index.tree.doc.page_count, pack: domain.pack, analysis, ...(signal ? { signal } : {}) })
      : attachAnalysis(blankDecision(), analysis);
    session.setDecision(decision);
    trace.record({
      type: 'route',
      message: `${decision.query_type} (${decision.source}; domain pack ${domain.pack.name}, ${domain.chosenBy})`,
      data: { router: this.router?.name ?? 'none', query_type: decision.query_type, candidates: decision.candidates, signals: decision.signals, risk: decision.risk, confidence: decision.confidence, domain_pack: { name: domain.pack.name, chosen_by: domain.chosenBy }, analysis },
    });
    emit('route', 0, `${decision.query_type} via ${this.router?.name ?? 'no router'}`);
    this.#failOnLlmError(trace);
    await pause();

    // 2) Planner
    checkCancelled();
    const cardSession = this.#cardSession(question, decision, trace, session, signal);
    const cards = [...createAgentCards({ reader: this.reader, judger: this.judger, session: cardSession, ...(this.#vision ? { vision: this.#vision } : {}) }), ...this.#lanes.cards, ...(o.hub?.cards ?? [])];
    const replacing = [...this.#lanes.replace, ...(o.hub?.replace ?? [])];
    // Plans are checked against the data schemas of the cards this ask's ToolHub will hold.
    const cardOutputs = cardOutputsOf([...cards, ...replacing]);
    const hub = ToolHub.create({
      index: this.index,
      domain: domain.pack,
      ...(this.chat ? { chat: this.chat } : {}),
      trace,
      cards,
      replace: replacing,
      ...(o.hub?.timeoutMs !== undefined ? { timeoutMs: o.hub.timeoutMs } : {}),
      ...(o.hub?.fuse ? { fuse: o.hub.fuse } : {}),
      ...(o.hub?.expand ? { expand: o.hub.expand } : {}),
      ...(o.hub?.pack ? { pack: o.hub.pack } : {}),
      ...(o.reranker ? { reranker: o.reranker } : {}),
    });
    // Lanes are declared by the registry (cards of kind `retrieval`): the built-in ones and any of your own; the planner
    // is told them, so a planner of your own need not declare them.
    const retrievalLanes = hub.registry.retrievalLanes();
    let plan = await this.planner.plan(decision, { question, cardOutputs, retrievalLanes, ...(signal ? { signal } : {}) });
    const plans: StrategyPlan[] = [plan];
    this.#recordPlan(trace, plan, 'plan');
    emit('plan', 0, `${plan.template}: ${plan.stages.map((s) => s.stage).join(' → ')}; steps ${plan.steps.map((s) => s.tool).join(', ') || 'none'}`);
    this.#failOnLlmError(trace);
    await pause();

    const knownTools = [...new Set([...(this.planner.knownTools ?? PLANNER_TOOL_IDS), ...retrievalLanes])];
    const template = (type: RouterDecision['query_type'], d: RouterDecision): StrategyPlan => this.#templates.template(type, d, question);

    // The page lanes search the whole document once per question; every pass ranks pages from them and its own lanes.
    const pageLanes = await this.#pageLanes(question, signal);
    let best: Pass | undefined;
    for (let attempt = 0; ; attempt++) {
      await pause();
      trace.attempt = attempt;
      // 3) ToolHub stages
      const staged = await runPlanStages({
        hub,
        question,
        decision,
        plan,
        memory: this.memory,
        lanes: o.lanes,
        expansion: o.expansion,
        attempt,
        coveragePasses: o.coveragePasses,
        template,
        knownTools,
        retrievalLanes,
        ...(signal ? { signal } : {}),
        pause,
      });
      await pause();
      const retrieval = await this.#withPageEvidence(hub, question, decision, staged, pageLanes, signal);
      plan = retrieval.plan;
      emit('retrieve', attempt, `${retrieval.hits.length} hits, ${retrieval.pack.items.length} evidence items, coverage ${retrieval.coverage.toFixed(2)}`);
      await pause();
      if (best && policies.noNewEvidence({ attempt, packed: retrieval.pack.items.map((item) => item.node_id), visited: (id) => session.visited(id) })) {
        trace.record({ type: 'plan', message: `attempt ${attempt}: no new evidence (every packed node was read before); REPLAN stops`, data: { stop: 'no_new_evidence', attempt } });
        emit('replan', attempt, 'no new evidence; stopping');
        break;
      }

      // 4) Steps (reader and judger steps included)
      const readsBefore = cardSession.reads.length;
      const verdictsBefore = cardSession.verdicts.length;
      const variables = new Map<string, unknown>([
        ['question', question],
        ['decision', decision],
        ['hits', retrieval.hits],
        ['candidates', retrieval.candidates],
        ['pack', retrieval.pack],
      ]);
      const steps = await runPlanSteps({ hub, plan, variables, ...(signal ? { signal } : {}), pause });
      await pause();
      emit('steps', attempt, steps.outcomes.map((s) => `${s.step_id} ${s.tool} ${s.status}`).join(', ') || 'no steps');

      // 5) Reader (when the plan did not read, or its reader step failed)
      if (cardSession.reads.length === readsBefore) {
        const result = await hub.call(READER_ID, { question, evidence: retrieval.pack }, signal ? { signal } : {});
        if (result.status === 'error') {
          if (!this.#offlineAfterTimeout(result.error, 'reading', trace) || !this.#fallbackReader) throw this.#componentError(result.error, 'reading');
          // The LLM reader ran out of time (its calls were aborted with the tool call): the offline reader answers.
          const observations = await cardSession.observe(retrieval.pack.items.map((item) => item.node_id));
          const again = await this.#fallbackReader.read({ question, observations, decision, ...(signal ? { signal } : {}) });
          cardSession.addRead({ reader: this.#fallbackReader.id, result: again, observations });
        }
      }
      this.#failOnLlmError(trace);
      await pause();
      const read = cardSession.reads[cardSession.reads.length - 1]!;
      emit('read', attempt, `${JSON.stringify(read.result.answer)} (${read.result.answer_format}, confidence ${read.result.confidence.toFixed(2)}) by ${read.reader}`);

      // 6) Judger (when the plan did not judge this read)
      if (cardSession.verdicts.length === verdictsBefore || cardSession.reads.length > readsBefore + 1) {
        const result = await hub.call(JUDGER_ID, {}, signal ? { signal } : {});
        if (result.status === 'error') {
          if (!this.#offlineAfterTimeout(result.error, 'judging', trace)) throw this.#componentError(result.error, 'judging');
          const last = cardSession.reads[cardSession.reads.length - 1]!;
          cardSession.addVerdict(await new RuleJudger().judge({ question, decision, observations: last.observations, result: last.result, ...(signal ? { signal } : {}) }));
        }
      }
      await pause();
      let verdict: JudgeVerdict | undefined = cardSession.verdicts[cardSession.verdicts.length - 1];
      let current = read;
      this.#failOnLlmError(trace);
      if (verdict && this.#fallbackReader && policies.readAgain(verdict, read, this.#fallbackReader.id)) {
        const again = await this.#fallbackReader.read({ question, observations: read.observations, decision, ...(signal ? { signal } : {}) });
        const record: ReadRecord = { reader: this.#fallbackReader.id, result: again, observations: read.observations };
        cardSession.addRead(record);
        const second = await this.judger.judge({ question, decision, observations: read.observations, result: again, ...(signal ? { signal } : {}) });
        cardSession.addVerdict(second);
        if (policies.keepSecondRead(verdict, second)) {
          current = record;
          verdict = second;
        }
      }
      emit('judge', attempt, verdict ? `${verdict.action} (score ${verdict.score.toFixed(2)}${verdict.failures.length ? `: ${verdict.failures.map((f) => f.check).join(', ')}` : ''})` : 'not judged');

      const observedIds = current.observations.map((o2) => o2.node_id);
      const visit = session.visit(observedIds);
      const flags: PlanFlag[] = [
        ...steps.flags,
        ...(retrieval.hits.length === 0 ? (['no_hits'] as const) : []),
        ...(verdict && !verdict.pass ? (['judge_failed'] as const) : []),
        ...(current.result.answer_format === 'None' ? (['empty_answer'] as const) : []),
      ];
      const pass: Pass = { attempt, plan, retrieval, steps: steps.outcomes, flags, read: current, ...(verdict ? { verdict } : {}) };
      const record: AttemptRecord = { attempt, plan, coverage: retrieval.coverage, newNodes: visit.fresh, reusedNodes: visit.seen, replanned: [], ...(verdict ? { verdict } : {}) };
      session.recordAttempt(record);
      if (policies.betterPass(pass, best)) best = pass;

      // REPLAN?
      if (!policies.wantsReplan({ plan, retrieval, read: current, ...(verdict ? { verdict } : {}) }) || attempt >= maxReplans) break;
      const next = replan(plan, { coverage: retrieval.coverage, confidence: current.result.confidence, hits: retrieval.hits.length, attempt, flags }, { decision, template, knownTools, retrievalLanes, cardOutputs });
      trace.record({
        type: 'replan',
        message: next.exhausted ? 'nothing left to widen' : next.applied.join('; '),
        data: { applied: next.applied, exhausted: next.exhausted, reason: verdict ? `${verdict.action}: ${verdict.failures.map((f) => f.message).join('; ')}` : 'low coverage', coverage: retrieval.coverage },
      });
      if (next.exhausted) break;
      record.replanned = next.applied;
      emit('replan', attempt + 1, next.applied.join('; '));
      plan = next.plan;
      plans.push(plan);
      this.#recordPlan(trace, plan, `replan ${attempt + 1}`);
    }

    // 7) Finalizer
    await pause();
    const kept = best!;
    trace.attempt = kept.attempt;
    trace.record({
      type: 'finalize',
      message: `${JSON.stringify(kept.read.result.answer)} (${kept.read.result.answer_format}) from attempt ${kept.attempt}`,
      data: { attempt: kept.attempt, reader: kept.read.reader, pages: [...new Set(kept.read.result.support.map((s) => s.page))], notes: (kept.read.result.notes ?? []).slice(0, 12) },
    });
    const pageRanking = this.#rankPages(question, decision, kept.retrieval, pageLanes, kept.read.result.support, trace);
    await pause();
    const calibration = this.#calibrate(question, decision, kept, pageRanking, trace);
    const llm = llmTotals(trace);
    await pause();
    // The trace is validated event by event between pauses (a long one is a few hundred events).
    const traced = await trace.toTraceInSlices({ doc_id: this.index.tree.doc.doc_id, question, mode: this.mode, llm: llm.totals }, pause);
    await pause();
    const finalized = finalizeAnswer({ read: kept.read.result, ...(kept.verdict ? { verdict: kept.verdict } : {}), trace: traced }, o.finalize ?? {});
    // `lacks` mode changes only the answers it declines; `record` changes none.
    const mode = this.#calibrator?.mode;
    const answer = calibration && (mode === 'apply' || (mode === 'lacks' && calibration.refused)) ? calibratedAnswer(finalized, calibration) : finalized;
    emit('finalize', kept.attempt, `${JSON.stringify(answer.answer)} · confidence ${answer.confidence.toFixed(2)} · pages ${answer.pages.join(', ') || '-'}`);
    const toolCalls = trace.eventsOf('tool_call').length;
    return {
      answer,
      rankedPages: [...new Set([...pageRanking.map((p) => p.page), ...rankedPages(answer, kept.retrieval)])],
      pageRanking,
      ...(calibration ? { calibration: { ...calibration, raw: { answer: finalized.answer, answer_format: finalized.answer_format, confidence: finalized.confidence } } } : {}),
      decision,
      plan: kept.plan,
      plans,
      observations: kept.read.observations,
      ...(kept.verdict ? { verdict: kept.verdict } : {}),
      attempts: session.history.attempts,
      steps: kept.steps,
      usage: {
        llmCalls: llm.totals.calls,
        promptTokens: llm.totals.prompt_tokens,
        completionTokens: llm.totals.completion_tokens,
        costUsd: llm.totals.cost_usd,
        llmErrors: llm.errors,
        toolCalls,
        replans: answer.trace.replans,
        latencyMs: Math.round((performance.now() - started) * 1000) / 1000,
      },
    };
  }

  /** The per-question state of the agent cards (see {@link createCardSession}). */
  #cardSession(question: string, decision: RouterDecision, trace: TraceRecorder, session: MemorySession, signal: AbortSignal | undefined): AgentCardSession {
    return createCardSession({
      question,
      decision,
      trace,
      session,
      memory: this.memory,
      index: this.index,
      observer: this.#observer,
      ...(this.#vision ? { vision: this.#vision } : {}),
      ...(signal ? { signal } : {}),
      // A calibrated agent decides itself whether a weak answer is worth giving (and records it as read when fitting).
      abstain: this.#calibrator?.mode === 'apply' || this.#calibrator?.mode === 'record' ? 'caller' : 'reader',
    });
  }

  /** The page lanes over the whole document, as the lane ablation allows (`sparse`: no dense page score, `dense`: dense only). */
  async #pageLanes(question: string, signal: AbortSignal | undefined): Promise<Partial<Record<PageLaneName, readonly PageScore[]>>> {
    const lanes = this.#options.lanes;
    const found = await pageViewFor(this.index).search(question, signal ? { signal } : {});
    return {
      ...(lanes !== 'dense' ? { page_text: found.page_text, page_structure: found.page_structure, page_coverage: found.page_coverage, page_years: found.page_years } : {}),
      ...(lanes !== 'sparse' ? { page_dense: found.page_dense } : {}),
    };
  }

  /** What the page ranker reads of a retrieval (the pack as the stages made it, before page evidence joined it). */
  #rankInput(question: string, decision: RouterDecision, retrieval: PlanRetrieval & { stagePackPages?: number[] }, pageLanes: PageRankInput['pageLanes'], support: ReadonlyArray<{ page: number }>): PageRankInput {
    return {
      pageLanes,
      nodeLanes: [...retrieval.results.values()].flatMap((stage) => stage.results.filter((r) => r.status === 'ok').map((r) => ({ method: r.tool_id, hits: r.hits }))),
      fused: retrieval.hits,
      packPages: retrieval.stagePackPages ?? retrieval.pack.items.map((item) => item.page),
      supportPages: support.map((s) => s.page),
      pageHints: decision.signals.page_hints ?? [],
    };
  }

  /**
   * Pages ranked with their best nodes as evidence: the best nodes of the top `evidencePages` ranked pages that the
   * stages' pack left out join the candidates — the nodes a lane found on the page, else the page's nodes holding most of
   * the question's terms — and the pack is made again (records a `pack` event). Unchanged when every top page is packed.
   */
  async #withPageEvidence(hub: ToolHub, question: string, decision: RouterDecision, retrieval: PlanRetrieval, pageLanes: PageRankInput['pageLanes'], signal: AbortSignal | undefined): Promise<PlanRetrieval & { stagePackPages?: number[] }> {
    const n = this.#options.evidencePages;
    if (n === 0 || signal?.aborted) return retrieval;
    const input = this.#rankInput(question, decision, retrieval, pageLanes, []);
    const packed = new Set(input.packPages);
    const missing = this.#pageRanker.rank(input).slice(0, n).filter((p) => !packed.has(p.page));
    if (missing.length === 0) return retrieval;
    const nav = hub.context.nav;
    const terms = analyzeQuery(question);
    const laneRank = new Map<string, number>();
    for (const lane of input.nodeLanes) lane.hits.forEach((h, rank) => laneRank.set(h.node_id, Math.min(laneRank.get(h.node_id) ?? Infinity, rank)));
    const top = retrieval.candidates[0] ?? retrieval.hits[0];
    const best = top ? hitScore(top) : 1;
    const extra: Hit[] = [];
    missing.forEach((p, i) => {
      const chosen = nav
        .nodesOnPage(p.page - 1)
        .filter((node) => node.role !== 'section' && node.text.trim() !== '')
        .map((node) => {
          const have = nav.terms(node, 'body');
          return { node, rank: laneRank.get(node.node_id) ?? Infinity, overlap: terms.filter((t) => have.has(t)).length };
        })
        .sort((a, b) => a.rank - b.rank || b.overlap - a.overlap || a.node.read_order - b.node.read_order)
        .slice(0, 2)
        .map((c) => c.node);
      // Just below the stages' best hit, in page-rank order: measured on dev + wide, putting the top page's nodes first
      // read worse (raw reader accuracy 11.0 % against 11.6 % here and 11.3 % without page evidence).
      for (const node of chosen) extra.push(nodeHit(nav, node, { method: 'page_rank', score: best * (0.95 - 0.05 * i), extra: { page_rank: i + 1 } }));
    });
    if (extra.length === 0) return retrieval;
    hub.trace.record({
      type: 'plan',
      message: `page evidence: page(s) ${missing.map((p) => p.page).join(', ')} ranked in the top ${n} but not packed; their best nodes join the candidates: ${extra.map((h) => h.node_id).join(', ')}`,
      data: { page_evidence: missing.map((p) => p.page), nodes: extra.map((h) => h.node_id) },
    });
    // A chosen node that was already a candidate (expanded, but not packed) is ranked again at its page's place.
    const chosen = new Set(extra.map((h) => h.node_id));
    const candidates = [...retrieval.candidates.filter((h) => !chosen.has(h.node_id)), ...extra];
    const pack = packForPlan(hub, retrieval.plan, candidates, needsFromDecision(decision));
    return { ...retrieval, candidates, pack, coverage: pack.coverage, stagePackPages: input.packPages as number[] };
  }

  /**
   * Ranks pages from every lane of the kept retrieval plus the page lanes over the whole document (scoping narrows,
   * never hides), and records the ranking with each page's features as a `fuse` event.
   */
  #rankPages(question: string, decision: RouterDecision, retrieval: PlanRetrieval, pageLanes: PageRankInput['pageLanes'], support: ReadonlyArray<{ page: number }>, trace: TraceRecorder): RankedPageEvidence[] {
    const input = this.#rankInput(question, decision, retrieval, pageLanes, support);
    const ranking = this.#pageRanker.rank(input);
    trace.record({
      type: 'fuse',
      message: `pages ranked from ${Object.keys(pageLanes).length} page lane(s) and ${input.nodeLanes.length} node lane call(s): ${ranking.slice(0, 5).map((p) => p.page).join(', ')}`,
      n_hits: ranking.length,
      data: { stage: 'pages', pages: ranking.slice(0, 10).map((p) => ({ page: p.page, score: Math.round(p.score * 1e4) / 1e4, features: roundedFeatures(p.features) })) },
    });
    return ranking;
  }

  /** Calibrates the kept pass's answer (see {@link AnswerCalibrator}) and records it as a `judge` event. */
  #calibrate(question: string, decision: RouterDecision, kept: Pass, pages: RankedPageEvidence[], trace: TraceRecorder): Calibration | undefined {
    const calibrator = this.#calibrator;
    if (!calibrator) return undefined;
    const hinted = decision.signals.page_hints ?? [];
    const lacks = documentLacks(question, (this.#documentWords ??= new DocumentWords(this.index.tree.text)), {
      pages: hinted,
      pageCount: this.index.tree.doc.page_count,
      notNames: [...this.domainPack.pack.abbreviations.keys()],
    });
    const absence = { ...pageViewFor(this.index).absence(question, hinted), lacks };
    const calibration = calibrator.calibrate({
      read: kept.read.result,
      ...(kept.verdict ? { verdict: kept.verdict } : {}),
      queryType: decision.query_type,
      pages,
      absence,
      replans: kept.attempt,
      computed: answersComputedValue(kept.read),
    });
    trace.record({
      type: 'judge',
      message: `calibration: ${calibration.refused ? `declines (${calibration.reason})` : 'answers'}; P(answer right) ${calibration.pAnswer.toFixed(2)}, P(not answerable) ${calibration.pRefuse.toFixed(2)}${calibrator.mode === 'record' ? ' (recorded, not applied)' : calibrator.mode === 'lacks' ? ' (model not fitted on this reader: only what the document lacks declines)' : ''}`,
      data: { judge: 'calibration', mode: calibrator.mode, p_answer: calibration.pAnswer, p_refuse: calibration.pRefuse, refused: calibration.refused, features: roundedFeatures(calibration.features) },
    });
    return calibration;
  }

  #recordPlan(trace: TraceRecorder, plan: StrategyPlan, label: string): void {
    trace.record({
      type: 'plan',
      message: `${label}: ${plan.template} — stages ${plan.stages.map((s) => `${s.stage}[${s.methods.join('+')}]${s.when ? ` when ${s.when}` : ''}${s.within ? ` within ${s.within}` : ''}`).join(', ')}; steps ${plan.steps.map((s) => s.tool).join(', ')}`,
      data: { planner: this.planner.name, template: plan.template, stages: plan.stages.map((s) => s.stage), steps: plan.steps.map((s) => `${s.step_id}:${s.tool}`), coverage_gate: plan.coverage_gate, ctx_tokens: plan.pack.ctx_tokens },
    });
  }

  /** With `onLlmError: 'fail'`, throws the first failed LLM call of the trace. */
  #failOnLlmError(trace: TraceRecorder): void {
    if (this.#options.onLlmError !== 'fail') return;
    const failed = trace.eventsOf('llm_call').find((e) => e.status === 'error');
    if (!failed) return;
    const code = failed.data?.['error_code'];
    throw new DocTreeError(typeof code === 'string' && Object.hasOwn(ERROR_CODES, code) ? (code as keyof typeof ERROR_CODES) : 'LLM_UNAVAILABLE', failed.message ?? 'an LLM call failed');
  }

  /**
   * True when a failed reader / judger call timed out on the LLM path with `onLlmError: 'fallback'`: the offline
   * component answers instead (recorded as a warning). With `fail` the timeout is an `LLM_TIMEOUT` error.
   */
  #offlineAfterTimeout(error: { code: string; message: string } | undefined, what: string, trace: TraceRecorder): boolean {
    if (!this.chat || (error?.code !== 'TOOL_TIMEOUT' && error?.code !== 'LLM_TIMEOUT')) return false;
    if (this.#options.onLlmError === 'fail') throw new DocTreeError('LLM_TIMEOUT', `${what} timed out: ${redactSecrets(error.message, this.#secrets)}`);
    trace.record({ type: 'warning', message: `${error.code}: ${what} timed out (${redactSecrets(error.message, this.#secrets)}); the offline component answers`, data: { fallback: what, error_code: error.code } });
    return true;
  }

  #componentError(error: { code: string; message: string } | undefined, what: string): DocTreeError {
    const code = error?.code && Object.hasOwn(ERROR_CODES, error.code) ? (error.code as keyof typeof ERROR_CODES) : 'TOOL_FAILED';
    return new DocTreeError(code, `${what} failed: ${redactSecrets(error?.message ?? 'unknown error', this.#secrets)}`);
  }
}


/** LLM totals from `llm_call` events only (each model call is one event), and the codes of failed calls. */
function llmTotals(trace: TraceRecorder): { totals: Trace['llm']; errors: string[] } {
  let calls = 0;
  let prompt = 0;
  let completion = 0;
  let cost: number | null = null;
  const errors: string[] = [];
  for (const event of trace.eventsOf('llm_call')) {
    calls++;
    prompt += event.tokens?.prompt ?? 0;
    completion += event.tokens?.completion ?? 0;
    const c = event.data?.['cost_usd'];
    if (typeof c === 'number' && Number.isFinite(c)) cost = (cost ?? 0) + c;
    const code = event.data?.['error_code'];
    if (event.status === 'error' && typeof code === 'string') errors.push(code);
  }
  return { totals: { calls, prompt_tokens: prompt, completion_tokens: completion, cost_usd: cost }, errors };
}

/**
 * 1-based pages, best first: the answer's support, then the ranked hits (the retrieval's relevance order, fused
 * across stages), then the evidence pack and the expanded candidates. The pack comes after the hits because its order
 * is not a relevance ranking: MMR trades relevance for diversity, and structure expansion adds neighbours of the hits
 * as context for the reader (they stay in the ranking, after the pages the retrieval ranked).
 */
export function rankedPages(answer: Pick<Answer, 'support'>, retrieval: Pick<PlanRetrieval, 'pack' | 'hits' | 'candidates'>): number[] {
  const out: number[] = [];
  const add = (page: number): void => {
    if (Number.isInteger(page) && page >= 1 && !out.includes(page)) out.push(page);
  };
  for (const s of answer.support) add(s.page);
  for (const hit of retrieval.hits) add(pageFromIndex(hit.page_idx));
  for (const item of retrieval.pack.items) add(item.page);
  for (const hit of retrieval.candidates) add(pageFromIndex(hit.page_idx));
  return out;
}

/** Non-zero features rounded for the trace. */
function roundedFeatures(features: Readonly<Record<string, number>>): Record<string, number> {
  return Object.fromEntries(Object.entries(features).filter(([, v]) => v !== 0).map(([k, v]) => [k, Math.round(v * 1e4) / 1e4]));
}

/** Drops keys whose value is `undefined`, so they do not override defaults when spread. */
function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
