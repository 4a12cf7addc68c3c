import type { PlanFallback, PlanStage, QueryType, RouterDecision, StrategyPlan } from '@doctree/schema';

import { BasePlanner, checkPlan } from './base-planner.js';
import type { BasePlannerOptions, PlanOptions, PlanOutcome } from './base-planner.js';
import { PLAN_TEMPLATES } from './plan-templates.js';
import { withSurveyBaseSearch } from './survey-base-steps.js';
import { RETRIEVAL_TOOL_IDS } from './plan-vocabulary.js';
import type { PlanInput, TemplateSettings } from './plan-templates.js';

/** Options of {@link TemplatePlanner}. */
export interface TemplatePlannerOptions extends BasePlannerOptions {
  /** Evidence budget of the pack, tokens (`agent.ctx_tokens`). Default 1500. */
  ctxTokens?: number;
  /** A vision model is configured: plans may call `vlm.answer` / `vlm.count`. Default false. */
  vlm?: boolean;
  /** A chat model is configured and `rank.llm` should rerank the expanded candidates. Default false. */
  rankWithLlm?: boolean;
  /**
   * Ablation "no router": always the lookup template, ignoring the decision (type, candidates, signals). Default false.
   */
  singleTemplate?: boolean;
  /** Other candidates at least this good add their retrieval stages, gated by coverage. Default 0.45. */
  secondaryMinScore?: number;
  /** Most secondary templates merged. Default 2. */
  maxSecondary?: number;
  /**
   * Retrieval lanes of your own (tool ids of cards of kind `retrieval`, e.g. from `retrieverLaneCard`) that run beside
   * the built-in text lanes: each is added to every stage that runs `bm25_node.search` or `dense.search`, and is a
   * retrieval lane plans may name. Default none.
   */
  lanes?: readonly string[];
}

/** Defaults of {@link TemplatePlannerOptions}. */
export const TEMPLATE_PLANNER_DEFAULTS = {
  ctxTokens: 1500,
  vlm: false,
  rankWithLlm: false,
  singleTemplate: false,
  secondaryMinScore: 0.45,
  maxSecondary: 2,
  lanes: [],
} as const satisfies TemplatePlannerOptions;

type Resolved = Required<Pick<TemplatePlannerOptions, keyof typeof TEMPLATE_PLANNER_DEFAULTS>>;

/** Built-in lanes a stage runs over the text: stages with one of them also run the user's lanes. */
const TEXT_LANES: ReadonlySet<string> = new Set(['bm25_node.search', 'dense.search']);

/** A decision that carries nothing but the question type `lookup` (the "no router" ablation plans and reads from it). */
export function blankDecision(): RouterDecision {
  return {
    query_type: 'lookup',
    candidates: [{ type: 'lookup', score: 1 }],
    signals: { page_hints: [], objects: [], units: [], years: [], operations: [], expected_format: null, keywords: [], entities: [] },
    risk: { level: 'medium', reasons: ['no router (ablation)'] },
    constraints: [],
    sub_questions: [],
    confidence: 0,
    source: 'rules',
  };
}

/**
 * The offline planner: a template per query type (lookup, table_number, chart, figure_count, layout, multi_hop,
 * summary, unanswerable) filled from the decision's signals. Retrieval follows docs/design/agent-loop.md §3.2's two hops — coarse windows
 * (sections, tables, figures) first, then leaves within the chosen windows — after a page stage when the question
 * names pages. Other candidates of the decision add their retrieval stages behind a coverage gate
 * (`when: "coverage<gate"`) and a `judge_failed → switch_template` fallback, so one plan covers an ambiguous question.
 *
 * @example
 * ```ts
 * const decision = await new RuleRouter().route('What was FY2019 capex in the cash flow statement?');
 * const plan = await new TemplatePlanner().plan(decision);
 * plan.steps.map((s) => s.tool); // ['table_index.search', 'extract.column', 'reader.answer', 'judger.verify']
 * ```
 */
export class TemplatePlanner extends BasePlanner {
  readonly name = 'templates';
  readonly #settings: Resolved;

  constructor(options: TemplatePlannerOptions = {}) {
    const { ctxTokens, vlm, rankWithLlm, singleTemplate, secondaryMinScore, maxSecondary, lanes, ...base } = { ...TEMPLATE_PLANNER_DEFAULTS, ...options };
    super({ ...base, retrievalLanes: [...new Set([...(base.retrievalLanes ?? RETRIEVAL_TOOL_IDS), ...lanes])] });
    this.#settings = { ctxTokens, vlm, rankWithLlm, singleTemplate, secondaryMinScore, maxSecondary, lanes: [...lanes] };
  }

