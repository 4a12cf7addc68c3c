import type { DocIndex } from '@doctree/index';
import { findYears, MiniSearchSparseIndex } from '@doctree/index';
import type { DocTree, DocTreeNode, SparseDoc } from '@doctree/schema';
import { annualReportTree, corpusTree } from '../testing/fixture-trees.js';
import { buildFixtureIndex, type FixtureIndex } from '../testing/fixture-index.js';
import { PageView, pageViewFor } from './page-view.js';

/**
 * The page view as PageView built it in memory before the index persisted it (toolhub 635ae34): page documents from
 * the loaded tree, a MiniSearch index built on the spot, the years of each page read from its text. The oracle the
 * persisted page view (`index.sparsePages`, `index.pageYears`) must match.
 */
function inMemoryPageView(index: DocIndex): { sparse: MiniSearchSparseIndex; years: Map<number, number[]> } {
  const pages = new Map<number, DocTreeNode[]>();
  for (const node of index.tree.nodes) {
    if (node.role === 'document') continue;
    const pageIdx = node.bboxes[0]?.page_idx ?? node.page_span[0];
    const list = pages.get(pageIdx);
    if (list) list.push(node);
    else pages.set(pageIdx, [node]);
  }
  for (const list of pages.values()) list.sort((a, b) => a.read_order - b.read_order);
  const path = (node: DocTreeNode): string => {
    const titles: string[] = [];
    let section = index.view.sectionOf(node);
    for (let depth = 0; section && depth < 8; depth++) {
      if ((section.title ?? '').trim()) titles.unshift((section.title ?? '').trim());
      section = index.view.sectionOf(section);
    }
    return titles.join(' > ');
  };
  const sparse = new MiniSearchSparseIndex({ boosts: { body: 1, heading: 2, headings_path: 1, caption: 1.5, title: 0, caption_bag: 0 } });
  const docs: SparseDoc[] = [];
  const years = new Map<number, number[]>();
  for (const [pageIdx, nodes] of [...pages].sort((a, b) => a[0] - b[0])) {
    const body: string[] = [];
    const headings: string[] = [];
    const captions: string[] = [];
    const paths = new Set<string>();
    for (const node of nodes) {
      const text = node.text.trim();
      if (node.role === 'section') {
        if (text) {
          headings.push(text);
          body.push(text);
        }
        continue;
      }
      if (text) body.push(text);
      if (node.role === 'caption' && text) captions.push(text);
      const p = path(node);
      if (p) paths.add(p);
    }
    if (body.length === 0) continue;
    const doc: SparseDoc = {
      id: `P${pageIdx + 1}`,
      role: 'section',
      body: body.join('\n'),
      ...(headings.length > 0 ? { heading: headings.join('\n') } : {}),
      ...(paths.size > 0 ? { headings_path: [...paths].join('\n') } : {}),
      ...(captions.length > 0 ? { caption: captions.join('\n') } : {}),
      filters: { page_idx: pageIdx },
    };
    docs.push(doc);
    years.set(pageIdx, findYears([doc.body, doc.headings_path, doc.caption].filter(Boolean).join('\n')));
  }
  sparse.add(docs);
  return { sparse, years };
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
