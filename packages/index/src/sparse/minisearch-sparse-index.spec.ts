import { DocTreeError } from '@doctree/schema';
import type { SparseDoc } from '@doctree/schema';

import { runSparseIndexConformance } from '../testing/index.js';
import { PAPER_DOCS, TEN_K_DOCS } from './__fixtures__/report-docs.js';
import { DEFAULT_SPARSE_BOOSTS, MiniSearchSparseIndex } from './minisearch-sparse-index.js';
import type { MiniSearchSparseIndexOptions } from './minisearch-sparse-index.js';

runSparseIndexConformance('minisearch', {
  create: (docs) => {
    const index = new MiniSearchSparseIndex();
    index.add(docs);
    return index;
  },
});

runSparseIndexConformance('minisearch (storeText, and)', {
  create: (docs) => {
    const index = new MiniSearchSparseIndex({ storeText: true, combineWith: 'and' });
    index.add(docs);
    return index;
  },
});

function indexOf(docs: readonly SparseDoc[], options: MiniSearchSparseIndexOptions = {}): MiniSearchSparseIndex {
  const index = new MiniSearchSparseIndex(options);
  index.add(docs);
  return index;
}

const ids = (index: MiniSearchSparseIndex, query: string, k = 5): string[] => index.search(query, { k }).map((hit) => hit.id);

