import { DocView } from '@doctree/index';
import { parseHtmlTable } from '@doctree/toolhub';
import { buildFixtureTree, type FixtureNode } from '@doctree/index/testing';
import type { DocTree, Observation } from '@doctree/schema';
import type { ObservableIndex } from '../observer/observer-types.js';

type NodeInput = Omit<FixtureNode, 'parent'> & { box?: [number, number, number, number] };

/**
 * Cash-flow statement as MinerU writes it: a two-level header (`(Millions)` spanning two rows, `Years ended
 * December 31` spanning the year columns), section rows, accounting negatives and `$` signs in the first rows.
 */
export const CASH_FLOW_HTML = `<html><body><table>
<tr><td rowspan="2">(Millions)</td><td colspan="3">Years ended December 31</td></tr>
<tr><td>2018</td><td>2017</td><td>2016</td></tr>
<tr><td>Cash Flows from Operating Activities</td><td></td><td></td><td></td></tr>
<tr><td>Net income including noncontrolling interest</td><td>$ 4,918</td><td>$ 4,512</td><td>$ 4,730</td></tr>
<tr><td>Depreciation and amortization</td><td>1,362</td><td>1,318</td><td>1,297</td></tr>
<tr><td>Net cash provided by operating activities</td><td>6,214</td><td>5,987</td><td>6,118</td></tr>
<tr><td>Cash Flows from Investing Activities</td><td></td><td></td><td></td></tr>
<tr><td>Purchases of property, plant and equipment (PP&amp;E)</td><td>(1,482)</td><td>(1,291)</td><td>(1,347)</td></tr>
<tr><td>Proceeds from sale of PP&amp;E and other assets</td><td>241</td><td>56</td><td>63</td></tr>
<tr><td>Net cash used in investing activities</td><td>(207)</td><td>(2,874)</td><td>(1,322)</td></tr>
<tr><td>Cash Flows from Financing Activities</td><td></td><td></td><td></td></tr>
<tr><td>Dividends paid to shareholders</td><td>(2,968)</td><td>(2,611)</td><td>(2,497)</td></tr>
<tr><td>Net cash used in financing activities</td><td>(6,318)</td><td>(2,507)</td><td>(4,389)</td></tr>
</table></body></html>`;

/** Segment table as a PDF extractor gives it: `$` signs in their own columns, one header row. */
export const SEGMENT_ROWS = [
  ['Segment', '', '2018', '', '2017'],
  ['Safety and Tooling', '$', '12,345', '$', '11,512'],
  ['Mobility and Electronics', '', '9,318', '', '9,046'],
  ['Health Care', '', '5,842', '', '5,677'],
  ['Consumer', '', '4,615', '', '4,538'],
  ['Total net sales', '$', '28,436', '$', '27,474'],
];

/** A long paragraph, chunked by the index (`t_5#c0`, `t_5#c1`…). */
const LIQUIDITY = Array.from({ length: 40 }, (_, i) => `Liquidity note ${i + 1} covers debt maturities, the revolving credit facility and covenants in detail.`).join(' ');

/**
 * A small annual report: MD&A (paragraphs with numbers and years, a list of segments, a chart and a photo with
 * captions, a segment table) and the financial statements (a cash-flow table stored as HTML only). Pages 0–2.
 */
