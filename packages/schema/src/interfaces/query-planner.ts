import type { z } from 'zod';
import type { RouterDecision, StrategyPlan } from '../agent.js';

/** Per-call options of {@link QueryPlanner.plan}. */
export interface QueryPlanOptions {
  /** The question as asked, for planners that read it (an LLM planner shows it to the model, fenced as data). */
  question?: string;
  /** Cancels the planning (a model call included); a cancelled planning throws `DocTreeError` `CANCELLED`. */
  signal?: AbortSignal;
  /**
   * Declared data schemas of the cards the plan may name, by tool id (`ToolCard.output`; the agent passes its
   * registry's): a plan's `$VAR.path` references are checked against them when it is built.
   */
  cardOutputs?: ReadonlyMap<string, z.ZodType | undefined>;
  /**
   * Tool ids a plan stage may run as retrieval lanes (the agent passes its registry's: cards of kind `retrieval`, your
   * own included), besides those the planner declares itself.
   */
  retrievalLanes?: readonly string[];
}

/**
 * Turns a router's decision into a {@link StrategyPlan}: retrieval stages, steps (extract, compute, read, judge),
 * budgets and fallbacks. `@doctree/agents` implements it (`TemplatePlanner`, `LlmPlanner`, both on `BasePlanner`,
 * whose public `plan` validates the decision and the plan and traces); the agent plans every question with one and
 * REPLANs with its templates.
 */
export interface QueryPlanner {
  /** Name reported in traces, e.g. `templates` or `llm`. */
  readonly name: string;
  /** Tool ids the planner's plans may name; callers that check plans use these (default: the agent's planner tools). */
  readonly knownTools?: readonly string[];
  /** Plans a routed question; the plan validates against `StrategyPlanSchema` and names only known tools. */
  plan(decision: RouterDecision, options?: QueryPlanOptions): Promise<StrategyPlan>;
}
