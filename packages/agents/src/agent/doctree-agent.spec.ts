import { AnswerSchema, DocTreeError, type ChatRequest } from '@doctree/schema';
import { replayToolCalls } from '@doctree/toolhub';
import { annualReportTree, buildFixtureIndex, type FixtureIndex } from '@doctree/toolhub/testing';
import { PageRanker } from '@doctree/toolhub';
import { FakeChatClient } from '../__fixtures__/fake-chat-client.js';
import { AgentMemory } from './agent-memory.js';
import { DocTreeAgent, type AgentEvent } from './doctree-agent.js';

describe('DocTreeAgent (offline, over a built fixture index)', () => {
  let fixture: FixtureIndex;
  beforeAll(async () => {
    fixture = await buildFixtureIndex(annualReportTree());
  });
  afterAll(() => fixture.cleanup());

  it('answers a table question with supports that quote the table on its page', async () => {
    const agent = new DocTreeAgent({ index: fixture.index });
    const run = await agent.ask('What is the operating margin of the Dairy segment?');
    expect(AnswerSchema.parse(run.answer)).toEqual(run.answer);
    expect(run.answer.answer).toBe(9.8);
    expect(run.answer.pages).toEqual([5]);
    expect(run.answer.support[0]).toMatchObject({ node_id: 'tab_2', page: 5 });
    expect(run.answer.support[0]!.snippet).toContain('9.8%');
    expect(run.rankedPages[0]).toBe(5);
    expect(new Set(run.rankedPages).size).toBe(run.rankedPages.length);
    expect(run.rankedPages.every((p) => Number.isInteger(p) && p >= 1 && p <= 6)).toBe(true);
    expect(run.answer.trace.mode).toBe('offline');
    expect(run.usage.llmCalls).toBe(0);
  });

  it('records a trace that replays the path: lanes of every stage, the plan steps, then reader and judger', async () => {
    const run = await new DocTreeAgent({ index: fixture.index }).ask('What is the operating margin of the Dairy segment?');
    const trace = run.answer.trace;
    expect(trace.events.map((e) => e.type)).toEqual(expect.arrayContaining(['route', 'plan', 'tool_call', 'fuse', 'expand', 'pack', 'observe', 'read', 'judge', 'finalize']));
    const calls = replayToolCalls(JSON.parse(JSON.stringify(trace)));
    const tools = calls.map((c) => c.tool_id);
    // "operating margin" names a stated percentage, not a division to compute: no compute.eval step.
    expect(tools.slice(-4)).toEqual(['table_index.search', 'extract.column', 'reader.answer', 'judger.verify']);
    expect(tools).toContain('bm25_node.search');
    const extract = calls.find((c) => c.tool_id === 'extract.column')!;
    expect(extract.args['node_id']).toBe('tab_2');
    expect(calls.find((c) => c.tool_id === 'reader.answer')!.hits.map((h) => [h.node_id, h.page])).toEqual([['tab_2', 5]]);
    expect(calls.map((c) => c.index)).toEqual(calls.map((_, i) => i + 1));
  });

  it('answers a figure count from the figures the plan found, citing each of them', async () => {
    const run = await new DocTreeAgent({ index: fixture.index }).ask('How many figures are in the report?');
    expect(run.decision.query_type).toBe('figure_count');
    expect(run.answer.answer).toBe(2);
    expect(run.answer.support.map((s) => s.node_id).sort()).toEqual(['img_1', 'img_2']);
    expect(run.answer.pages).toEqual([2, 5]);
    expect(run.steps.map((s) => [s.tool, s.status])).toEqual([
      ['structure.count', 'ok'],
      ['compute.eval', 'ok'],
      ['reader.answer', 'ok'],
      ['judger.verify', 'ok'],
    ]);
  });

  it('answers a line item named by an abbreviation or a synonym from its row and year column', async () => {
    const agent = new DocTreeAgent({ index: fixture.index });
    const ppe = await agent.ask('What were purchases of PP&E in 2022 (in USD millions)?');
    expect(ppe.decision.query_type).toBe('table_number');
    expect(ppe.answer.answer).toBe(1291);
    expect(ppe.answer.support[0]).toMatchObject({ node_id: 'tab_1', page: 4 });
    expect(ppe.answer.support[0]!.snippet).toMatch(/^Purchases of property, plant and equipment \(PP&E\) \| .*\(1,291\)$/);
    const capex = await agent.ask('What was capex in 2021?');
    expect(capex.answer.answer).toBe(1201);
  });

  it('answers a change over two years with the value the plan computed from the extracted cells', async () => {
    const run = await new DocTreeAgent({ index: fixture.index }).ask('What was the change in net cash provided by operating activities from 2021 to 2023?');
    expect(run.steps.map((s) => [s.tool, s.status])).toEqual(expect.arrayContaining([['extract.column', 'ok'], ['compute.eval', 'ok']]));
    const calls = replayToolCalls(run.answer.trace);
    const extract = calls.find((c) => c.tool_id === 'extract.column')!;
    expect(extract.args).toMatchObject({ node_id: 'tab_1', rows: ['net cash operating activities'], best_row_only: true, years: [2021, 2023] });
    expect(run.answer.answer).toBe(343);
    expect(run.answer.support.map((s) => s.node_id)).toEqual(['tab_1', 'tab_1']);
  });

  it('answers a one-year growth rate from that year and the year before, and the judger accepts it', async () => {
    const run = await new DocTreeAgent({ index: fixture.index }).ask('What was the growth rate of net cash provided by operating activities in 2022?');
    expect(run.answer.answer).toBeCloseTo(11.0241, 3);
    expect(run.verdict?.pass).toBe(true);
    expect(run.answer.support.map((s) => s.node_id)).toEqual(['tab_1', 'tab_1']);
  });

  it('counts figures and tables only where the question says: a section by number or title, or pages', async () => {
    const agent = new DocTreeAgent({ index: fixture.index });
    const inSection = await agent.ask('How many figures are in section 3?');
    expect(inSection.answer.answer).toBe(1);
    expect(inSection.answer.support.map((s) => s.node_id)).toEqual(['img_2']);
    const byTitle = await agent.ask('How many charts are in the Results of Operations section?');
    expect(byTitle.answer.answer).toBe(1);
    const onPages = await agent.ask('How many tables are on pages 4 and 5?');
    expect(onPages.answer.answer).toBe(2);
    const onePage = await agent.ask('How many tables are there on page 5?');
    expect(onePage.answer.answer).toBe(1);
  });

  it('replans an unanswerable question at most maxReplans times and says Not answerable', async () => {
    const events: AgentEvent[] = [];
    const run = await new DocTreeAgent({ index: fixture.index, maxReplans: 2 }).ask('Who is the chief executive of Contoso Pharmaceuticals in Oslo?', { onEvent: (e) => events.push(e) });
    expect(run.answer.answer_format).toBe('None');
    expect(run.answer.support).toEqual([]);
    expect(run.attempts.length).toBeGreaterThanOrEqual(1);
    expect(run.attempts.length).toBeLessThanOrEqual(3);
    expect(run.answer.trace.replans).toBeLessThanOrEqual(2);
    expect(run.plans.length).toBe(run.answer.trace.replans + 1);
    expect(events[0]!.type).toBe('route');
    expect(events[events.length - 1]!.type).toBe('finalize');

    const once = await new DocTreeAgent({ index: fixture.index, maxReplans: 0 }).ask('Who is the chief executive of Contoso Pharmaceuticals in Oslo?');
    expect(once.attempts).toHaveLength(1);
    expect(once.answer.trace.events.filter((e) => e.type === 'replan')).toEqual([]);
  });

  it('honours the lane, expansion and router ablations', async () => {
    const question = 'What were net sales in 2023?';
    const tools = async (agent: DocTreeAgent): Promise<string[]> => replayToolCalls((await agent.ask(question)).answer.trace).map((c) => c.tool_id);
    const sparse = await tools(new DocTreeAgent({ index: fixture.index, lanes: 'sparse' }));
    expect(sparse).not.toContain('dense.search');
    expect(sparse).toContain('bm25_node.search');
    const dense = await tools(new DocTreeAgent({ index: fixture.index, lanes: 'dense' }));
    expect(dense).toContain('dense.search');
    expect(dense.filter((t) => t === 'bm25_node.search' || t === 'chart_index.search')).toEqual([]);

    const flat = await new DocTreeAgent({ index: fixture.index, expansion: false }).ask(question);
    for (const e of flat.answer.trace.events.filter((ev) => ev.type === 'expand')) expect(e.data?.['added']).toBe(0);

    const single = await new DocTreeAgent({ index: fixture.index, router: 'single-template' }).ask('How many figures are in the report?');
    expect(single.decision.query_type).toBe('lookup');
    expect(single.decision.risk.reasons).toContain('no router (ablation)');
    expect(single.plans.every((p) => p.template === 'lookup')).toBe(true);
  });

  it('reuses stage results and observations from memory when the same question comes again', async () => {
    const memory = new AgentMemory();
    const agent = new DocTreeAgent({ index: fixture.index, memory, maxReplans: 0 });
    const first = await agent.ask('How many people did Northwind employ at year end?');
    const before = memory.stats();
    const second = await agent.ask('How many people did Northwind employ at year end?');
    const after = memory.stats();
    expect(second.answer.answer).toEqual(first.answer.answer);
    expect(after.stageHits).toBeGreaterThan(before.stageHits);
    expect(after.observationHits).toBeGreaterThan(before.observationHits);
    expect(second.answer.trace.events.some((e) => e.type === 'plan' && /reused from memory/.test(e.message ?? ''))).toBe(true);
  });

  it('calibrates offline: confidence is the calibrated probability; a page the document does not have is declined with the reason', async () => {
    const agent = new DocTreeAgent({ index: fixture.index });
    const run = await agent.ask('What were capital expenditures in 2023?');
    expect(run.calibration).toBeDefined();
    expect(run.answer.confidence).toBeCloseTo(run.calibration!.confidence, 9);
    expect(run.pageRanking.length).toBeGreaterThan(0);
    const beyond = await agent.ask('What does page 40 say about capital expenditures?');
    expect(beyond.answer).toMatchObject({ answer: 'Not answerable', answer_format: 'None', support: [] });
    expect(beyond.answer.abstention?.reason).toBe('the document has no page 40');
    const raw = await new DocTreeAgent({ index: fixture.index, calibrator: false }).ask('What were capital expenditures in 2023?');
    expect(raw.calibration).toBeUndefined();
  });

  it('offers the reader the best nodes of a top ranked page the stages did not pack, and says so in the trace', async () => {
    const question = 'How many people did Northwind employ at year end?';
    const stagesOnly = await new DocTreeAgent({ index: fixture.index, evidencePages: 0, maxReplans: 0, ctxTokens: 100 }).ask(question);
    const unread = [1, 2, 3, 4, 5, 6].filter((page) => !stagesOnly.observations.some((o) => o.page === page));
    expect(unread.length).toBeGreaterThan(0);
    // A ranker (a user's own) that puts an unread page first whatever the lanes say: its best nodes must reach the reader.
    class UnreadFirst extends PageRanker {
      override rank(input: Parameters<PageRanker['rank']>[0]): ReturnType<PageRanker['rank']> {
        const ranked = super.rank(input);
        const first = ranked.find((p) => p.page === unread[0]) ?? { page: unread[0]!, score: 99, features: ranked[0]!.features };
        return [first, ...ranked.filter((p) => p.page !== unread[0])];
      }
    }
    const withPages = await new DocTreeAgent({ index: fixture.index, pageRanker: new UnreadFirst(), evidencePages: 1, maxReplans: 0, ctxTokens: 100 }).ask(question);
    const offered = withPages.answer.trace.events.find((e) => e.type === 'plan' && e.message?.startsWith('page evidence'));
    expect(offered?.data?.['page_evidence']).toEqual([unread[0]]);
    const nodes = offered?.data?.['nodes'] as string[];
    expect(nodes.length).toBeGreaterThan(0);
    for (const id of nodes) expect(fixture.index.view.node(id)!.page_span[0] + 1).toBeLessThanOrEqual(unread[0]!);
    expect(stagesOnly.answer.trace.events.some((e) => e.type === 'plan' && e.message?.startsWith('page evidence'))).toBe(false);
    expect(withPages.answer.answer).toBe(stagesOnly.answer.answer);
    expect(() => new DocTreeAgent({ index: fixture.index, evidencePages: -1 })).toThrow(/evidencePages/);
  });

  it('rejects an empty question and honours cancellation', async () => {
    const agent = new DocTreeAgent({ index: fixture.index });
    await expect(agent.ask('  ')).rejects.toMatchObject({ code: 'USAGE' });
    const controller = new AbortController();
    controller.abort();
    await expect(agent.ask('What were net sales in 2023?', { signal: controller.signal })).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(() => new DocTreeAgent({ index: fixture.index, maxReplans: -1 })).toThrow(DocTreeError);
  });
});

