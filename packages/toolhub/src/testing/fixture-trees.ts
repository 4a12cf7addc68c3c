import type { DocTree } from '@doctree/schema';
import { buildFixtureTree, rowsToHtml, type FixtureNode } from '@doctree/index/testing';

export { buildFixtureTree, rowsToHtml };
export type { FixtureDocument, FixtureNode } from '@doctree/index/testing';

const escapeHtml = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Cash-flow rows of the fixture report: `(Millions)` with a spanning `Years ended December 31` header over three years. */
export const CASH_FLOW_ROWS: readonly string[][] = [
  ['(Millions)', 'Years ended December 31', 'Years ended December 31', 'Years ended December 31'],
  ['(Millions)', '2023', '2022', '2021'],
  ['Cash flows from operating activities', '', '', ''],
  ['Net income', '1,204', '1,118', '987'],
  ['Depreciation and amortization', '402', '389', '371'],
  ['Net cash provided by operating activities', '1,876', '1,702', '1,533'],
  ['Cash flows from investing activities', '', '', ''],
  ['Purchases of property, plant and equipment (PP&E)', '(1,482)', '(1,291)', '(1,201)'],
  ['Proceeds from sale of businesses', '45', '—', '12'],
  ['Net cash used in investing activities', '(1,437)', '(1,291)', '(1,189)'],
  ['Cash flows from financing activities', '', '', ''],
  ['Dividends paid', '(310)', '(295)', '(280)'],
];

/** The cash-flow table's HTML as MinerU would write it: spanning header cells, `<thead>`. */
export const CASH_FLOW_HTML =
  '<table><thead><tr><th rowspan="2">(Millions)</th><th colspan="3">Years ended December 31</th></tr>' +
  '<tr><th>2023</th><th>2022</th><th>2021</th></tr></thead><tbody>' +
  CASH_FLOW_ROWS.slice(2)
    .map((r) => `<tr>${r.map((c) => `<td>${escapeHtml(c)}</td>`).join('')}</tr>`)
    .join('') +
  '</tbody></table>';

/**
 * A six-page annual-report DocTree used by ToolHub tests and examples ("Northwind Traders Annual Report 2023"):
 *
 * - p.1 (`i`): `sec_1` Letter to Shareholders — `t_1`.
 * - p.2 (`ii`): `sec_2` 2 Management's Discussion and Analysis > `sec_3` 2.1 Results of Operations — `t_2` (net sales),
 *   chart `img_1` (Figure 1, caption `cap_1`), `t_3` (refers to Figure 1).
 * - p.3 (`1`): `sec_4` 2.2 Liquidity and Capital Resources — `t_4` (refers to Table 1), `list_1`.
 * - p.4 (`2`): `sec_5` 3 Financial Statements > `sec_6` 3.1 Consolidated Statement of Cash Flows — `tab_1` (Table 1, cash
 *   flows in millions, 2023/2022/2021, caption `cap_2`).
 * - p.5 (`3`): `sec_7` 3.2 Segment Information — `tab_2` (Table 2, segment sales and margin %, caption `cap_3`, HTML only),
 *   photo `img_2` (Figure 2, caption `cap_4`).
 * - p.6 (`4`): `sec_8` 4 Sustainability > `sec_9` 4.1 Emissions (`t_5`), `sec_10` 4.2 Workforce (`t_6`, `list_2`).
 */
