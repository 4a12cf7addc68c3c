import { DocTreeError } from '@doctree/schema';
import type { PlanStage, QueryType, RouterDecision, StrategyPlan } from '@doctree/schema';

import { checkPlan } from './base-planner.js';
import { MODEL_TOOL_IDS, RETRIEVAL_TOOL_IDS, evaluatePlanCondition } from './plan-vocabulary.js';
import type { CardOutputSchemas } from './plan-references.js';
import type { PlanState } from './plan-vocabulary.js';

/** What the loop observed on the last pass. */
export type ReplanFeedback = PlanState;

/** Options of {@link replan}. */
export interface ReplanOptions {
  /** The decision the plan came from: needed to honour `switch_template` (without it that action is skipped). */
  decision?: RouterDecision;
  /** Builds a template plan (e.g. `(type, d) => planner.template(type, d)`): needed for `switch_template`. */
  template?: (type: QueryType, decision: RouterDecision) => StrategyPlan;
  /** Tool ids the plan may name (to check the result). */
  knownTools?: readonly string[];
  /**
   * Tool ids a stage may run as retrieval lanes (`switch_lanes` / `enable` take only these). Default
   * {@link RETRIEVAL_TOOL_IDS}; the agent passes its registry's lanes, your own included.
   */
  retrievalLanes?: readonly string[];
  /** Declared data schemas of the cards, by tool id (to check the result's references). Default the ToolHub's own. */
  cardOutputs?: CardOutputSchemas;
  /** Largest page window any stage gets. Default 6. */
  maxPageWindow?: number;
  /** Largest `k_nodes` any stage gets. Default 400. */
  maxNodes?: number;
  /** Largest evidence budget, tokens. Default 8000. */
  maxCtxTokens?: number;
}

/** Defaults of {@link ReplanOptions}. */
export const REPLAN_DEFAULTS = { maxPageWindow: 6, maxNodes: 400, maxCtxTokens: 8000 } as const satisfies ReplanOptions;

/** A replanned strategy. */
export interface ReplanResult {
  plan: StrategyPlan;
  /** What changed, one line each (`expand_window +1`, `switch_template chart`…), for the trace. */
  applied: string[];
  /** Nothing could be widened further: stop replanning. */
  exhausted: boolean;
}

const PAGE_ONLY = (stage: PlanStage): boolean => stage.methods.length === 1 && stage.methods[0] === 'page_locator.locate';

type Resolved = ReplanOptions & Required<Pick<ReplanOptions, keyof typeof REPLAN_DEFAULTS>>;

/**
 * Widens or switches a plan for the next pass of the REPLAN loop: applies the actions of every fallback whose
 * condition holds in `feedback` (`expand_window`, `widen_k`, `enable`, `switch_lanes`, `drop_within`, `drop_roles`,
 * `drop_pages`, `ungate`, `raise_budget`, `switch_template`). When none applies or none changes anything, it widens
 * generically (search the whole document, run gated stages, +1 page window, twice the nodes, bm25 + dense lanes).
 * Every change is capped, so repeated replans end with `exhausted: true`. The input plan is not modified.
 *
 * @example
 * ```ts
 * const { plan: next, applied, exhausted } = replan(plan, { coverage: 0.3, attempt: 1 });
 * ```
 */
export function replan(plan: StrategyPlan, feedback: ReplanFeedback, options: ReplanOptions = {}): ReplanResult {
  const o: Resolved = { ...REPLAN_DEFAULTS, ...options };
  const applied: string[] = [];
  let current: StrategyPlan = structuredClone(plan);
  const matching = plan.fallbacks.filter((f) => evaluatePlanCondition(f.condition, feedback, plan));
  // The first template switch that can be made wins and comes first; the other actions widen the result.
  const switching = matching.find((f) => typeof f.action['switch_template'] === 'string' && f.action['switch_template'] !== plan.template && o.decision !== undefined && o.template !== undefined);
  if (switching !== undefined) current = applyAction(current, { switch_template: switching.action['switch_template'] }, o, applied, `${switching.condition}: `);
  for (const fallback of matching) {
    const { switch_template: _ignored, ...widening } = fallback.action;
    current = applyAction(current, widening, o, applied, `${fallback.condition}: `);
  }
  if (applied.length === 0) {
    current = applyAction(current, { drop_within: true, ungate: true, expand_window: 1, widen_k: 2, enable: ['bm25_node.search', 'dense.search'] }, o, applied, 'generic: ');
  }
  const checked = checkPlan(current, { ...(o.knownTools !== undefined ? { knownTools: o.knownTools } : {}), ...(o.retrievalLanes !== undefined ? { retrievalLanes: o.retrievalLanes } : {}), ...(o.cardOutputs !== undefined ? { cardOutputs: o.cardOutputs } : {}), planner: 'replan' });
  return { plan: checked, applied, exhausted: applied.length === 0 };
}

