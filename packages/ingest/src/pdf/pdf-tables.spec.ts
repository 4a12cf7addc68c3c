import type { PdfSpan } from './pdf-lines.js';
import { findBorderlessTables } from './pdf-borderless-tables.js';
import { mergeRules } from './pdf-ruled-tables.js';
import { groupRows, inferColumns, isNumericCell } from './pdf-table-grid.js';
import { BorderlessTableMemo, findTables, peelTitleRows } from './pdf-tables.js';
import type { PdfTableRegion } from './pdf-tables.js';
import { line, span } from '../__fixtures__/pdf-spans.js';


/** A right-aligned amount ending at `right`. */
const amount = (text: string, right: number, y: number): PdfSpan => span(text, right - 4.5 * text.length, y);

describe('isNumericCell', () => {
  it('accepts amounts, percentages, years and nil dashes, and nothing else', () => {
    for (const text of ['1,482', '(1,291)', '$ 4,918', '$(2)', '12.5%', '-0.3', '2018', '45.2†', '\u2014', 'n/a', '(0.5)%']) expect([text, isNumericCell(text)]).toEqual([text, true]);
    for (const text of ['(Millions)', 'Total', '$', 'Note 3', '2018 and 2017', '']) expect([text, isNumericCell(text)]).toEqual([text, false]);
  });
});

describe('inferColumns', () => {
  it('splits at strips no row crosses and gives `$` signs printed in a few rows a column of their own', () => {
    const rows = groupRows([
      line([span('Net income', 72, 100), span('$', 300, 100), amount('4,918', 360, 100)]),
      line([span('Depreciation', 72, 112), amount('1,362', 360, 112)]),
      line([span('Other', 72, 124), amount('(6)', 360, 124)]),
      line([span('Pension expense', 72, 136), amount('410', 360, 136)]),
    ]);
    const columns = inferColumns(rows).map(([a, b]) => [Math.round(a), Math.round(b)]);
    expect(columns).toEqual([
      [72, 140],
      [300, 305],
      [338, 360],
    ]);
  });
});

describe('findBorderlessTables', () => {
  it('needs three rows with two aligned amount columns and a label column', () => {
    const lines = [
      line([span('Revenue', 72, 100), amount('10', 300, 100), amount('12', 360, 100)]),
      line([span('Costs', 72, 112), amount('(4)', 300, 112), amount('(5)', 360, 112)]),
    ];
    expect(findBorderlessTables(lines)).toEqual([]);
    lines.push(line([span('Profit', 72, 124), amount('6', 300, 124), amount('7', 360, 124)]));
    const [table] = findBorderlessTables(lines);
    expect(table?.rows).toEqual([
      ['Revenue', '10', '12'],
      ['Costs', '(4)', '(5)'],
      ['Profit', '6', '7'],
    ]);
  });

  it('does not read running text with numbers in it as a table', () => {
    const text = [
      'In 2018 revenue grew 5% to 1,234 million while costs fell',
      'by 3% to 900 million; in 2017 revenue had grown by 2%',
      'and the margin reached 27% on sales of 1,100 million.',
      'Cash flow from operations was 300 million in both years.',
    ];
    expect(findBorderlessTables(text.map((t, i) => line([span(t, 72, 100 + 12 * i)])))).toEqual([]);
  });
});

describe('BorderlessTableMemo', () => {
  it('finds what findBorderlessTables finds, once per list of lines', () => {
    const lines = [
      line([span('Revenue', 72, 100), amount('10', 300, 100), amount('12', 360, 100)]),
      line([span('Costs', 72, 112), amount('(4)', 300, 112), amount('(5)', 360, 112)]),
      line([span('Profit', 72, 124), amount('6', 300, 124), amount('7', 360, 124)]),
    ];
    const memo = new BorderlessTableMemo();
    const first = memo.find(lines);
    expect(first).toEqual(findBorderlessTables(lines));
    const again = memo.find([...lines]);
    expect(again).not.toBe(first);
    expect(again[0]).toBe(first[0]);
    // Other lines (one taken by another table) are read afresh.
    expect(memo.find(lines.slice(0, 2))).toEqual([]);
  });

  it('leaves findTables finding the same tables on a page read twice', () => {
    const lines = [
      line([span('Revenue', 72, 100), amount('10', 300, 100), amount('12', 360, 100)]),
      line([span('Costs', 72, 112), amount('(4)', 300, 112), amount('(5)', 360, 112)]),
      line([span('Profit', 72, 124), amount('6', 300, 124), amount('7', 360, 124)]),
    ];
    const memo = new BorderlessTableMemo();
    const plain = findTables(lines, []);
    expect(findTables(lines, [], { memo })).toEqual(plain);
    expect(findTables(lines, [], { memo })).toEqual(plain);
  });
});

