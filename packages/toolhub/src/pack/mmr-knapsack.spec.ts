import { EvidencePackSchema } from '@doctree/schema';
import type { Hit } from '@doctree/schema';
import { createToolContext } from '../context/tool-context.js';
import { ToolExecutor } from '../executor/tool-executor.js';
import { createDefaultRegistry } from '../hub/default-cards.js';
import { navigatorFor, type DocNavigator } from '../navigation/doc-navigator.js';
import { nodeHit } from '../hits/node-hit.js';
import { annualReportTree, buildFixtureTree } from '../testing/fixture-trees.js';
import { buildFixtureIndex, type FixtureIndex } from '../testing/fixture-index.js';
import { packEvidence } from './mmr-knapsack.js';

describe('pack.mmr_knapsack', () => {
  let report: FixtureIndex;
  let dupes: FixtureIndex;
  let nav: DocNavigator;
  let dupNav: DocNavigator;
  const hitOf = (n: DocNavigator, id: string, score: number): Hit => ({ ...nodeHit(n, n.require(id), { method: 'lane', score }), score });
  const allHits = (n: DocNavigator): Hit[] =>
    n.index.tree.nodes.filter((x) => x.role !== 'document').map((x, i, list) => hitOf(n, x.node_id, 1 - i / list.length));

  beforeAll(async () => {
    report = await buildFixtureIndex(annualReportTree());
    nav = navigatorFor(report.index);
    const sales = 'Net sales rose 8% to $4,210 million in 2023, driven by volume growth in the Beverages and Dairy segments.';
    dupes = await buildFixtureIndex(
      buildFixtureTree({ doc_id: 'dupes', title: 'Dupes', page_count: 3 }, [
        { node_id: 'sec_0', role: 'document', parent: null, title: 'Dupes' },
        { node_id: 'sec_1', role: 'section', parent: 'sec_0', title: 'Results', page: 0 },
        { node_id: 't_1', role: 'paragraph', parent: 'sec_1', page: 0, text: sales },
        { node_id: 't_2', role: 'paragraph', parent: 'sec_1', page: 1, text: `${sales} We repeat it here.` },
        { node_id: 't_3', role: 'paragraph', parent: 'sec_1', page: 2, text: 'Headcount reached 6,800 people at year end, 41% of them women.' },
        { node_id: 't_4', role: 'paragraph', parent: 'sec_1', page: 2, text: Array.from({ length: 60 }, (_, i) => `Sentence ${i} about the long history of the company and its warehouses.`).join(' ') },
      ]),
    );
    dupNav = navigatorFor(dupes.index);
  });
  afterAll(async () => {
    await report.cleanup();
    await dupes.cleanup();
  });

  it('stays within the token budget and the per-page limit', () => {
    const pack = packEvidence(nav, allHits(nav), { budgetTokens: 200, perPageLimit: 2 });
    expect(EvidencePackSchema.safeParse(pack).success).toBe(true);
    expect(pack.total_tokens).toBeLessThanOrEqual(200);
    expect(pack.items.reduce((s, i) => s + i.tokens, 0)).toBe(pack.total_tokens);
    const perPage = new Map<number, number>();
    for (const item of pack.items) perPage.set(item.page, (perPage.get(item.page) ?? 0) + 1);
    expect(Math.max(...perPage.values())).toBeLessThanOrEqual(2);
    const one = packEvidence(nav, allHits(nav), { budgetTokens: 5000, perPageLimit: 1 });
    expect(one.items.length).toBe(new Set(one.items.map((i) => i.page)).size);
    expect(one.items.length).toBe(6);
  });

  it('prefers novel evidence over a near-duplicate (MMR), unless λ = 1', () => {
    const hits = [hitOf(dupNav, 't_1', 1), hitOf(dupNav, 't_2', 0.99), hitOf(dupNav, 't_3', 0.8)];
    expect(packEvidence(dupNav, hits, { maxItems: 2, lambda: 0.5 }).items.map((i) => i.node_id)).toEqual(['t_1', 't_3']);
    expect(packEvidence(dupNav, hits, { maxItems: 2, lambda: 1 }).items.map((i) => i.node_id)).toEqual(['t_1', 't_2']);
  });

  it('cuts an item too large for the remaining budget, and skips it when too little remains', () => {
    const long = [hitOf(dupNav, 't_4', 1)];
    const cut = packEvidence(dupNav, long, { budgetTokens: 100 });
    expect(cut.items).toHaveLength(1);
    expect(cut.items[0]!.tokens).toBeLessThanOrEqual(100);
    expect(cut.items[0]!.text.endsWith('…')).toBe(true);
    expect(packEvidence(dupNav, long, { budgetTokens: 30, minItemTokens: 40 }).items).toEqual([]);
  });

  it('packs tables with caption, scale and cells, and reports covered and missing needs', () => {
    const needs = { objects: ['Table 1'], units: ['$'], years: [2022], keywords: ['purchases of property, plant and equipment'], pages: [4] };
    const pack = packEvidence(nav, [hitOf(nav, 'tab_1', 1), hitOf(nav, 't_4', 0.8)], { needs });
    const table = pack.items.find((i) => i.node_id === 'tab_1')!;
    expect(table.text).toContain('Table 1: Consolidated statement of cash flows');
    expect(table.text).toContain('(values in $ millions)');
    expect(table.text).toContain('| Purchases of property, plant and equipment (PP&E) | (1,482) | (1,291) | (1,201) |');
    expect(pack).toMatchObject({ coverage: 1, needs_missing: [] });
    expect(pack.needs_covered).toEqual(['object:Table 1', 'unit:$', 'year:2022', 'keyword:purchases of property, plant and equipment', 'page:4']);
    const weak = packEvidence(nav, [hitOf(nav, 't_5', 1)], { needs });
    expect(weak.coverage).toBe(0);
    expect(weak.needs_missing).toHaveLength(5);
    // t_4 says "Capital expenditures": the same line item in other words (the concept vocabulary) covers the keyword.
    const partial = packEvidence(nav, [hitOf(nav, 't_4', 1)], { needs });
    expect(partial.needs_covered).toEqual(['object:Table 1', 'unit:$', 'keyword:purchases of property, plant and equipment']);
    expect(partial.coverage).toBeCloseTo(3 / 5);
    const otherWords = packEvidence(nav, [hitOf(nav, 't_4', 1)], { needs: { keywords: ['capex'] } });
    expect(otherWords.needs_covered).toEqual(['keyword:capex']);
    expect(packEvidence(nav, [hitOf(nav, 't_5', 1)], { needs: { keywords: ['capex'] } }).needs_missing).toEqual(['keyword:capex']);
    expect(packEvidence(nav, [], {}).coverage).toBe(0);
  });

  it('runs as a tool card and keeps the lanes that brought each item', async () => {
    const executor = new ToolExecutor({ registry: createDefaultRegistry(), context: createToolContext({ index: report.index }) });
    const candidates = [{ ...hitOf(nav, 'sec_9', 1), extra: { via: ['bm25_node.search', 'dense.search'] } }, hitOf(nav, 't_5', 0.9)];
    const result = await executor.call({ tool_id: 'pack.mmr_knapsack', args: { candidates, ctx_tokens: 300, needs: { keywords: ['greenhouse gas emissions'] } } });
    expect(result.status).toBe('ok');
    const pack = EvidencePackSchema.parse(result.data);
    expect(pack.items[0]).toMatchObject({ node_id: 'sec_9', page: 6, role: 'section', via: ['bm25_node.search', 'dense.search'] });
    expect(pack.items[0]!.text.startsWith('4.1 Emissions')).toBe(true);
    expect(pack.needs_covered).toEqual(['keyword:greenhouse gas emissions']);
    expect(result.hits.map((h) => h.node_id)).toEqual(pack.items.map((i) => i.node_id));
  });
});
