import type { EvidencePack, Hit, PlanStage, QueryType, RouterDecision, StrategyPlan } from '@doctree/schema';
import { cutToPages, needsFromDecision, reciprocalRankFusion, rerankContextFromDecision } from '@doctree/toolhub';
import type { ExpandOptions, PackNeeds, PackOptions, StageResult, ToolHub } from '@doctree/toolhub';
import { evaluatePlanCondition, type PlanFlag } from '../planner/plan-vocabulary.js';
import { replan } from '../planner/replan.js';
import { stageKey, type AgentMemory } from './agent-memory.js';

/** Which retrieval lanes the agent may use (the eval's lane ablation). */
export type LaneAblation = 'both' | 'sparse' | 'dense';

/** Options of {@link runPlanStages}. */
export interface RunPlanStagesOptions {
  hub: ToolHub;
  question: string;
  decision: RouterDecision;
  plan: StrategyPlan;
  /** Caches stage results across passes and questions. */
  memory?: AgentMemory;
  /** Lane ablation. Default `both`. */
  lanes?: LaneAblation;
  /** Structure expansion of ranked hits. Default true. */
  expansion?: boolean;
  /** REPLAN attempt (0 first), for conditions. Default 0. */
  attempt?: number;
  /** Extra retrieval passes with the plan's coverage fallbacks while coverage is below the gate. Default 1. */
  coveragePasses?: number;
  /** Builds a template plan for `switch_template` fallbacks (e.g. `planner.template`). */
  template?: (type: QueryType, decision: RouterDecision) => StrategyPlan;
  /** Tool ids plans may name (to check fallback plans). */
  knownTools?: readonly string[];
  /** Tool ids a stage may run as retrieval lanes (the registry's, your own included), for fallback plans. */
  retrievalLanes?: readonly string[];
  /** Most pages a `within` stage searches. Default 40. */
  maxWithinPages?: number;
  signal?: AbortSignal;
  /**
   * Called between stages, between the parts of each stage's search (each lane, fusion, expansion, packing: the
   * `pause` of `ToolHub.runStage`) and after it (the agent's cooperative pause: yields to the event loop and throws
   * `CANCELLED` once the signal aborts). Default none.
   */
  pause?: () => Promise<void>;
}

/** Defaults of {@link RunPlanStagesOptions}. */
export const RUN_PLAN_STAGES_DEFAULTS = { lanes: 'both', expansion: true, attempt: 0, coveragePasses: 1, maxWithinPages: 40 } as const;

/** What happened to one stage. */
export interface StageOutcome {
  stage: string;
  status: 'ran' | 'reused' | 'skipped';
  /** Why it was skipped (its `when` condition did not hold) or what restricted it. */
  note?: string;
  coverage?: number;
  ranked?: number;
}

/** The retrieval of a plan: per stage results, and the hits, candidates and evidence pack they add up to. */
export interface PlanRetrieval {
  /** The plan whose retrieval was kept (the input, or the one a coverage fallback made). */
  plan: StrategyPlan;
  outcomes: StageOutcome[];
  /** Results of the stages that ran, by stage name. */
  results: Map<string, StageResult>;
  /** Ranked hits of all stages (fused), best first. */
  hits: Hit[];
  /** Expanded candidates of all stages (fused), best first. */
  candidates: Hit[];
  pack: EvidencePack;
  coverage: number;
  /** What the coverage fallbacks changed (empty when none ran). */
  fallbacks: string[];
}

const DENSE = 'dense.search';
const BM25 = 'bm25_node.search';
const KEYWORD_LANES = new Set([BM25, 'table_index.search', 'chart_index.search']);
/** Lanes that read page hints from the rerank context (ToolHub's runStage gives them `pages` + `page_window`). */
const PAGE_LANES = new Set(['page_locator.locate', 'figure_finder.find_regions']);

