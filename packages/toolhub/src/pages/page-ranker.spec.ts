import type { DocIndex } from '@doctree/index';
import type { Hit } from '@doctree/schema';
import { annualReportTree } from '../testing/fixture-trees.js';
import { buildFixtureIndex, type FixtureIndex } from '../testing/fixture-index.js';
import { PageRanker, type PageRankInput } from './page-ranker.js';
import { PAGE_FEATURES, parsePageRankerModel } from './page-ranker-schema.js';
import { DEFAULT_PAGE_RANKER_MODEL } from './page-ranker-model.js';
import { PageView, pageViewFor } from './page-view.js';

const hit = (page: number, node = `n${page}`, method = 'bm25_node.search'): Hit => ({
  eid: node,
  doc_id: 'd',
  page_idx: page - 1,
  node_id: node,
  modality: 'text',
  snippet: '',
  bbox: null,
  score_raw: 1,
  method,
  extra: {},
});

const empty = (over: Partial<PageRankInput> = {}): PageRankInput => ({ pageLanes: {}, nodeLanes: [], fused: [], packPages: [], supportPages: [], pageHints: [], ...over });

describe('PageView', () => {
  let fixture: FixtureIndex;
  let index: DocIndex;
  beforeAll(async () => {
    fixture = await buildFixtureIndex(annualReportTree());
    index = fixture.index;
  });
  afterAll(() => fixture.cleanup());

  it('finds the page whose text answers the question, over the whole document', async () => {
    const lanes = await pageViewFor(index).search('capital expenditures Rotterdam distribution centre');
    expect(lanes.page_text[0]?.pageIdx).toBe(2);
    expect(lanes.page_coverage[0]?.pageIdx).toBe(2);
    expect(lanes.page_coverage[0]?.score).toBeGreaterThan(0.5);
    expect(lanes.page_dense.length).toBeGreaterThan(0);
  });

  it('searches page headings and captions in the structure lane, and matches years', async () => {
    const lanes = await pageViewFor(index).search('consolidated statement of cash flows 2023');
    expect(lanes.page_structure[0]?.pageIdx).toBe(3);
    expect(lanes.page_years.map((p) => p.pageIdx)).toContain(1);
    expect(lanes.page_years.every((p) => p.score > 0 && p.score <= 1)).toBe(true);
  });

  it('is built once per index and answers nothing odd for empty or hostile queries', async () => {
    expect(pageViewFor(index)).toBe(pageViewFor(index));
    const view = new PageView(index);
    expect(view.size).toBeGreaterThan(0);
    const blank = await view.search('   ');
    expect(blank.page_text).toEqual([]);
    expect(blank.page_dense).toEqual([]);
    const hostile = await view.search('constructor __proto__ toString hasOwnProperty');
    expect(Array.isArray(hostile.page_text)).toBe(true);
  });
});

describe('PageRanker', () => {
  it('counts a node lane once per page however many of its nodes hit it', () => {
    const ranker = new PageRanker({ model: { format: 'doctree.page-ranker', version: 1, weights: { bm25_node_rr: 1 } } });
    const features = ranker.features(empty({ nodeLanes: [{ method: 'bm25_node.search', hits: [hit(4, 'a'), hit(4, 'b'), hit(4, 'c'), hit(7, 'd')] }] }));
    expect(features.get(4)?.bm25_node_rr).toBe(1);
    expect(features.get(7)?.bm25_node_rr).toBe(0.5);
  });

  it('keeps a page a page lane ranked first even when no node lane saw it (scoping narrows, never hides)', () => {
    const ranker = new PageRanker();
    const ranking = ranker.rank(
      empty({
        pageLanes: { page_text: [{ pageIdx: 11, score: 9 }], page_dense: [{ pageIdx: 11, score: 0.8 }], page_coverage: [{ pageIdx: 11, score: 1 }] },
        nodeLanes: [{ method: 'bm25_node.search', hits: [hit(3)] }],
        fused: [hit(3)],
      }),
    );
    expect(ranking.map((p) => p.page)).toContain(12);
    expect(ranking.map((p) => p.page)).toContain(3);
    expect(ranking.find((p) => p.page === 12)!.features.page_text_rr).toBe(1);
  });

  it('orders pages by the model: a page every lane agrees on comes before one a single lane likes', () => {
    const ranker = new PageRanker();
    const ranking = ranker.rank(
      empty({
        pageLanes: { page_text: [{ pageIdx: 4, score: 5 }, { pageIdx: 8, score: 4 }], page_dense: [{ pageIdx: 4, score: 0.9 }] },
        nodeLanes: [
          { method: 'bm25_node.search', hits: [hit(5)] },
          { method: 'dense.search', hits: [hit(5)] },
          { method: 'table_index.search', hits: [hit(5)] },
        ],
        fused: [hit(5)],
        packPages: [5],
      }),
    );
    expect(ranking[0]!.page).toBe(5);
    expect(ranking[0]!.score).toBeGreaterThan(ranking[ranking.length - 1]!.score);
    for (const p of ranking) for (const f of PAGE_FEATURES) expect(p.features[f]).toBeGreaterThanOrEqual(0);
  });

  it('adds neighbour, hint and early-page features', () => {
    const ranker = new PageRanker();
    const features = ranker.features(
      empty({ pageLanes: { page_text: [{ pageIdx: 9, score: 3 }] }, nodeLanes: [{ method: 'dense.search', hits: [hit(11), hit(2)] }], pageHints: [11] }),
    );
    expect(features.get(11)?.neighbor_text_rr).toBe(1);
    expect(features.get(11)?.hint).toBe(1);
    expect(features.get(2)?.early_page).toBe(1);
    expect(features.get(10)?.early_page).toBe(0);
  });

  it('validates models: the shipped default, and refuses unknown features or other versions', () => {
    expect(parsePageRankerModel(DEFAULT_PAGE_RANKER_MODEL).format).toBe('doctree.page-ranker');
    expect(() => parsePageRankerModel({ format: 'doctree.page-ranker', version: 1, weights: { constructor: 1 } })).toThrow(/unknown page feature/);
    expect(() => parsePageRankerModel({ format: 'doctree.page-ranker', version: 2, weights: {} })).toThrow(/not a page ranker model/);
    expect(() => new PageRanker({ model: { format: 'doctree.page-ranker', version: 1, weights: { fused_rr: Number.NaN } } })).toThrow();
  });
});
