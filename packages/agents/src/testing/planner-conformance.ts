import { StrategyPlanSchema } from '@doctree/schema';
import type { QueryType, RouterDecision } from '@doctree/schema';
import { conformanceTestGlobals, errorCodeOf } from '@doctree/schema/testing';

import { checkPlan } from '../planner/base-planner.js';
import type { BasePlanner, BasePlannerOptions, PlanRecord } from '../planner/base-planner.js';
import { PLANNER_TOOL_IDS } from '../planner/plan-vocabulary.js';
import { RuleRouter } from '../router/rule-router.js';

/** Builds a fresh planner for the suite; it must pass `options` (tracing hook) to its constructor. */
export type PlannerConformanceFactory = (options: Pick<BasePlannerOptions, 'onPlan'>) => BasePlanner | Promise<BasePlanner>;

/** Options of {@link runPlannerConformance}. */
export interface PlannerConformanceOptions {
  /** Timeout of each test, ms. Default 60000. */
  timeoutMs?: number;
}

/** Defaults of {@link PlannerConformanceOptions}. */
export const PLANNER_CONFORMANCE_DEFAULTS = { timeoutMs: 60_000 } as const satisfies PlannerConformanceOptions;

/** One question per query type; the suite routes them with the rule router and forces the type. */
export const PLANNER_CONFORMANCE_QUESTIONS: Readonly<Record<QueryType, string>> = {
  lookup: 'Who signed the letter to shareholders?',
  table_number: 'What were total current assets in FY2020 (in USD millions) according to the balance sheet?',
  chart: 'In Figure 2, which segment had the largest share?',
  figure_count: 'How many photographs are in the report?',
  layout: 'What is the heading at the top of page 3?',
  multi_hop: 'What is the ratio of operating income to net sales in 2021?',
  summary: 'Summarize the main findings of the study.',
  unanswerable: 'What does page 900 say about the merger?',
};

/** A routed decision of each query type (the rule router's signals, the type forced to the wanted one). */
export function plannerConformanceDecisions(): Array<[QueryType, RouterDecision]> {
  const router = new RuleRouter();
  return (Object.entries(PLANNER_CONFORMANCE_QUESTIONS) as Array<[QueryType, string]>).map(([type, question]) => {
    const d = router.decide(question, { pageCount: 200 });
    const others = d.candidates.filter((c) => c.type !== type);
    return [type, { ...d, query_type: type, candidates: [{ type, score: Math.max(0.6, d.candidates[0]!.score) }, ...others] }];
  });
}

/**
 * Registers the shared conformance suite of planners ({@link BasePlanner} subclasses) with the running test framework.
 * Checks, for a decision of every query type: the plan validates (schema, known tools from {@link PLANNER_TOOL_IDS},
 * stage / step / variable references), names a template among the decision's candidates, restricts a stage to the
 * hinted pages, ends with `reader.answer` saving the final answer variable and keeps the expected format; `onPlan`
 * receives each plan; an invalid decision is `USAGE` and an aborted signal `CANCELLED`.
 *
 * @example
 * ```ts
 * import { runPlannerConformance } from '@doctree/agents/testing';
 * runPlannerConformance('templates', (options) => new TemplatePlanner(options));
 * ```
 */
export function runPlannerConformance(name: string, factory: PlannerConformanceFactory, options: PlannerConformanceOptions = {}): void {
  const { describe, it, beforeAll, expect } = conformanceTestGlobals('runPlannerConformance');
  const { timeoutMs } = { ...PLANNER_CONFORMANCE_DEFAULTS, ...options };
  describe(`Planner conformance: ${name}`, () => {
    let planner: BasePlanner;
    const records: PlanRecord[] = [];
    beforeAll(async () => {
      planner = await factory({ onPlan: (record) => records.push(record) });
    }, timeoutMs);

    it('plans every query type with valid plans of known tools', async () => {
      for (const [type, decision] of plannerConformanceDecisions()) {
        const plan = await planner.plan(decision);
        expect({ type, valid: StrategyPlanSchema.safeParse(plan).success }).toEqual({ type, valid: true });
        expect(checkPlan(plan, { knownTools: PLANNER_TOOL_IDS })).toEqual(plan);
        expect(decision.candidates.map((c) => c.type)).toContain(plan.template);
        const reader = plan.steps.find((s) => s.tool === 'reader.answer');
        expect({ type, reader: reader !== undefined, saves: reader?.save_as === plan.final.answer_var }).toEqual({ type, reader: true, saves: true });
        if (decision.signals.expected_format !== null && plan.template !== 'unanswerable') expect(plan.final.format).toBe(decision.signals.expected_format);
        if (decision.signals.page_hints.length > 0 && plan.template !== 'unanswerable') {
          const restricted = plan.stages.some((st) => decision.signals.page_hints.every((p) => st.pages?.includes(p)));
          expect({ type, restricted }).toEqual({ type, restricted: true });
        }
      }
    }, timeoutMs);

    it('reports each plan to onPlan', async () => {
      records.length = 0;
      const [, decision] = plannerConformanceDecisions()[0]!;
      const plan = await planner.plan(decision);
      expect(records.length).toBe(1);
      expect(records[0]!.planner).toBe(planner.name);
      expect(records[0]!.plan).toEqual(plan);
    }, timeoutMs);

    it('rejects an invalid decision with USAGE and an aborted signal with CANCELLED', async () => {
      expect(await errorCodeOf(planner.plan({ query_type: 'poetry' } as unknown as RouterDecision))).toBe('USAGE');
      const controller = new AbortController();
      controller.abort();
      const [, decision] = plannerConformanceDecisions()[0]!;
      expect(await errorCodeOf(planner.plan(decision, { signal: controller.signal }))).toBe('CANCELLED');
    }, timeoutMs);
  });
}
