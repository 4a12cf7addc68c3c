import { ObservationSchema } from '@doctree/schema';
import { parseHtmlTable } from '@doctree/toolhub';
import { reportIndex } from '../__fixtures__/report-tree.js';
import { parseNumberCell } from '../reader/numbers.js';
import { structureTable } from './table-structure.js';
import { TableObserver } from './table-observer.js';

describe('TableObserver', () => {
  const index = reportIndex();
  const observer = new TableObserver();

  it('parses a cash-flow statement stored as HTML into year columns, labelled rows and its (Millions) scale', async () => {
    const observation = await observer.observe(index.view.node('tab_1')!, index);
    expect(ObservationSchema.parse(observation)).toEqual(observation);
    expect(observation).toMatchObject({ node_id: 'tab_1', modality: 'table', page: 3 });
    const p = observation.payload;
    if (p.kind !== 'table') throw new Error('expected a table payload');
    expect(p.columns).toEqual(['(Millions)', 'Years ended December 31 2018', 'Years ended December 31 2017', 'Years ended December 31 2016']);
    expect(p.scale).toBe('millions');
    expect(p.rows).toContainEqual(['Purchases of property, plant and equipment (PP&E)', '(1,482)', '(1,291)', '(1,347)']);
    expect(p.rows[0]).toEqual(['Cash Flows from Operating Activities', '', '', '']);
    expect(p.units).toEqual([null, '$', '$', '$']);
    expect(p.markdown).toContain('| Purchases of property, plant and equipment (PP&E) | (1,482) | (1,291) | (1,347) |');
    expect(p.markdown.split('\n')[0]).toBe('| (Millions) | Years ended December 31 2018 | Years ended December 31 2017 | Years ended December 31 2016 |');
    // The canonical text and its span point into the document.
    expect(p.char_span).toBeDefined();
    expect(index.tree.text.slice(p.char_span![0], p.char_span![1])).toBe(p.text);
  });

  it('folds `$` columns of PDF-extracted rows into the column units and takes the scale from the caption', async () => {
    const observation = await observer.observe(index.view.node('tab_2')!, index);
    const p = observation.payload;
    if (p.kind !== 'table') throw new Error('expected a table payload');
    expect(p.caption).toBe('Table 1: Net sales by business segment (in millions)');
    expect(p.columns).toEqual(['Segment', '2018', '2017']);
    expect(p.units).toEqual([null, '$', '$']);
    expect(p.scale).toBe('millions');
    expect(p.rows[0]).toEqual(['Safety and Tooling', '12,345', '11,512']);
  });
});

describe('structureTable', () => {
  it('labels columns from multi-row headers (rowspan/colspan expanded) and detects unmarked header rows', () => {
    const grid = parseHtmlTable(
      '<table><thead><tr><th rowspan="2">Region</th><th colspan="2">Revenue</th></tr><tr><th>2023</th><th>2022</th></tr></thead>' +
        '<tbody><tr><td rowspan="2">Europe</td><td>1&nbsp;200</td><td>1,100</td></tr><tr><td>(40)</td><td>12%</td></tr></tbody></table>',
    );
    expect(grid.headerRows).toBe(2);
    expect(grid.rows).toEqual([
      ['Region', 'Revenue', 'Revenue'],
      ['Region', '2023', '2022'],
      ['Europe', '1 200', '1,100'],
      ['Europe', '(40)', '12%'],
    ]);
    const table = structureTable(grid.rows, { headerRows: grid.headerRows });
    expect(table.columns).toEqual(['Region', 'Revenue 2023', 'Revenue 2022']);
    expect(table.rows).toHaveLength(2);

    const unmarked = structureTable([
      ['', 'Fiscal 2019', 'Fiscal 2018'],
      ['Gross margin', '38.2%', '37.9%'],
      ['Operating margin', '24.6%', '26.7%'],
    ]);
    expect(unmarked.headerRows).toBe(1);
    expect(unmarked.units).toEqual([null, '%', '%']);
  });

  it('reads accounting negatives, currencies, percents and scales in cells', () => {
    expect(parseNumberCell('(1,482)')).toMatchObject({ value: -1482 });
    expect(parseNumberCell('$ 4,918')).toMatchObject({ value: 4918, currency: '$' });
    expect(parseNumberCell('4.2%')).toMatchObject({ value: 4.2, percent: true });
    expect(parseNumberCell('€1.5 billion')).toMatchObject({ value: 1.5, currency: '€', scale: 'billion' });
    expect(parseNumberCell('—')).toBeNull();
    expect(parseNumberCell('Net sales')).toBeNull();
  });
});
