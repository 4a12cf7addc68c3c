import type { DocTreeNode } from '@doctree/schema';
import { readTable } from '../table/table-reader.js';
import { extractCells } from './extract-column.js';

/** A balance sheet as parsed rows: headings without numbers, "Other …" rows next to totals. */
function balanceSheet(): DocTreeNode {
  const rows = [
    ['(In Millions)', 'May 31, 2023', 'May 31, 2022'],
    ['Current assets:', '', ''],
    ['Cash', '1,677.8', '450.0'],
    ['Other current assets', '402.1', '497.5'],
    ['Total current assets', '5,121.3', '4,186.5'],
    ['Current liabilities:', '', ''],
    ['Other current liabilities', '1,633.3', '1,367.8'],
    ['Total current liabilities', '7,491.5', '7,087.1'],
    ['Total liabilities', '21,912.6', '22,191.8'],
  ];
  return {
    node_id: 'tab_9',
    role: 'table',
    parent_id: null,
    children: [],
    level: 1,
    text: rows.map((r) => r.join(' | ')).join('\n'),
    page_span: [0, 0],
    bboxes: [],
    table: { html: '', header_rows: 1, rows },
  } as unknown as DocTreeNode;
}

describe('extract.column reads the exact line item an operand names', () => {
  const grid = readTable(balanceSheet());
  const read = (label: string): string[] => extractCells(grid, { rows: [label], columns: [2023], bestRowOnly: true }).cells.map((c) => `${c.row} ${c.raw}`);

  it('never takes a heading row without numbers, and prefers the row adding no words of its own', () => {
    expect(read('total current assets')).toEqual(['Total current assets 5,121.3']);
    expect(read('total current liabilities')).toEqual(['Total current liabilities 7,491.5']);
  });

  it('reads total liabilities from its own row, not from total current liabilities', () => {
    expect(read('total liabilities')).toEqual(['Total liabilities 21,912.6']);
  });
});
