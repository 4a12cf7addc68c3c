import { runRetrieverConformance } from '@doctree/index/testing';
import type { DocIndex } from '@doctree/index';
import type { ToolResult } from '@doctree/schema';
import { createToolContext, type ToolContext } from '../context/tool-context.js';
import { ToolExecutor } from '../executor/tool-executor.js';
import { createDefaultRegistry } from '../hub/default-cards.js';
import { annualReportTree, corpusTree } from '../testing/fixture-trees.js';
import { buildFixtureIndex, type FixtureIndex } from '../testing/fixture-index.js';
import { Bm25NodeRetriever } from './bm25-node-retriever.js';
import { DenseRetriever } from './dense-retriever.js';
import { findPageReferences, romanValue } from '@doctree/schema';
import { findLabels } from './query-signals.js';

const fixtures: FixtureIndex[] = [];
afterAll(async () => {
  for (const f of fixtures) await f.cleanup();
});
async function corpusIndex(corpus: Parameters<typeof corpusTree>[0]): Promise<DocIndex> {
  const fixture = await buildFixtureIndex(corpusTree(corpus));
  fixtures.push(fixture);
  return fixture.index;
}

runRetrieverConformance('bm25_node.search lane', async (corpus) => new Bm25NodeRetriever(await corpusIndex(corpus)));
runRetrieverConformance('dense.search lane', async (corpus) => new DenseRetriever(await corpusIndex(corpus)));

