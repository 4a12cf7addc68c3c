import type { Observation } from '@doctree/schema';
import { ToolHub } from '@doctree/toolhub';
import { annualReportTree, buildFixtureIndex, buildFixtureTree, type FixtureIndex } from '@doctree/toolhub/testing';
import { FakeChatClient } from '../__fixtures__/fake-chat-client.js';
import { RuleJudger } from '../judger/rule-judger.js';
import type { JudgeVerdict } from '../judger/answer-judger.js';
import { observe } from '../observer/observe.js';
import type { RegionRenderer } from '../observer/page-region-renderer.js';
import { ExtractiveReader } from '../reader/extractive-reader.js';
import { createAgentCards, type AgentCardSession, type ReadRecord, type VisionOptions } from './agent-cards.js';

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);

describe('agent tool cards (run through the ToolHub executor)', () => {
  let fixture: FixtureIndex;
  beforeAll(async () => {
    fixture = await buildFixtureIndex(annualReportTree());
  });
  afterAll(() => fixture.cleanup());

  const session = (question: string): AgentCardSession & { reads: ReadRecord[]; verdicts: JudgeVerdict[]; asked: string[][] } => {
    const reads: ReadRecord[] = [];
    const verdicts: JudgeVerdict[] = [];
    const asked: string[][] = [];
    return {
      question,
      reads,
      verdicts,
      asked,
      observe: async (ids: readonly string[]): Promise<Observation[]> => {
        asked.push([...ids]);
        return observe(ids, fixture.index);
      },
      addRead: (r) => void reads.push(r),
      addVerdict: (v) => void verdicts.push(v),
    };
  };
  const hubWith = (s: AgentCardSession, vision?: VisionOptions): ToolHub =>
    ToolHub.create({ index: fixture.index, cards: createAgentCards({ reader: new ExtractiveReader(), judger: new RuleJudger(), session: s, ...(vision ? { vision } : {}) }) });

  it('reader.answer reads the focus nodes first, then the evidence pack, and returns the support as hits', async () => {
    const s = session('How many people did Northwind employ at year end?');
    const hub = hubWith(s);
    const pack = { items: [{ node_id: 't_1' }, { node_id: 't_6' }] };
    const result = await hub.call('reader.answer', { question: s.question, evidence: pack, headings: { hits: [], node_id: 'sec_10' } });
    expect(result.status).toBe('ok');
    expect(s.asked[0]).toEqual(['sec_10', 't_1', 't_6']);
    expect(result.data).toMatchObject({ answer: 6800, answer_format: 'Int', reader: 'extractive-v1' });
    const support = (result.data as { support: Array<{ node_id: string; page: number }> }).support;
    expect(support.length).toBeGreaterThan(0);
    expect(result.hits.map((h) => [h.node_id, h.page_idx + 1])).toEqual(support.map((x) => [x.node_id, x.page]));
    expect(s.reads).toHaveLength(1);
  });

  it('judger.verify judges the last read and needs one', async () => {
    const s = session('How many people did Northwind employ at year end?');
    const hub = hubWith(s);
    const early = await hub.call('judger.verify', {});
    expect(early).toMatchObject({ status: 'error', error: { code: 'TOOL_ARGS_INVALID' } });
    await hub.call('reader.answer', { question: s.question, evidence: { items: [{ node_id: 't_6' }] } });
    const verdict = await hub.call('judger.verify', { strict: true });
    expect(verdict.status).toBe('ok');
    expect(verdict.data).toMatchObject({ pass: true, action: 'accept', judge: 'rules-v1' });
    expect(s.verdicts).toHaveLength(1);
    const bad = await hub.call('reader.answer', { evidence: [] });
    expect(bad).toMatchObject({ status: 'error', error: { code: 'TOOL_ARGS_INVALID' } });
  });

  it('vlm cards are error results without a vision model', async () => {
    const hub = hubWith(session('How many bars does Figure 1 have?'));
    for (const id of ['vlm.answer', 'vlm.count']) {
      expect(await hub.call(id, { question: 'How many bars does Figure 1 have?', pages: [2] })).toMatchObject({ status: 'error', error: { code: 'TOOL_NOT_CONFIGURED' } });
    }
  });

  it('vlm.count renders each figure, asks the vision model and adds the counts up', async () => {
    const rendered: number[] = [];
    const renderer: RegionRenderer = { render: async (r) => (rendered.push(r.page), { png: PNG, width: 1, height: 1 }) };
    const client = new FakeChatClient(['{"count": 3}', 'not json', '{"count": 4}']);
    const hub = hubWith(session('How many bars are in the figures?'), { client, renderer, sourcePdf: '/nonexistent.pdf' });
    const result = await hub.call('vlm.count', { question: 'How many bars are in the figures?', pages: [2, 5] });
    expect(result.status).toBe('ok');
    expect(rendered).toEqual([2, 5]);
    expect(result.data).toMatchObject({ total: 3, counts: [{ node_id: 'img_1', page: 2, count: 3 }], failed: ['img_2'] });
    expect(client.requests[0]!.images).toHaveLength(1);
    expect(client.requests[0]!.purpose).toBe('vlm');
    expect(client.requests[0]!.messages[1]!.content).toContain('<<<QUESTION');
  });

  it('vlm.answer asks the vision model about the figures and returns its descriptions', async () => {
    const renderer: RegionRenderer = { render: async () => ({ png: PNG, width: 1, height: 1 }) };
    const client = new FakeChatClient(['A bar chart of net sales by segment; Beverages is the largest bar.']);
    const s = session('Which segment has the largest bar in Figure 1?');
    s.observe = async (ids, options) => observe(ids, fixture.index, options?.vlm ? { image: { vlm: client, renderer } } : {});
    const hub = hubWith(s, { client, renderer });
    const result = await hub.call('vlm.answer', { question: s.question, regions: { hits: [], regions: [{ node_id: 'img_1' }] } });
    expect(result.status).toBe('ok');
    expect(result.data).toMatchObject({ descriptions: [{ node_id: 'img_1', page: 2, source: 'vlm' }] });
    expect((result.data as { descriptions: Array<{ description: string }> }).descriptions[0]!.description).toContain('Beverages is the largest bar');
  });

  it('a computed figure count cites captions only: an uncaptioned figure is counted, not quoted', async () => {
    const tree = buildFixtureTree({ doc_id: 'figs', title: 'Figures', page_count: 2 }, [
      { node_id: 'sec_0', role: 'document', parent: null, title: 'Figures' },
      { node_id: 'sec_1', role: 'section', parent: 'sec_0', title: '1 Results', page: 0 },
      { node_id: 'img_1', role: 'image', parent: 'sec_1', page: 0, caption_id: 'cap_1' },
      { node_id: 'cap_1', role: 'caption', parent: 'sec_1', page: 0, caption_of: 'img_1', text: 'Figure 1: The plant in Tampere' },
      { node_id: 'img_2', role: 'image', parent: 'sec_1', page: 1 },
    ]);
    const fx = await buildFixtureIndex(tree);
    try {
      const reads: ReadRecord[] = [];
      const s: AgentCardSession = { question: 'How many figures are in the report?', reads, verdicts: [], observe: (ids) => observe(ids, fx.index), addRead: (r) => void reads.push(r), addVerdict: () => undefined };
      const hub = ToolHub.create({ index: fx.index, cards: createAgentCards({ reader: new ExtractiveReader(), judger: new RuleJudger(), session: s }) });
      const computed = { display_value: 2, value: 2, operation: 'count', operand_nodes: ['img_1', 'img_2'], hits: [] };
      const result = await hub.call('reader.answer', { question: s.question, evidence: { items: [] }, computed });
      expect(result.data).toMatchObject({ answer: 2, answer_format: 'Int' });
      const support = (result.data as { support: Array<{ node_id: string; snippet: string }> }).support;
      expect(support).toEqual([expect.objectContaining({ node_id: 'img_1', snippet: 'Figure 1: The plant in Tampere' })]);
      for (const x of support) expect(fx.index.tree.text).toContain(x.snippet);
    } finally {
      await fx.cleanup();
    }
  });

  it('reader.answer offers the value the plan computed to the reader, citing the cells it came from', async () => {
    const question = 'How much more was spent on capital expenditure than paid in dividends in 2023?';
    const s = session(question);
    const hub = hubWith(s);
    const computed = {
      operation: 'difference',
      display_value: 1267,
      text: '$1,267 million',
      percent: false,
      unit: '$',
      scale: 'millions',
      operand_nodes: ['tab_1'],
      operand_cells: [
        { node_id: 'tab_1', row: 'Purchases of property, plant and equipment (PP&E)', column: 'Years ended December 31 2023', raw: '(1,482)', value: 1482 },
        { node_id: 'tab_1', row: 'Dividends paid', column: 'Years ended December 31 2023', raw: '(310)', value: 310 },
      ],
    };
    const result = await hub.call('reader.answer', { question, evidence: { items: [] }, computed });
    expect(result.status).toBe('ok');
    const read = s.reads[0]!.result;
    expect(read.answer).toBe(1267);
    expect(read.notes?.join('\n')).toMatch(/computed by the plan/);
    expect(read.support.map((x) => x.node_id)).toEqual(['tab_1', 'tab_1']);
  });
});
