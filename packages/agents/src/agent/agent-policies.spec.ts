import { annualReportTree, buildFixtureIndex, type FixtureIndex } from '@doctree/toolhub/testing';
import { DEFAULT_AGENT_POLICIES, type AgentPolicies } from './agent-policies.js';
import { DocTreeAgent } from './doctree-agent.js';

describe('agent policies', () => {
  let fixture: FixtureIndex;
  beforeAll(async () => {
    fixture = await buildFixtureIndex(annualReportTree());
  });
  afterAll(() => fixture.cleanup());
  const unanswerable = 'Who is the chief executive of Contoso Pharmaceuticals in Oslo?';

  it('the REPLAN policy is the agent\'s: by default it replans a question the document does not answer', async () => {
    const run = await new DocTreeAgent({ index: fixture.index, maxReplans: 2 }).ask(unanswerable);
    expect(run.answer.trace.replans).toBeGreaterThan(0);
  });

  it('a policy given in the options replaces the default, the others stay', async () => {
    const asked: string[] = [];
    const policies: Partial<AgentPolicies> = {
      wantsReplan: (input) => {
        asked.push(input.plan.template);
        return false;
      },
    };
    const run = await new DocTreeAgent({ index: fixture.index, maxReplans: 2, policies }).ask(unanswerable);
    expect(asked).toHaveLength(1);
    expect(run.answer.trace.replans).toBe(0);
    expect(run.plans).toHaveLength(1);
  });

  it('the pass policy keeps a passing verdict over a more confident failing one', () => {
    const pass = (confidence: number, ok: boolean) =>
      ({ attempt: 0, plan: {}, retrieval: {}, steps: [], flags: [], read: { reader: 'r', observations: [], result: { answer: 1, answer_format: 'Int', confidence, support: [] } }, verdict: { pass: ok, score: confidence, action: ok ? 'accept' : 'replan', failures: [], judge: 'rules' } }) as never;
    expect(DEFAULT_AGENT_POLICIES.betterPass(pass(0.4, true), pass(0.9, false))).toBe(true);
    expect(DEFAULT_AGENT_POLICIES.betterPass(pass(0.4, false), pass(0.9, true))).toBe(false);
    expect(DEFAULT_AGENT_POLICIES.betterPass(pass(0.4, true), undefined)).toBe(true);
  });
});
