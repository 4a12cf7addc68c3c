import type { Observation } from '@doctree/schema';
import { ExtractiveReader } from './extractive-reader.js';
import { supportMatches } from './observation-text.js';
import { packedSubHeaders, splitPackedValues, unpackCell } from './packed-cells.js';

function table(nodeId: string, columns: string[], rows: string[][]): Observation {
  const text = [columns.join(' | '), ...rows.map((r) => r.join(' | '))].join('\n');
  return { node_id: nodeId, modality: 'table', page: 7, bbox: null, payload: { kind: 'table', columns, rows, units: [], markdown: text, text } };
}

describe('splitPackedValues', () => {
  it('splits numbers written side by side, dropping each spread and keeping dashes as missing values', () => {
    expect(splitPackedValues('41.2(0.8) 44.0(1.1) 47.5(0.3)')).toEqual(['41.2', '44.0', '47.5']);
    expect(splitPackedValues('12.5 ± 0.4 13.1 ± 0.2')).toEqual(['12.5', '13.1']);
    expect(splitPackedValues('- - 58.0(−)')).toEqual([null, null, '58.0']);
    expect(splitPackedValues('71% 68%')).toEqual(['71%', '68%']);
  });

  it('is not fooled by one value, words, or a number with a negative in parentheses alone', () => {
    expect(splitPackedValues('47.5')).toBeNull();
    expect(splitPackedValues('(1,482)')).toBeNull();
    expect(splitPackedValues('about 40 plots')).toBeNull();
    expect(splitPackedValues('')).toBeNull();
  });
});

describe('packed columns', () => {
  const rows = [
    ['', 'dry-season wet-season', 'dry-season wet-season'],
    ['Hybrid maize', '6.1(0.2) 7.4(0.3)', '5.2(0.4) 6.8(0.1)'],
    ['Local maize', '4.0(0.3) 5.9(0.2)', '3.1(0.2) 4.7(0.5)'],
  ];

  it('reads the setting names of a sub-header row without a row label', () => {
    expect([...packedSubHeaders(rows).entries()]).toEqual([
      [1, ['dry-season', 'wet-season']],
      [2, ['dry-season', 'wet-season']],
    ]);
  });

  it('gives each value its column and setting, and guesses nothing for a cell with another number of values', () => {
    expect(unpackCell('6.1(0.2) 7.4(0.3)', 'North farm', ['dry-season', 'wet-season'])).toEqual([
      { value: '6.1', header: 'North farm dry-season' },
      { value: '7.4', header: 'North farm wet-season' },
    ]);
    expect(unpackCell('6.1(0.2) 7.4(0.3) 8.0(0.1)', 'North farm', ['dry-season', 'wet-season'])).toBeNull();
    expect(unpackCell('6.1(0.2) 7.4(0.3)', 'North farm', undefined)).toBeNull();
  });

  it('answers the value at the row and the column + setting a question names, citing its row', async () => {
    const yields = table('tab_2', ['Variety', 'North farm', 'South farm'], rows);
    const reader = new ExtractiveReader();
    const result = await reader.read({ question: 'What was the yield of local maize at the South farm in the wet-season trial?', observations: [yields] });
    expect(result.answer).toBe(4.7);
    expect(result.support[0]!.snippet).toContain('Local maize');
    expect(supportMatches(result.support[0]!, yields)).toBe(true);
    const other = await reader.read({ question: 'What was the yield of hybrid maize at the North farm in the dry-season trial?', observations: [yields] });
    expect(other.answer).toBe(6.1);
  });
});