describe('retrieval lanes on the annual-report fixture', () => {
  let fixture: FixtureIndex;
  let executor: ToolExecutor<ToolContext>;
  const top = (r: ToolResult, n = 3): string[] => r.hits.slice(0, n).map((h) => h.node_id);
  beforeAll(async () => {
    fixture = await buildFixtureIndex(annualReportTree());
    executor = new ToolExecutor({ registry: createDefaultRegistry(), context: createToolContext({ index: fixture.index }) });
  });
  afterAll(() => fixture.cleanup());

  it('bm25_node.search finds the cash-flow table and honours roles and pages', async () => {
    const all = await executor.call({ tool_id: 'bm25_node.search', args: { query: 'purchases of property plant and equipment', k: 5 } });
    expect(top(all, 2)).toContain('tab_1');
    const paragraphs = await executor.call({ tool_id: 'bm25_node.search', args: { query: 'capital expenditures Rotterdam', roles: ['text'] } });
    expect(paragraphs.hits[0]?.node_id).toBe('t_4');
    expect(paragraphs.hits.every((h) => ['paragraph', 'list', 'caption'].includes(String(h.extra['role'])))).toBe(true);
    const onPage6 = await executor.call({ tool_id: 'bm25_node.search', args: { query: 'emissions workforce dividend', pages: [6] } });
    expect(onPage6.hits.length).toBeGreaterThan(0);
    expect(onPage6.hits.every((h) => h.page_idx === 5)).toBe(true);
    expect(all.hits[0]!.extra['matched']).toBeDefined();
  });

  it('dense.search finds the emissions paragraph, and can stay on the coarse view', async () => {
    const result = await executor.call({ tool_id: 'dense.search', args: { query: 'greenhouse gas emissions of the truck fleet', k: 5 } });
    expect(top(result)).toContain('t_5');
    const coarse = await executor.call({ tool_id: 'dense.search', args: { query: 'Consolidated Statement of Cash Flows', views: ['coarse'], k: 3 } });
    expect(top(coarse)).toContain('sec_6');
    expect(coarse.hits.every((h) => h.extra['view'] === 'coarse')).toBe(true);
  });

  it('table_index.search ranks tables by row labels, years, units and labels', async () => {
    const capex = await executor.call({ tool_id: 'table_index.search', args: { query: 'purchases of property plant and equipment in 2022' } });
    expect(capex.hits[0]).toMatchObject({ node_id: 'tab_1', extra: { scale: 'millions', currency: '$' } });
    const margin = await executor.call({ tool_id: 'table_index.search', args: { query: 'operating margin of the Dairy segment', units: ['%'] } });
    expect(margin.hits[0]?.node_id).toBe('tab_2');
    // The concept vocabulary: "capex" is written "Purchases of property, plant and equipment" in the table.
    const alias = await executor.call({ tool_id: 'table_index.search', args: { query: 'What was capex in 2021?' } });
    expect(alias.hits[0]?.node_id).toBe('tab_1');
    expect((alias.hits[0]!.extra['features'] as Record<string, number>)['schema']).toBeGreaterThan(0.5);
    const byLabel = await executor.call({ tool_id: 'table_index.search', args: { query: 'what does Table 2 show?' } });
    expect(byLabel.hits[0]?.node_id).toBe('tab_2');
    expect((byLabel.hits[0]!.extra['features'] as Record<string, number>)['label']).toBe(1);
  });

  it('chart_index.search tells the chart from the photo', async () => {
    const chart = await executor.call({ tool_id: 'chart_index.search', args: { query: 'trend of net sales by segment chart' } });
    expect(chart.hits[0]).toMatchObject({ node_id: 'img_1', extra: { chart_type: 'statistical' } });
    const photo = await executor.call({ tool_id: 'chart_index.search', args: { query: 'photograph of the distribution centre' } });
    expect(photo.hits[0]).toMatchObject({ node_id: 'img_2', extra: { chart_type: 'image' } });
    const label = await executor.call({ tool_id: 'chart_index.search', args: { query: 'Fig. 2' } });
    expect(label.hits[0]?.node_id).toBe('img_2');
  });

  it('page_locator.locate reads page numbers, printed labels, ordinals and the last page', async () => {
    const page3 = await executor.call({ tool_id: 'page_locator.locate', args: { query: 'What is the heading on page 3?' } });
    const data = page3.data as { pages: Array<{ page: number; source: string }> };
    // physical page 3, and page 5 whose printed label is "3"
    expect(data.pages.map((p) => [p.page, p.source])).toEqual([
      [3, 'number'],
      [5, 'label'],
    ]);
    expect(page3.hits[0]).toMatchObject({ node_id: 'sec_4', page_idx: 2, score_raw: 1 });
    expect(page3.hits.find((h) => h.node_id === 'tab_2')?.score_raw).toBeCloseTo(0.9);
    const roman = await executor.call({ tool_id: 'page_locator.locate', args: { query: 'the chart on page ii' } });
    expect(roman.hits.map((h) => h.node_id)).toContain('img_1');
    const last = await executor.call({ tool_id: 'page_locator.locate', args: { query: 'On the last page, what is listed?', roles: ['list'] } });
    expect(last.hits.map((h) => h.node_id)).toEqual(['list_2']);
    const window = await executor.call({ tool_id: 'page_locator.locate', args: { query: '', pages: [4], page_window: 1 } });
    const scores = new Map(window.hits.map((h) => [h.node_id, h.score_raw]));
    expect(scores.get('tab_1')).toBe(1);
    expect(scores.get('t_4')).toBeCloseTo(0.5);
    expect(scores.get('tab_2')).toBeCloseTo(0.5);
    const none = await executor.call({ tool_id: 'page_locator.locate', args: { query: 'what is net income?' } });
    expect(none).toMatchObject({ status: 'ok', hits: [], data: { pages: [] } });
  });

  it('figure_finder.find_regions returns boxes, captions and image paths', async () => {
    const result = await executor.call({ tool_id: 'figure_finder.find_regions', args: { pages: [5] } });
    const regions = (result.data as { regions: Array<Record<string, unknown>> }).regions;
    expect(regions).toEqual([
      expect.objectContaining({ node_id: 'img_2', page: 5, page_idx: 4, caption: expect.stringContaining('Rotterdam'), img_path: 'images/figure-2.png', chart_type: 'image' }),
    ]);
    expect(regions[0]!['bbox']).toHaveLength(4);
    const inSection = await executor.call({ tool_id: 'figure_finder.find_regions', args: { section_title: 'Results of Operations' } });
    expect(inSection.hits.map((h) => h.node_id)).toEqual(['img_1']);
  });

  it('reports an empty page filter and a missing embedder as data and error, not as crashes', async () => {
    const outside = await executor.call({ tool_id: 'bm25_node.search', args: { query: 'net sales', pages: [40] } });
    expect(outside).toMatchObject({ status: 'ok', hits: [], data: { warning: expect.stringMatching(/outside the document/) } });
    const bare = await buildFixtureIndex(annualReportTree(), { withoutEmbedder: true });
    fixtures.push(bare);
    const noEmbedder = new ToolExecutor({ registry: createDefaultRegistry(), context: createToolContext({ index: bare.index }) });
    const dense = await noEmbedder.call({ tool_id: 'dense.search', args: { query: 'net sales' } });
    expect(dense.error?.code).toBe('BACKEND_UNAVAILABLE');
    const tables = await noEmbedder.call({ tool_id: 'table_index.search', args: { query: 'cash flows' } });
    expect(tables.hits[0]?.node_id).toBe('tab_1');
  });
});

describe('query signals', () => {
  it('finds figure and table labels, with Roman numerals and lists, but not years', () => {
    expect(findLabels('Compare Fig. 2 and 3 with Table IV and table 2018')).toEqual(['Figure 2', 'Figure 3', 'Table 4']);
    expect(romanValue('xiv')).toBe(14);
    expect(romanValue('abc')).toBeUndefined();
  });

  it('finds page references as the page locator reads them (printed labels too)', () => {
    const refs = findPageReferences('See pages 3-5 and p. 9, the second page, page iv, the last page and pages in general', { labels: true });
    expect(refs.filter((r) => r.kind === 'number').map((r) => r.page)).toEqual([3, 4, 5, 9]);
    expect(refs.find((r) => r.kind === 'ordinal')?.page).toBe(2);
    expect(refs.find((r) => r.kind === 'label')?.label).toBe('iv');
    expect(refs.some((r) => r.kind === 'last')).toBe(true);
  });
});
