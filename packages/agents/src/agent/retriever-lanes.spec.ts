import { BaseRetriever, type DocIndex } from '@doctree/index';
import type { Hit, RetrieveRequest } from '@doctree/schema';
import { navigatorFor, nodeHit, replayToolCalls } from '@doctree/toolhub';
import { annualReportTree, buildFixtureIndex, type FixtureIndex } from '@doctree/toolhub/testing';
import { checkPlan } from '../planner/base-planner.js';
import { replan } from '../planner/replan.js';
import { TemplatePlanner } from '../planner/template-planner.js';
import { RuleRouter } from '../router/rule-router.js';
import { DocTreeAgent } from './doctree-agent.js';
import { resolveRetrieverLanes } from './retriever-lanes.js';

/** A user's retriever: nodes holding the most query words (longer than three letters), best first. */
class WordCountRetriever extends BaseRetriever {
  readonly name: string;
  queries: string[] = [];
  constructor(
    private readonly index: DocIndex,
    name = 'word-count',
  ) {
    super();
    this.name = name;
  }
  protected async _retrieve(request: RetrieveRequest): Promise<Hit[]> {
    this.queries.push(request.query);
    const nav = navigatorFor(this.index);
    const words = request.query.toLowerCase().split(/\W+/).filter((w) => w.length > 3);
    return this.index.tree.nodes
      .map((node) => ({ node, score: words.filter((w) => (node.text ?? '').toLowerCase().includes(w)).length }))
      .filter((x) => x.score > 0)
      .map(({ node, score }) => nodeHit(nav, node, { method: this.name, score }));
  }
}

describe('retrievers of your own in the agent', () => {
  let fixture: FixtureIndex;
  beforeAll(async () => {
    fixture = await buildFixtureIndex(annualReportTree());
  });
  afterAll(() => fixture.cleanup());
  const question = 'What did Northwind say about its dividend?';

  it('a new lane runs beside the built-in text lanes, is fused with them and traced', async () => {
    const retriever = new WordCountRetriever(fixture.index);
    const agent = new DocTreeAgent({ index: fixture.index, retrievers: [retriever] });
    const run = await agent.ask(question);
    expect(run.plan.stages.filter((s) => s.methods.includes('bm25_node.search')).every((s) => s.methods.includes('word_count.search'))).toBe(true);
    expect(retriever.queries.length).toBeGreaterThan(0);
    const calls = replayToolCalls(run.answer.trace);
    const lane = calls.find((c) => c.tool_id === 'word_count.search' && c.status === 'ok');
    expect(lane?.hits.length).toBeGreaterThan(0);
    // Fused with the built-in lanes.
    const fused = run.answer.trace.events.filter((e) => e.type === 'fuse').flatMap((e) => (e.data?.['lanes'] as Array<{ tool_id: string; n_hits: number }> | undefined) ?? []);
    expect(fused.find((l) => l.tool_id === 'word_count.search')?.n_hits).toBeGreaterThan(0);
    expect(fused.some((l) => l.tool_id === 'bm25_node.search')).toBe(true);
  });

  it('a retriever replacing dense.search answers for it, and the trace says so', async () => {
    const retriever = new WordCountRetriever(fixture.index, 'my-dense');
    const agent = new DocTreeAgent({ index: fixture.index, retrievers: [{ retriever, id: 'dense.search', replace: true, description: 'word counts instead of embeddings' }] });
    const run = await agent.ask(question);
    expect(retriever.queries.length).toBeGreaterThan(0);
    expect(run.answer.trace.events.some((e) => e.type === 'plan' && e.message === 'tool card dense.search replaced: word counts instead of embeddings')).toBe(true);
    expect(replayToolCalls(run.answer.trace).filter((c) => c.tool_id === 'dense.search').every((c) => c.hits.every((h) => h.node_id !== ''))).toBe(true);
  });

  it('a lane built per document by a function needs an id; duplicate ids and id-less replacements are refused', () => {
    expect(resolveRetrieverLanes([{ retriever: (context) => new WordCountRetriever(context.index), id: 'words.search' }]).lanes).toEqual(['words.search']);
    expect(() => resolveRetrieverLanes([{ retriever: (context) => new WordCountRetriever(context.index) }])).toThrow(/needs an id/);
    expect(() => resolveRetrieverLanes([new WordCountRetriever(fixture.index), new WordCountRetriever(fixture.index)])).toThrow(/two retrievers have the lane id word_count.search/);
    expect(() => resolveRetrieverLanes([{ retriever: new WordCountRetriever(fixture.index), replace: true }])).toThrow(/needs the id of that lane/);
  });
});

describe('planner vocabulary: lanes are declared, not a closed list', () => {
  it('a plan naming a lane is refused unless the lane is declared, then accepted by checkPlan and replan', async () => {
    const decision = await new RuleRouter().route('What were net sales in 2023?');
    const plan = new TemplatePlanner({ lanes: ['my_lane.search'] }).planFor(decision);
    expect(plan.stages.some((s) => s.methods.includes('my_lane.search'))).toBe(true);
    expect(() => checkPlan(plan)).toThrow(/my_lane.search/);
    expect(checkPlan(plan, { retrievalLanes: ['bm25_node.search', 'dense.search', 'table_index.search', 'chart_index.search', 'page_locator.locate', 'my_lane.search'] })).toEqual(plan);
    const switched = replan({ ...plan, fallbacks: [{ condition: 'coverage<0.9', action: { switch_lanes: ['my_lane.search'] } }] }, { coverage: 0.1 }, { retrievalLanes: ['page_locator.locate', 'my_lane.search'] });
    expect(switched.applied).toContain('coverage<0.9: switch_lanes my_lane.search');
  });
});
