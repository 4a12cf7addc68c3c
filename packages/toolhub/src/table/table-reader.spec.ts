import type { DocTreeNode } from '@doctree/schema';
import { CASH_FLOW_HTML } from '../testing/fixture-trees.js';
import { HTML_TABLE_LIMITS, parseHtmlTable } from './html-table.js';
import { findScale, parseNumberText } from './number-text.js';
import { readTable, tableGridToMarkdown } from './table-reader.js';

const tableNode = (table: DocTreeNode['table'], text = ''): DocTreeNode => ({
  node_id: 'tab_1',
  role: 'table',
  parent_id: 'sec_1',
  children: [],
  level: 2,
  text,
  page_span: [0, 0],
  bboxes: [],
  read_order: 1,
  char_span: [0, text.length],
  refs: [],
  referenced_by: [],
  source_block_ids: [],
  ...(table ? { table } : {}),
});

describe('parseHtmlTable', () => {
  it('expands rowspan and colspan into a rectangular grid and counts header rows', () => {
    const grid = parseHtmlTable(CASH_FLOW_HTML);
    expect(grid.headerRows).toBe(2);
    expect(grid.rows[0]).toEqual(['(Millions)', 'Years ended December 31', 'Years ended December 31', 'Years ended December 31']);
    expect(grid.rows[1]).toEqual(['(Millions)', '2023', '2022', '2021']);
    expect(grid.rows[7]).toEqual(['Purchases of property, plant and equipment (PP&E)', '(1,482)', '(1,291)', '(1,201)']);
    expect(grid.rows.every((r) => r.length === 4)).toBe(true);
  });

  it('tolerates unclosed cells, nested markup, entities, bare rows and hostile spans', () => {
    const grid = parseHtmlTable('<tr><th>Item<td>Value<tr><td>A &amp; B<br>c<td><b>1&nbsp;000</b><tr><td colspan="99999">wide');
    expect(grid.rows.slice(0, 2).map((r) => r.slice(0, 2))).toEqual([
      ['Item', 'Value'],
      ['A & B c', '1 000'],
    ]);
    expect(grid.rows[2]).toHaveLength(HTML_TABLE_LIMITS.maxColumns);
    expect(grid.rows[0]!.slice(2).every((c) => c === '')).toBe(true);
    const nested = parseHtmlTable('<table><tr><td>outer<table><tr><td>inner</td></tr></table></td><td>2</td></tr></table>');
    expect(nested.rows).toEqual([['outer inner', '2']]);
    expect(parseHtmlTable('no table here').rows).toEqual([]);
  });
});

describe('readTable', () => {
  it('reads header, row labels, scale and currency from a financial table', () => {
    const grid = readTable(tableNode({ html: CASH_FLOW_HTML, header_rows: 0 }), { caption: 'Table 1: Consolidated statement of cash flows (Millions of $)' });
    expect(grid.source).toBe('html');
    expect(grid.headerRows).toBe(2);
    expect(grid.columns).toEqual(['(Millions)', 'Years ended December 31 2023', 'Years ended December 31 2022', 'Years ended December 31 2021']);
    expect(grid.rowLabels[0]).toBe('Cash flows from operating activities');
    expect(grid.scale).toBe('millions');
    expect(grid.currency).toBe('$');
  });

  it('extends a one-row header over a following year row and finds column units', () => {
    const rows = [
      ['', 'Fiscal year', ''],
      ['', '2023', '2022'],
      ['Revenue', '$5,000', '$4,000'],
      ['Margin', '12.5%', '11%'],
    ];
    const grid = readTable(tableNode({ html: '', header_rows: 1, rows }));
    expect(grid.headerRows).toBe(2);
    expect(grid.columns).toEqual(['', 'Fiscal year 2023', '2022']);
    expect(grid.currency).toBe('$');
    const units = readTable(tableNode({ html: '', header_rows: 1, rows: [['Model', 'Accuracy (%)', 'Latency (ms)'], ['A', '91.2', '35']] })).units;
    expect(units).toEqual([null, '%', 'ms']);
  });

  it('falls back to pipe-separated text and renders Markdown', () => {
    const grid = readTable(tableNode(undefined, 'Segment | Sales\nBeverages | 2,310'));
    expect(grid.source).toBe('text');
    expect(tableGridToMarkdown(grid)).toBe('| Segment | Sales |\n| --- | --- |\n| Beverages | 2,310 |');
  });
});

describe('parseNumberText', () => {
  it.each([
    ['1,482', { value: 1482, percent: false, parenthesized: false }],
    ['(1,482)', { value: -1482, parenthesized: true }],
    ['$ (40)', { value: -40, currency: '$' }],
    ['-3.5', { value: -3.5 }],
    ['12.5%', { value: 12.5, percent: true }],
    ['$1.2 billion', { value: 1.2, currency: '$', scale: 'billions' }],
    ['4,210*', { value: 4210 }],
    ['€ 6.1 m', undefined],
    ['—', undefined],
    ['n/a', undefined],
    ['Net income', undefined],
  ])('%s', (text, expected) => {
    const parsed = parseNumberText(text);
    if (expected === undefined) expect(parsed).toBeUndefined();
    else expect(parsed).toMatchObject(expected);
  });

  it('finds scales written in captions and headers', () => {
    expect(findScale('(Millions)')).toBe('millions');
    expect(findScale('in thousands of dollars')).toBe('thousands');
    expect(findScale('Revenue ($m)')).toBe('millions');
    expect(findScale('Revenue')).toBeUndefined();
  });
});
