import type { DocIndex } from '@doctree/index';
import { BaseRetriever } from '@doctree/index';
import type { Hit, RetrieveRequest } from '@doctree/schema';
import { z } from 'zod';
import { DEFAULT_TOOL_CARDS } from '../hub/default-cards.js';
import { ToolHub } from '../hub/tool-hub.js';
import { nodeHit } from '../hits/node-hit.js';
import { navigatorFor } from '../navigation/doc-navigator.js';
import { annualReportTree } from '../testing/fixture-trees.js';
import { buildFixtureIndex, type FixtureIndex } from '../testing/fixture-index.js';
import { laneIdOf, retrieverLaneCard } from './retriever-lane-card.js';
import { ToolRegistry } from './tool-registry.js';

/** A user's retriever: every node whose text holds a query word, scored by how many words it holds. */
class WordRetriever extends BaseRetriever {
  readonly name = 'Word Match';
  calls = 0;
  constructor(private readonly index: DocIndex | undefined) {
    super();
  }
  protected async _retrieve(request: RetrieveRequest): Promise<Hit[]> {
    this.calls++;
    if (this.index === undefined) return [];
    const nav = navigatorFor(this.index);
    const words = request.query.toLowerCase().split(/\W+/).filter((w) => w.length > 3);
    const hits = this.index.tree.nodes
      .map((node) => ({ node, score: words.filter((w) => (node.text ?? '').toLowerCase().includes(w)).length }))
      .filter((x) => x.score > 0)
      .map(({ node, score }) => nodeHit(nav, node, { method: this.name, score }));
    // A hit on a node of another document (a stale index, say): the lane drops it.
    return hits.length > 0 ? [...hits, { ...hits[0]!, node_id: 'not_in_this_document', eid: 'x', score_raw: hits[0]!.score_raw + 1 }] : hits;
  }
}

describe('ToolRegistry: replacing a card and declaring lanes', () => {
  const fake = (id: string, kind: 'retrieval' | 'read' = 'retrieval', description = `fake ${id}`) => ({ id, kind, description, args: z.object({}).passthrough(), run: async () => ({ hits: [] }) });

  it('refuses a taken id unless the card is registered with replace, and lists each replacement', () => {
    const registry = new ToolRegistry(DEFAULT_TOOL_CARDS);
    expect(() => registry.register(fake('dense.search'))).toThrow(/already registered/);
    registry.register(fake('dense.search', 'retrieval', 'my dense lane'), { replace: true });
    expect(registry.get('dense.search').description).toBe('my dense lane');
    expect(registry.replacements()).toEqual([{ id: 'dense.search', replaced: DEFAULT_TOOL_CARDS[1]!.description, by: 'my dense lane' }]);
    expect(registry.size).toBe(DEFAULT_TOOL_CARDS.length);
  });

  it('refuses to replace an id no card has (a typo would add a lane nothing plans)', () => {
    const registry = new ToolRegistry(DEFAULT_TOOL_CARDS);
    expect(() => registry.register(fake('dense.serch'), { replace: true })).toThrow(/replaces nothing/);
  });

  it('declares the retrieval lanes from the cards kinds, own lanes included', () => {
    const registry = new ToolRegistry(DEFAULT_TOOL_CARDS).register(fake('my_lane.search')).register(fake('reader.answer', 'read'));
    expect(registry.retrievalLanes()).toEqual(expect.arrayContaining(['bm25_node.search', 'dense.search', 'table_index.search', 'my_lane.search']));
    expect(registry.retrievalLanes()).not.toContain('reader.answer');
    expect(() => registry.register({ ...fake('odd.card'), kind: 'magic' as 'read' })).toThrow(/kind "magic"/);
  });
});

describe('retrieverLaneCard', () => {
  let fixture: FixtureIndex;
  let index: DocIndex;
  beforeAll(async () => {
    fixture = await buildFixtureIndex(annualReportTree());
    index = fixture.index;
  });
  afterAll(() => fixture.cleanup());

  it('derives a lane id from the retriever name', () => {
    expect(laneIdOf('Word Match')).toBe('word_match.search');
    expect(laneIdOf('my_lane.search')).toBe('my_lane.search');
    expect(laneIdOf('42')).toBe('lane_42.search');
  });

  it('runs a user retriever as a lane through the hub: validated hits on this document only, 1-based page filter', async () => {
    const retriever = new WordRetriever(index);
    const hub = ToolHub.create({ index, cards: [retrieverLaneCard(retriever)] });
    expect(hub.registry.retrievalLanes()).toContain('word_match.search');
    const result = await hub.call('word_match.search', { query: 'net sales increased in 2023', k: 5 });
    expect(result.error).toBeUndefined();
    expect(result.status).toBe('ok');
    expect(result.hits.length).toBeGreaterThan(0);
    expect(result.hits.every((h) => h.method === 'Word Match' && h.node_id !== 'not_in_this_document')).toBe(true);
    expect(result.data).toEqual({ warning: '1 hit(s) named nodes this document does not have; dropped' });
    const onPage = await hub.call('word_match.search', { query: 'net sales increased in 2023', pages: [2] });
    expect(onPage.hits.every((h) => h.page_idx === 1)).toBe(true);
    const bad = await hub.call('word_match.search', { query: 'x', k: 0 });
    expect(bad.status).toBe('error');
  });

  it('a runStage fuses the user lane with the built-in ones', async () => {
    const hub = ToolHub.create({ index, cards: [retrieverLaneCard((context) => new WordRetriever(context.index), { id: 'words.search' })] });
    const stage = await hub.runStage({ stage: 'primary', methods: ['bm25_node.search', 'words.search'], k_pages: 4, k_nodes: 20, page_window: 0, when: undefined } as never, 'net sales 2023');
    expect(stage.results.map((r) => [r.tool_id, r.status])).toEqual([
      ['bm25_node.search', 'ok'],
      ['words.search', 'ok'],
    ]);
    expect(stage.ranked.some((h) => (h.extra['via'] as string[] | undefined)?.includes('Word Match'))).toBe(true);
  });

  it('replaces a built-in lane in the hub and records the replacement in the trace', async () => {
    const retriever = new WordRetriever(index);
    const hub = ToolHub.create({ index, replace: [retrieverLaneCard(retriever, { id: 'dense.search', description: 'word matching instead of embeddings' })] });
    const result = await hub.call('dense.search', { query: 'dividend rising' });
    expect(result.hits[0]?.method).toBe('Word Match');
    expect(retriever.calls).toBe(1);
    expect(hub.trace.events.find((e) => e.type === 'plan')?.message).toBe('tool card dense.search replaced: word matching instead of embeddings');
    expect(() => ToolHub.create({ index, replace: [retrieverLaneCard(retriever, { id: 'nothing.search' })] })).toThrow(/replaces nothing/);
  });

  it('refuses what is not a retriever with a hint', () => {
    expect(() => retrieverLaneCard({ name: '', retrieve: undefined } as never)).toThrow(/needs an object with a name and a retrieve\(\) method/);
    expect(() => retrieverLaneCard(() => new WordRetriever(undefined))).toThrow(/needs an id/);
    expect(() => retrieverLaneCard(new WordRetriever(undefined), { id: 'Bad Id' })).toThrow(/must be dotted lower-case/);
  });
});
