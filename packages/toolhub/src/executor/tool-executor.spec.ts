import { DocTreeError, REDACTED } from '@doctree/schema';
import type { Hit, ToolCard } from '@doctree/schema';
import { z } from 'zod';
import { ToolRegistry } from '../registry/tool-registry.js';
import { TraceRecorder } from '../trace/trace-recorder.js';
import { ToolExecutor, compactArgs } from './tool-executor.js';

interface Ctx {
  log: string[];
}

const hit = (nodeId: string, score: number, method: string): Hit => ({
  eid: `doc:${nodeId}`,
  doc_id: 'doc',
  page_idx: 0,
  node_id: nodeId,
  modality: 'text',
  snippet: nodeId,
  bbox: null,
  score_raw: score,
  method,
  extra: {},
});

/** A gate the test opens: lets two cards prove they were running at the same time without timing anything. */
function gate(): { wait: Promise<void>; open: () => void } {
  let open!: () => void;
  const wait = new Promise<void>((resolve) => (open = resolve));
  return { wait, open };
}

function slowLane(id: string, started: () => void, release: Promise<void>): ToolCard<{ query: string }, Ctx, unknown> {
  return {
    id,
    description: 'a lane that waits for a gate',
    args: z.object({ query: z.string() }),
    kind: 'retrieval',
    async run(args, ctx) {
      ctx.log.push(`start ${id}`);
      started();
      await release;
      ctx.log.push(`end ${id}`);
      return { hits: [hit('t_1', 1, id)] };
    },
  };
}

const echo: ToolCard<{ text: string; times: number }, Ctx, string> = {
  id: 'demo.echo',
  description: 'repeats text',
  args: z.object({ text: z.string().min(1), times: z.number().int().min(1).max(3).default(1) }),
  kind: 'compute',
  async run(args, ctx) {
    ctx.log.push(`echo ${args.text}`);
    return { data: args.text.repeat(args.times), tokens: { prompt: 3, completion: 1 } };
  },
};

const boom: ToolCard<Record<string, never>, Ctx, unknown> = {
  id: 'demo.boom',
  description: 'always throws',
  args: z.object({}),
  kind: 'compute',
  async run() {
    throw new Error('card exploded');
  },
};

