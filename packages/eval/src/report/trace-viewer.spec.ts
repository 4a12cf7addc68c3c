import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { Trace } from '@doctree/schema';

import { sampleRun } from '../__fixtures__/sample-run.js';
import type { EvaluationResult } from '../runner/run-evaluation.js';
import { buildTraceView } from './trace-view.js';
import { renderTraceViewerHtml } from './trace-viewer-html.js';
import { traceViewerPath } from './trace-viewers.js';

/** Document text that tries to end the style and script elements and run its own script. */
const HOSTILE = '</style></script><script>alert("pwned")</script><img src=x onerror=alert(1)> & "quotes"';

/** A trace as the agent writes it: route, plan, a stage with two tool calls, fuse, pack, read, judge, replan, finalize. */
function sampleTrace(): Trace {
  return {
    format: 'doctree.trace',
    version: 1,
    trace_id: 't-1',
    doc_id: 'acme-2023',
    question: 'What were net sales in 2023?',
    started_at: '2026-01-01T00:00:00.000Z',
    mode: 'offline',
    llm: { calls: 0, prompt_tokens: 0, completion_tokens: 0, cost_usd: null },
    replans: 1,
    events: [
      { type: 'route', t_ms: 1, attempt: 0, message: 'table_number (rules)', data: { router: 'rules', query_type: 'table_number', confidence: 0.7, candidates: [{ type: 'table_number', score: 0.7 }], signals: { years: [2023], keywords: ['net', 'sales'], page_hints: [] }, risk: { level: 'low', reasons: [] }, domain_pack: { name: 'finance', chosen_by: 'document' }, analysis: { line_items: ['net sales'] } } },
      { type: 'plan', t_ms: 2, attempt: 0, message: 'plan: table_number', data: { planner: 'templates', template: 'table_number', stages: ['navigate', 'leaf'], steps: ['T1:table_index.search', 'R:reader.answer'] } },
      { type: 'plan', t_ms: 3, attempt: 0, message: 'stage navigate: bm25_node.search', data: { stage: 'navigate', status: 'ran' } },
      { type: 'tool_call', t_ms: 4, attempt: 0, tool_id: 'bm25_node.search', args: { query: 'net sales 2023', k: 30 }, status: 'ok', n_hits: 2, latency_ms: 3.2, hits: [{ node_id: 'tab_1', page_idx: 0, score: 9.5, snippet: `Net sales | 412.0 ${HOSTILE}`, bbox: [50, 100, 400, 180] }, { node_id: 't_2', page_idx: 1, score: 3.1 }] },
      { type: 'tool_call', t_ms: 5, attempt: 0, tool_id: 'dense.search', args: { query: 'net sales 2023' }, status: 'error', n_hits: 0, latency_ms: 1, message: '[TOOL_TIMEOUT] too slow' },
      { type: 'fuse', t_ms: 6, attempt: 0, n_hits: 2, hits: [{ node_id: 'tab_1', page_idx: 0, score: 1.2 }], data: { method: 'RRF' } },
      { type: 'pack', t_ms: 7, attempt: 0, n_hits: 2, hits: [{ node_id: 'tab_1', page_idx: 0, score: 1.2, snippet: 'Net sales | 412.0' }, { node_id: 't_2', page_idx: 1, score: 0.4 }], data: { total_tokens: 40, budget_tokens: 1500, coverage: 0.5, needs_missing: ['year:2022'] } },
      { type: 'read', t_ms: 8, attempt: 0, n_hits: 1, hits: [{ node_id: 'tab_1', page_idx: 0, score: 0.8 }], message: 'extractive-v1: 412 (Float, confidence 0.80)', data: { confidence: 0.8, notes: ['table tab_1: row "Net sales", column "2023"'] } },
      { type: 'judge', t_ms: 9, attempt: 0, message: 'rules-v1: replan (score 0.40)', data: { judge: 'rules-v1', pass: false, score: 0.4, action: 'replan' } },
      { type: 'replan', t_ms: 10, attempt: 0, message: 'widen pages', data: { reason: 'replan: low coverage' } },
      { type: 'pack', t_ms: 11, attempt: 1, n_hits: 1, hits: [{ node_id: 'tab_1', page_idx: 0, score: 1.3 }], data: { total_tokens: 20, budget_tokens: 1500, coverage: 1 } },
      { type: 'read', t_ms: 12, attempt: 1, n_hits: 1, hits: [{ node_id: 'tab_1', page_idx: 0, score: 0.9 }], message: 'extractive-v1: 412 (Float, confidence 0.90)', data: { confidence: 0.9, notes: [] } },
      { type: 'finalize', t_ms: 13, attempt: 1, message: '412 (Float) from attempt 1', data: { pages: [1] } },
      { type: 'judge', t_ms: 14, attempt: 1, message: 'calibration: answers', data: { judge: 'calibration', mode: 'apply', p_answer: 0.66, p_refuse: 0.1, refused: false } },
    ],
  };
}

