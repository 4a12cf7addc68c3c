import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HashingEmbedder } from '@doctree/index';
import { AnswerSchema, ObservationSchema } from '@doctree/schema';
import type { AnswerReader, ReadRequest, ReadResult } from '@doctree/schema';
import { treeFromSpecs, type NodeSpec } from '../__fixtures__/trees.js';
import { RagSystem } from './rag-system.js';

/**
 * A small reader for tests: answers with the first number that follows `cue` in the observations, citing the
 * observation it came from. Records what it was shown.
 */
class CueReader implements AnswerReader {
  readonly id = 'cue-reader-v1';
  readonly requests: ReadRequest[] = [];
  constructor(
    private readonly cue: RegExp,
    private readonly extra: Partial<ReadResult> = {},
  ) {}

  async read(request: ReadRequest): Promise<ReadResult> {
    this.requests.push(request);
    for (const observation of request.observations) {
      if (observation.payload.kind !== 'text') continue;
      const match = new RegExp(`${this.cue.source}[^0-9]*([0-9][0-9,.]*)`, 'i').exec(observation.payload.text);
      if (!match) continue;
      const [start] = observation.payload.char_span ?? [0, 0];
      return {
        answer: Number(match[1]!.replace(/,/g, '').replace(/\.$/, '')),
        answer_format: 'Float',
        confidence: 0.8,
        support: [{ node_id: observation.node_id, page: observation.page, bbox: observation.bbox, char_start: start + match.index, char_end: start + match.index + match[0].length, snippet: match[0] }],
        notes: ['matched the cue'],
        ...this.extra,
      };
    }
    return { answer: 'Not answerable', answer_format: 'None', confidence: 0.1, support: [], ...this.extra };
  }
}

function annualReport(): ReturnType<typeof treeFromSpecs> {
  const specs: NodeSpec[] = [];
  const filler = (topic: string, n: number): string =>
    Array.from({ length: n }, (_, i) => `The ${topic} discussion continues with item ${i + 1}, covering market conditions, competition and seasonality in our regions.`).join(' ');
  specs.push({ node_id: 'sec_1', role: 'section', title: '1 Letter to Shareholders', page: 0 });
  specs.push({ node_id: 't_1', role: 'paragraph', parent: 'sec_1', page: 0, text: filler('shareholder letter', 12) });
  specs.push({ node_id: 'sec_2', role: 'section', title: '2 Research and Development', page: 1 });
  specs.push({ node_id: 't_2', role: 'paragraph', parent: 'sec_2', page: 1, text: filler('research', 10) });
  specs.push({ node_id: 't_3', role: 'paragraph', parent: 'sec_2', page: 1, text: 'Research and development spending rose to 41.7 million dollars, 8.6% of revenue, mainly for new sensor platforms.' });
  specs.push({ node_id: 'sec_3', role: 'section', title: '3 Liquidity', page: 2 });
  specs.push({ node_id: 't_4', role: 'paragraph', parent: 'sec_3', page: 2, text: filler('liquidity', 9) });
  specs.push({ node_id: 't_5', role: 'paragraph', parent: 'sec_3', page: 3, text: `Capital expenditures were 23.9 million dollars for new plant equipment. ${filler('capital spending', 4)}` });
  specs.push({ node_id: 'tab_1', role: 'table', parent: 'sec_3', page: 3, text: 'Cash flow item | 2023 | 2022\nCapital expenditures | 23.9 | 19.4\nDividends paid | 12.0 | 11.5', table: { html: '<table></table>', header_rows: 1 } });
  return treeFromSpecs('northwind', 4, specs);
}