export function reportTree(): DocTree {
  const cashFlow = parseHtmlTable(CASH_FLOW_HTML);
  const specs: Array<[NodeInput, string | null]> = [
    [{ node_id: 'sec_0', role: 'document', title: 'Northwind Industries Annual Report 2018', level: 0 }, null],
    [{ node_id: 'sec_1', role: 'section', title: 'Management’s Discussion and Analysis', level: 1, page: 0 }, 'sec_0'],
    [{ node_id: 't_1', role: 'paragraph', text: 'Net sales increased 4.2% to $28,436 million in 2018 compared with $27,474 million in 2017, as shown in Figure 1.', page: 0, refs: [{ label: 'Figure 1', target: 'img_1' }] }, 'sec_1'],
    [{ node_id: 'img_1', role: 'chart', label: 'Figure 1', caption_id: 'cap_1', page: 0, box: [72, 200, 540, 420] }, 'sec_1'],
    [{ node_id: 't_9', role: 'paragraph', text: '2016 2017 2018', page: 0, box: [100, 400, 500, 415] }, 'sec_1'],
    [{ node_id: 'cap_1', role: 'caption', text: 'Figure 1: Net sales by year, bar chart (in millions)', label: 'Figure 1', caption_of: 'img_1', page: 0 }, 'sec_1'],
    [{ node_id: 't_2', role: 'paragraph', text: 'The company was founded in 1911 in Cedar Falls, Ohio. Its headquarters are located in Lakeview, Ohio.', page: 0 }, 'sec_1'],
    [{ node_id: 'img_2', role: 'image', label: 'Figure 2', caption_id: 'cap_2', page: 1, box: [72, 300, 300, 500] }, 'sec_1'],
    [{ node_id: 'cap_2', role: 'caption', text: 'Figure 2: Photograph of the new Ohio plant', label: 'Figure 2', caption_of: 'img_2', page: 1 }, 'sec_1'],
    [{ node_id: 'sec_3', role: 'section', title: 'Business Segments', level: 2, page: 1 }, 'sec_1'],
    [{ node_id: 't_4', role: 'paragraph', text: 'Northwind manages its operations in four reportable units, each led by a president.', page: 1 }, 'sec_3'],
    [{ node_id: 'list_1', role: 'list', text: 'Safety and Tooling\nMobility and Electronics\nHealth Care\nConsumer', page: 1 }, 'sec_3'],
    [
      {
        node_id: 'tab_2',
        role: 'table',
        label: 'Table 1',
        caption_id: 'cap_3',
        text: SEGMENT_ROWS.map((r) => r.join(' | ')).join('\n'),
        table: { html: '', header_rows: 1, rows: SEGMENT_ROWS },
        page: 1,
      },
      'sec_3',
    ],
    [{ node_id: 'cap_3', role: 'caption', text: 'Table 1: Net sales by business segment (in millions)', label: 'Table 1', caption_of: 'tab_2', page: 1 }, 'sec_3'],
    [{ node_id: 'sec_2', role: 'section', title: 'Consolidated Statement of Cash Flows', level: 1, page: 2 }, 'sec_0'],
    [
      {
        node_id: 'tab_1',
        role: 'table',
        label: 'Table 2',
        text: cashFlow.rows.map((r) => r.join(' | ')).join('\n'),
        table: { html: CASH_FLOW_HTML, header_rows: cashFlow.headerRows },
        page: 2,
      },
      'sec_2',
    ],
    [{ node_id: 't_3', role: 'paragraph', text: 'Capital expenditures are shown as purchases of property, plant and equipment in the statement above.', page: 2 }, 'sec_2'],
    [{ node_id: 't_5', role: 'paragraph', text: LIQUIDITY, page: 2 }, 'sec_2'],
  ];
  return buildFixtureTree(
    { doc_id: 'northwind-2018', title: 'Northwind Industries Annual Report 2018', page_count: 3, source_sha256: 'e'.repeat(64), generator: 'test' },
    specs.map(([{ box, ...node }, parent], i) => ({
      level: 2,
      ...node,
      parent,
      bboxes: node.role === 'document' ? [] : [{ page_idx: node.page ?? 0, bbox: box ?? [72, 100 + i * 12, 540, 110 + i * 12] }],
    })),
  );
}

/** The report tree as an observable index (no files): tree, view and a document folder that holds no PDF. */
export function reportIndex(docDir = '/nonexistent/northwind-2018'): ObservableIndex {
  const tree = reportTree();
  return { tree, view: new DocView(tree), docDir };
}

/** A plain text observation (as the RAG baseline passes its chunks), anchored when `charStart` is given. */
export function textObservation(nodeId: string, text: string, page = 1, charStart?: number): Observation {
  return {
    node_id: nodeId,
    modality: 'text',
    page,
    bbox: null,
    payload: { kind: 'text', text, heading_path: [], ...(charStart !== undefined ? { char_span: [charStart, charStart + text.length] as [number, number] } : {}) },
  };
}
