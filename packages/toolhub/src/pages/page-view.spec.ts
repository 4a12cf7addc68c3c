import type { DocIndex } from '@doctree/index';
import { buildPageRecords, MiniSearchSparseIndex } from '@doctree/index';
import type { DocTree } from '@doctree/schema';
import { annualReportTree, corpusTree } from '../testing/fixture-trees.js';
import { buildFixtureIndex, type FixtureIndex } from '../testing/fixture-index.js';
import { PageView, pageViewFor } from './page-view.js';

/**
 * The page view built in memory from the same page records (`buildPageRecords`) with a fresh MiniSearch index: the
 * persisted page view (`index.sparsePages`, `index.pageYears`, written at build and loaded lazily) must answer exactly
 * as it does — what build, save and load could lose (fields, boosts, terms loaded on demand, years) shows up here.
 */
function inMemoryPageView(index: DocIndex): { sparse: MiniSearchSparseIndex; years: Map<number, number[]> } {
  const { docs, pages } = buildPageRecords(index.tree);
  const sparse = new MiniSearchSparseIndex({ boosts: { body: 1, heading: 2, headings_path: 1, caption: 1.5, title: 0, caption_bag: 0 } });
  sparse.add(docs);
  return { sparse, years: new Map(pages.map((p) => [p.page_idx, p.years])) };
}

/** A PageView over the in-memory oracle instead of the page view loaded with the index. */
function inMemoryView(index: DocIndex): PageView {
  const { sparse, years } = inMemoryPageView(index);
  return new PageView({ ...index, sparsePages: sparse, pageYears: years });
}

/** Pages of two sections, a figure caption, several years, and a page without text. */
function pagedCorpusTree(): DocTree {
  return corpusTree(
    [
      { node_id: 'sec_1', page_idx: 0, role: 'section', text: 'Capital expenditures 2019' },
      { node_id: 't_1', page_idx: 0, role: 'paragraph', text: 'Capital expenditures were $1.2 billion in 2019 and $1.0 billion in 2018.' },
      { node_id: 't_2', page_idx: 1, role: 'paragraph', text: 'The company employed 93,000 people worldwide at the end of 2019.' },
      { node_id: 'tab_1', page_idx: 2, role: 'table', text: 'Year | Net income — 2019 | 4,570 — 2018 | 5,349' },
      { node_id: 'sec_2', page_idx: 4, role: 'section', text: 'Legal proceedings' },
      { node_id: 't_3', page_idx: 4, role: 'paragraph', text: 'Litigation related to respirator mask claims continued in 2019; see Note 16.' },
    ],
    'paged-corpus',
  );
}

const QUERIES = [
  'capital expenditures Rotterdam distribution centre',
  'consolidated statement of cash flows 2023',
  'How much were capital expenditures in 2023 compared to 2022?',
  'net sales by segment figure',
  'operating margin Dairy 2021 2022 2023',
  'How many people did Northwind employ?',
  'Zanzibar quantum widgets in 1999',
  'constructor __proto__ toString hasOwnProperty',
  '   ',
  'capital expenditures 2019 2018',
  'net income 2019 respirator litigation Note 16',
];

describe('PageView over the page view built with the index', () => {
  const fixtures: FixtureIndex[] = [];
  beforeAll(async () => {
    fixtures.push(await buildFixtureIndex(annualReportTree()), await buildFixtureIndex(pagedCorpusTree()));
  });
  afterAll(() => Promise.all(fixtures.map((f) => f.cleanup())));

  it('loads the same page documents and years the in-memory construction builds', () => {
    for (const { index } of fixtures) {
      const { sparse, years } = inMemoryPageView(index);
      expect(index.sparsePages.size).toBe(sparse.size);
      expect(pageViewFor(index).size).toBe(sparse.size);
      expect([...index.pageYears]).toEqual([...years]);
    }
  });

  it.each(QUERIES.map((q) => [q]))('answers %j with the lanes and absence of the in-memory construction', async (query) => {
    for (const { index } of fixtures) {
      const persisted = pageViewFor(index);
      const memory = inMemoryView(index);
      for (const k of [3, 50]) expect(await persisted.search(query, { k })).toEqual(await memory.search(query, { k }));
      expect(persisted.absence(query, [1, 6, 7, 0])).toEqual(memory.absence(query, [1, 6, 7, 0]));
    }
  });

  it('is made without building anything: the view searches the index it was loaded with', async () => {
    const { index } = fixtures[0]!;
    const view = new PageView(index);
    expect(view.size).toBe(index.sparsePages.size);
    const lanes = await view.search('capital expenditures Rotterdam distribution centre');
    expect(lanes.page_text).toEqual(index.sparsePages.search('capital expenditures Rotterdam distribution centre', { k: 50, boosts: { body: 1, heading: 0, headings_path: 0, caption: 0, title: 0, caption_bag: 0 } }).map((h) => ({ pageIdx: Number(h.id.slice(1)) - 1, score: h.score })));
  });
});
