import { PageFactsSchema, PageSparseDocSchema } from '@doctree/schema';
import { buildFixtureTree } from '../testing/fixture-tree.js';
import { buildPageRecords } from './page-records.js';

/** Four pages: p.1 a section and a paragraph, p.2 a table running onto p.3 with its caption, p.3 a nested section, p.4 empty. */
function pagedTree() {
  const tree = buildFixtureTree({ doc_id: 'paged', title: 'Paged Report 2023', page_count: 4 }, [
    { node_id: 'sec_0', role: 'document', parent: null, title: 'Paged Report 2023' },
    { node_id: 'sec_1', role: 'section', parent: 'sec_0', title: '1 Overview', page: 0 },
    { node_id: 't_1', role: 'paragraph', parent: 'sec_1', page: 0, text: 'Revenue grew in 2023 over 2022.' },
    { node_id: 'tab_1', role: 'table', parent: 'sec_1', page: 1, label: 'Table 1', caption_id: 'cap_1', text: 'Year | Sales\n2021 | 10', table: { rows: [['Year', 'Sales'], ['2021', '10']] } },
    { node_id: 'cap_1', role: 'caption', parent: 'sec_1', page: 1, label: 'Table 1', caption_of: 'tab_1', text: 'Table 1: Sales by year' },
    { node_id: 'sec_2', role: 'section', parent: 'sec_1', title: '1.1 Outlook for 2030', page: 2 },
    { node_id: 't_2', role: 'paragraph', parent: 'sec_2', page: 2, text: 'We expect steady demand.' },
    { node_id: 't_3', role: 'paragraph', parent: 'sec_2', page: 3, text: '   ' },
  ]);
  // The table runs over the page break: its text belongs to the page of its first box only.
  const table = tree.nodes.find((n) => n.node_id === 'tab_1')!;
  table.bboxes = [...table.bboxes, { page_idx: 2, bbox: [72, 80, 540, 300] }];
  table.page_span = [1, 2];
  return tree;
}

describe('buildPageRecords', () => {
  const { docs, pages } = buildPageRecords(pagedTree());

  it('makes one document per page with text, P<1-based page> with filters.page_idx, pages ascending', () => {
    expect(docs.map((d) => d.id)).toEqual(['P1', 'P2', 'P3']);
    expect(docs.map((d) => d.filters.page_idx)).toEqual([0, 1, 2]);
    for (const doc of docs) expect(PageSparseDocSchema.safeParse(doc).error?.issues ?? []).toEqual([]);
    expect(pages.map((p) => p.page_idx)).toEqual([0, 1, 2]);
    for (const page of pages) expect(PageFactsSchema.safeParse(page).success).toBe(true);
  });

  it('puts headings in body and heading, section paths in headings_path and captions in caption', () => {
    const [p1, p2, p3] = docs;
    expect(p1).toEqual({
      id: 'P1',
      role: 'section',
      body: '1 Overview\nRevenue grew in 2023 over 2022.',
      heading: '1 Overview',
      headings_path: 'Paged Report 2023 > 1 Overview',
      filters: { page_idx: 0 },
    });
    expect(p2?.body).toBe('Year | Sales\n2021 | 10\nTable 1: Sales by year');
    expect(p2?.caption).toBe('Table 1: Sales by year');
    expect(p2?.heading).toBeUndefined();
    expect(p3?.body).toBe('1.1 Outlook for 2030\nWe expect steady demand.');
    expect(p3?.headings_path).toBe('Paged Report 2023 > 1 Overview > 1.1 Outlook for 2030');
    expect(p3?.body).not.toContain('2021');
  });

  it('keeps the years written on each page, in its text, section paths and captions', () => {
    expect(pages).toEqual([
      { page_idx: 0, years: [2022, 2023] },
      { page_idx: 1, years: [2021, 2023] },
      { page_idx: 2, years: [2023, 2030] },
    ]);
  });
});
