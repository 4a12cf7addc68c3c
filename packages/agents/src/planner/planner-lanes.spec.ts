import { BaseRetriever, type DocIndex } from '@doctree/index';
import { DocTreeError, type Hit, type RetrieveRequest, type RouterDecision } from '@doctree/schema';
import { navigatorFor, nodeHit, replayToolCalls } from '@doctree/toolhub';
import { annualReportTree, buildFixtureIndex, type FixtureIndex } from '@doctree/toolhub/testing';
import { DocTreeAgent } from '../agent/doctree-agent.js';
import { BasePlanner, type PlanOutcome } from './base-planner.js';
import { TemplatePlanner } from './template-planner.js';

/** A user's lane: nodes holding the most query words, best first. */
class WordCountRetriever extends BaseRetriever {
  readonly name = 'word-count';
  constructor(private readonly index: DocIndex) {
    super();
  }
  protected async _retrieve(request: RetrieveRequest): Promise<Hit[]> {
    const nav = navigatorFor(this.index);
    const words = request.query.toLowerCase().split(/\W+/).filter((w) => w.length > 3);
    return this.index.tree.nodes
      .map((node) => ({ node, score: words.filter((w) => (node.text ?? '').toLowerCase().includes(w)).length }))
      .filter((x) => x.score > 0)
      .map(({ node, score }) => nodeHit(nav, node, { method: this.name, score }));
  }
}

/** A user's planner that searches with its own lane only — and declares no `retrievalLanes`. */
class OwnLanePlanner extends BasePlanner {
  readonly name = 'own-lane';
  protected async _plan(decision: RouterDecision): Promise<PlanOutcome> {
    const plan = new TemplatePlanner({ singleTemplate: true }).planFor(decision);
    return { plan: { ...plan, stages: plan.stages.map((s) => ({ ...s, methods: ['word_count.search'] })), fallbacks: [] } };
  }
}

describe('a planner of your own and the lanes of the agent', () => {
  let fixture: FixtureIndex;
  beforeAll(async () => {
    fixture = await buildFixtureIndex(annualReportTree());
  });
  afterAll(() => fixture.cleanup());
  const question = 'What did Northwind say about its dividend?';

  it('plans with a lane of the registry without declaring it: the agent tells the planner its lanes', async () => {
    const agent = new DocTreeAgent({ index: fixture.index, planner: new OwnLanePlanner(), retrievers: [new WordCountRetriever(fixture.index)] });
    const run = await agent.ask(question);
    expect(run.plan.stages.every((s) => s.methods.join() === 'word_count.search')).toBe(true);
    expect(replayToolCalls(run.answer.trace).some((c) => c.tool_id === 'word_count.search' && c.status === 'ok' && c.hits.length > 0)).toBe(true);
  });

  it('a lane the agent does not hold is refused with a hint saying where to register or declare it', async () => {
    const error = await new DocTreeAgent({ index: fixture.index, planner: new OwnLanePlanner() }).ask(question).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DocTreeError);
    expect((error as DocTreeError).message).toMatch(/own-lane: stage \S+ names unknown tool word_count\.search/);
    expect((error as DocTreeError).hint).toMatch(/DocTreeAgentOptions\.retrievers/);
    expect((error as DocTreeError).hint).toMatch(/retrievalLanes: \[\.\.\.RETRIEVAL_TOOL_IDS, 'word_count\.search'\]/);
    // Outside an agent: declared per call or by the planner, the lane is accepted.
    const decision = (await new DocTreeAgent({ index: fixture.index }).ask(question)).decision;
    await expect(new OwnLanePlanner().plan(decision)).rejects.toThrow(/word_count\.search/);
    await expect(new OwnLanePlanner().plan(decision, { retrievalLanes: ['word_count.search'] })).resolves.toMatchObject({ stages: expect.any(Array) });
  });
});
