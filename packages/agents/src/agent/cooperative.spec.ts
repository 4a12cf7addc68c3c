import { DocTreeError } from '@doctree/schema';
import type { ReadRequest, ReadResult } from '@doctree/schema';
import { DEFAULT_TOOL_CARDS } from '@doctree/toolhub';
import { annualReportTree, buildFixtureIndex, type FixtureIndex } from '@doctree/toolhub/testing';
import { ExtractiveReader } from '../reader/extractive-reader.js';
import { createPause } from './cooperative.js';
import { DocTreeAgent, type AgentEvent } from './doctree-agent.js';
import { warmDocument } from './document-warmup.js';

/** An extractive reader that records that it ran. */
class SpyReader extends ExtractiveReader {
  calls = 0;
  protected override async _read(request: ReadRequest): Promise<ReadResult> {
    this.calls++;
    return super._read(request);
  }
}

describe('createPause', () => {
  it('yields to the event loop once its slice is used: a callback queued before the pause runs before it returns', async () => {
    const pause = createPause({ sliceMs: 0 });
    const order: string[] = [];
    setImmediate(() => order.push('other request'));
    await pause();
    order.push('after pause');
    expect(order).toEqual(['other request', 'after pause']);
  });

  it('returns without yielding inside its slice', async () => {
    const pause = createPause({ sliceMs: 60_000 });
    const order: string[] = [];
    setImmediate(() => order.push('other request'));
    await pause();
    order.push('after pause');
    expect(order).toEqual(['after pause']);
  });

  it('throws CANCELLED once the signal aborts, also when the abort comes while it yields', async () => {
    const controller = new AbortController();
    const pause = createPause({ signal: controller.signal, sliceMs: 0 });
    await pause();
    setImmediate(() => controller.abort(new Error('client went away')));
    const error: unknown = await pause().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(DocTreeError.isInstance(error) && error.code).toBe('CANCELLED');
  });
});

/** A safety bound for building fixture indexes on a loaded machine (nothing here is timed). */
const SLOW = 60_000;

describe('cancelling an ask', () => {
  let fixture: FixtureIndex | undefined;
  beforeAll(async () => {
    fixture = await buildFixtureIndex(annualReportTree());
  }, SLOW);
  afterAll(async () => {
    await fixture?.cleanup();
  });

  it('a signal aborted right after the first event rejects with CANCELLED before the reader runs', async () => {
    const reader = new SpyReader();
    const agent = new DocTreeAgent({ index: fixture!.index, reader });
    const controller = new AbortController();
    const events: AgentEvent['type'][] = [];
    const asked = agent.ask('What is the operating margin of the Dairy segment?', {
      signal: controller.signal,
      onEvent: (event) => {
        events.push(event.type);
        controller.abort();
      },
    });
    await expect(asked).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(events).toEqual(['route']);
    expect(reader.calls).toBe(0);
    // The agent is still usable: the next question (no signal) is answered and read.
    const run = await agent.ask('What is the operating margin of the Dairy segment?');
    expect(run.answer.answer).toBe(9.8);
    expect(reader.calls).toBeGreaterThan(0);
  }, SLOW);

  it('an abort while the lanes of a stage run rejects with CANCELLED before the retrieval is reported', async () => {
    const controller = new AbortController();
    const probe = new DocTreeAgent({ index: fixture!.index });
    const events: AgentEvent['type'][] = [];
    const bm25 = DEFAULT_TOOL_CARDS.find((c) => c.id === 'bm25_node.search')!;
    const agent = new DocTreeAgent({
      index: fixture!.index,
      hub: { replace: [{ ...bm25, run: (args, context, signal) => (controller.abort(), bm25.run(args, context, signal)) }] },
    });
    await expect(agent.ask('What is the operating margin of the Dairy segment?', { signal: controller.signal, onEvent: (e) => events.push(e.type) })).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(events).toEqual(['route', 'plan']);
    // the same question without an abort is answered (the probe agent uses the built-in lane)
    expect((await probe.ask('What is the operating margin of the Dairy segment?')).answer.answer).toBe(9.8);
  }, SLOW);

  it('the extractive reader lets the event loop run between its candidate generators, answers as before, and stops on CANCELLED', async () => {
    const observations = (await new DocTreeAgent({ index: fixture!.index }).ask('What is the operating margin of the Dairy segment?')).observations;
    const question = 'What is the operating margin of the Dairy segment?';
    const plain = await new ExtractiveReader().read({ question, observations });
    const order: string[] = [];
    setImmediate(() => order.push('other request'));
    const sliced = await new ExtractiveReader({ sliceMs: 0 }).read({ question, observations });
    order.push('read');
    expect(order).toEqual(['other request', 'read']);
    expect(sliced).toEqual(plain);
    expect(plain.answer).toBe(9.8);

    const controller = new AbortController();
    setImmediate(() => controller.abort());
    await expect(new ExtractiveReader({ sliceMs: 0 }).read({ question, observations, signal: controller.signal })).rejects.toMatchObject({ code: 'CANCELLED' });
  }, SLOW);

  it('the per-document warm-up stops on CANCELLED and is completed by the next question', async () => {
    const local = await buildFixtureIndex(annualReportTree());
    try {
      const controller = new AbortController();
      controller.abort();
      await expect(warmDocument(local.index, createPause({ signal: controller.signal }))).rejects.toMatchObject({ code: 'CANCELLED' });
      const words = await warmDocument(local.index, createPause({ sliceMs: 0 }));
      expect(words.has('dairy')).toBe(true);
      expect(await warmDocument(local.index, createPause())).toBe(words);
    } finally {
      await local.cleanup();
    }
  }, SLOW);
});
