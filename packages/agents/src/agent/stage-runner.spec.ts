import { ToolHub, type StageResult } from '@doctree/toolhub';
import { annualReportTree, buildFixtureIndex, type FixtureIndex } from '@doctree/toolhub/testing';
import { checkPlan } from '../planner/base-planner.js';
import { RuleRouter } from '../router/rule-router.js';
import { ablateLanes, runPlanStages, withinWindows } from './stage-runner.js';

describe('runPlanStages', () => {
  let fixture: FixtureIndex;
  beforeAll(async () => {
    fixture = await buildFixtureIndex(annualReportTree());
  });
  afterAll(() => fixture.cleanup());

  const decision = new RuleRouter().decide('What did the report say about greenhouse gas emissions?');
  const basePlan = (stages: unknown[]) =>
    checkPlan({
      template: 'lookup',
      stages,
      steps: [{ step_id: 'R', tool: 'reader.answer', args: { question: '$question', evidence: '$pack' }, save_as: 'ANS' }],
      rerank: { fuse: 'RRF', features: [], diversify_by: null },
      pack: { mmr_lambda: 0.72, ctx_tokens: 800, per_page_limit: 2, attach: [] },
      coverage_gate: 0.5,
      fallbacks: [],
      final: { answer_var: 'ANS', format: 'Str' },
    });

  it('searches a second hop only inside the windows the first hop chose, on the leaf view', async () => {
    const hub = ToolHub.create({ index: fixture.index });
    const plan = basePlan([
      { stage: 'navigate', view: 'coarse', methods: ['bm25_node.search'], k_pages: 1, k_nodes: 5, page_window: 0 },
      { stage: 'leaf', view: 'leaf', within: 'navigate', methods: ['bm25_node.search', 'dense.search'], k_pages: 4, k_nodes: 20, page_window: 0 },
    ]);
    const retrieval = await runPlanStages({ hub, question: decision.signals.keywords.join(' ') || 'greenhouse gas emissions', decision, plan });
    expect(retrieval.outcomes.map((o) => [o.stage, o.status])).toEqual([
      ['navigate', 'ran'],
      ['leaf', 'ran'],
    ]);
    const leafCalls = hub.trace.eventsOf('tool_call').slice(1);
    expect(leafCalls.map((e) => e.args?.['pages'])).toEqual([[6], [6]]);
    expect(leafCalls[0]!.args?.['sources']).toEqual(['leaf']);
    expect(leafCalls[1]!.args?.['views']).toEqual(['leaf', 'leaf_raw']);
    expect(retrieval.results.get('leaf')!.ranked.every((h) => h.page_idx === 5)).toBe(true);
    expect(retrieval.pack.items.length).toBeGreaterThan(0);
  });

  it('skips a gated stage when coverage is already good, and runs the coverage fallbacks when it is not', async () => {
    const hub = ToolHub.create({ index: fixture.index });
    const gated = basePlan([
      { stage: 'first', methods: ['bm25_node.search'], k_pages: 3, k_nodes: 10, page_window: 0 },
      { stage: 'extra', methods: ['dense.search'], k_pages: 3, k_nodes: 10, page_window: 0, when: 'coverage<0.01' },
    ]);
    const retrieval = await runPlanStages({ hub, question: 'greenhouse gas emissions', decision, plan: gated });
    expect(retrieval.outcomes.map((o) => o.status)).toEqual(['ran', 'skipped']);

    const hinted = new RuleRouter().decide('What is on page 9 about Table 7?');
    const narrow = { ...basePlan([{ stage: 'pages', methods: ['page_locator.locate'], pages: [6], k_pages: 1, k_nodes: 5, page_window: 0 }]), coverage_gate: 0.99 };
    const widened = await runPlanStages({ hub: ToolHub.create({ index: fixture.index }), question: 'What is on page 9 about Table 7?', decision: hinted, plan: narrow });
    expect(widened.fallbacks.length).toBeGreaterThan(0);
  });

  it('drops lanes for the ablations and finds windows from an earlier stage', () => {
    expect(ablateLanes(['bm25_node.search', 'dense.search', 'table_index.search'], 'sparse')).toEqual(['bm25_node.search', 'table_index.search']);
    expect(ablateLanes(['bm25_node.search', 'table_index.search', 'page_locator.locate'], 'dense')).toEqual(['page_locator.locate']);
    expect(ablateLanes(['table_index.search'], 'dense')).toEqual(['dense.search']);
    const hub = ToolHub.create({ index: fixture.index });
    const earlier = { ranked: [hub.context.nav.node('t_5')].map((n) => ({ node_id: n!.node_id, page_idx: 5 })) } as unknown as StageResult;
    expect(withinWindows(hub, earlier, 3, 40)).toEqual({ pages: [6], sectionIds: ['sec_9'] });
  });
});
