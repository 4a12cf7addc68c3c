import type { Hit } from '@doctree/schema';
import { hitsOf, readPath, resolveStepArgs } from './plan-variables.js';
import { computeArgsFromOperation } from './step-adapters.js';

const hit = (node_id: string, page_idx = 0): Hit => ({ eid: `d:${node_id}`, doc_id: 'd', node_id, page_idx, modality: 'text', snippet: '', bbox: null, score_raw: 1, method: 'bm25_node.search', extra: {} });

describe('plan variables', () => {
  const variables = new Map<string, unknown>([
    ['question', 'What was capex?'],
    ['TABLES', { hits: [hit('tab_1', 3), hit('tab_2', 4)], data: { warning: 'x' } }],
    ['S1', { hits: [hit('t_1')] }],
    ['D1', { hits: [hit('t_2'), hit('t_3')] }],
  ]);

  it('reads paths with array indexes', () => {
    expect(readPath({ a: [{ b: 1 }, { b: 2 }] }, ['a', '1', 'b'])).toBe(2);
    expect(readPath({ a: [1, 2, 3] }, ['a', '-1'])).toBe(3);
    expect(readPath({ a: 1 }, ['a', 'b'])).toBeUndefined();
  });

  it('replaces references anywhere and lists the ones without a value', () => {
    const { args, missing } = resolveStepArgs({ node_id: '$TABLES.hits.1.node_id', q: '$question', nested: { more: ['$question', 'x'] }, gone: '$CELLS', deep: '$TABLES.hits.9.node_id', plain: '$ not a ref' }, variables);
    expect(args).toEqual({ node_id: 'tab_2', q: 'What was capex?', nested: { more: ['What was capex?', 'x'] }, plain: '$ not a ref' });
    expect(missing).toEqual(['$CELLS', '$TABLES.hits.9.node_id']);
  });

  it('concatenates the hits of an array of references', () => {
    const { args } = resolveStepArgs({ hits: ['$S1', '$D1'] }, variables);
    expect((args['hits'] as Hit[]).map((h) => h.node_id)).toEqual(['t_1', 't_2', 't_3']);
    expect(hitsOf({ hits: [hit('a')] })?.map((h) => h.node_id)).toEqual(['a']);
    expect(hitsOf({ items: [] })).toBeUndefined();
  });
});

describe('compute.eval arguments from an operation', () => {
  const cells = {
    cells: [
      { row: 'Capex', column: '2023', value: 1482, unit: '$', percent: false, scale: 'millions' },
      { row: 'Capex', column: '2021', value: 1201, unit: '$', percent: false, scale: 'millions' },
      { row: 'Capex', column: '2022', value: null, unit: null, percent: false, scale: 'millions' },
    ],
  };

  it('orders cells by year so a difference is newest minus oldest', () => {
    const adapted = computeArgsFromOperation({ operation: 'difference', operands: cells, round: 1 });
    expect(adapted).toMatchObject({ args: { expression: 'v1 - v0', precision: 1, variables: { v0: { value: 1201 }, v1: { value: 1482 } } } });
    expect(computeArgsFromOperation({ operation: 'percent_change', operands: cells })).toMatchObject({ args: { expression: 'percent_change(v0, v1)' } });
    // Operations come from plan text: an object's built-in names are unknown operations, never functions.
    for (const operation of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      expect(computeArgsFromOperation({ operation, operands: cells })).toEqual({ skip: `unknown operation ${JSON.stringify(operation)}` });
    }
  });

  it('compares two line items in the order asked, by their amounts when both are outflows, and keeps their cells', () => {
    const extraction = {
      node_id: 'tab_1',
      cells: [
        { row: 'Dividends paid', column: '2023', raw: '(310)', value: -310, unit: '$', percent: false, scale: 'millions', for_row: 'dividends paid' },
        { row: 'Purchases of property, plant and equipment', column: '2023', raw: '(1,482)', value: -1482, unit: '$', percent: false, scale: 'millions', for_row: 'capex' },
      ],
    };
    const ratio = computeArgsFromOperation({ operation: 'ratio', operands: extraction });
    expect(ratio).toMatchObject({ args: { expression: 'ratio(v0, v1)', variables: { v0: { value: 310 }, v1: { value: 1482 } } } });
    expect('operandCells' in ratio && ratio.operandCells).toEqual([
      { node_id: 'tab_1', row: 'Dividends paid', column: '2023', raw: '(310)', value: 310 },
      { node_id: 'tab_1', row: 'Purchases of property, plant and equipment', column: '2023', raw: '(1,482)', value: 1482 },
    ]);
    // Two items: the first asked minus the second (not newest minus oldest).
    expect(computeArgsFromOperation({ operation: 'difference', operands: extraction })).toMatchObject({ args: { expression: 'v0 - v1' } });
    // One item over years is never divided by itself.
    expect(computeArgsFromOperation({ operation: 'ratio', operands: cells })).toEqual({ skip: 'ratio needs two line items, found one over 2 period(s)' });
  });

  it('counts regions and says why it cannot compute', () => {
    expect(computeArgsFromOperation({ operation: 'count', operands: { regions: [{ node_id: 'img_1' }, { node_id: 'img_2' }], hits: [] } })).toEqual({
      args: { expression: 'N', variables: { N: 2 } },
      operandNodes: ['img_1', 'img_2'],
    });
    expect(computeArgsFromOperation({ operation: 'sum', operands: { cells: [] } })).toEqual({ skip: 'no numbers to sum' });
    expect(computeArgsFromOperation({ operation: 'ratio', operands: [3] })).toEqual({ skip: 'ratio needs two numbers, found 1' });
    expect(computeArgsFromOperation({ operation: 'count', operands: 'x' })).toEqual({ skip: 'nothing to count' });
  });
});