  /** The user's lanes this planner adds to its text stages (see {@link TemplatePlannerOptions.lanes}). */
  get extraLanes(): readonly string[] {
    return this.#settings.lanes;
  }

  /**
   * The plan of one template for a decision, alone (no secondary stages), checked. With the question, a computation it
   * asks for gathers its operands and computes (see `computationSpec`).
   */
  template(type: QueryType, decision: RouterDecision, question?: string): StrategyPlan {
    return this.#checked(PLAN_TEMPLATES[type](decision, this.#templateSettings(question)));
  }

  /**
   * The plan for a decision, synchronously (also the fallback of an LLM planner). With the question, a computation it
   * asks for (a defined formula, a ratio of two line items, a growth rate…) gathers each operand and computes.
   */
  planFor(decision: RouterDecision, question?: string): StrategyPlan {
    const s = this.#settings;
    if (s.singleTemplate) return this.template('lookup', blankDecision());
    const settings = this.#templateSettings(question);
    const primary = PLAN_TEMPLATES[decision.query_type](decision, settings);
    const secondary = decision.candidates
      .filter((c) => c.type !== decision.query_type && c.type !== 'unanswerable' && c.score >= s.secondaryMinScore)
      .slice(0, s.maxSecondary);
    const merged = secondary.reduce((plan, c) => mergeSecondary(plan, c.type, PLAN_TEMPLATES[c.type](decision, settings)), primary);
    return this.#checked(withSurveyBaseSearch(merged, decision, question));
  }

  /** Ranking step added, the user's lanes joined to the text stages, and checked. */
  #checked(plan: PlanInput): StrategyPlan {
    const lanes = this.#settings.lanes;
    const withLanes: PlanInput =
      lanes.length === 0 ? plan : { ...plan, stages: plan.stages.map((st) => (st.methods.some((m) => TEXT_LANES.has(m)) ? { ...st, methods: [...new Set([...st.methods, ...lanes])] } : st)) };
    return checkPlan(withRanking(withLanes), { knownTools: this.knownTools, retrievalLanes: this.retrievalLanes, planner: this.name });
  }

  protected async _plan(decision: RouterDecision, options: PlanOptions): Promise<PlanOutcome> {
    return { plan: this.planFor(decision, options.question) };
  }

  #templateSettings(question: string | undefined): TemplateSettings {
    const known = new Set(this.knownTools);
    return {
      ctxTokens: this.#settings.ctxTokens,
      vlm: this.#settings.vlm && known.has('vlm.answer') && known.has('vlm.count'),
      rankWithLlm: this.#settings.rankWithLlm && known.has('rank.llm'),
      ...(question !== undefined ? { question } : {}),
    };
  }
}

/**
 * Adds a secondary template's retrieval stages to a plan, renamed `<type>:<stage>` and run only below the coverage
 * gate; its page stage is left out when the plan already has one. A `judge_failed` fallback switches to it.
 */
function mergeSecondary(plan: PlanInput, type: QueryType, other: PlanInput): PlanInput {
  const taken = new Set(plan.stages.map((st) => st.stage));
  const hasPages = plan.stages.some((st) => st.methods.includes('page_locator.locate') && st.methods.length === 1);
  const stages: PlanStage[] = other.stages
    .filter((st) => !(hasPages && st.stage === 'pages'))
    .map((st) => ({
      ...st,
      stage: `${type}:${st.stage}`,
      ...(st.within !== undefined ? { within: `${type}:${st.within}` } : {}),
      when: 'coverage<gate',
    }))
    .filter((st) => !taken.has(st.stage));
  const fallback: PlanFallback = { condition: 'judge_failed', action: { switch_template: type } };
  return { ...plan, stages: [...plan.stages, ...stages], fallbacks: [...plan.fallbacks, fallback] };
}

/** The reader reads in the order `rank.llm` ranked the candidates, when the plan ranks them (`save_as: RANKED`). */
function withRanking(plan: PlanInput): PlanInput {
  const rank = plan.steps.find((st) => st.tool === 'rank.llm' && st.save_as !== undefined);
  if (!rank) return plan;
  return {
    ...plan,
    steps: plan.steps.map((st) =>
      st.tool === 'reader.answer' && st.args['ranked'] === undefined ? { ...st, args: { ...st.args, ranked: `$${rank.save_as}` }, depends_on: [...new Set([...st.depends_on, rank.step_id])] } : st,
    ),
  };
}
