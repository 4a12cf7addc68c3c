import { DocTreeError, resolveConfig, type RouterDecision } from '@doctree/schema';
import { replayToolCalls } from '@doctree/toolhub';
import { annualReportTree, buildFixtureIndex, type FixtureIndex } from '@doctree/toolhub/testing';
import { FakeChatClient } from '../__fixtures__/fake-chat-client.js';
import { RuleJudger } from '../judger/rule-judger.js';
import { TemplatePlanner } from '../planner/template-planner.js';
import { ExtractiveReader } from '../reader/extractive-reader.js';
import { RuleRouter } from '../router/rule-router.js';
import { createDocTreeAgent } from './create-agent.js';
import { DocTreeAgent } from './doctree-agent.js';

const UNANSWERABLE = 'Who is the chief executive of Contoso Pharmaceuticals in Oslo?';

describe('createDocTreeAgent', () => {
  let fixture: FixtureIndex;
  beforeAll(async () => {
    fixture = await buildFixtureIndex(annualReportTree());
  });
  afterAll(() => fixture.cleanup());

  it('with only an index, is the offline agent: rule router, template planner, extractive reader, rule judger', async () => {
    const agent = createDocTreeAgent({ index: fixture.index });
    expect(agent).toBeInstanceOf(DocTreeAgent);
    expect(agent.mode).toBe('offline');
    expect(agent.router).toBeInstanceOf(RuleRouter);
    expect(agent.planner).toBeInstanceOf(TemplatePlanner);
    expect(agent.reader).toBeInstanceOf(ExtractiveReader);
    expect(agent.judger).toBeInstanceOf(RuleJudger);
    const run = await agent.ask('What is the operating margin of the Dairy segment?');
    const direct = await new DocTreeAgent({ index: fixture.index }).ask('What is the operating margin of the Dairy segment?');
    expect(run.answer.answer).toBe(9.8);
    expect(run.answer.pages).toEqual(direct.answer.pages);
    expect(run.rankedPages).toEqual(direct.rankedPages);
  });

  it('takes its limits, chat model, domain pack and secrets from the configuration', async () => {
    const noReplans = resolveConfig({ overrides: { agent: { max_replans: 0 }, domain: { pack: 'finance' } } }).config;
    const agent = createDocTreeAgent({ index: fixture.index, config: noReplans });
    expect(agent.domainPack).toMatchObject({ chosenBy: 'config' });
    expect(agent.domainPack.pack.name).toBe('finance');
    expect((await agent.ask(UNANSWERABLE)).attempts).toHaveLength(1);
    expect((await createDocTreeAgent({ index: fixture.index }).ask(UNANSWERABLE)).attempts.length).toBeGreaterThan(1);

    const secret = 'sk-test-factory-0123456789';
    const endpoint = resolveConfig({ overrides: { llm: { provider: 'openai', base_url: 'http://127.0.0.1:9/v1', api_key: secret, model: 'made-up-model' } } }).config;
    const online = createDocTreeAgent({ index: fixture.index, config: endpoint });
    expect(online.mode).toBe('llm');
    expect(online.chat?.model).toBe('made-up-model');
    expect(createDocTreeAgent({ index: fixture.index, config: endpoint, chat: null }).mode).toBe('offline');

    // The configuration's key never reaches an answer, even when a failing model repeats it.
    const failing = new FakeChatClient([new DocTreeError('LLM_TIMEOUT', `no answer, key ${secret}`)]);
    const run = await createDocTreeAgent({ index: fixture.index, config: endpoint, chat: failing }).ask('How many people did Northwind employ at year end?');
    expect(run.usage.llmErrors).toContain('LLM_TIMEOUT');
    expect(run.answer.answer).toBe(6800);
    expect(JSON.stringify(run.answer)).not.toContain(secret);
  });

  it('uses a part given in place of the default and keeps the other defaults', async () => {
    class CountingRouter extends RuleRouter {
      routed: string[] = [];
      override async route(question: string): Promise<RouterDecision> {
        this.routed.push(question);
        return super.route(question);
      }
    }
    const router = new CountingRouter();
    const agent = createDocTreeAgent({ index: fixture.index, router, maxReplans: 0 });
    expect(agent.router).toBe(router);
    expect(agent.reader).toBeInstanceOf(ExtractiveReader);
    const run = await agent.ask('What is the operating margin of the Dairy segment?');
    expect(router.routed).toEqual(['What is the operating margin of the Dairy segment?']);
    expect(run.answer.answer).toBe(9.8);
    expect(replayToolCalls(run.answer.trace).map((c) => c.tool_id)).toContain('judger.verify');
    // An option given wins over the configuration's value.
    const config = resolveConfig({ overrides: { agent: { max_replans: 0 } } }).config;
    expect((await createDocTreeAgent({ index: fixture.index, config, maxReplans: 2 }).ask(UNANSWERABLE)).attempts.length).toBeGreaterThan(1);
  });

  it('refuses bad options with a USAGE error and a hint, never a raw TypeError', () => {
    const usage = (make: () => unknown, hint: RegExp): void => {
      let error: unknown;
      try {
        make();
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(DocTreeError);
      expect(error).toMatchObject({ code: 'USAGE' });
      expect((error as DocTreeError).hint).toMatch(hint);
    };
    usage(() => createDocTreeAgent(undefined as never), /createDocTreeAgent\(\{ index \}\)/);
    usage(() => createDocTreeAgent({} as never), /prepareDocument|loadDocIndex/);
    usage(() => createDocTreeAgent({ index: fixture.index, maxReplan: 0 } as never), /Did you mean maxReplans\?/);
    usage(() => createDocTreeAgent({ index: fixture.index, chat: {} as never }), /ChatModelClient/);
    usage(() => createDocTreeAgent({ index: fixture.index, judger: { verify: () => undefined } as never }), /conformance/);
    usage(() => createDocTreeAgent({ index: fixture.index, router: 'llm' as never }), /QuestionRouter/);
    usage(() => createDocTreeAgent({ index: fixture.index, config: { agent: {} } as never }), /resolveConfig/);
    const withRanker = resolveConfig({ overrides: { agent: { page_ranker: 'my-ranker.json' } } }).config;
    usage(() => createDocTreeAgent({ index: fixture.index, config: withRanker }), /pageRankerFromConfig.*openAgent/);
    const withPack = resolveConfig({ overrides: { domain: { pack: 'packs/my-field.json' } } }).config;
    usage(() => createDocTreeAgent({ index: fixture.index, config: withPack }), /domainPackFromConfig/);
    expect(() => createDocTreeAgent({ index: fixture.index, maxReplans: 99 })).toThrow(DocTreeError);
  });
});
