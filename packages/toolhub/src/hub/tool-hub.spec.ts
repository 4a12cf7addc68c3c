import { DocTreeError, PlanStageSchema, StrategyPlanSchema } from '@doctree/schema';
import type { DocIndex } from '@doctree/index';
import { z } from 'zod';
import { replayToolCalls } from '../trace/replay-tool-calls.js';
import { annualReportTree } from '../testing/fixture-trees.js';
import { buildFixtureIndex, type FixtureIndex } from '../testing/fixture-index.js';
import { DEFAULT_TOOL_CARDS } from './default-cards.js';
import { ToolHub, cutToPages } from './tool-hub.js';

describe('ToolHub', () => {
  let fixture: FixtureIndex;
  let index: DocIndex;
  beforeAll(async () => {
    fixture = await buildFixtureIndex(annualReportTree());
    index = fixture.index;
  });
  afterAll(() => fixture.cleanup());

  it('registers the default cards with the ids of the spec, plus extra cards', () => {
    const hub = ToolHub.create({
      index,
      cards: [{ id: 'reader.answer', description: 'test reader', kind: 'read', args: z.object({}), run: async () => ({ data: 'answer' }) }],
    });
    expect(hub.registry.list().map((c) => c.id)).toEqual([
      'bm25_node.search',
      'dense.search',
      'table_index.search',
      'chart_index.search',
      'page_locator.locate',
      'figure_finder.find_regions',
      'structure.expand',
      'structure.children',
      'structure.count',
      'pack.mmr_knapsack',
      'extract.column',
      'extract.heading_first',
      'compute.eval',
      'rank.llm',
      'reader.answer',
    ]);
    expect(() => ToolHub.create({ index, cards: [DEFAULT_TOOL_CARDS[0]!] })).toThrow(/already registered/);
  });

  it('runs a table-number stage end to end: lanes → fusion → expansion → pack with full coverage', async () => {
    const plan = StrategyPlanSchema.parse({
      template: 'table_number',
      stages: [{ stage: 'primary', methods: ['bm25_node.search', 'dense.search', 'table_index.search', 'page_locator.locate', 'structure.expand', 'missing.search'], k_pages: 4, k_nodes: 20 }],
      rerank: { fuse: 'RRF', features: [], diversify_by: 'section' },
      pack: { ctx_tokens: 900, per_page_limit: 2, attach: [] },
      coverage_gate: 0.6,
      final: { format: 'Float' },
    });
    const hub = ToolHub.create({ index });
    const stage = await hub.runStage(plan.stages[0]!, 'How much did Northwind spend on purchases of property, plant and equipment in 2022?', {
      plan,
      rerank: { years: [2022], intent: 'table' },
      needs: { years: [2022], units: ['$'], keywords: ['property, plant and equipment'] },
    });
    expect(stage.skipped).toEqual(['structure.expand']);
    expect(stage.results.map((r) => [r.tool_id, r.status])).toEqual([
      ['bm25_node.search', 'ok'],
      ['dense.search', 'ok'],
      ['table_index.search', 'ok'],
      ['page_locator.locate', 'ok'],
      ['missing.search', 'error'],
    ]);
    expect(stage.ranked[0]!.node_id).toBe('tab_1');
    expect(stage.ranked[0]!.extra['via']).toEqual(expect.arrayContaining(['bm25_node.search', 'table_index.search']));
    expect(new Set(stage.ranked.map((h) => h.page_idx)).size).toBeLessThanOrEqual(4);
    expect(stage.candidates.some((h) => h.node_id === 'cap_2')).toBe(true);
    expect(stage.pack.items[0]).toMatchObject({ node_id: 'tab_1', page: 4 });
    expect(stage.pack.total_tokens).toBeLessThanOrEqual(900);
    expect(stage).toMatchObject({ coverage: 1, passed: true });

    const calls = replayToolCalls(hub.trace.toTrace({ doc_id: 'northwind-2023', question: 'q', mode: 'offline' }));
    expect(calls.map((c) => c.tool_id)).toEqual(['bm25_node.search', 'dense.search', 'table_index.search', 'page_locator.locate', 'missing.search']);
    expect(hub.trace.events.map((e) => e.type)).toEqual(['warning', 'tool_call', 'tool_call', 'tool_call', 'tool_call', 'tool_call', 'fuse', 'expand', 'pack']);
  });

  it('uses page hints: the page lane locates the page and the rerank pulls it up', async () => {
    const hub = ToolHub.create({ index });
    const stage = await hub.runStage(PlanStageSchema.parse({ stage: 'layout', methods: ['page_locator.locate', 'bm25_node.search'], page_window: 0 }), 'What is the title of the section on the sixth page?', {
      rerank: { page_hints: [6], intent: 'section' },
      needs: { pages: [6] },
    });
    expect(stage.ranked[0]).toMatchObject({ node_id: 'sec_8', page_idx: 5 });
    expect(stage.passed).toBe(true);
    const args = replayToolCalls(hub.trace.events).find((c) => c.tool_id === 'page_locator.locate')!.args;
    expect(args).toMatchObject({ pages: [6], page_window: 0 });
  });

  it('reports coverage below the gate when the needs are not in the evidence', async () => {
    const hub = ToolHub.create({ index });
    const stage = await hub.runStage(PlanStageSchema.parse({ stage: 'primary', methods: ['bm25_node.search'] }), 'greenhouse gas emissions', {
      plan: { coverage_gate: 0.5 },
      needs: { objects: ['Figure 9'], years: [2019], keywords: ['emissions'] },
    });
    expect(stage.pack.needs_missing).toEqual(['object:Figure 9', 'year:2019']);
    expect(stage.coverage).toBeCloseTo(1 / 3);
    expect(stage.passed).toBe(false);
  });

  it('fuses lane results (skipping errors), expands and packs as separate steps', async () => {
    const hub = ToolHub.create({ index });
    const results = await hub.runLanes([
      { tool_id: 'bm25_node.search', args: { query: 'net sales by segment' } },
      { tool_id: 'chart_index.search', args: { query: 'net sales by segment chart' } },
      { tool_id: 'dense.search', args: { query: 'x', k: 0 } },
    ]);
    expect(results[2]!.status).toBe('error');
    const ranked = hub.fuse(results, { query: 'net sales by segment chart', intent: 'chart' }, { limit: 5 });
    expect(ranked.length).toBeLessThanOrEqual(5);
    expect(ranked[0]!.node_id).toBe('img_1');
    const candidates = hub.expand(ranked.slice(0, 1));
    expect(candidates.map((c) => c.node_id)).toEqual(expect.arrayContaining(['img_1', 'cap_1', 't_3', 'sec_3']));
    const pack = hub.pack(candidates, { budgetTokens: 120 });
    expect(pack.total_tokens).toBeLessThanOrEqual(120);
    const fuse = hub.trace.eventsOf('fuse')[0]!;
    expect(fuse.data).toMatchObject({ method: 'RRF', lanes: [{ tool_id: 'bm25_node.search' }, { tool_id: 'chart_index.search' }, { tool_id: 'dense.search', n_hits: 0 }] });
  });

  describe('with a cooperative pause', () => {
    const stagePlan = StrategyPlanSchema.parse({
      template: 'table_number',
      stages: [{ stage: 'primary', methods: ['bm25_node.search', 'dense.search', 'table_index.search', 'page_locator.locate', 'probe.first', 'probe.second'], k_pages: 4, k_nodes: 20 }],
      rerank: { fuse: 'RRF', features: [], diversify_by: 'section' },
      pack: { ctx_tokens: 900, per_page_limit: 2, attach: [] },
      final: { format: 'Float' },
    });
    const question = 'How much did Northwind spend on purchases of property, plant and equipment in 2022?';
    const stageContext = { plan: stagePlan, rerank: { years: [2022], intent: 'table' as const }, needs: { years: [2022], units: ['$'], keywords: ['property, plant and equipment'] } };
    /** Two retrieval lanes with a synchronous body that note how many event-loop turns had run when they started. */
    const probes = (turns: () => number, seen: number[], onRun?: () => void) =>
      ['probe.first', 'probe.second'].map((id) => ({
        id,
        description: `probe lane ${id}`,
        kind: 'retrieval' as const,
        args: z.object({ query: z.string(), k: z.number().optional() }),
        run: async () => {
          seen.push(turns());
          onRun?.();
          return { hits: [] };
        },
      }));
    /** Counts event-loop turns (setImmediate callbacks) until stopped. */
    const turnCounter = () => {
      let turns = 0;
      let timer = setImmediate(function tick() {
        turns++;
        timer = setImmediate(tick);
      });
      return { turns: () => turns, stop: () => clearImmediate(timer) };
    };
    /** A pause that always yields (like the agent's once its slice is used) and throws CANCELLED once `signal` aborts. */
    const yieldingPause = (signal?: AbortSignal) => async () => {
      if (signal?.aborted) throw new DocTreeError('CANCELLED', 'the question was cancelled');
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (signal?.aborted) throw new DocTreeError('CANCELLED', 'the question was cancelled');
    };

    it('lets the event loop run between the lanes and the stage parts, and gives the same stage result as without it', async () => {
      const counter = turnCounter();
      try {
        const seenPlain: number[] = [];
        const plain = await ToolHub.create({ index, cards: probes(counter.turns, seenPlain) }).runStage(stagePlan.stages[0]!, question, stageContext);
        const seenPaused: number[] = [];
        let pauses = 0;
        const pause = yieldingPause();
        const paused = await ToolHub.create({ index, cards: probes(counter.turns, seenPaused) }).runStage(stagePlan.stages[0]!, question, {
          ...stageContext,
          pause: () => {
            pauses++;
            return pause();
          },
        });
        // without a pause the concurrent lanes start in the same turn; with it a turn passes between two lane starts
        expect(seenPlain[0]).toBe(seenPlain[1]);
        expect(seenPaused[1]!).toBeGreaterThan(seenPaused[0]!);
        expect(pauses).toBeGreaterThanOrEqual(6 + 3);
        const summary = (r: typeof plain) => ({ results: r.results.map((x) => [x.tool_id, x.status, x.hits.map((h) => h.node_id)]), ranked: r.ranked.map((h) => h.node_id), pack: r.pack.items.map((i) => i.node_id), coverage: r.coverage });
        expect(summary(paused)).toEqual(summary(plain));
        expect(paused.pack.items[0]).toMatchObject({ node_id: 'tab_1', page: 4 });
      } finally {
        counter.stop();
      }
    });

    it('pauses inside fusion (between reranked hits) and packing (between packed items); an abort there stops the stage before its trace event', async () => {
      const hub = ToolHub.create({ index });
      const phases: string[] = [];
      const pause = yieldingPause();
      const laneCount = stagePlan.stages[0]!.methods.filter((m) => hub.registry.has(m)).length;
      const phase = (): string => {
        const types = hub.trace.events.map((e) => e.type);
        if (types.filter((t) => t === 'tool_call').length < laneCount) return 'lanes';
        return types.includes('pack') ? 'done' : types.includes('expand') ? 'pack' : types.includes('fuse') ? 'after-fuse' : 'fuse';
      };
      const result = await hub.runStage(stagePlan.stages[0]!, question, {
        ...stageContext,
        pause: () => {
          phases.push(phase());
          return pause();
        },
      });
      const fusedHits = hub.trace.eventsOf('fuse')[0]!.n_hits ?? 0;
      expect(fusedHits).toBeGreaterThan(3);
      // one slice per reranked hit (at least) before the fuse event, one per packed item before the pack event
      expect(phases.filter((p) => p === 'fuse').length).toBeGreaterThanOrEqual(fusedHits);
      expect(phases.filter((p) => p === 'pack').length).toBeGreaterThanOrEqual(result.pack.items.length);

      const controller = new AbortController();
      const cancelling = ToolHub.create({ index });
      let inFusion = 0;
      const abortingPause = yieldingPause(controller.signal);
      const stopped = cancelling.runStage(stagePlan.stages[0]!, question, {
        ...stageContext,
        signal: controller.signal,
        pause: () => {
          const types = cancelling.trace.events.map((e) => e.type);
          if (types.filter((t) => t === 'tool_call').length >= laneCount && ++inFusion === 3) controller.abort();
          return abortingPause();
        },
      });
      await expect(stopped).rejects.toMatchObject({ code: 'CANCELLED' });
      expect(cancelling.trace.events.map((e) => e.type)).not.toContain('fuse');
    });

    it('a callback queued before the stage runs before the stage finishes', async () => {
      const order: string[] = [];
      const hub = ToolHub.create({ index });
      const running = hub.runStage(stagePlan.stages[0]!, question, { ...stageContext, pause: yieldingPause() }).then(() => order.push('stage'));
      setImmediate(() => order.push('callback'));
      await running;
      expect(order).toEqual(['callback', 'stage']);
    });

    it('rejects with CANCELLED when the signal aborts during the stage, without fusing or packing', async () => {
      const controller = new AbortController();
      const hub = ToolHub.create({ index, cards: probes(() => 0, [], () => controller.abort()) });
      await expect(hub.runStage(stagePlan.stages[0]!, question, { ...stageContext, signal: controller.signal, pause: yieldingPause(controller.signal) })).rejects.toMatchObject({ code: 'CANCELLED' });
      expect(hub.trace.events.map((e) => e.type)).not.toContain('pack');
      expect(hub.trace.events.map((e) => e.type)).not.toContain('fuse');
    });
  });

  it('cuts ranked hits to k pages and k nodes', () => {
    const h = (id: string, page: number) => ({ eid: id, doc_id: 'd', page_idx: page, node_id: id, modality: 'text' as const, snippet: '', bbox: null, score_raw: 1, method: 'x', extra: {} });
    const hits = [h('a', 0), h('b', 1), h('c', 0), h('d', 2), h('e', 1)];
    expect(cutToPages(hits, 2, 10).map((x) => x.node_id)).toEqual(['a', 'b', 'c', 'e']);
    expect(cutToPages(hits, 5, 2).map((x) => x.node_id)).toEqual(['a', 'b']);
  });
});