/** No structure expansion (the eval's expansion ablation). */
export const NO_EXPANSION: ExpandOptions = { parent: 0, siblings: 0, children: 0, samePage: 0, refs: false, captions: false, representatives: false };

/** A stage's methods under a lane ablation: `sparse` drops dense search, `dense` drops the keyword lanes. */
export function ablateLanes(methods: readonly string[], lanes: LaneAblation): string[] {
  if (lanes === 'both') return [...methods];
  const kept = methods.filter((m) => (lanes === 'sparse' ? m !== DENSE : !KEYWORD_LANES.has(m)));
  return kept.length > 0 ? kept : [lanes === 'sparse' ? BM25 : DENSE];
}

/** Lane arguments of a stage's `view`: BM25 `sources` and dense `views`. */
function viewArgs(view: PlanStage['view']): Record<string, Record<string, unknown>> {
  if (view === 'coarse') return { [BM25]: { sources: ['coarse'] }, [DENSE]: { views: ['coarse'] } };
  if (view === 'leaf') return { [BM25]: { sources: ['leaf'] }, [DENSE]: { views: ['leaf', 'leaf_raw'] } };
  return {};
}

/**
 * The windows a `within` stage searches (docs/design/agent-loop.md §3.2, second hop): the sections of the earlier stage's best hits (its
 * first `k_pages` pages), as 1-based pages — a section's whole page span when it is short, else the hit's page — and
 * the section ids (for the rerank's same-section feature).
 */
export function withinWindows(hub: ToolHub, earlier: StageResult, kPages: number, maxPages: number): { pages: number[]; sectionIds: string[] } {
  const nav = hub.context.nav;
  const pages = new Set<number>();
  const sectionIds: string[] = [];
  for (const hit of cutToPages(earlier.ranked, kPages, earlier.ranked.length)) {
    const node = nav.node(hit.node_id);
    if (!node) continue;
    const section = node.role === 'section' ? node : nav.sectionOf(node);
    if (section && !sectionIds.includes(section.node_id)) sectionIds.push(section.node_id);
    const [first, last] = section && section.page_span[1] - section.page_span[0] <= 8 ? section.page_span : [hit.page_idx, hit.page_idx];
    for (let p = first; p <= last && pages.size < maxPages; p++) pages.add(p + 1);
    pages.add(hit.page_idx + 1);
  }
  return { pages: [...pages].sort((a, b) => a - b).slice(0, maxPages), sectionIds };
}

