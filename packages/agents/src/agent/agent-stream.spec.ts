import { DocTreeError } from '@doctree/schema';
import { annualReportTree, buildFixtureIndex, type FixtureIndex } from '@doctree/toolhub/testing';
import { streamAsk, type AgentStreamItem, type AskableAgent } from './agent-stream.js';
import { DocTreeAgent, type AgentEvent, type AgentRun, type AskOptions } from './doctree-agent.js';

async function collect(items: AsyncIterable<AgentStreamItem>): Promise<AgentStreamItem[]> {
  const out: AgentStreamItem[] = [];
  for await (const item of items) out.push(item);
  return out;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  return undefined;
}

const event = (type: AgentEvent['type'], message: string): AgentEvent => ({ type, attempt: 0, message });

/** An agent that emits the given events (some in one burst, some after a pause) and then answers or fails. */
class ScriptedAgent implements AskableAgent {
  signal: AbortSignal | undefined;
  settled = false;
  constructor(
    private readonly script: { burst: AgentEvent[]; later: AgentEvent[]; fail?: Error; waitForAbort?: boolean },
    private readonly run: AgentRun = { answer: { answer: 'ok' } } as unknown as AgentRun,
  ) {}
  async ask(_question: string, options: AskOptions = {}): Promise<AgentRun> {
    this.signal = options.signal;
    try {
      for (const e of this.script.burst) options.onEvent?.(e);
      await new Promise((resolve) => setTimeout(resolve, 5));
      for (const e of this.script.later) options.onEvent?.(e);
      if (this.script.waitForAbort) {
        await new Promise<void>((_, reject) => {
          const fail = () => reject(new DocTreeError('CANCELLED', 'the question was cancelled'));
          if (options.signal?.aborted) fail();
          options.signal?.addEventListener('abort', fail, { once: true });
        });
      }
      if (this.script.fail) throw this.script.fail;
      return this.run;
    } finally {
      this.settled = true;
    }
  }
}

describe('streamAsk', () => {
  it('yields every event in order, even a burst sent while the consumer is busy, then the answer last', async () => {
    const burst = Array.from({ length: 50 }, (_, i) => event('retrieve', `burst ${i}`));
    const agent = new ScriptedAgent({ burst, later: [event('finalize', 'done')] });
    const seen: string[] = [];
    for await (const item of streamAsk(agent, 'q')) {
      // A slow consumer: the agent has long finished emitting when most of these are read.
      await new Promise((resolve) => setTimeout(resolve, 1));
      seen.push(item.type === 'event' ? item.event.message : 'ANSWER');
    }
    expect(seen).toEqual([...burst.map((e) => e.message), 'done', 'ANSWER']);
  });

  it('throws the agent error after yielding the events that came before it', async () => {
    const agent = new ScriptedAgent({ burst: [event('route', 'lookup')], later: [], fail: new DocTreeError('LLM_TIMEOUT', 'the model did not answer') });
    const seen: string[] = [];
    const error = await rejection(
      (async () => {
        for await (const item of streamAsk(agent, 'q')) seen.push(item.type);
      })(),
    );
    expect(seen).toEqual(['event']);
    expect(DocTreeError.isInstance(error) && error.code).toBe('LLM_TIMEOUT');
  });

  it('passes the caller signal through: aborting it cancels the question and the iteration throws CANCELLED', async () => {
    const controller = new AbortController();
    const agent = new ScriptedAgent({ burst: [event('route', 'lookup')], later: [], waitForAbort: true });
    const seen: string[] = [];
    const error = await rejection(
      (async () => {
        for await (const item of streamAsk(agent, 'q', { signal: controller.signal })) {
          seen.push(item.type);
          controller.abort();
        }
      })(),
    );
    expect(seen).toEqual(['event']);
    expect(DocTreeError.isInstance(error) && error.code).toBe('CANCELLED');
  });

  it('cancels the question and waits for it when the consumer stops early', async () => {
    const agent = new ScriptedAgent({ burst: [event('route', 'lookup'), event('plan', 'lookup plan')], later: [], waitForAbort: true });
    for await (const item of streamAsk(agent, 'q')) {
      expect(item.type).toBe('event');
      break;
    }
    expect(agent.signal?.aborted).toBe(true);
    expect(agent.settled).toBe(true);
  });

  it('still calls the caller onEvent hook, and a throwing hook does not break the stream', async () => {
    const hooked: string[] = [];
    const agent = new ScriptedAgent({ burst: [event('route', 'a')], later: [event('finalize', 'b')] });
    const items = await collect(
      streamAsk(agent, 'q', {
        onEvent: (e) => {
          hooked.push(e.message);
          throw new Error('hook bug');
        },
      }),
    );
    expect(hooked).toEqual(['a', 'b']);
    expect(items.map((i) => i.type)).toEqual(['event', 'event', 'answer']);
  });

  it('refuses something that is not an agent with a DocTreeError', async () => {
    const error = await rejection(collect(streamAsk({} as AskableAgent, 'q')));
    expect(DocTreeError.isInstance(error) && error.code).toBe('USAGE');
  });

  describe('over a real offline DocTreeAgent', () => {
    let fixture: FixtureIndex;
    beforeAll(async () => {
      fixture = await buildFixtureIndex(annualReportTree());
    });
    afterAll(() => fixture.cleanup());

    it('streams the path (route first, finalize last) and ends with the same answer ask() gives', async () => {
      const agent = new DocTreeAgent({ index: fixture.index });
      const items = await collect(streamAsk(agent, 'What is the operating margin of the Dairy segment?'));
      const events = items.flatMap((i) => (i.type === 'event' ? [i.event] : []));
      expect(events[0]!.type).toBe('route');
      expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(['plan', 'retrieve', 'read', 'judge']));
      expect(events[events.length - 1]!.type).toBe('finalize');
      const last = items[items.length - 1]!;
      expect(last.type).toBe('answer');
      const run = (last as { run: AgentRun }).run;
      expect(run.answer.answer).toBe(9.8);
      expect(run.answer.pages).toEqual([5]);
    });

    it('a question the agent refuses (empty) fails the iteration with USAGE, not a stack trace', async () => {
      const error = await rejection(collect(streamAsk(new DocTreeAgent({ index: fixture.index }), '   ')));
      expect(DocTreeError.isInstance(error) && error.code).toBe('USAGE');
    });
  });
});