function caught(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('MiniSearchSparseIndex on a 10-K and a paper', () => {
  const tenK = indexOf(TEN_K_DOCS);
  const paper = indexOf(PAPER_DOCS);

  it('ranks the labelled table or figure first for a label query, however it is written', () => {
    for (const query of ['Table 2', 'table 2', 'Tab. 2', 'TABLE II']) expect(ids(tenK, query)[0]).toBe('tab_7');
    for (const query of ['fig. 3', 'Figure 3', 'fig 3']) expect(ids(paper, query)[0]).toBe('img_9');
    expect(ids(paper, 'Table 4')[0]).toBe('tab_30');
    // The paragraph that refers to Figure 3 comes after the figure itself, thanks to the labels and title boosts.
    expect(ids(paper, 'fig. 3')).toContain('t_60');
    const hit = paper.search('fig. 3', { k: 1 })[0]!;
    expect(hit.matched.labels).toEqual(expect.arrayContaining(['figure_3']));
    expect(hit.matched.title).toEqual(expect.arrayContaining(['figure_3']));
  });

  it('tells Item 7 from Item 7A', () => {
    expect(ids(tenK, 'Item 7A')[0]).toBe('sec_6');
    expect(ids(tenK, 'item 7a market risk')[0]).toBe('sec_6');
    expect(ids(tenK, "Item 7 management's discussion")[0]).toBe('sec_5');
  });

  it('ranks a heading match above the same words buried in body text', () => {
    const hits = tenK.search('liquidity and capital resources', { k: 5 });
    expect(hits[0]!.id).toBe('sec_8');
    expect(hits[0]!.matched.heading).toEqual(['liquiditi', 'capital', 'resourc']);
    expect(hits.map((h) => h.id)).toContain('t_40');
    expect(hits.find((h) => h.id === 't_40')!.matched).toEqual({ body: ['liquiditi', 'capital', 'resourc'] });
  });

  it('finds the cash-flow table for "capital expenditures 2018" through its schema and body', () => {
    const hits = tenK.search('capital expenditures 2018', { k: 5 });
    const table = hits.find((hit) => hit.id === 'tab_12')!;
    expect(table.matched).toEqual({ table_schema: ['2018'], body: ['capital', 'expenditur'] });
    // Under OR the enclosing "Liquidity and Capital Resources" section may come first (heading match on `capital`,
    // child table schema on `2018`); the table beats every doc that is not its parent, among them the 2019 outlook.
    expect(hits.map((h) => h.id).indexOf('tab_12')).toBeLessThanOrEqual(1);
    expect(hits.map((h) => h.id).indexOf('tab_12')).toBeLessThan(hits.map((h) => h.id).indexOf('t_42'));
    // Only the table has every term: first with AND, and first with OR once its section is filtered out.
    expect(tenK.search('capital expenditures 2018', { k: 5, combineWith: 'and' }).map((h) => h.id)).toEqual(['tab_12']);
    expect(tenK.search('What were the capital expenditures in 2018?', { k: 1, filter: (doc) => doc.role !== 'section' })[0]!.id).toBe('tab_12');
  });

  it('matches numbers written with or without thousands separators, and percentages', () => {
    expect(ids(tenK, '1,482')[0]).toBe('tab_12');
    expect(ids(tenK, '1482')[0]).toBe('tab_12');
    expect(ids(tenK, '$28,436')[0]).toBe('tab_7');
    expect(ids(tenK, '9.5%')).toEqual(expect.arrayContaining(['tab_7', 't_41']));
    expect(tenK.search('3.5%', { k: 1 })[0]).toMatchObject({ id: 'tab_7', matched: { body: ['3.5', 'percent'] } });
  });

  it('lets one search override the field boosts', () => {
    expect(ids(tenK, 'liquidity capital resources')[0]).toBe('sec_8');
    expect(ids(tenK, 'liquidity capital resources')[0]).toBe(tenK.search('liquidity capital resources', { k: 1, boosts: {} })[0]!.id);
    const bodyFirst = tenK.search('liquidity capital resources', { k: 5, boosts: { body: 10 } });
    expect(bodyFirst[0]!.id).toBe('t_40');
    // A boost of 0 turns a field off: the section is then found through its path only.
    const noHeading = tenK.search('liquidity capital resources', { k: 5, boosts: { heading: 0, headings_path: 0 } });
    expect(noHeading[0]!.id).toBe('t_40');
    expect(noHeading.some((hit) => hit.matched.heading !== undefined)).toBe(false);
    // Defaults come back on the next search.
    expect(ids(tenK, 'liquidity capital resources')[0]).toBe('sec_8');
  });

  it('rejects unknown fields and negative boosts', () => {
    const unknown = caught(() => tenK.search('cash', { k: 5, boosts: { summary: 2 } as never }));
    expect(DocTreeError.isInstance(unknown) && unknown.code).toBe('CONFIG_INVALID');
    const negative = caught(() => tenK.search('cash', { k: 5, boosts: { body: -1 } }));
    expect(DocTreeError.isInstance(negative) && negative.code).toBe('CONFIG_INVALID');
    expect(caught(() => new MiniSearchSparseIndex({ bm25: { b: 2 } }))).toBeInstanceOf(DocTreeError);
  });

  it('matches singular and plural (stemming)', () => {
    const revenues = ids(tenK, 'revenues');
    const revenue = ids(tenK, 'revenue');
    expect(revenues).toEqual(revenue);
    expect(revenue).toEqual(expect.arrayContaining(['t_41', 't_43']));
    expect(ids(paper, 'running average loss')[0]).toBe('t_61');
    expect(ids(paper, 'hyperparameters')[0]).toBe('tab_30');
  });

  it('finds nothing for stopwords', () => {
    for (const query of ['the', 'and of the', 'what is it', 'Which were they?']) expect(tenK.search(query, { k: 5 })).toEqual([]);
  });

  it('keeps only docs matching every term with combineWith "and"', () => {
    const or = ids(tenK, 'capital expenditures 2019', 10);
    expect(or.length).toBeGreaterThan(1);
    expect(tenK.search('capital expenditures 2019', { k: 10, combineWith: 'and' }).map((h) => h.id)).toEqual(['t_42']);
    expect(indexOf(TEN_K_DOCS, { combineWith: 'and' }).search('capital expenditures 2019', { k: 10 }).map((h) => h.id)).toEqual(['t_42']);
  });

  it('filters on role and facets before the cut to k', () => {
    const tables = tenK.search('2018', { k: 1, filter: (doc) => doc.role === 'table' && (doc.filters.years ?? []).includes(2016) });
    expect(tables.map((h) => h.id)).toEqual(['tab_12']);
    const inLiquidity = tenK.search('capital', { k: 10, filter: (doc) => doc.filters.parent_section === 'sec_8' });
    expect(new Set(inLiquidity.map((h) => h.id))).toEqual(new Set(['tab_12', 't_40', 't_42']));
  });

  it('shows the text fields to filters only with storeText', () => {
    const seen: SparseDoc[] = [];
    indexOf(TEN_K_DOCS).search('Table 5', { k: 1, filter: (doc) => (seen.push(doc), true) });
    expect(seen.find((doc) => doc.id === 'tab_12')).toEqual({ id: 'tab_12', role: 'table', filters: TEN_K_DOCS[4]!.filters });
    const stored: SparseDoc[] = [];
    indexOf(TEN_K_DOCS, { storeText: true }).search('Table 5', { k: 1, filter: (doc) => (stored.push(doc), true) });
    expect(stored.find((doc) => doc.id === 'tab_12')).toEqual(TEN_K_DOCS[4]);
  });

  it('rejects duplicate ids, adding nothing', () => {
    const index = indexOf(TEN_K_DOCS.slice(0, 2));
    const error = caught(() => index.add([{ id: 't_99', role: 'paragraph', body: 'new text', filters: {} }, TEN_K_DOCS[0]!]));
    expect(DocTreeError.isInstance(error) && error.code).toBe('INTERNAL');
    expect(index.size).toBe(2);
    expect(index.has('t_99')).toBe(false);
    expect(index.search('new text', { k: 5 })).toEqual([]);
  });

  it('grows with later adds and breaks ties by insertion order', () => {
    const index = new MiniSearchSparseIndex();
    index.add([{ id: 't_1', role: 'paragraph', body: 'goodwill impairment', filters: {} }]);
    index.add([{ id: 't_2', role: 'paragraph', body: 'goodwill impairment', filters: {} }]);
    expect(index.size).toBe(2);
    expect(ids(index, 'goodwill')).toEqual(['t_1', 't_2']);
  });

  it('exports its default boosts', () => {
    expect(DEFAULT_SPARSE_BOOSTS.labels).toBeGreaterThan(DEFAULT_SPARSE_BOOSTS.body);
    expect(new MiniSearchSparseIndex().toJSON().boosts).toEqual(DEFAULT_SPARSE_BOOSTS);
  });
});
