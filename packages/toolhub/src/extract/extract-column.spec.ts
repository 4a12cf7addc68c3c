import { createToolContext, type ToolContext } from '../context/tool-context.js';
import { ToolExecutor } from '../executor/tool-executor.js';
import { createDefaultRegistry } from '../hub/default-cards.js';
import { annualReportTree } from '../testing/fixture-trees.js';
import { buildFixtureIndex, type FixtureIndex } from '../testing/fixture-index.js';
import type { ComputeResult } from '../compute/expression-evaluator.js';
import type { ExtractColumnData } from './extract-column.js';

describe('extract.column on a cash-flow statement', () => {
  let fixture: FixtureIndex;
  let executor: ToolExecutor<ToolContext>;
  beforeAll(async () => {
    fixture = await buildFixtureIndex(annualReportTree());
    executor = new ToolExecutor({ registry: createDefaultRegistry(), context: createToolContext({ index: fixture.index }) });
  });
  afterAll(() => fixture.cleanup());

  const extract = async (args: Record<string, unknown>): Promise<ExtractColumnData> => {
    const result = await executor.call({ tool_id: 'extract.column', args });
    expect(result.error).toBeUndefined();
    return result.data as ExtractColumnData;
  };

  it('reads the PP&E purchases of 2022 as a negative number in millions of dollars', async () => {
    const data = await extract({ node_id: 'tab_1', rows: ['capital expenditures: purchases of property, plant and equipment'], years: [2022] });
    expect(data).toMatchObject({ node_id: 'tab_1', page: 4, scale: 'millions', currency: '$', missing_rows: [], missing_columns: [] });
    expect(data.cells).toEqual([
      {
        row: 'Purchases of property, plant and equipment (PP&E)',
        column: 'Years ended December 31 2022',
        row_index: 5,
        col_index: 2,
        raw: '(1,291)',
        value: -1291,
        value_scaled: -1_291_000_000,
        unit: '$',
        percent: false,
        scale: 'millions',
        for_row: 'capital expenditures: purchases of property, plant and equipment',
      },
    ]);
  });

  it('finds a line item named by an abbreviation or by its concept in other words', async () => {
    const capex = await extract({ node_id: 'tab_1', rows: ['capex'], years: [2023] });
    expect(capex.cells.map((c) => [c.row, c.raw])).toEqual([['Purchases of property, plant and equipment (PP&E)', '(1,482)']]);
    const abbreviated = await extract({ node_id: 'tab_1', rows: ['purchases of PP&E'], years: [2021] });
    expect(abbreviated.cells.map((c) => c.raw)).toEqual(['(1,201)']);
    // The concept covers only its own words: "dividends capex" still needs a row about dividends or capex, each.
    const two = await extract({ node_id: 'tab_1', rows: ['dividends paid', 'capital expenditure'], years: [2022], best_row_only: true });
    expect(two.cells.map((c) => [c.for_row, c.raw])).toEqual([
      ['dividends paid', '(295)'],
      ['capital expenditure', '(1,291)'],
    ]);
  });

  it('reads a whole row across years, by label or by the table label, and reports what it could not find', async () => {
    const row = await extract({ node_id: 'Table 1', rows: ['net cash provided by operating activities'] });
    expect(row.cells.map((c) => [c.column.slice(-4), c.value])).toEqual([
      ['2023', 1876],
      ['2022', 1702],
      ['2021', 1533],
    ]);
    const column = await extract({ node_id: 'tab_1', columns: ['2021'] });
    expect(column.cells.map((c) => c.row)).toContain('Dividends paid');
    expect(column.cells.find((c) => c.row === 'Proceeds from sale of businesses')?.value).toBe(12);
    const dash = await extract({ node_id: 'tab_1', rows: ['proceeds from sale of businesses'], years: [2022] });
    expect(dash.cells[0]).toMatchObject({ raw: '—', value: null, value_scaled: null });
    const missing = await extract({ node_id: 'tab_1', rows: ['goodwill impairment'], years: [2019] });
    expect(missing).toMatchObject({ cells: [], missing_rows: ['goodwill impairment'], missing_columns: ['2019'] });
  });

  it('reads percents from an HTML-only table, and feeds compute.eval', async () => {
    const margin = await extract({ node_id: 'Table 2', rows: ['Dairy'], columns: ['operating margin'] });
    expect(margin.cells[0]).toMatchObject({ raw: '9.8%', value: 9.8, percent: true, unit: '%', scale: null });
    const capex = await extract({ node_id: 'tab_1', rows: ['purchases of property plant equipment'], years: [2023, 2022] });
    const [y2023, y2022] = capex.cells;
    const change = await executor.call({ tool_id: 'compute.eval', args: { expression: 'percent_change(abs(b), abs(a))', variables: { a: y2023, b: y2022 } } });
    expect((change.data as ComputeResult).text).toBe('14.794733%');
  });

  it('refuses a node that is not a table, by name', async () => {
    const result = await executor.call({ tool_id: 'extract.column', args: { node_id: 't_2', rows: ['x'] } });
    expect(result.error).toMatchObject({ code: 'TOOL_ARGS_INVALID', message: 't_2 is a paragraph, not a table' });
  });
});