/** Runs the stages of one plan once (no fallbacks). */
async function runStagesOnce(o: RunPlanStagesOptions & typeof RUN_PLAN_STAGES_DEFAULTS, plan: StrategyPlan): Promise<Omit<PlanRetrieval, 'fallbacks'>> {
  const { hub, question, decision } = o;
  const results = new Map<string, StageResult>();
  const outcomes: StageOutcome[] = [];
  const needs = needsFromDecision(decision);
  const { query: _q, ...rerankBase } = rerankContextFromDecision(question, decision);
  const expand = o.expansion ? undefined : NO_EXPANSION;
  let best = 0;
  let hitsSoFar = 0;
  for (const stage of plan.stages) {
    await o.pause?.();
    if (o.signal?.aborted) break;
    if (stage.when !== undefined) {
      const state = { coverage: results.size > 0 ? best : 0, hits: hitsSoFar, attempt: o.attempt, flags: (hitsSoFar === 0 && results.size > 0 ? ['no_hits'] : []) as PlanFlag[] };
      if (!evaluatePlanCondition(stage.when, state, plan)) {
        outcomes.push({ stage: stage.stage, status: 'skipped', note: `${stage.when} does not hold (coverage ${best.toFixed(2)})` });
        hub.trace.record({ type: 'plan', message: `stage ${stage.stage} skipped: ${stage.when} does not hold`, data: { stage: stage.stage, status: 'skipped', coverage: best } });
        continue;
      }
    }
    const methods = ablateLanes(stage.methods, o.lanes);
    const laneArgs: Record<string, Record<string, unknown>> = viewArgs(stage.view);
    let pages = stage.pages;
    let sectionIds: string[] = [];
    const notes: string[] = [];
    if (stage.within !== undefined) {
      const earlier = results.get(stage.within);
      if (earlier && earlier.ranked.length > 0) {
        const earlierStage = plan.stages.find((s) => s.stage === stage.within);
        const windows = withinWindows(hub, earlier, earlierStage?.k_pages ?? 5, o.maxWithinPages);
        sectionIds = windows.sectionIds;
        if (pages === undefined) pages = windows.pages;
        notes.push(`within ${stage.within}: ${windows.sectionIds.length} section(s), pages ${windows.pages.join(', ')}`);
      } else notes.push(`within ${stage.within}: that stage found nothing; whole document`);
    }
    if (pages !== undefined && pages.length > 0) {
      for (const method of methods) laneArgs[method] = { ...laneArgs[method], pages: [...pages], page_window: stage.page_window };
    }
    const query = stage.query_terms && stage.query_terms.length > 0 ? `${question} ${stage.query_terms.join(' ')}`.slice(0, 4000) : question;
    const rerank = { ...rerankBase, ...(sectionIds.length > 0 ? { section_ids: sectionIds } : {}) };
    const stagePlan = { rerank: plan.rerank, pack: plan.pack, coverage_gate: plan.coverage_gate };
    const effective: PlanStage = { ...stage, methods };
    // What the stage computes from: its name, `when` and `within` only decide whether and where it runs (the windows
    // are in the lane arguments), and the page window only matters where pages are given.
    const paged = (pages !== undefined && pages.length > 0) || methods.some((m) => PAGE_LANES.has(m));
    const computed = { methods, k_pages: stage.k_pages, k_nodes: stage.k_nodes, roles: stage.roles ?? null, view: stage.view ?? null, ...(paged ? { page_window: stage.page_window } : {}) };
    const key = stageKey({ stage: computed, query, laneArgs, rerank, needs, plan: stagePlan, expansion: o.expansion });
    let result = o.memory?.cachedStage(key);
    const reused = result !== undefined;
    const note = notes.join('; ');
    hub.trace.record({
      type: 'plan',
      message: `stage ${stage.stage}${reused ? ' (reused from memory)' : ''}: ${methods.join(' + ')}${stage.view ? ` on the ${stage.view} view` : ''}${note ? `, ${note}` : ''}`,
      data: { stage: stage.stage, status: reused ? 'reused' : 'ran', methods, ...(stage.view ? { view: stage.view } : {}), ...(pages ? { pages } : {}), ...(stage.query_terms ? { query_terms: stage.query_terms } : {}) },
    });
    if (!result) {
      result = await hub.runStage(effective, query, { plan: stagePlan, rerank, needs, laneArgs, ...(expand ? { expand } : {}), ...(o.signal ? { signal: o.signal } : {}), ...(o.pause ? { pause: o.pause } : {}) });
      o.memory?.rememberStage(key, result);
      await o.pause?.();
    }
    results.set(stage.stage, result);
    best = Math.max(best, result.coverage);
    hitsSoFar += result.ranked.length;
    outcomes.push({ stage: stage.stage, status: reused ? 'reused' : 'ran', coverage: result.coverage, ranked: result.ranked.length, ...(note ? { note } : {}) });
  }
  const ran = [...results.values()];
  if (ran.length === 0) {
    const pack = hub.pack([], { needs, budgetTokens: plan.pack.ctx_tokens });
    return { plan, outcomes, results, hits: [], candidates: [], pack, coverage: pack.coverage };
  }
  if (ran.length === 1) {
    const only = ran[0]!;
    return { plan, outcomes, results, hits: only.ranked, candidates: only.candidates, pack: only.pack, coverage: only.coverage };
  }
  // Several stages: fuse their rankings (a node counts once, at its best stage rank) and their expanded candidates,
  // then pack once more.
  const hits = reciprocalRankFusion(ran.map((r) => r.ranked), { combine: 'max' });
  const candidates = o.pause ? await hub.fuseInSlices(ran.map((r) => r.candidates), undefined, {}, o.pause) : hub.fuse(ran.map((r) => r.candidates));
  const pack = o.pause ? await hub.packInSlices(candidates, packOptionsForPlan(plan, needs), o.pause) : packForPlan(hub, plan, candidates, needs);
  return { plan, outcomes, results, hits, candidates, pack, coverage: pack.coverage };
}