describe('trace view', () => {
  it('follows the whole path: route, plan, tool calls with their hit text, evidence of the kept attempt, reader, judger, replans, final answer', () => {
    const view = buildTraceView(sampleTrace());
    expect(view.route).toMatchObject({ queryType: 'table_number', source: 'rules', confidence: 0.7, domainPack: 'finance (chosen by document)' });
    expect(view.route!.signals).toEqual([['years', '2023'], ['keywords', 'net, sales']]);
    expect(view.plans).toEqual([expect.objectContaining({ template: 'table_number', stages: ['navigate', 'leaf'], steps: ['T1:table_index.search', 'R:reader.answer'] })]);
    const calls = view.path.filter((s) => s.call).map((s) => s.call!);
    expect(calls.map((c) => [c.index, c.toolId, c.status])).toEqual([[1, 'bm25_node.search', 'ok'], [2, 'dense.search', 'error']]);
    expect(calls[0]!.hits[0]).toMatchObject({ nodeId: 'tab_1', page: 1, bbox: [50, 100, 400, 180] });
    expect(calls[0]!.hits[0]!.text).toContain('Net sales | 412.0');
    expect(calls[1]!.error).toBe('[TOOL_TIMEOUT] too slow');
    // The evidence is the kept attempt's (attempt 1), not the first pass's.
    expect(view.evidence).toMatchObject({ attempt: 1, coverage: 1, items: [expect.objectContaining({ nodeId: 'tab_1' })] });
    expect(view.verdicts.map((v) => v.judge)).toEqual(['rules-v1', 'calibration']);
    expect(view.replanSteps).toEqual([{ attempt: 0, message: 'widen pages', reason: 'replan: low coverage' }]);
    // Without a stored answer, the final answer comes from the finalize event and the calibrated confidence.
    expect(view.final).toMatchObject({ answer: '412', format: 'Float', confidence: 0.66, pages: [1], source: 'events' });
  });

  it('resolves text the trace does not store, and prefers the stored answer', () => {
    const trace = { ...sampleTrace(), answer: { answer: 412, answer_format: 'Float' as const, display: '$412.0 million', confidence: 0.7, pages: [1], support: [{ node_id: 'tab_1', page: 1, bbox: [50, 100, 400, 180] as [number, number, number, number], char_start: 0, char_end: 5, snippet: 'Net sales | 412.0' }] } };
    const view = buildTraceView(trace, { nodeText: (id) => (id === 't_2' ? { text: 'Sales grew in every region.', page: 2, bbox: [10, 10, 20, 20] } : undefined) });
    const first = view.path.find((s) => s.call)!.call!;
    expect(first.hits[1]).toMatchObject({ nodeId: 't_2', text: 'Sales grew in every region.', bbox: [10, 10, 20, 20] });
    expect(view.final).toMatchObject({ answer: '412', display: '$412.0 million', confidence: 0.7, source: 'answer' });
    expect(view.final.support[0]).toMatchObject({ nodeId: 'tab_1', page: 1, bbox: [50, 100, 400, 180], text: 'Net sales | 412.0' });
  });
});

describe('trace viewer HTML', () => {
  const png = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

  it('escapes every text of the document and the trace (a hostile </script> or </style> stays text)', () => {
    const trace = sampleTrace();
    const html = renderTraceViewerHtml({ trace: { ...trace, question: `Q ${HOSTILE}` }, pages: [{ page: 1, widthPt: 600, heightPt: 800, src: png, boxes: [{ bbox: [50, 100, 400, 180], nodeId: `tab_1${HOSTILE}`, kind: 'support' }] }] });
    expect(html).not.toContain('alert("pwned")</script>');
    expect(html).not.toContain('<img src=x');
    expect(html.match(/<script>/g)).toHaveLength(1); // only the viewer's own
    expect(html.match(/<\/style>/g)).toHaveLength(1);
    expect(html).toContain('&lt;/style&gt;&lt;/script&gt;&lt;script&gt;alert(&quot;pwned&quot;)');
  });

  it('is self-contained: a CSP that allows no network, page images only as data: URIs, boxes placed in percent of the page', () => {
    const html = renderTraceViewerHtml({
      trace: sampleTrace(),
      pages: [
        { page: 1, widthPt: 600, heightPt: 800, src: png, boxes: [{ bbox: [60, 200, 300, 400], nodeId: 'tab_1', kind: 'support' }] },
        { page: 2, widthPt: 600, heightPt: 800, src: 'https://example.com/page.png', boxes: [] },
      ],
    });
    expect(html).toContain(`content="default-src 'none'; img-src data:;`);
    expect(html).not.toMatch(/(src|href)="(https?:|\/\/)/i);
    expect(html).toContain('id="page-1"');
    expect(html).not.toContain('id="page-2"'); // a remote image is dropped
    expect(html).toContain('class="box support" data-node="tab_1"');
    expect(html).toContain('left:10%;top:25%;width:40%;height:25%');
    expect(html).toMatch(/1\. <b>bm25_node\.search<\/b>/);
    expect(html).toContain('[TOOL_TIMEOUT] too slow');
  });
});

describe('eval report links', () => {
  let dir: string;
  let result: EvaluationResult;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'doctree-eval-traces-'));
    result = await sampleRun(dir);
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  it('links every traced answer from report.html and report.md to its viewer page next to its trace', async () => {
    const html = await readFile(join(dir, 'report.html'), 'utf8');
    const md = await readFile(join(dir, 'report.md'), 'utf8');
    const traced = result.predictions.filter((p) => p.trace_path !== undefined);
    expect(traced.length).toBeGreaterThan(0);
    for (const p of traced) {
      const viewer = traceViewerPath(p)!;
      expect(viewer).toBe(p.trace_path!.replace(/\.json$/, '.html'));
      expect(html).toContain(`href="${viewer}"`);
      expect(md).toContain(`](${viewer})`);
      const page = await readFile(join(dir, viewer), 'utf8');
      expect(page).toContain(p.question.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;'));
      expect(page).toContain('gold');
    }
  });

  it('links only the trace paths the runner writes', () => {
    expect(traceViewerPath({ trace_path: 'traces/doctree/q1.json' })).toBe('traces/doctree/q1.html');
    expect(traceViewerPath({ trace_path: '../../etc/passwd.json' })).toBeUndefined();
    expect(traceViewerPath({ trace_path: 'traces/x/"onclick=.json' })).toBeUndefined();
    expect(traceViewerPath({})).toBeUndefined();
  });
});
