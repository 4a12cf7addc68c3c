import { OpenAIChatClient } from '../llm/openai-chat-client.js';
import { RuleRouter } from '../router/rule-router.js';
import { runPlannerConformance } from '../testing/planner-conformance.js';
import { startScriptedOpenAIServer } from '../testing/scripted-openai-server.js';
import type { RecordedChatRequest, ScriptedChatReply, ScriptedOpenAIServer, ScriptedOpenAIServerOptions } from '../testing/scripted-openai-server.js';
import type { PlanRecord } from './base-planner.js';
import { LlmPlanner, PLANNER_SYSTEM_PROMPT } from './llm-planner.js';
import { TemplatePlanner } from './template-planner.js';

const servers: ScriptedOpenAIServer[] = [];
async function server(options: ScriptedOpenAIServerOptions): Promise<ScriptedOpenAIServer> {
  const started = await startScriptedOpenAIServer(options);
  servers.push(started);
  return started;
}
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

const client = (fake: ScriptedOpenAIServer) => new OpenAIChatClient({ baseURL: fake.baseURL, apiKey: 'sk-planner-SECRET-1d2e', maxRetries: 0, timeoutMs: 5000 });

/** The scripted model: returns the draft plan it was shown with the page window widened. */
function widening(request: RecordedChatRequest): ScriptedChatReply {
  const draft = JSON.parse(/Draft plan:\n(.*)\n\nReply/s.exec(request.user)![1]!) as { stages: Array<{ page_window: number }> };
  return { kind: 'json', value: { plan: { ...draft, stages: draft.stages.map((s) => ({ ...s, page_window: s.page_window + 2 })) }, rationale: 'wider windows' } };
}

let shared: ScriptedOpenAIServer;
beforeAll(async () => {
  shared = await server({ chatFallback: widening });
});
runPlannerConformance('LlmPlanner (ChatOpenAI against the scripted server)', (options) => new LlmPlanner({ client: client(shared), ...options }));

describe('LlmPlanner', () => {
  const decision = new RuleRouter().decide('What were total assets in FY2020 according to the balance sheet?');
  const draft = new TemplatePlanner().planFor(decision);

  it('revises the template draft with the model and checks the result', async () => {
    const fake = await server({ chat: [widening] });
    const records: PlanRecord[] = [];
    const plan = await new LlmPlanner({ client: client(fake), onPlan: (r) => records.push(r) }).plan(decision, { question: 'What were total assets in FY2020?' });
    expect(plan.stages.map((s) => s.page_window)).toEqual(draft.stages.map((s) => s.page_window + 2));
    expect(records[0]!.fallback).toBeUndefined();
    const [request] = fake.chatRequests;
    expect(request!.system.startsWith(PLANNER_SYSTEM_PROMPT)).toBe(true);
    expect(request!.user).toContain('<<<QUESTION\nWhat were total assets in FY2020?\nQUESTION>>>');
    expect(request!.responseFormat).toBe('json_object');
  });

  it('drafts the same computation steps as the template planner: the model sees each operand extracted and the formula', async () => {
    const question = 'What was the FY2020 current ratio? The current ratio is defined as total current assets divided by total current liabilities.';
    const computing = new RuleRouter().decide(question);
    const fake = await server({ chat: [widening] });
    const plan = await new LlmPlanner({ client: client(fake) }).plan(computing, { question });
    const expected = new TemplatePlanner().planFor(computing, question);
    expect(expected.steps.some((s) => s.tool === 'compute.eval')).toBe(true);
    expect(plan.steps).toEqual(expected.steps);
    expect(fake.chatRequests[0]!.user).toContain('compute.eval');
  });

  it('falls back to the template plan on malformed JSON, unknown tools, or an unreachable model', async () => {
    const unknownTool = (r: RecordedChatRequest): ScriptedChatReply => {
      const reply = widening(r) as { kind: 'json'; value: { plan: { steps: unknown[] } } };
      reply.value.plan.steps.push({ step_id: 'Z', tool: 'shell.exec', args: { cmd: 'rm -rf /' } });
      return reply;
    };
    const fake = await server({ chat: [{ kind: 'malformed' }, unknownTool, { kind: 'status', status: 503 }] });
    const records: PlanRecord[] = [];
    const planner = new LlmPlanner({ client: client(fake), onPlan: (r) => records.push(r) });
    for (let i = 0; i < 3; i++) expect(await planner.plan(decision)).toEqual(draft);
    expect(records.map((r) => r.fallback?.code)).toEqual(['LLM_BAD_OUTPUT', 'LLM_BAD_OUTPUT', 'LLM_UNAVAILABLE']);
    expect(records[1]!.fallback!.message).toMatch(/unknown tool shell\.exec/);
  });

  it('falls back to the template plan when the model reads a field no card returns (checked when the plan is built)', async () => {
    const wrongField = (r: RecordedChatRequest): ScriptedChatReply => {
      const reply = widening(r) as { kind: 'json'; value: { plan: { steps: unknown[] } } };
      reply.value.plan.steps.unshift({ step_id: 'X', tool: 'structure.children', args: { node_id: '$pack.items.0.nodeId' }, save_as: 'OUTLINE' });
      return reply;
    };
    const fake = await server({ chat: [wrongField] });
    const records: PlanRecord[] = [];
    expect(await new LlmPlanner({ client: client(fake), onPlan: (r) => records.push(r) }).plan(decision)).toEqual(draft);
    expect(records[0]!.fallback?.code).toBe('LLM_BAD_OUTPUT');
    expect(records[0]!.fallback!.message).toMatch(/\$pack\.items\.0 has no field "nodeId"/);
  });
});