export function annualReportTree(): DocTree {
  return buildFixtureTree({ doc_id: 'northwind-2023', title: 'Northwind Traders Annual Report 2023', page_count: 6, page_labels: { 0: 'i', 1: 'ii', 2: '1', 3: '2', 4: '3', 5: '4' } }, [
    { node_id: 'sec_0', role: 'document', parent: null, title: 'Northwind Traders Annual Report 2023' },
    { node_id: 'sec_1', role: 'section', parent: 'sec_0', title: '1 Letter to Shareholders', numbering: '1', page: 0 },
    {
      node_id: 't_1',
      role: 'paragraph',
      parent: 'sec_1',
      page: 0,
      text: 'Dear shareholders, 2023 was a year of disciplined growth for Northwind Traders. We opened a new distribution centre in Rotterdam and kept our dividend rising for the twelfth consecutive year.',
    },
    { node_id: 'sec_2', role: 'section', parent: 'sec_0', title: "2 Management's Discussion and Analysis", numbering: '2', page: 1 },
    { node_id: 'sec_3', role: 'section', parent: 'sec_2', title: '2.1 Results of Operations', numbering: '2.1', page: 1 },
    {
      node_id: 't_2',
      role: 'paragraph',
      parent: 'sec_3',
      page: 1,
      text: 'Net sales increased 8.4% to $4,210 million in 2023 compared with $3,884 million in 2022, driven by volume growth in the Beverages and Dairy segments.',
    },
    { node_id: 'img_1', role: 'chart', parent: 'sec_3', page: 1, label: 'Figure 1', caption_id: 'cap_1', img_path: 'images/figure-1.png' },
    { node_id: 'cap_1', role: 'caption', parent: 'sec_3', page: 1, label: 'Figure 1', caption_of: 'img_1', text: 'Figure 1: Net sales by segment, 2021–2023 (in millions of $)' },
    {
      node_id: 't_3',
      role: 'paragraph',
      parent: 'sec_3',
      page: 1,
      text: 'As Figure 1 shows, the Beverages segment contributed most of the growth over the last three years.',
      refs: [{ label: 'Figure 1', target: 'img_1' }],
    },
    { node_id: 'sec_4', role: 'section', parent: 'sec_2', title: '2.2 Liquidity and Capital Resources', numbering: '2.2', page: 2 },
    {
      node_id: 't_4',
      role: 'paragraph',
      parent: 'sec_4',
      page: 2,
      text: 'Capital expenditures rose to $1,482 million, mainly for the Rotterdam distribution centre; see Table 1 for the full statement of cash flows. Our revolving credit facility remained undrawn.',
      refs: [{ label: 'Table 1', target: 'tab_1' }],
    },
    {
      node_id: 'list_1',
      role: 'list',
      parent: 'sec_4',
      page: 2,
      text: 'Completed the Rotterdam distribution centre\nRefinanced the 2024 notes\nRaised the quarterly dividend by 5%',
    },
    { node_id: 'sec_5', role: 'section', parent: 'sec_0', title: '3 Financial Statements', numbering: '3', page: 3 },
    { node_id: 'sec_6', role: 'section', parent: 'sec_5', title: '3.1 Consolidated Statement of Cash Flows', numbering: '3.1', page: 3 },
    {
      node_id: 'tab_1',
      role: 'table',
      parent: 'sec_6',
      page: 3,
      label: 'Table 1',
      caption_id: 'cap_2',
      text: CASH_FLOW_ROWS.map((r) => r.join(' | ')).join('\n'),
      table: { html: CASH_FLOW_HTML, header_rows: 2, rows: CASH_FLOW_ROWS.map((r) => [...r]) },
    },
    { node_id: 'cap_2', role: 'caption', parent: 'sec_6', page: 3, label: 'Table 1', caption_of: 'tab_1', text: 'Table 1: Consolidated statement of cash flows (Millions of $)' },
    { node_id: 'sec_7', role: 'section', parent: 'sec_5', title: '3.2 Segment Information', numbering: '3.2', page: 4 },
    {
      node_id: 'tab_2',
      role: 'table',
      parent: 'sec_7',
      page: 4,
      label: 'Table 2',
      caption_id: 'cap_3',
      text: 'Segment | Net sales ($M) | Operating margin (%)\nBeverages | 2,310 | 14.2%\nDairy | 1,420 | 9.8%\nSnacks | 480 | 6.1%',
      table: {
        header_rows: 1,
        html: '<table><tr><th>Segment</th><th>Net sales ($M)</th><th>Operating margin (%)</th></tr><tr><td>Beverages</td><td>2,310</td><td>14.2%</td></tr><tr><td>Dairy</td><td>1,420</td><td>9.8%</td></tr><tr><td>Snacks</td><td>480</td><td>6.1%</td></tr></table>',
      },
    },
    { node_id: 'cap_3', role: 'caption', parent: 'sec_7', page: 4, label: 'Table 2', caption_of: 'tab_2', text: 'Table 2: Net sales and operating margin by segment, 2023' },
    { node_id: 'img_2', role: 'image', parent: 'sec_7', page: 4, label: 'Figure 2', caption_id: 'cap_4', img_path: 'images/figure-2.png' },
    { node_id: 'cap_4', role: 'caption', parent: 'sec_7', page: 4, label: 'Figure 2', caption_of: 'img_2', text: 'Figure 2: Photograph of the new Rotterdam distribution centre at its opening' },
    { node_id: 'sec_8', role: 'section', parent: 'sec_0', title: '4 Sustainability', numbering: '4', page: 5 },
    { node_id: 'sec_9', role: 'section', parent: 'sec_8', title: '4.1 Emissions', numbering: '4.1', page: 5 },
    {
      node_id: 't_5',
      role: 'paragraph',
      parent: 'sec_9',
      page: 5,
      text: 'Scope 1 and 2 greenhouse gas emissions fell 12% to 84,000 tonnes of CO2 equivalent as the fleet moved to electric trucks.',
    },
    { node_id: 'sec_10', role: 'section', parent: 'sec_8', title: '4.2 Workforce', numbering: '4.2', page: 5 },
    { node_id: 't_6', role: 'paragraph', parent: 'sec_10', page: 5, text: 'Northwind employed 6,800 people at year end, 41% of them women.' },
    { node_id: 'list_2', role: 'list', parent: 'sec_10', page: 5, text: 'Safety training for all drivers\nA new apprenticeship programme\nFlexible working in offices' },
  ]);
}

/** A document id / text / role / page entry, as in `RETRIEVER_CONFORMANCE_CORPUS` of `@doctree/index/testing`. */
export interface CorpusEntry {
  node_id: string;
  page_idx: number;
  role: 'paragraph' | 'table' | 'section';
  text: string;
}

/**
 * A DocTree holding exactly the passages of a retriever-conformance corpus: sections become headings (with no
 * children), paragraphs stay paragraphs, tables get cells split on ` | ` and ` — ` (first cell = header). Every node
 * hangs from the root, on its page.
 */
export function corpusTree(corpus: readonly CorpusEntry[], docId = 'conformance'): DocTree {
  const pageCount = Math.max(1, ...corpus.map((d) => d.page_idx + 1));
  const specs: FixtureNode[] = [{ node_id: 'sec_0', role: 'document', parent: null, title: 'Conformance corpus' }];
  for (const doc of corpus) {
    if (doc.role === 'section') specs.push({ node_id: doc.node_id, role: 'section', parent: 'sec_0', title: doc.text, page: doc.page_idx });
    else if (doc.role === 'table') {
      const rows = doc.text.split(/\s+—\s+/).map((line) => line.split(/\s*\|\s*/));
      specs.push({ node_id: doc.node_id, role: 'table', parent: 'sec_0', page: doc.page_idx, text: doc.text, table: { rows, header_rows: 1 } });
    } else specs.push({ node_id: doc.node_id, role: 'paragraph', parent: 'sec_0', page: doc.page_idx, text: doc.text });
  }
  return buildFixtureTree({ doc_id: docId, title: 'Conformance corpus', page_count: pageCount }, specs);
}
