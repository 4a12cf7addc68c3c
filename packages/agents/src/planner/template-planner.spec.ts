import { QueryTypeSchema, StrategyPlanSchema } from '@doctree/schema';
import type { RouterDecision, StrategyPlan } from '@doctree/schema';

import { RuleRouter } from '../router/rule-router.js';
import { plannerConformanceDecisions, runPlannerConformance } from '../testing/planner-conformance.js';
import { checkPlan } from './base-planner.js';
import type { PlanRecord } from './base-planner.js';
import { PLANNER_TOOL_IDS, evaluatePlanCondition, parsePlanCondition } from './plan-vocabulary.js';
import { replan } from './replan.js';
import { TemplatePlanner } from './template-planner.js';

runPlannerConformance('TemplatePlanner', (options) => new TemplatePlanner(options));
runPlannerConformance('TemplatePlanner with a VLM and rank.llm', (options) => new TemplatePlanner({ ...options, vlm: true, rankWithLlm: true }));

const router = new RuleRouter();
const decide = (question: string, pageCount = 120): RouterDecision => router.decide(question, { pageCount });
const tools = (plan: StrategyPlan): string[] => plan.steps.map((s) => s.tool);
const known = new Set<string>(PLANNER_TOOL_IDS);

describe('TemplatePlanner templates', () => {
  const planner = new TemplatePlanner();

  it('has a template for every query type, each valid and naming only known tools', () => {
    const decisions = new Map(plannerConformanceDecisions());
    for (const type of QueryTypeSchema.options) {
      for (const settings of [{}, { vlm: true, rankWithLlm: true }]) {
        const plan = new TemplatePlanner(settings).template(type, decisions.get(type)!);
        expect(StrategyPlanSchema.parse(plan)).toEqual(plan);
        expect(plan.template).toBe(type);
        for (const tool of [...plan.stages.flatMap((s) => s.methods), ...tools(plan)]) expect(known.has(tool)).toBe(true);
      }
    }
  });

  it('plans table numbers as table_index.search → extract.column → compute.eval → reader → judger', async () => {
    const plan = await planner.plan(decide('What was the percentage change in net sales from FY2020 to FY2021 (in USD millions) in the income statement?'));
    expect(plan.template).toBe('table_number');
    expect(tools(plan)).toEqual(['table_index.search', 'extract.column', 'compute.eval', 'reader.answer', 'judger.verify']);
    const [search, extract, compute, read] = plan.steps;
    expect(search!.args).toMatchObject({ query: '$question', years: [2020, 2021], units: ['$', '%', 'millions'] });
    expect(extract!.args).toMatchObject({ node_id: '$TABLES.hits.0.node_id', years: [2020, 2021] });
    // One row phrase (the statement's name is a source, not a row word); only the best row of it is read.
    expect(extract!.args).toMatchObject({ rows: ['net sales'], best_row_only: true });
    expect(compute!.args).toMatchObject({ operation: 'percent_change', operands: '$CELLS' });
    expect(read!.args).toMatchObject({ computed: '$VALUE', format: 'Float' });
    expect(plan.final).toEqual({ answer_var: 'ANS', format: 'Float' });
    expect(plan.pack.attach).toEqual(expect.arrayContaining(['table_header', 'cells']));
    // Question rewriting: the statement's other names join the search.
    expect(plan.stages[0]!.query_terms).toEqual(expect.arrayContaining(['income statement', 'statement of operations']));
  });

  it('navigates in two hops: coarse windows, then leaves within them (docs/design/agent-loop.md §3.2)', async () => {
    const plan = await planner.plan(decide('Who chairs the audit committee?'));
    const [navigate, leaf] = plan.stages;
    expect(navigate).toMatchObject({ stage: 'navigate', view: 'coarse' });
    expect(navigate!.when).toBeUndefined();
    expect(leaf).toMatchObject({ stage: 'leaf', view: 'leaf', within: 'navigate' });
  });

  it('looks at the hinted pages first and gates the rest by coverage', async () => {
    const plan = await planner.plan(decide('What does the table on page 12 say about headcount?'));
    expect(plan.stages[0]).toMatchObject({ stage: 'pages', methods: ['page_locator.locate'], pages: [12], page_window: 0 });
    expect(plan.stages.slice(1).every((s) => s.when === 'coverage<gate')).toBe(true);
  });

  it('turns a multi-candidate decision into one plan with gated secondary stages and template switches', async () => {
    const decision = decide('In the bar chart, how did revenue change between 2019 and 2021?');
    expect(decision.candidates.length).toBeGreaterThan(2);
    const plan = await planner.plan(decision);
    const secondary = decision.candidates.filter((c) => c.type !== decision.query_type && c.type !== 'unanswerable' && c.score >= 0.45).slice(0, 2);
    for (const c of secondary) {
      const stages = plan.stages.filter((s) => s.stage.startsWith(`${c.type}:`));
      expect(stages.length).toBeGreaterThan(0);
      expect(stages.every((s) => s.when === 'coverage<gate')).toBe(true);
      expect(plan.fallbacks).toContainEqual({ condition: 'judge_failed', action: { switch_template: c.type } });
    }
  });

  it('counts document objects from the tree with structure.count, with or without a VLM', async () => {
    const question = 'How many photos of employees are in the report?';
    const decision = decide(question);
    const plan = await planner.plan(decision, { question });
    expect(tools(plan)).toEqual(['structure.count', 'compute.eval', 'reader.answer', 'judger.verify']);
    expect(plan.steps[0]!.args).toMatchObject({ object: 'image', qualifiers: ['employees'] });
    expect(tools(await new TemplatePlanner({ vlm: true }).plan(decision, { question }))).toEqual(['structure.count', 'compute.eval', 'reader.answer', 'judger.verify']);
    const asked = 'How many appendices does the handbook have?';
    const appendices = await planner.plan(decide(asked), { question: asked });
    expect(appendices.steps[0]).toMatchObject({ tool: 'structure.count', args: { object: 'heading', heading_word: 'appendix' } });
  });

  it('counts things inside pictures with figure_finder and compute.eval, and with vlm.count when a VLM is configured', async () => {
    const decision = decide('How many people are shown in the photos of the report?');
    expect(tools(await planner.plan(decision))).toEqual(['figure_finder.find_regions', 'compute.eval', 'reader.answer', 'judger.verify']);
    const withVlm = await new TemplatePlanner({ vlm: true }).plan(decision);
    expect(tools(withVlm)).toEqual(['figure_finder.find_regions', 'vlm.count', 'compute.eval', 'reader.answer', 'judger.verify']);
    expect(withVlm.fallbacks.some((f) => f.condition === 'visual_low_conf')).toBe(true);
    expect(withVlm.final.format).toBe('Int');
  });

  it('uses vision steps only when a VLM is configured and the ToolHub has them', async () => {
    const decision = decide('According to Figure 3, which region has the highest share?');
    expect(tools(await planner.plan(decision))).not.toContain('vlm.answer');
    expect(tools(await new TemplatePlanner({ vlm: true }).plan(decision))).toContain('vlm.answer');
    const noVisionTools = PLANNER_TOOL_IDS.filter((t) => !t.startsWith('vlm.'));
    expect(tools(await new TemplatePlanner({ vlm: true, knownTools: noVisionTools }).plan(decision))).not.toContain('vlm.answer');
  });

  it('plans sub-question searches for multi-hop questions', async () => {
    const plan = await new TemplatePlanner().template('multi_hop', decide('What is the ratio of total debt to total equity in FY2021?'));
    const searches = plan.steps.filter((s) => s.tool === 'bm25_node.search').map((s) => s.args['query']);
    expect(searches).toEqual(['What is total debt in 2021?', 'What is total equity in 2021?']);
    expect(tools(plan)).toEqual(expect.arrayContaining(['structure.expand', 'pack.mmr_knapsack', 'reader.answer']));
  });

  it('ablation "no router": always the lookup template, whatever the decision', async () => {
    const plan = await new TemplatePlanner({ singleTemplate: true }).plan(decide('How many tables are on page 4?'));
    expect(plan.template).toBe('lookup');
    expect(plan.stages.map((s) => s.stage)).toEqual(['navigate', 'leaf']);
    expect(plan.final.format).toBe('Str');
  });

  it('reports plans to onPlan and scales the budget with ctxTokens', async () => {
    const records: PlanRecord[] = [];
    const plan = await new TemplatePlanner({ ctxTokens: 3000, onPlan: (r) => records.push(r) }).plan(decide('Summarize the report.'));
    expect(plan.pack.ctx_tokens).toBe(6000);
    expect(records).toEqual([expect.objectContaining({ planner: 'templates', plan })]);
  });
});