describe('ToolRegistry', () => {
  it('registers, lists and finds cards, and rejects duplicate or malformed ids', () => {
    const registry = new ToolRegistry<Ctx>().register(echo).register(boom);
    expect(registry.list().map((c) => c.id)).toEqual(['demo.echo', 'demo.boom']);
    expect(registry.get('demo.echo').kind).toBe('compute');
    expect(() => registry.register(echo)).toThrow(/already registered/);
    expect(() => registry.register({ ...echo, id: 'Not An Id' })).toThrow(/dotted lower-case/);
    const missing = (() => {
      try {
        registry.get('nope.search');
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(DocTreeError.isInstance(missing) && missing.code).toBe('TOOL_NOT_FOUND');
    expect((missing as Error).message).toContain('demo.echo');
  });
});

describe('ToolExecutor', () => {
  it('turns bad arguments into an error result naming the field, and keeps going', async () => {
    const ctx: Ctx = { log: [] };
    const trace = new TraceRecorder();
    const executor = new ToolExecutor({ registry: new ToolRegistry<Ctx>([echo]), context: ctx, trace });
    const bad = await executor.call({ tool_id: 'demo.echo', args: { text: 'hi', times: 9 } });
    expect(bad.status).toBe('error');
    expect(bad.error?.code).toBe('TOOL_ARGS_INVALID');
    expect(bad.error?.message).toMatch(/times/);
    const missing = await executor.call({ tool_id: 'demo.echo', args: {} });
    expect(missing.error?.message).toMatch(/text/);
    const good = await executor.call({ tool_id: 'demo.echo', args: { text: 'ab', times: 2 } });
    expect(good).toMatchObject({ status: 'ok', data: 'abab', metrics: { n_hits: 0, tokens: { prompt: 3, completion: 1 } } });
    expect(ctx.log).toEqual(['echo ab']);
    expect(trace.eventsOf('tool_call').map((e) => e.status)).toEqual(['error', 'error', 'ok']);
  });

  it('turns a throwing card, an unknown tool and a malformed hit into error results', async () => {
    const badHits: ToolCard<Record<string, never>, Ctx, unknown> = {
      id: 'demo.bad_hits',
      description: 'returns a hit without a node id',
      args: z.object({}),
      kind: 'retrieval',
      async run() {
        return { hits: [{ ...hit('t_1', 1, 'demo.bad_hits'), node_id: '' }] };
      },
    };
    const executor = new ToolExecutor({ registry: new ToolRegistry<Ctx>([echo, boom, badHits]), context: { log: [] } });
    const results = await executor.callMany([
      { tool_id: 'demo.boom' },
      { tool_id: 'missing.search', args: { query: 'x' } },
      { tool_id: 'demo.bad_hits' },
      { tool_id: 'demo.echo', args: { text: 'still here' } },
    ]);
    expect(results.map((r) => [r.tool_id, r.status, r.error?.code])).toEqual([
      ['demo.boom', 'error', 'TOOL_FAILED'],
      ['missing.search', 'error', 'TOOL_NOT_FOUND'],
      ['demo.bad_hits', 'error', 'INTERNAL'],
      ['demo.echo', 'ok', undefined],
    ]);
    expect(results[0]!.error?.message).toBe('card exploded');
    expect(results[2]!.error?.message).toMatch(/node_id/);
  });

  it('holds a card to the output schema it declares: data that does not match is an error result naming the field', async () => {
    const total = (data: unknown): ToolCard<Record<string, never>, Ctx, unknown> => ({
      id: 'demo.total',
      description: 'returns a total',
      args: z.object({}),
      output: z.object({ total: z.number() }),
      kind: 'compute',
      async run() {
        return { data };
      },
    });
    const call = (data: unknown) => new ToolExecutor({ registry: new ToolRegistry<Ctx>([total(data)]), context: { log: [] } }).call({ tool_id: 'demo.total' });
    expect(await call({ total: 3 })).toMatchObject({ status: 'ok', data: { total: 3 } });
    const bad = await call({ total: 'three' });
    expect(bad).toMatchObject({ status: 'error', error: { code: 'INTERNAL' } });
    expect(bad.error?.message).toMatch(/demo\.total returned data that does not match its declared output schema.*total/);
  });

  it('refuses to register a card whose output is not a zod schema', () => {
    const card = { id: 'demo.odd', description: 'odd', args: z.object({}), kind: 'compute', output: { total: 'number' }, run: async () => ({}) } as unknown as ToolCard<unknown, Ctx, unknown>;
    expect(() => new ToolRegistry<Ctx>([card])).toThrow(/declares an output that is not a zod schema/);
  });

  it('runs retrieval lanes concurrently: both start before either ends', async () => {
    const ctx: Ctx = { log: [] };
    const release = gate();
    let started = 0;
    const onStart = (): void => {
      started += 1;
      if (started === 2) release.open();
    };
    const registry = new ToolRegistry<Ctx>([slowLane('lane_a.search', onStart, release.wait), slowLane('lane_b.search', onStart, release.wait), echo]);
    const executor = new ToolExecutor({ registry, context: ctx });
    const results = await executor.callMany([
      { tool_id: 'lane_a.search', args: { query: 'q' } },
      { tool_id: 'demo.echo', args: { text: 'after' } },
      { tool_id: 'lane_b.search', args: { query: 'q' } },
    ]);
    // lane_b could only be released because lane_a was still running when it started
    expect(ctx.log.slice(0, 2).sort()).toEqual(['start lane_a.search', 'start lane_b.search']);
    expect(ctx.log.slice(2, 4).sort()).toEqual(['end lane_a.search', 'end lane_b.search']);
    expect(ctx.log[4]).toBe('echo after');
    expect(results.map((r) => r.tool_id)).toEqual(['lane_a.search', 'demo.echo', 'lane_b.search']);
    expect(results.every((r) => r.status === 'ok')).toBe(true);
  });

  it('applies the per-call timeout and the abort signal', async () => {
    const never: ToolCard<Record<string, never>, Ctx, unknown> = {
      id: 'demo.never',
      description: 'never finishes unless aborted',
      args: z.object({}),
      kind: 'compute',
      run: (_args, _ctx, signal) =>
        new Promise((_resolve, reject) => {
          signal?.addEventListener('abort', () => reject(new Error('saw abort')));
        }),
    };
    const executor = new ToolExecutor({ registry: new ToolRegistry<Ctx>([never, echo]), context: { log: [] } });
    const timedOut = await executor.call({ tool_id: 'demo.never' }, { timeoutMs: 5 });
    expect(timedOut.error).toMatchObject({ code: 'TOOL_TIMEOUT' });
    expect(timedOut.error?.message).toMatch(/5 ms/);
    const controller = new AbortController();
    const pending = executor.call({ tool_id: 'demo.never' }, { signal: controller.signal, timeoutMs: 0 });
    controller.abort();
    expect((await pending).error?.code).toBe('CANCELLED');
    const already = await executor.call({ tool_id: 'demo.echo', args: { text: 'x' } }, { signal: controller.signal });
    expect(already.error?.code).toBe('CANCELLED');
  });

  it('records tool_id, args, status, n_hits, latency, tokens and summarised hits per call', async () => {
    const release = gate();
    release.open();
    const trace = new TraceRecorder({ secrets: ['sk-secret-123'] });
    const executor = new ToolExecutor({ registry: new ToolRegistry<Ctx>([slowLane('lane_a.search', () => undefined, release.wait)]), context: { log: [] }, trace });
    const result = await executor.call({ tool_id: 'lane_a.search', args: { query: 'key sk-secret-123 inside' }, call_id: 'c7' });
    const [event] = trace.eventsOf('tool_call');
    expect(event).toMatchObject({
      type: 'tool_call',
      tool_id: 'lane_a.search',
      args: { query: `key ${REDACTED} inside` },
      status: 'ok',
      n_hits: 1,
      tokens: { prompt: 0, completion: 0 },
      hits: [{ node_id: 't_1', page_idx: 0, score: 1 }],
      data: { call_id: 'c7' },
    });
    expect(event!.latency_ms).toBeGreaterThanOrEqual(0);
    expect(result.metrics.latency_ms).toBeGreaterThanOrEqual(0);
  });

  it('never throws on malformed requests, and still traces them', async () => {
    const trace = new TraceRecorder();
    const executor = new ToolExecutor({ registry: new ToolRegistry<Ctx>([echo]), context: { log: [] }, trace });
    const results = await executor.callMany([null as never, { tool_id: 'demo.echo', args: 'text' as never }, { tool_id: 42 as never }]);
    expect(results.map((r) => [r.status, r.error?.code])).toEqual([
      ['error', 'TOOL_NOT_FOUND'],
      ['error', 'TOOL_ARGS_INVALID'],
      ['error', 'TOOL_NOT_FOUND'],
    ]);
    expect(trace.eventsOf('tool_call').map((e) => e.tool_id)).toEqual(['(undefined)', 'demo.echo', '(number)']);
    expect(trace.eventsOf('tool_call')[1]!.args).toEqual({ invalid: 'text' });
  });

  it('compacts hit arrays in traced arguments', () => {
    const hits = Array.from({ length: 60 }, (_, i) => hit(`t_${i}`, 1 - i / 100, 'x.search'));
    const compact = compactArgs({ candidates: hits, ctx_tokens: 100 });
    const list = compact['candidates'] as unknown[];
    expect(list).toHaveLength(51);
    expect(list[0]).toEqual({ node_id: 't_0', page_idx: 0, score: 1 });
    expect(list[50]).toBe('… 10 more');
    expect(compact['ctx_tokens']).toBe(100);
  });
});