/** Packs candidates with the plan's pack settings (budget, MMR λ, per-page limit, attachments) for the needs. */
export function packForPlan(hub: ToolHub, plan: StrategyPlan, candidates: readonly Hit[], needs: PackNeeds): EvidencePack {
  return hub.pack(candidates, packOptionsForPlan(plan, needs));
}

/** The pack options of a plan (budget, MMR λ, per-page limit, attachments) for the needs. */
function packOptionsForPlan(plan: StrategyPlan, needs: PackNeeds): PackOptions {
  return {
    budgetTokens: plan.pack.ctx_tokens,
    lambda: plan.pack.mmr_lambda,
    perPageLimit: plan.pack.per_page_limit,
    ...(plan.pack.attach.length > 0 ? { attach: plan.pack.attach } : {}),
    needs,
  };
}

/**
 * Runs a plan's retrieval stages through the ToolHub (docs/design/agent-loop.md §4): each stage's lanes concurrently, fused,
 * reranked, expanded and packed by `hub.runStage`, honouring the stage fields — `when` (run only when the condition
 * holds after the earlier stages, e.g. `coverage<gate`), `within` (second hop: search only the sections and pages the
 * named stage chose), `view` (coarse / leaf index views), `pages` (1-based page filter ± `page_window`) and
 * `query_terms` (added to the question). Several stages are fused into one ranking, one candidate list and one pack.
 * While the pack's coverage stays below the plan's gate, the plan's coverage fallbacks (`replan`: widen the window,
 * switch lanes, drop the second hop…) are applied and the stages run again, at most `coveragePasses` times; the
 * better retrieval is kept. Stage results are cached in `memory`.
 */
export async function runPlanStages(options: RunPlanStagesOptions): Promise<PlanRetrieval> {
  const o = { ...RUN_PLAN_STAGES_DEFAULTS, ...options } as RunPlanStagesOptions & typeof RUN_PLAN_STAGES_DEFAULTS;
  let best = await runStagesOnce(o, o.plan);
  const fallbacks: string[] = [];
  let plan = o.plan;
  for (let pass = 0; pass < o.coveragePasses && best.coverage < plan.coverage_gate && !o.signal?.aborted; pass++) {
    const flags: PlanFlag[] = best.hits.length === 0 ? ['no_hits'] : [];
    const next = replan(plan, { coverage: best.coverage, hits: best.hits.length, attempt: o.attempt, flags }, {
      decision: o.decision,
      ...(o.template ? { template: o.template } : {}),
      ...(o.knownTools ? { knownTools: o.knownTools } : {}),
      ...(o.retrievalLanes ? { retrievalLanes: o.retrievalLanes } : {}),
    });
    if (next.exhausted) break;
    o.hub.trace.record({ type: 'plan', message: `coverage ${best.coverage.toFixed(2)} below the gate ${plan.coverage_gate}: fallbacks ${next.applied.join('; ')}`, data: { fallback: next.applied, coverage: best.coverage } });
    fallbacks.push(...next.applied);
    plan = next.plan;
    const retry = await runStagesOnce(o, plan);
    if (retry.coverage > best.coverage || (retry.coverage === best.coverage && retry.hits.length > best.hits.length)) best = retry;
  }
  return { ...best, fallbacks };
}
