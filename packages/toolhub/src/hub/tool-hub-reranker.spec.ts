import { DocTreeError, PlanStageSchema, type Hit, type Reranker, type RerankRequest } from '@doctree/schema';
import { annualReportTree } from '../testing/fixture-trees.js';
import { buildFixtureIndex, type FixtureIndex } from '../testing/fixture-index.js';
import { runRerankerConformance } from '../testing/reranker-conformance.js';
import { RERANKER_CANDIDATES, ToolHub } from './tool-hub.js';

/** A small reranker of the kind a user writes: share of the question's words found in the candidate's text. */
class WordOverlapReranker implements Reranker {
  readonly name = 'word-overlap';
  readonly seen: RerankRequest[] = [];
  async rerank(request: RerankRequest): Promise<Hit[]> {
    if (request.signal?.aborted) throw new DocTreeError('CANCELLED', 'the rerank was cancelled');
    this.seen.push(request);
    const words = new Set(request.query.toLowerCase().match(/[a-z]{4,}/g) ?? []);
    const scored = request.candidates.map((c) => {
      const text = new Set(c.text.toLowerCase().match(/[a-z]{4,}/g) ?? []);
      const overlap = [...words].filter((w) => text.has(w)).length / Math.max(1, words.size);
      return { ...c.hit, score: overlap };
    });
    return scored.sort((a, b) => b.score - a.score);
  }
}

runRerankerConformance('word overlap (example)', () => new WordOverlapReranker());

const STAGE = PlanStageSchema.parse({ stage: 'primary', methods: ['bm25_node.search', 'dense.search'] });
const QUESTION = 'What does the report say about greenhouse gas emissions?';

describe('ToolHub with a reranker of your own', () => {
  let fixture: FixtureIndex;
  beforeAll(async () => {
    fixture = await buildFixtureIndex(annualReportTree());
  });
  afterAll(() => fixture.cleanup());

  it('hands the reranker the fused candidates with their text and keeps its order', async () => {
    const reranker = new WordOverlapReranker();
    const hub = ToolHub.create({ index: fixture.index, reranker });
    const stage = await hub.runStage(STAGE, QUESTION);
    expect(reranker.seen).toHaveLength(1);
    const request = reranker.seen[0]!;
    expect(request.query).toBe(QUESTION);
    expect(request.candidates.length).toBeGreaterThan(0);
    expect(request.candidates.length).toBeLessThanOrEqual(RERANKER_CANDIDATES);
    expect(request.candidates.every((c) => c.text.length > 0)).toBe(true);
    // The stage's ranking follows the reranker's scores (descending), not the fused order.
    const scores = stage.ranked.map((h) => h.score ?? 0);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    const fuse = hub.trace.eventsOf('fuse').find((e) => (e.data as { method?: string }).method === 'reranker:word-overlap');
    expect(fuse).toBeDefined();
  });

  it('ranks the stage by the reranker, not by fusion', async () => {
    let given: readonly string[] = [];
    const reversing: Reranker = {
      name: 'reversing',
      rerank: async ({ candidates }) => {
        given = candidates.map((c) => c.hit.node_id);
        return [...candidates].reverse().map((c, i) => ({ ...c.hit, score: candidates.length - i }));
      },
    };
    const plain = await ToolHub.create({ index: fixture.index }).runStage(STAGE, QUESTION);
    const stage = await ToolHub.create({ index: fixture.index, reranker: reversing }).runStage(STAGE, QUESTION);
    expect(given.length).toBeGreaterThan(2);
    expect(stage.ranked[0]!.node_id).toBe(given[given.length - 1]);
    expect(stage.ranked[0]!.node_id).not.toBe(plain.ranked[0]!.node_id);
  });

  it('drops hits for nodes the reranker was not given, with a warning', async () => {
    const inventing: Reranker = {
      name: 'inventing',
      rerank: async ({ candidates }) => [{ ...candidates[0]!.hit, node_id: 'not_a_node' }, ...candidates.map((c) => c.hit), candidates[0]!.hit],
    };
    const hub = ToolHub.create({ index: fixture.index, reranker: inventing });
    const stage = await hub.runStage(STAGE, QUESTION);
    expect(stage.ranked.some((h) => h.node_id === 'not_a_node')).toBe(false);
    expect(new Set(stage.ranked.map((h) => h.node_id)).size).toBe(stage.ranked.length);
    expect(hub.trace.eventsOf('warning').some((e) => /inventing returned 2 hit/.test(e.message ?? ''))).toBe(true);
  });

  it('keeps the fused order with a warning when the reranker fails, and stops on a cancellation', async () => {
    const failing: Reranker = { name: 'down', rerank: async () => { throw new Error('model server unreachable'); } };
    const plain = await ToolHub.create({ index: fixture.index }).runStage(STAGE, QUESTION);
    const hub = ToolHub.create({ index: fixture.index, reranker: failing });
    const stage = await hub.runStage(STAGE, QUESTION);
    expect(stage.ranked.map((h) => h.node_id)).toEqual(plain.ranked.map((h) => h.node_id));
    expect(hub.trace.eventsOf('warning').some((e) => /reranker down failed \(model server unreachable\)/.test(e.message ?? ''))).toBe(true);

    const cancelling: Reranker = { name: 'cancel', rerank: async () => { throw new DocTreeError('CANCELLED', 'stopped'); } };
    await expect(ToolHub.create({ index: fixture.index, reranker: cancelling }).runStage(STAGE, QUESTION)).rejects.toMatchObject({ code: 'CANCELLED' });
  });
});
