import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DocTreeError, TraceSchema } from '@doctree/schema';
import type { DocIndex } from '@doctree/index';
import { ToolHub } from '../hub/tool-hub.js';
import { annualReportTree } from '../testing/fixture-trees.js';
import { buildFixtureIndex, type FixtureIndex } from '../testing/fixture-index.js';
import { TraceRecorder } from './trace-recorder.js';
import { formatToolCallReplay, replayToolCalls } from './replay-tool-calls.js';

describe('trace replay', () => {
  let fixture: FixtureIndex;
  let index: DocIndex;
  let dir: string;
  beforeAll(async () => {
    fixture = await buildFixtureIndex(annualReportTree());
    index = fixture.index;
    dir = mkdtempSync(join(tmpdir(), 'doctree-trace-'));
  });
  afterAll(async () => {
    await fixture.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists the tool calls of a saved trace in order, with their hits on 1-based pages', async () => {
    const trace = new TraceRecorder();
    const hub = ToolHub.create({ index, trace });
    trace.record({ type: 'plan', message: 'table_number' });
    await hub.call('table_index.search', { query: 'purchases of property, plant and equipment' });
    await hub.call('extract.column', { node_id: 'tab_1', rows: ['purchases of property plant and equipment'], years: [2022] });
    await hub.call('compute.eval', { expression: '1 / 0' });
    trace.attempt = 1;
    await hub.call('page_locator.locate', { query: 'what is on the last page?' });
    const file = join(dir, 'trace.json');
    writeFileSync(file, JSON.stringify(trace.toTrace({ doc_id: 'northwind-2023', question: 'What was spent on PP&E in 2022?', mode: 'offline' })));

    const saved: unknown = JSON.parse(readFileSync(file, 'utf8'));
    expect(TraceSchema.safeParse(saved).success).toBe(true);
    const calls = replayToolCalls(saved);
    expect(calls.map((c) => [c.index, c.tool_id, c.status, c.attempt])).toEqual([
      [1, 'table_index.search', 'ok', 0],
      [2, 'extract.column', 'ok', 0],
      [3, 'compute.eval', 'error', 0],
      [4, 'page_locator.locate', 'ok', 1],
    ]);
    expect(calls[0]!.hits[0]).toMatchObject({ node_id: 'tab_1', page_idx: 3, page: 4 });
    expect(calls[0]!.args).toMatchObject({ query: 'purchases of property, plant and equipment' });
    expect(calls[2]!.error).toMatch(/division by zero/);
    expect(calls[3]!.hits.every((h) => h.page === 6)).toBe(true);
    expect(calls.every((c) => c.call_id !== undefined && c.latency_ms >= 0)).toBe(true);

    const text = formatToolCallReplay(calls);
    expect(text.split('\n')[0]).toMatch(/^1\. table_index\.search ok \d+ hits [0-9.]+ ms \{"query":"purchases/);
    expect(text).toContain('→ tab_1 p.4');
    expect(text).toContain('! [TOOL_FAILED] compute.eval: division by zero');
    expect(text).toContain('[attempt 1]');
  });

  it('replays a bare event array and rejects what is not a trace, naming the field', () => {
    const events = [{ type: 'tool_call', t_ms: 1, attempt: 0, tool_id: 'x.search', status: 'ok', n_hits: 0, latency_ms: 2 }];
    expect(replayToolCalls(events)).toHaveLength(1);
    const error = (() => {
      try {
        replayToolCalls({ format: 'doctree.trace', version: 2 });
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(DocTreeError.isInstance(error) && error.code).toBe('SCHEMA_INVALID');
    expect((error as Error).message).toMatch(/version/);
  });

  it('scrubs secrets and sums LLM usage from events', () => {
    const trace = new TraceRecorder({ secrets: ['sk-abcdef'] });
    trace.record({ type: 'llm_call', tokens: { prompt: 100, completion: 20 }, message: 'called with sk-abcdef', data: { cost_usd: 0.001 } });
    trace.record({ type: 'tool_call', tool_id: 'rank.llm', status: 'ok', tokens: { prompt: 50, completion: 5 } });
    trace.record({ type: 'tool_call', tool_id: 'bm25_node.search', status: 'ok', tokens: { prompt: 0, completion: 0 } });
    trace.record({ type: 'replan', message: 'coverage below gate' });
    const doc = trace.toTrace({ doc_id: 'd', question: 'q', mode: 'llm' });
    expect(JSON.stringify(doc)).not.toContain('sk-abcdef');
    expect(doc.llm).toEqual({ calls: 2, prompt_tokens: 150, completion_tokens: 25, cost_usd: 0.001 });
    expect(doc.replans).toBe(1);
  });
});
