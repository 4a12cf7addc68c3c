import { DocTreeError, type TraceEvent } from '@doctree/schema';
import { TraceRecorder } from './trace-recorder.js';

/** A recorder holding `n` tool calls with hits, on a fixed clock. */
function recorded(n: number, options: ConstructorParameters<typeof TraceRecorder>[0] = {}): TraceRecorder {
  let t = 0;
  const trace = new TraceRecorder({ now: () => (t += 1.5), secrets: ['sk-secret'], ...options });
  trace.record({ type: 'route', message: 'lookup' });
  for (let i = 0; i < n; i++) {
    trace.record({ type: 'tool_call', tool_id: 'bm25_node.search', status: 'ok', n_hits: 1, hits: [{ node_id: `n${i}`, page_idx: i % 7, score: 1 / (i + 1), snippet: 'key sk-secret' }], args: { query: 'net sales' } });
  }
  return trace;
}

describe('trace recorder: events as they happen, and the trace in slices', () => {
  it('hands each event to onRecord when it is recorded, scrubbed, and keeps recording when the listener throws', () => {
    const heard: TraceEvent[] = [];
    const trace = recorded(3, { onRecord: (event) => heard.push(event) });
    expect(heard.map((e) => e.type)).toEqual(['route', 'tool_call', 'tool_call', 'tool_call']);
    expect(heard[1]).toBe(trace.events[1]);
    expect(JSON.stringify(heard)).not.toContain('sk-secret');
    const failing = recorded(2, {
      onRecord: () => {
        throw new Error('listener bug');
      },
    });
    expect(failing.events).toHaveLength(3);
  });

  it('toTraceInSlices gives the trace toTrace gives, pausing between events, and stops when the pause throws', async () => {
    const trace = recorded(40);
    const meta = { doc_id: 'acme', question: 'What were net sales?', mode: 'offline' as const, trace_id: 't-1', started_at: '2026-01-01T00:00:00.000Z' };
    let pauses = 0;
    const sliced = await trace.toTraceInSlices(meta, async () => {
      pauses++;
    });
    expect(sliced).toEqual(trace.toTrace(meta));
    expect(Object.keys(sliced)).toEqual(Object.keys(trace.toTrace(meta)));
    expect(pauses).toBeGreaterThanOrEqual(41);
    const stopped = await trace.toTraceInSlices(meta, () => Promise.reject(new DocTreeError('CANCELLED', 'the question was cancelled'))).catch((e: unknown) => e);
    expect((stopped as DocTreeError).code).toBe('CANCELLED');
  });

  it('toTraceInSlices names a bad event like toTrace refuses it', async () => {
    const trace = recorded(2);
    trace.record({ type: 'tool_call', tool_id: 'x', t_ms: -1 } as never);
    const meta = { doc_id: 'acme', question: 'q', mode: 'offline' as const };
    expect(() => trace.toTrace(meta)).toThrow(/invalid trace/);
    await expect(trace.toTraceInSlices(meta, () => Promise.resolve())).rejects.toThrow(/invalid trace: events\.3/);
  });
});
