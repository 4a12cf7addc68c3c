import { DocTreeError, RouterDecisionSchema, StrategyPlanSchema, formatIssues } from '@doctree/schema';
import type { DocTreeErrorCode, QueryPlanOptions, QueryPlanner, RouterDecision, StrategyPlan } from '@doctree/schema';

import { PLANNER_TOOL_IDS, PLAN_VARIABLES, RETRIEVAL_TOOL_IDS, parsePlanCondition, planReferences } from './plan-vocabulary.js';
import { PLAN_VARIABLE_SCHEMAS, defaultCardOutputs, referenceProblem, savedValueSchema, type CardOutputSchemas } from './plan-references.js';
import type { z } from 'zod';
import { carryAnalysis } from '../analysis/question-analysis.js';

/** Per-call options of {@link BasePlanner.plan}: those of the `QueryPlanner` interface of `@doctree/schema`. */
export type PlanOptions = QueryPlanOptions;

/** Why a planner fell back to its template plan. */
export interface PlannerFallback {
  code: DocTreeErrorCode;
  /** Redacted message. */
  message: string;
}

/** What a planner's {@link BasePlanner._plan} hook returns. */
export interface PlanOutcome {
  /** The plan (defaults of `StrategyPlanSchema` may be left out). */
  plan: unknown;
  /** Set when an LLM planner could not use the model and returned the template plan instead. */
  fallback?: PlannerFallback;
}

/** One finished planning, as reported to {@link BasePlannerOptions.onPlan}. */
export interface PlanRecord {
  planner: string;
  decision: RouterDecision;
  plan: StrategyPlan;
  latencyMs: number;
  fallback?: PlannerFallback;
}

/** Options shared by every {@link BasePlanner} subclass. */
export interface BasePlannerOptions {
  /**
   * Tool ids plans may name (e.g. the ids registered in the ToolHub). Default {@link PLANNER_TOOL_IDS}.
   * A plan naming another tool is a bug of the planner (`INTERNAL`).
   */
  knownTools?: readonly string[];
  /**
   * Tool ids a plan stage may run as retrieval lanes. Default {@link RETRIEVAL_TOOL_IDS}. Inside an agent there is no
   * need to declare yours: each `plan` call is given the lanes of the agent's registry (`PlanOptions.retrievalLanes`:
   * cards of kind `retrieval`, e.g. `retrievers` of `DocTreeAgentOptions`), which count too. Lanes are known tools too.
   */
  retrievalLanes?: readonly string[];
  /**
   * Declared data schemas of the cards plans may name (`ToolCard.output`, by tool id): `$VAR.path` references into a
   * step's saved value are checked against them when the plan is built. Default the ToolHub's own cards
   * ({@link defaultCardOutputs}); the agent passes those of its registry.
   */
  cardOutputs?: CardOutputSchemas;
  /** Called after each planning (tracing). Must not throw. */
  onPlan?: (record: PlanRecord) => void;
}

/** Defaults of {@link BasePlannerOptions}. */
export const BASE_PLANNER_DEFAULTS = { knownTools: PLANNER_TOOL_IDS, retrievalLanes: RETRIEVAL_TOOL_IDS } as const satisfies BasePlannerOptions;

/**
 * Abstract base of planners (RouterDecision → {@link StrategyPlan}), in the LangChain pattern: the public
 * {@link plan} validates the decision, honours the abort signal, calls the protected hook {@link _plan}, then checks
 * the plan with {@link checkPlan} (schema, known tools, stage / step / variable references, conditions) and reports
 * it to `onPlan`.
 *
 * @example
 * ```ts
 * class LookupOnly extends BasePlanner {
 *   readonly name = 'lookup-only';
 *   protected async _plan(decision: RouterDecision): Promise<PlanOutcome> {
 *     return { plan: new TemplatePlanner({ singleTemplate: true }).planFor(decision) };
 *   }
 * }
 * ```
 */
export abstract class BasePlanner implements QueryPlanner {
  /** Name reported in traces. */
  abstract readonly name: string;
  readonly #options: Required<Pick<BasePlannerOptions, 'knownTools' | 'retrievalLanes'>> & Pick<BasePlannerOptions, 'onPlan' | 'cardOutputs'>;