function applyAction(plan: StrategyPlan, action: Record<string, unknown>, o: Resolved, applied: string[], prefix: string): StrategyPlan {
  let next = plan;
  const note = (what: string): void => void applied.push(`${prefix}${what}`);
  const mapStages = (fn: (stage: PlanStage) => PlanStage): boolean => {
    const before = JSON.stringify(next.stages);
    next = { ...next, stages: next.stages.map(fn) };
    return JSON.stringify(next.stages) !== before;
  };

  const template = action['switch_template'];
  if (typeof template === 'string' && template !== plan.template && o.decision !== undefined && o.template !== undefined) {
    // A fresh template, carrying over how far the current plan was widened.
    const fresh = o.template(template as QueryType, o.decision);
    const window = Math.max(...plan.stages.map((st) => st.page_window));
    next = { ...fresh, stages: fresh.stages.map((st) => ({ ...st, page_window: Math.max(st.page_window, PAGE_ONLY(st) ? 0 : window) })) };
    note(`switch_template ${template}`);
    return next;
  }
  if (action['drop_within'] === true && mapStages((st) => (st.within === undefined ? st : withoutKey(st, 'within')))) note('drop_within');
  if (action['ungate'] === true && mapStages((st) => (st.when === undefined ? st : withoutKey(st, 'when')))) note('ungate');
  if (action['drop_roles'] === true && mapStages((st) => (st.roles === undefined || PAGE_ONLY(st) ? st : withoutKey(st, 'roles')))) note('drop_roles');
  if (action['drop_pages'] === true && mapStages((st) => (st.pages === undefined || PAGE_ONLY(st) ? st : withoutKey(st, 'pages')))) note('drop_pages');
  const expand = action['expand_window'];
  if (typeof expand === 'number' && expand > 0 && mapStages((st) => ({ ...st, page_window: Math.min(o.maxPageWindow, st.page_window + expand) }))) note(`expand_window +${expand}`);
  const widen = action['widen_k'];
  if (typeof widen === 'number' && widen > 1 && mapStages((st) => ({ ...st, k_nodes: Math.min(o.maxNodes, Math.ceil(st.k_nodes * widen)), k_pages: Math.min(50, Math.ceil(st.k_pages * widen)) }))) {
    note(`widen_k x${widen}`);
  }
  const retrieval = new Set<string>(o.retrievalLanes ?? RETRIEVAL_TOOL_IDS);
  const lanes = (value: unknown): string[] => (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === 'string');
  const switchTo = lanes(action['switch_lanes']).filter((id) => retrieval.has(id));
  if (switchTo.length > 0 && mapStages((st) => (PAGE_ONLY(st) ? st : { ...st, methods: switchTo }))) note(`switch_lanes ${switchTo.join(', ')}`);
  const enable = lanes(action['enable']);
  const enableLanes = enable.filter((id) => retrieval.has(id));
  if (enableLanes.length > 0 && mapStages((st) => (PAGE_ONLY(st) ? st : { ...st, methods: [...new Set([...st.methods, ...enableLanes])] }))) note(`enable ${enableLanes.join(', ')}`);
  for (const tool of enable.filter((id) => MODEL_TOOL_IDS.has(id))) {
    const topk = typeof action['topk'] === 'number' ? action['topk'] : undefined;
    const changed = enableModelStep(next, tool, topk);
    if (changed !== next) {
      next = changed;
      note(`enable ${tool}${topk !== undefined ? ` topk ${topk}` : ''}`);
    }
  }
  const raise = action['raise_budget'];
  if (typeof raise === 'number' && raise > 1) {
    const budget = Math.min(o.maxCtxTokens, Math.round(next.pack.ctx_tokens * raise));
    if (budget !== next.pack.ctx_tokens) {
      next = { ...next, pack: { ...next.pack, ctx_tokens: budget } };
      note(`raise_budget ${budget}`);
    }
  }
  return next;
}

/** Turns a vision / ranking step on (a larger `topk`) or adds it before the reader. */
function enableModelStep(plan: StrategyPlan, tool: string, topk: number | undefined): StrategyPlan {
  const existing = plan.steps.find((s) => s.tool === tool);
  if (existing !== undefined) {
    if (topk === undefined || existing.args['topk'] === topk) return plan;
    return { ...plan, steps: plan.steps.map((s) => (s === existing ? { ...s, args: { ...s.args, topk } } : s)) };
  }
  const reader = plan.steps.findIndex((s) => s.tool === 'reader.answer');
  if (reader < 0) throw new DocTreeError('INTERNAL', `cannot enable ${tool}: the plan has no reader step`);
  const id = tool === 'rank.llm' ? 'L' : 'V';
  const saveAs = tool === 'rank.llm' ? 'RANKED' : tool === 'vlm.count' ? 'COUNTS' : 'VISUAL';
  if (plan.steps.some((s) => s.step_id === id || s.save_as === saveAs)) return plan;
  const args: Record<string, unknown> = tool === 'rank.llm' ? { query: '$question', candidates: '$candidates', k: topk ?? 30 } : { question: '$question', nodes: '$candidates', topk: topk ?? 6 };
  const step = { step_id: id, tool, args, save_as: saveAs, depends_on: [] };
  const steps = [...plan.steps.slice(0, reader), step, ...plan.steps.slice(reader)];
  const readerStep = steps[reader + 1]!;
  steps[reader + 1] = { ...readerStep, args: { ...readerStep.args, [tool === 'rank.llm' ? 'ranked' : 'visual']: `$${saveAs}` } };
  return { ...plan, steps };
}

function withoutKey<K extends keyof PlanStage>(stage: PlanStage, key: K): PlanStage {
  const copy = { ...stage };
  delete copy[key];
  return copy;
}
