import { buildFixtureIndex, type FixtureIndex } from '../testing/fixture-index.js';
import { annualReportTree } from '../testing/fixture-trees.js';
import { Bm25NodeRetriever } from './bm25-node-retriever.js';
import { DenseRetriever } from './dense-retriever.js';
import { createLaneCheckpoint } from './lane-checkpoint.js';

describe('createLaneCheckpoint', () => {
  it('yields to the event loop once its slice is used: a callback queued before it runs before it returns', async () => {
    const checkpoint = createLaneCheckpoint(undefined, 0);
    const order: string[] = [];
    setImmediate(() => order.push('other request'));
    await checkpoint();
    order.push('after checkpoint');
    expect(order).toEqual(['other request', 'after checkpoint']);
  });

  it('throws CANCELLED once the signal aborts, also when the abort comes while it yields', async () => {
    const controller = new AbortController();
    const checkpoint = createLaneCheckpoint(controller.signal, 0);
    await checkpoint();
    setImmediate(() => controller.abort());
    await expect(checkpoint()).rejects.toMatchObject({ code: 'CANCELLED' });
  });
});

describe('lanes stop on an abort between their parts', () => {
  let fixture: FixtureIndex;
  beforeAll(async () => {
    fixture = await buildFixtureIndex(annualReportTree());
  }, 60_000);
  afterAll(() => fixture.cleanup());

  it('bm25_node.search and dense.search reject with CANCELLED when the signal aborts while they search', async () => {
    for (const retriever of [new Bm25NodeRetriever(fixture.index), new DenseRetriever(fixture.index)]) {
      const controller = new AbortController();
      const searching = retriever.retrieve({ query: 'purchases of property plant and equipment', k: 5, signal: controller.signal });
      controller.abort();
      await expect(searching).rejects.toMatchObject({ code: 'CANCELLED' });
      // without an abort the same search answers
      expect((await retriever.retrieve({ query: 'purchases of property plant and equipment', k: 5 })).length).toBeGreaterThan(0);
    }
  });
});