  constructor(options: BasePlannerOptions = {}) {
    const o = { ...BASE_PLANNER_DEFAULTS, ...options };
    // Every lane is a tool a plan may name.
    this.#options = { ...o, knownTools: [...new Set([...o.knownTools, ...o.retrievalLanes])] };
  }

  /** Tool ids plans may name (the retrieval lanes included). */
  get knownTools(): readonly string[] {
    return this.#options.knownTools;
  }

  /** Tool ids a plan stage may run as retrieval lanes. */
  get retrievalLanes(): readonly string[] {
    return this.#options.retrievalLanes;
  }

  /** Plans the retrieval and the steps for a routed question. */
  async plan(decision: RouterDecision, options: PlanOptions = {}): Promise<StrategyPlan> {
    const parsed = RouterDecisionSchema.safeParse(decision);
    if (!parsed.success) throw new DocTreeError('USAGE', `${this.name}: invalid router decision: ${formatIssues(parsed.error)}`, { hint: 'Pass the decision a router returned.' });
    throwIfCancelled(this.name, options.signal);
    const started = performance.now();
    // The question's analysis travels with the decision through the re-validation.
    const outcome = await this._plan(carryAnalysis(decision, parsed.data), options);
    throwIfCancelled(this.name, options.signal);
    // The lanes this call's registry holds (the agent passes them) count besides those the planner declares.
    const lanes = options.retrievalLanes ? [...new Set([...this.#options.retrievalLanes, ...options.retrievalLanes])] : this.#options.retrievalLanes;
    const plan = checkPlan(outcome?.plan, {
      knownTools: [...new Set([...this.#options.knownTools, ...lanes])],
      retrievalLanes: lanes,
      planner: this.name,
      ...(options.cardOutputs ?? this.#options.cardOutputs ? { cardOutputs: options.cardOutputs ?? this.#options.cardOutputs } : {}),
    });
    const record: PlanRecord = { planner: this.name, decision: parsed.data, plan, latencyMs: performance.now() - started };
    if (outcome.fallback !== undefined) record.fallback = outcome.fallback;
    try {
      this.#options.onPlan?.(record);
    } catch {
      // A tracing hook must not break planning.
    }
    return plan;
  }

  /** Declared data schemas of the cards, when given in the options (else the ToolHub's own cards are used). */
  get cardOutputs(): CardOutputSchemas | undefined {
    return this.#options.cardOutputs;
  }

  /** The planning itself. The public method validates the decision before and the plan after. */
  protected abstract _plan(decision: RouterDecision, options: PlanOptions): Promise<PlanOutcome>;
}

function throwIfCancelled(name: string, signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new DocTreeError('CANCELLED', `Planning by ${name} was cancelled`, { cause: signal.reason });
}

/** Options of {@link checkPlan}. */
export interface CheckPlanOptions {
  /** Tool ids the plan may name. Default {@link PLANNER_TOOL_IDS}. */
  knownTools?: readonly string[];
  /** Tool ids a stage may run as retrieval lanes (known tools too). Default {@link RETRIEVAL_TOOL_IDS}. */
  retrievalLanes?: readonly string[];
  /** Who made the plan, for messages. Default `plan`. */
  planner?: string;
  /** Error code of a bad plan. Default `INTERNAL` (a planner bug); `LLM_BAD_OUTPUT` for model-written plans. */
  code?: DocTreeErrorCode;
  /** Declared data schemas of the cards, by tool id. Default {@link defaultCardOutputs}. */
  cardOutputs?: CardOutputSchemas;
}

/**
 * Validates a plan and returns it with schema defaults applied: `StrategyPlanSchema`, stage methods that are known
 * retrieval lanes, step tools that are known tools, unique stage names and step ids, `within` naming an earlier stage,
 * `depends_on` naming earlier steps, `$variables` that are built in ({@link PLAN_VARIABLES}) or saved by an earlier
 * step, `$VAR.path` references whose path exists in the schema of that variable (a step's saved value follows the
 * data schema its card declares, `ToolCard.output`), parseable conditions, and a final answer variable some step saves. Throws `code` naming the first problem.
 */
export function checkPlan(value: unknown, options: CheckPlanOptions = {}): StrategyPlan {
  const retrieval = new Set<string>(options.retrievalLanes ?? RETRIEVAL_TOOL_IDS);
  const known = new Set([...(options.knownTools ?? PLANNER_TOOL_IDS), ...retrieval]);
  const who = options.planner ?? 'plan';
  const code = options.code ?? 'INTERNAL';
  const fail = (message: string, hint?: string): never => {
    throw new DocTreeError(code, `${who}: ${message}`, hint ? { hint } : {});
  };
  const parsed = StrategyPlanSchema.safeParse(value);
  if (!parsed.success) fail(`invalid plan: ${formatIssues(parsed.error)}`);
  const plan = parsed.data!;
  const stages = new Set<string>();
  for (const stage of plan.stages) {
    if (stages.has(stage.stage)) fail(`two stages are named ${stage.stage}`);
    for (const method of stage.methods) {
      if (!retrieval.has(method)) {
        const what = known.has(method) ? `${method}, which is not a retrieval lane` : `unknown tool ${method}`;
        fail(`stage ${stage.stage} names ${what} (lanes: ${[...retrieval].join(', ')})`, laneHint(method));
      }
    }
    if (stage.within !== undefined && !stages.has(stage.within)) fail(`stage ${stage.stage} searches within ${stage.within}, which is not an earlier stage`);
    if (stage.when !== undefined) checkCondition(stage.when, fail);
    stages.add(stage.stage);
  }
  const variables = new Set<string>(Object.keys(PLAN_VARIABLES));
  const schemas = new Map<string, z.ZodType>(PLAN_VARIABLE_SCHEMAS);
  const outputs = options.cardOutputs ?? defaultCardOutputs();
  const steps = new Set<string>();
  for (const step of plan.steps) {
    if (steps.has(step.step_id)) fail(`two steps have the id ${step.step_id}`);
    if (!known.has(step.tool)) fail(`step ${step.step_id} names unknown tool ${step.tool}`);
    for (const dep of step.depends_on) if (!steps.has(dep)) fail(`step ${step.step_id} depends on ${dep}, which is not an earlier step`);
    for (const reference of planReferences(step.args)) {
      if (!variables.has(reference.name)) fail(`step ${step.step_id} reads $${reference.name} before any step saves it`);
      const schema = schemas.get(reference.name);
      const problem = schema ? referenceProblem(reference, schema) : undefined;
      if (problem !== undefined) fail(`step ${step.step_id} reads ${problem} (${step.tool} gets it from ${savedBy(plan.steps, reference.name)})`);
    }
    steps.add(step.step_id);
    if (step.save_as !== undefined) {
      variables.add(step.save_as);
      schemas.set(step.save_as, savedValueSchema(step.tool, outputs.get(step.tool)));
    }
  }
  for (const fallback of plan.fallbacks) checkCondition(fallback.condition, fail);
  if (!variables.has(plan.final.answer_var)) fail(`the final answer variable ${plan.final.answer_var} is saved by no step`);
  return plan;
}

/** How to make `method` a lane a plan stage may name. */
function laneHint(method: string): string {
  return (
    `Register ${method} as a retrieval lane of the agent (DocTreeAgentOptions.retrievers, or a card of kind "retrieval" in hub.cards): ` +
    `the agent tells its planner the lanes of its registry. Outside an agent, declare it where plans are checked, e.g. ` +
    `new MyPlanner({ retrievalLanes: [...RETRIEVAL_TOOL_IDS, '${method}'] }) or checkPlan(plan, { retrievalLanes: [...] }).`
  );
}

/** Who provides a variable, for messages: the step saving it, or `the loop` for built-in ones. */
function savedBy(steps: StrategyPlan['steps'], name: string): string {
  const step = [...steps].reverse().find((s) => s.save_as === name);
  return step ? `step ${step.step_id} (${step.tool})` : 'the loop';
}

function checkCondition(condition: string, fail: (message: string) => never): void {
  try {
    parsePlanCondition(condition);
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
}
