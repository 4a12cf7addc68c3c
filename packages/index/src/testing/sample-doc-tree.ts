import type { DocTree } from '@doctree/schema';

import { buildFixtureTree, type FixtureNode } from './fixture-tree.js';

/**
 * A small 10-K-like DocTree for index tests and the conformance suites: PART II > Item 7 (MD&A, with a revenue
 * paragraph and a chart) and Item 8 (financial statements with a cash-flow table), plus a long paragraph that must be
 * chunked. Returns a fresh, schema-valid tree on every call (callers may mutate it).
 */
export function sampleDocTree(): DocTree {
  const long = Array.from({ length: 40 }, (_, i) => `Sentence ${i + 1} discusses liquidity, debt maturities and the revolving credit facility in detail.`).join(' ');
  const specs: Array<[Omit<FixtureNode, 'parent'>, string | null]> = [
    [{ node_id: 'sec_0', role: 'document', title: 'ACME Corp Form 10-K 2018', level: 0 }, null],
    [{ node_id: 'sec_1', role: 'section', title: 'PART II', level: 1, page: 1 }, 'sec_0'],
    [{ node_id: 'sec_2', role: 'section', title: 'Item 7. Management’s Discussion and Analysis', numbering: 'Item 7', level: 2, page: 1 }, 'sec_1'],
    [{ node_id: 't_1', role: 'paragraph', text: 'Net sales increased 4.2% to $28,436 million in 2018 compared with $27,290 million in 2017, as shown in Figure 1.', page: 1 }, 'sec_2'],
    [{ node_id: 'img_1', role: 'chart', label: 'Figure 1', caption_id: 'cap_1', page: 1 }, 'sec_2'],
    [{ node_id: 'cap_1', role: 'caption', text: 'Figure 1: Net sales by year (in millions)', label: 'Figure 1', caption_of: 'img_1', page: 1 }, 'sec_2'],
    [{ node_id: 't_2', role: 'paragraph', text: long, page: 2 }, 'sec_2'],
    [{ node_id: 'sec_3', role: 'section', title: 'Item 8. Financial Statements and Supplementary Data', numbering: 'Item 8', level: 2, page: 3 }, 'sec_1'],
    [{ node_id: 'sec_4', role: 'section', title: 'Consolidated Statement of Cash Flows', level: 3, page: 3 }, 'sec_3'],
    [
      {
        node_id: 'tab_1',
        role: 'table',
        label: 'Table 2',
        caption_id: 'cap_2',
        text: '(Millions) | 2018 | 2017\nPurchases of property, plant and equipment (PP&E) | (1,482) | (1,291)\nNet cash provided by operating activities | 6,214 | 5,987',
        table: {
          html: '<table>…</table>',
          header_rows: 1,
          rows: [
            ['(Millions)', '2018', '2017'],
            ['Purchases of property, plant and equipment (PP&E)', '(1,482)', '(1,291)'],
            ['Net cash provided by operating activities', '6,214', '5,987'],
          ],
        },
        page: 3,
      },
      'sec_4',
    ],
    [{ node_id: 'cap_2', role: 'caption', text: 'Table 2: Consolidated statement of cash flows (in millions of $)', label: 'Table 2', caption_of: 'tab_1', page: 3 }, 'sec_4'],
    [{ node_id: 't_3', role: 'paragraph', text: 'Capital expenditures are shown in Table 2.', page: 3, refs: [{ label: 'Table 2', target: 'tab_1' }] }, 'sec_4'],
  ];
  return buildFixtureTree(
    { doc_id: 'acme-10k-2018', title: 'ACME Corp Form 10-K 2018', page_count: 4, source_sha256: 'd'.repeat(64), generator: 'test' },
    specs.map(([node, parent]) => ({ level: 3, ...node, parent })),
  );
}