describe('checkPlan', () => {
  const good = new TemplatePlanner().template('lookup', decide('Who is the auditor?'));
  it('rejects unknown tools, lanes that are not retrieval, bad references and conditions', () => {
    const bad = (change: (p: StrategyPlan) => unknown) => () => checkPlan(change(structuredClone(good)));
    expect(bad((p) => ({ ...p, steps: [...p.steps, { step_id: 'Z', tool: 'shell.exec', args: {}, depends_on: [] }] }))).toThrow(/unknown tool shell\.exec/);
    expect(bad((p) => ({ ...p, stages: [{ ...p.stages[0]!, methods: ['reader.answer'] }] }))).toThrow(/not a retrieval lane/);
    expect(bad((p) => ({ ...p, stages: [{ ...p.stages[0]!, within: 'nowhere' }] }))).toThrow(/not an earlier stage/);
    expect(bad((p) => ({ ...p, steps: [{ ...p.steps[0]!, args: { evidence: '$MISSING' } }] }))).toThrow(/\$MISSING/);
    expect(bad((p) => ({ ...p, fallbacks: [{ condition: 'coverage is low', action: {} }] }))).toThrow(/unknown plan condition/);
    expect(bad((p) => ({ ...p, final: { answer_var: 'NOPE', format: 'Str' } }))).toThrow(/saved by no step/);
    expect(() => checkPlan(good, { knownTools: ['bm25_node.search'] })).toThrow(/unknown tool/);
  });

  it('parses and evaluates conditions', () => {
    expect(parsePlanCondition('coverage<0.5')).toEqual({ kind: 'compare', metric: 'coverage', op: '<', value: 0.5 });
    expect(evaluatePlanCondition('coverage<0.5', { coverage: 0.2 })).toBe(true);
    expect(evaluatePlanCondition('coverage<0.5', {})).toBe(false);
    expect(evaluatePlanCondition('coverage<gate', { coverage: 0.55 }, { coverage_gate: 0.6 })).toBe(true);
    expect(evaluatePlanCondition('hits==0', { hits: 0 })).toBe(true);
    expect(evaluatePlanCondition('visual_low_conf', { flags: ['visual_low_conf'] })).toBe(true);
  });
});