describe('RagSystem', () => {
  let docDir: string;
  const embedder = new HashingEmbedder({ dimension: 512 });
  const tree = annualReport();

  beforeEach(() => {
    docDir = mkdtempSync(join(tmpdir(), 'doctree-rag-system-'));
    writeFileSync(join(docDir, 'doctree.mm.json'), JSON.stringify(tree));
  });
  afterEach(() => rmSync(docDir, { recursive: true, force: true }));

  it('answers end to end: retrieval, page ranking, text observations with char spans, the reader, an Answer with its trace', async () => {
    const rag = await RagSystem.open(docDir, { embedder, k: 4, ctxTokens: 600, build: { backend: 'exact' } });
    const reader = new CueReader(/capital expenditures/);
    const { answer, rankedPages, hits, observations, latencyMs } = await rag.answer('How much were capital expenditures in 2023?', { reader });

    expect(AnswerSchema.parse(answer)).toEqual(answer);
    expect(answer).toMatchObject({ answer: 23.9, answer_format: 'Float', confidence: 0.8, pages: [4] });
    expect(answer.support[0]).toMatchObject({ page: 4, snippet: expect.stringContaining('23.9') });
    expect(tree.text.slice(answer.support[0]!.char_start, answer.support[0]!.char_end)).toBe(answer.support[0]!.snippet);
    expect(rankedPages[0]?.page).toBe(4);
    expect(new Set(rankedPages.map((p) => p.page)).size).toBe(rankedPages.length);
    expect(latencyMs).toBeGreaterThanOrEqual(0);

    expect(reader.requests).toHaveLength(1);
    expect(reader.requests[0]!.observations).toEqual(observations);
    expect(observations.length).toBeGreaterThan(0);
    expect(observations.length).toBeLessThanOrEqual(4);
    let tokens = 0;
    for (const [i, observation] of observations.entries()) {
      ObservationSchema.parse(observation);
      expect(observation).toMatchObject({ modality: 'text', node_id: hits[i]!.node_id, page: hits[i]!.page_idx + 1 });
      if (observation.payload.kind !== 'text') throw new Error('text payload expected');
      const [start, end] = observation.payload.char_span!;
      expect(tree.text.slice(start, end)).toBe(observation.payload.text);
      expect(observation.bbox).not.toBeNull();
      tokens += Math.ceil(observation.payload.text.length / 4);
    }
    expect(tokens).toBeLessThanOrEqual(600);

    const { trace } = answer;
    expect(trace).toMatchObject({ format: 'doctree.trace', version: 1, doc_id: 'northwind', question: 'How much were capital expenditures in 2023?', mode: 'offline', replans: 0 });
    expect(trace.llm).toEqual({ calls: 0, prompt_tokens: 0, completion_tokens: 0, cost_usd: null });
    expect(trace.events.map((e) => e.type)).toEqual(['tool_call', 'fuse', 'observe', 'read', 'finalize']);
    const retrieval = trace.events[0]!;
    expect(retrieval).toMatchObject({ tool_id: 'rag_dense.search', status: 'ok', n_hits: hits.length });
    expect(retrieval.hits?.map((h) => h.node_id)).toEqual(hits.map((h) => h.node_id));
    expect(trace.events[3]).toMatchObject({ tool_id: 'reader.answer', message: 'cue-reader-v1', data: { notes: ['matched the cue'] } });
    expect(trace.events[4]!.data).toMatchObject({ pages: [4], support: 1 });
  });

  it('records LLM usage, drops supports for nodes the reader was not shown, and keeps secrets out of the trace', async () => {
    const rag = await RagSystem.open(docDir, { embedder, hybrid: true, secrets: ['sk-test-secret-1234'], build: { backend: 'exact' } });
    const reader = new CueReader(/research and development spending/i, {
      usage: { prompt: 812, completion: 41 },
      notes: ['called with key sk-test-secret-1234'],
    });
    const base = await rag.answer('What was research and development spending?', { reader });
    expect(base.answer).toMatchObject({ answer: 41.7, pages: [2] });
    expect(base.answer.trace.mode).toBe('llm');
    expect(base.answer.trace.llm).toMatchObject({ calls: 1, prompt_tokens: 812, completion_tokens: 41 });
    expect(base.answer.trace.events[0]!.tool_id).toBe('rag_hybrid.search');
    expect(JSON.stringify(base.answer.trace)).not.toContain('sk-test-secret-1234');
    expect(JSON.stringify(base.answer.trace)).toContain('[redacted]');

    const honest = new CueReader(/research and development spending/i);
    const sloppy: AnswerReader = {
      id: 'sloppy',
      read: async (request) => {
        const result = await honest.read(request);
        const seen = request.observations[0]!;
        const bogus = { bbox: null, char_start: 0, char_end: 5, snippet: 'The s' };
        return { ...result, support: [...result.support, { ...bogus, node_id: 'sec_9#p009c00', page: 9 }, { ...bogus, node_id: seen.node_id, page: seen.page + 1 }] };
      },
    };
    const { answer } = await rag.answer('What was research and development spending?', { reader: sloppy });
    const seen = honest.requests[0]!.observations[0]!;
    expect(answer.support.map((x) => x.snippet)).toEqual([expect.stringContaining('41.7')]);
    expect(answer.pages).toEqual([2]);
    expect(answer.trace.events.find((e) => e.type === 'warning')?.data).toEqual({ dropped: ['sec_9#p009c00@p9', `${seen.node_id}@p${seen.page + 1}`] });
  });

  it('names bad questions, missing readers, failing readers, invalid answers and cancellation', async () => {
    const rag = await RagSystem.open(docDir, { embedder, build: { backend: 'exact' } });
    const reader = new CueReader(/capital/);
    await expect(rag.answer('  ', { reader })).rejects.toMatchObject({ code: 'USAGE' });
    await expect(rag.answer('capital?', {} as { reader: AnswerReader })).rejects.toMatchObject({ code: 'USAGE' });
    const failing: AnswerReader = { id: 'broken', read: async () => Promise.reject(new Error('model crashed')) };
    await expect(rag.answer('capital?', { reader: failing })).rejects.toMatchObject({ code: 'TOOL_FAILED', message: expect.stringContaining('broken') });
    const invalid: AnswerReader = { id: 'overconfident', read: async () => ({ answer: 1, answer_format: 'Int', confidence: 2, support: [] }) };
    await expect(rag.answer('capital?', { reader: invalid })).rejects.toMatchObject({ code: 'TOOL_FAILED' });
    const controller = new AbortController();
    controller.abort();
    await expect(rag.answer('capital?', { reader, signal: controller.signal })).rejects.toMatchObject({ code: 'CANCELLED' });
    const other = new HashingEmbedder({ dimension: 64 });
    expect(() => new RagSystem(rag.index, { embedder: other })).toThrow(expect.objectContaining({ code: 'EMBEDDER_MISMATCH' }));
    // open() rebuilds the index for another embedder instead.
    expect((await RagSystem.open(docDir, { embedder: other, build: { backend: 'exact' } })).index.manifest.embedder.dimension).toBe(64);
  });
});
