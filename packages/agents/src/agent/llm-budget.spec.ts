import { DocTreeError } from '@doctree/schema';
import { annualReportTree, buildFixtureIndex, type FixtureIndex } from '@doctree/toolhub/testing';
import { OpenAIChatClient } from '../llm/openai-chat-client.js';
import { startScriptedOpenAIServer, type ScriptedOpenAIServer } from '../testing/scripted-openai-server.js';
import { DocTreeAgent } from './doctree-agent.js';

describe('DocTreeAgent LLM budget (a silent endpoint)', () => {
  let fixture: FixtureIndex;
  let server: ScriptedOpenAIServer;
  beforeAll(async () => {
    fixture = await buildFixtureIndex(annualReportTree());
    server = await startScriptedOpenAIServer({ chatFallback: { kind: 'hang' } });
  });
  afterAll(async () => {
    await server.close();
    await fixture.cleanup();
  });

  // Per attempt 800 ms, 3 retries: without the budget each call takes > 3 s, and a question makes several.
  const chat = (): OpenAIChatClient => new OpenAIChatClient({ baseURL: server.baseURL, timeoutMs: 800, maxRetries: 3, retryBaseDelayMs: 50 });
  const question = 'What is the operating margin of the Dairy segment?';

  it('answers offline once the budget is spent, well before the calls would time out, and traces the budget', async () => {
    const before = server.chatRequests.length;
    const agent = new DocTreeAgent({ index: fixture.index, chat: chat(), llmBudgetMs: 1500 });
    const started = performance.now();
    const run = await agent.ask(question);
    const elapsed = performance.now() - started;
    expect(elapsed).toBeLessThan(10_000);
    expect(run.answer.answer).toBe(9.8);
    expect(run.usage.llmErrors.length).toBeGreaterThan(0);
    expect(run.usage.llmErrors.every((code) => code === 'LLM_TIMEOUT')).toBe(true);
    const budget = run.answer.trace.events.filter((e) => e.type === 'warning' && /LLM budget of 1500 ms/.test(e.message ?? ''));
    expect(budget).toHaveLength(1);
    // Calls after the budget fail without a request: at most the ~2 attempts that fit in 1.5 s reached the server.
    expect(server.chatRequests.length - before).toBeLessThanOrEqual(3);
    const failFast = run.answer.trace.events.filter((e) => e.type === 'llm_call' && e.status === 'error' && /budget/.test(e.message ?? ''));
    expect(failFast.length).toBeGreaterThan(0);
  }, 20_000);

  it("rejects with LLM_TIMEOUT with onLlmError 'fail'", async () => {
    const agent = new DocTreeAgent({ index: fixture.index, chat: chat(), llmBudgetMs: 1500, onLlmError: 'fail' });
    const started = performance.now();
    const error = await agent.ask(question).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(DocTreeError.isInstance(error) && error.code).toBe('LLM_TIMEOUT');
  }, 20_000);

  it('falls back offline when the reader card hits its tool timeout, aborting its model call', async () => {
    const agent = new DocTreeAgent({ index: fixture.index, chat: chat(), router: 'rules', llmBudgetMs: 60_000, hub: { timeoutMs: 600 } });
    const started = performance.now();
    const run = await agent.ask(question);
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(run.answer.answer).toBe(9.8);
    expect(run.answer.trace.events.some((e) => e.type === 'warning' && /TOOL_TIMEOUT: reading timed out/.test(e.message ?? ''))).toBe(true);
  }, 20_000);

  it('rejects a budget that is not a positive number', () => {
    expect(() => new DocTreeAgent({ index: fixture.index, llmBudgetMs: 0 })).toThrow(/llmBudgetMs/);
  });
});