describe('replan', () => {
  const planner = new TemplatePlanner();

  it('widens a plan whose coverage is below the gate: whole document, gated stages run, wider windows', async () => {
    const plan = await planner.plan(decide('What does page 7 say about the pension plan?'));
    const { plan: next, applied, exhausted } = replan(plan, { coverage: 0.2, attempt: 1 });
    expect(exhausted).toBe(false);
    expect(applied.join(' | ')).toMatch(/drop_within.*ungate.*expand_window \+1/);
    expect(next.stages.some((s) => s.within !== undefined || s.when !== undefined)).toBe(false);
    const windows = (p: StrategyPlan) => p.stages.filter((s) => s.stage !== 'pages').map((s) => s.page_window);
    windows(next).forEach((w, i) => expect(w).toBe(windows(plan)[i]! + 1));
    expect(plan.stages.some((s) => s.within !== undefined)).toBe(true); // the input plan is untouched
    expect(StrategyPlanSchema.parse(next)).toEqual(next);
  });

  it('switches lanes when nothing was found and to the next candidate template when the judge fails', async () => {
    const decision = decide('In the bar chart, how did revenue change between 2019 and 2021?');
    const plan = await planner.plan(decision);
    const noHits = replan(plan, { hits: 0, flags: ['no_hits'] });
    expect(noHits.plan.stages.filter((s) => s.stage !== 'pages').every((s) => s.methods.join() === 'bm25_node.search,dense.search')).toBe(true);
    const second = plan.fallbacks.find((f) => f.action['switch_template'] !== undefined)!.action['switch_template'];
    const switched = replan(plan, { flags: ['judge_failed'] }, { decision, template: (type, d) => planner.template(type, d) });
    expect(switched.plan.template).toBe(second);
    expect(switched.applied).toContain(`judge_failed: switch_template ${String(second)}`);
  });

  it('enables VLM verification on low visual confidence', async () => {
    const plan = await new TemplatePlanner({ vlm: true }).plan(decide('According to Figure 3, which region has the highest share?'));
    const next = replan(plan, { flags: ['visual_low_conf'] }).plan;
    expect(next.steps.find((s) => s.tool === 'vlm.answer')!.args['topk']).toBe(6);
  });

  it('widens without fallbacks that match, and stops when nothing can be widened', async () => {
    let plan = await planner.plan(decide('Who is the auditor?'));
    let result = replan(plan, { coverage: 0.9 });
    expect(result.applied.some((a) => a.startsWith('generic:'))).toBe(true);
    for (let i = 0; i < 12 && !result.exhausted; i++) {
      plan = result.plan;
      result = replan(plan, { coverage: 0.9 });
    }
    expect(result.exhausted).toBe(true);
    expect(Math.max(...result.plan.stages.map((s) => s.page_window))).toBe(6);
  });
});