describe('findTables with rules', () => {
  it('builds a grid table from crossing rules and merges rules drawn in pieces', () => {
    const rules = [
      ...[100, 120, 140].flatMap((y) => [
        { orientation: 'h' as const, from: 72, to: 200, at: y, width: 0.5 },
        { orientation: 'h' as const, from: 206, to: 330, at: y, width: 0.5 },
      ]),
      ...[72, 200, 330].map((x) => ({ orientation: 'v' as const, from: 100, to: 140, at: x, width: 0.5 })),
    ];
    expect(mergeRules(rules).filter((r) => r.orientation === 'h')).toHaveLength(3);
    const lines = [line([span('Name', 76, 114)]), line([span('Value', 204, 114)]), line([span('Alpha', 76, 134)]), line([span('42', 204, 134)])];
    const [table, ...rest] = findTables(lines, rules);
    expect(rest).toEqual([]);
    expect(table).toMatchObject({ source: 'grid', rows: [['Name', 'Value'], ['Alpha', '42']], bbox: [72, 100, 330, 140] });
  });
});

describe('findTables across partitions', () => {
  it('keeps a statement whole when a gutter test split its label column from its amounts', () => {
    const labels = ['Balance at January 1', 'Net loss', 'Share-based compensation', 'Treasury shares issued', 'Balance at December 31'];
    const lines = labels.flatMap((label, i) => {
      const y = 100 + 12 * i;
      return [line([span(label, 20, y), amount(`${5 + i},061`, 170, y)]), line([amount(`${i + 1},200`, 330, y), amount(`(${i + 2}00)`, 400, y), amount(`${i + 3},500`, 470, y)])];
    });
    const left = lines.filter((l) => l.bbox[0] < 250);
    const right = lines.filter((l) => l.bbox[0] >= 250);
    const tables = findTables(lines, [], { partitions: [left, right] });
    expect(tables).toHaveLength(1);
    expect(tables[0]!.rows.map((r) => r[0])).toEqual(labels);
    expect(tables[0]!.rows[0]!.filter((c) => c !== '')).toHaveLength(5);
  });
});

describe('peelTitleRows', () => {
  const statement = (): PdfTableRegion => {
    const title = line([span('The Northwind Company and Subsidiaries', 200, 100)]);
    const name = line([span('Consolidated Statements of Equity', 205, 111)]);
    const years = line([span('Years ended December 31', 215, 122)]);
    const header = line([span('(Dollars in millions)', 72, 140), span('Total', 330, 140)]);
    const rows = [1, 2, 3].map((i) => line([span(`Balance item ${i}`, 72, 140 + 12 * i), amount(`${i},000`, 360, 140 + 12 * i)]));
    return {
      kind: 'table',
      bbox: [60, 90, 380, 190],
      rows: [
        ['', 'The Northwind Company and Subsidiaries', 'The Northwind Company and Subsidiaries'],
        ['', 'Consolidated Statements of Equity', 'Consolidated Statements of Equity'],
        ['Years ended December 31', '', ''],
        ['(Dollars in millions)', '', 'Total'],
        ['Balance item 1', '', '1,000'],
        ['Balance item 2', '', '2,000'],
        ['Balance item 3', '', '3,000'],
      ],
      headerRows: 4,
      source: 'drawn',
      lines: [title, name, years, header, ...rows],
    };
  };

  it('gives a statement title caught inside a table back to the text, above the table', () => {
    const table = statement();
    const peeled = peelTitleRows(table);
    expect(peeled.rows[0]).toEqual(['(Dollars in millions)', '', 'Total']);
    expect(peeled.headerRows).toBe(1);
    expect(peeled.lines.map((l) => l.text)).not.toContain('Consolidated Statements of Equity');
    expect(peeled.lines).toHaveLength(4);
    expect(peeled.bbox[1]).toBeGreaterThan(table.lines[2]!.bbox[3]);
  });

  it('keeps units lines, row labels and tables whose first row has several cells', () => {
    const units = { ...statement(), rows: statement().rows.slice(3), headerRows: 1 };
    expect(peelTitleRows(units)).toBe(units);
    const label: PdfTableRegion = { ...statement(), rows: [['Current assets:', '', ''], ...statement().rows.slice(4)], headerRows: 0 };
    expect(peelTitleRows(label)).toBe(label);
  });
});