describe('DocTreeAgent with a chat model', () => {
  let fixture: FixtureIndex;
  beforeAll(async () => {
    fixture = await buildFixtureIndex(annualReportTree());
  });
  afterAll(() => fixture.cleanup());

  const reply = (request: ChatRequest): string => {
    const system = request.messages[0]?.content ?? '';
    if (system.startsWith('You are a document navigator')) return 'not json {';
    if (system.startsWith('You are an analyst')) {
      return JSON.stringify({ answer: 6800, answer_format: 'Int', confidence: 0.9, support_node_ids: ['t_6'], quote: 'Northwind employed 6,800 people at year end' });
    }
    return JSON.stringify({ pass: true, score: 0.9, failures: [] });
  };

  it('traces every model call with its tokens, falls back to the rule router on bad JSON, and reads with the model', async () => {
    const chat = new FakeChatClient([reply]);
    const run = await new DocTreeAgent({ index: fixture.index, chat }).ask('How many people did Northwind employ at year end?');
    expect(run.answer.answer).toBe(6800);
    // The quote is found in what was observed (the paragraph, or its Workforce section read whole).
    expect(run.answer.support[0]).toMatchObject({ node_id: expect.stringMatching(/^(?:t_6|sec_10)$/), page: 6, snippet: expect.stringContaining('6,800 people') });
    expect(run.decision.source).toBe('rules');
    expect(run.decision.risk.reasons[0]).toBe('llm_fallback:LLM_BAD_OUTPUT');
    const calls = run.answer.trace.events.filter((e) => e.type === 'llm_call');
    expect(calls.length).toBe(chat.requests.length);
    expect(run.answer.trace.llm).toEqual({ calls: chat.requests.length, prompt_tokens: 100 * chat.requests.length, completion_tokens: 20 * chat.requests.length, cost_usd: null });
    expect(run.answer.trace.mode).toBe('llm');
    expect(run.usage.llmCalls).toBe(chat.requests.length);
    // prompts carry focused windows only: never the document's whole text
    for (const request of chat.requests) expect(request.messages.map((m) => m.content).join('\n')).not.toContain(fixture.index.tree.text.slice(0, 400));
  });

  it('with a chat model keeps its answer and confidence (the shipped model is the offline reader\'s) but declines what the document lacks', async () => {
    const run = await new DocTreeAgent({ index: fixture.index, chat: new FakeChatClient([reply]) }).ask('How many people did Northwind employ at year end?');
    expect(run.calibration).toBeDefined();
    expect(run.answer.confidence).toBe(run.calibration!.raw.confidence);
    expect(run.answer.trace.events.some((e) => e.type === 'judge' && e.data?.['judge'] === 'calibration' && e.data?.['mode'] === 'lacks')).toBe(true);
    const absent = await new DocTreeAgent({ index: fixture.index, chat: new FakeChatClient([reply]) }).ask('How many people did Contoso employ at year end?');
    expect(absent.answer).toMatchObject({ answer: 'Not answerable', abstention: { reason: 'the document never mentions "contoso"' } });
  });

  it('keeps secrets out of the trace and, with onLlmError "fail", stops on a failed model call', async () => {
    const secret = 'sk-test-0123456789abcdef';
    const failing = new FakeChatClient([new DocTreeError('LLM_TIMEOUT', `no answer from http://127.0.0.1 with key ${secret}`)]);
    const tolerant = await new DocTreeAgent({ index: fixture.index, chat: failing, secrets: [secret] }).ask('How many people did Northwind employ at year end?');
    expect(tolerant.answer.answer).toBe(6800);
    expect(tolerant.usage.llmErrors).toContain('LLM_TIMEOUT');
    expect(JSON.stringify(tolerant.answer)).not.toContain(secret);
    await expect(new DocTreeAgent({ index: fixture.index, chat: failing, secrets: [secret], onLlmError: 'fail' }).ask('How many people did Northwind employ at year end?')).rejects.toMatchObject({
      code: 'LLM_TIMEOUT',
    });
  });

  it('with rankWithLlm, rank.llm reranks the candidates and the reader reads in that order', async () => {
    const chat = new FakeChatClient([
      (request) => (request.messages[0]!.content.startsWith('You rank passages') ? JSON.stringify({ ranking: ['P2', 'P1'] }) : reply(request)),
    ]);
    const run = await new DocTreeAgent({ index: fixture.index, chat, rankWithLlm: true, maxReplans: 0 }).ask('What was the size of the Northwind workforce at year end?');
    expect(run.plan.template).toBe('lookup');
    const calls = replayToolCalls(run.answer.trace);
    const rank = calls.find((c) => c.tool_id === 'rank.llm')!;
    expect(rank.status).toBe('ok');
    const reader = calls.find((c) => c.tool_id === 'reader.answer')!;
    expect(reader.index).toBeGreaterThan(rank.index);
    expect(reader.args['ranked']).toBeDefined();
    expect(run.answer.answer).toBe(6800);
    expect(run.answer.trace.llm.calls).toBe(chat.requests.length);
  });
});
