import type { Observation } from '@doctree/schema';
import { textObservation } from '../__fixtures__/report-tree.js';
import { enumeratedItems, itemArithmetic } from '../analysis/item-arithmetic.js';
import { ExtractiveReader } from './extractive-reader.js';
import { labelQuality } from './named-item-arithmetic.js';
import { supportMatches } from './observation-text.js';

function table(nodeId: string, columns: string[], rows: string[][], page = 4): Observation {
  const text = [columns.join(' | '), ...rows.map((r) => r.join(' | '))].join('\n');
  return { node_id: nodeId, modality: 'table', page, bbox: null, payload: { kind: 'table', columns, rows, units: [], markdown: text, text } };
}

const reader = new ExtractiveReader();

const visits = table('tab_1', ['Clinic', 'Visits', 'Referrals'], [
  ['Harbor Clinic', '1,240', '85'],
  ['Hillside Clinic', '980', '120'],
  ['Riverside Clinics', '415', '33'],
]);

describe('itemArithmetic', () => {
  it('reads differences, gaps, sums and ratios over named items in the order asked', () => {
    expect(itemArithmetic('How many more visits did Harbor Clinic have than Hillside Clinic?')).toEqual({
      operation: 'difference',
      operands: [
        { text: 'visits did Harbor Clinic have', whole: false },
        { text: 'Hillside Clinic', whole: false },
      ],
    });
    expect(itemArithmetic('How many fewer referrals did Harbor Clinic make than Hillside Clinic?')?.operands.map((o) => o.text)).toEqual(['Hillside Clinic', 'referrals did Harbor Clinic make']);
    expect(itemArithmetic('What is the gap between the north gauge and the south gauge?')?.operation).toBe('gap');
    expect(itemArithmetic('How many times larger is the east basin than the west basin?')?.operation).toBe('ratio');
    expect(itemArithmetic('What multiple of the 2012 harvest was reached in 2016?')?.operands.map((o) => o.text)).toEqual(['reached in 2016', 'the 2012 harvest']);
    expect(itemArithmetic('What is the total number of referrals for Clinic A and B?')).toEqual({
      operation: 'sum',
      operands: [
        { text: 'Clinic A', whole: true },
        { text: 'Clinic B', whole: true },
      ],
    });
  });

  it('asks nothing of a plain lookup, a list without "respectively", or a total over periods only', () => {
    expect(itemArithmetic('How many visits did Harbor Clinic have?')).toBeUndefined();
    expect(itemArithmetic('What were the visits of Harbor Clinic and Hillside Clinic?')).toBeUndefined();
    expect(itemArithmetic('What were total visits in 2019 and 2020?')).toBeUndefined();
    expect(itemArithmetic('What is the difference between 2019 and 2020 visits?')?.operation).toBe('difference');
    expect(itemArithmetic('What is the difference between 2019 and 2020?')).toBeUndefined();
  });

  it('splits enumerations with a serial comma, articles and quoted items', () => {
    expect(enumeratedItems('How many boats are moored at Pier 1, Pier 2, and the Old Dock in total?')).toEqual(['Pier 1', 'Pier 2', 'Old Dock']);
    expect(enumeratedItems('What is the combined share of "part-time" and "seasonal" staff?')).toEqual(['part-time', 'seasonal']);
    expect(enumeratedItems('How many boats are moored at Pier 1?')).toBeUndefined();
  });
});

describe('labelQuality', () => {
  it('matches labels across case, plural and punctuation, and never a label the question does not name', () => {
    expect(labelQuality('Riverside Clinics', { text: 'riverside clinic', whole: true })).toBe(1);
    expect(labelQuality('Harbor Clinic', { text: 'visits did Harbor Clinic have', whole: false })).toBe(1);
    expect(labelQuality('Hillside Clinic', { text: 'visits did Harbor Clinic have', whole: false })).toBe(0);
    expect(labelQuality('A', { text: 'visits did a clinic have', whole: false })).toBe(0);
    expect(labelQuality('FY2016', { text: 'reached in 2016', whole: false })).toBe(1);
  });
});

describe('arithmetic over named items', () => {
  it('answers "how many more A than B" as A − B from the two rows, each cited on its own', async () => {
    const result = await reader.read({ question: 'How many more visits did Harbor Clinic have than Hillside Clinic?', observations: [visits] });
    expect(result.answer).toBe(260);
    expect(result.support).toHaveLength(2);
    expect(result.support[0]!.snippet).toContain('Harbor Clinic');
    expect(result.support[1]!.snippet).toContain('Hillside Clinic');
    for (const s of result.support) expect(supportMatches(s, visits)).toBe(true);
    expect((result.notes ?? []).join(' ')).toMatch(/A = "Harbor Clinic" 1,240 .*B = "Hillside Clinic" 980 .*A − B = 260/);
  });

  it('reads the column the question measures, and a fewer-than question as the smaller from the larger', async () => {
    const result = await reader.read({ question: 'How many fewer referrals did Harbor Clinic make than Hillside Clinic?', observations: [visits] });
    expect(result.answer).toBe(35);
  });

  it('sums three items of one table in any order, a plural label matching a singular item', async () => {
    const result = await reader.read({ question: 'How many referrals did Riverside Clinic, Harbor Clinic and Hillside Clinic make in total?', observations: [visits] });
    expect(result.answer).toBe(238);
    expect(result.support).toHaveLength(3);
  });

  it('computes nothing when an item is not in the evidence, and says which', async () => {
    const result = await reader.read({ question: 'How many more visits did Harbor Clinic have than Lakeside Clinic?', observations: [visits] });
    expect(result.answer).not.toBe(260);
    expect(result.answer).not.toBe(1240);
    expect((result.notes ?? []).join(' ')).toMatch(/only 1 of the 2 items asked/);
  });

  it('takes the items as column headers when they are years, the value row named by the question', async () => {
    const sales = table('tab_2', ['Segment', '2012', '2016'], [
      ['Online orders', '3.2', '12.8'],
      ['Store orders', '40.1', '38.0'],
    ]);
    const result = await reader.read({ question: 'What multiple of the 2012 online orders was reached in 2016?', observations: [sales] });
    expect(result.answer).toBe(4);
    expect((result.notes ?? []).join(' ')).toContain('A / B');
  });

  it('reads labels written right before their numbers in slide text, each item from its own place', async () => {
    const slide = textObservation('ocr_3', 'POSTS IN THE FIRST DAY\nNorthline 31 Eastway 17 Coastal Air 6\nSource: press office', 9);
    const more = await reader.read({ question: 'How many more posts did Northline publish than Coastal Air?', observations: [slide] });
    expect(more.answer).toBe(25);
    expect(more.support.map((s) => s.page)).toEqual([9, 9]);
    for (const s of more.support) expect(supportMatches(s, slide)).toBe(true);
    const total = await reader.read({ question: 'How many posts did Northline, Eastway and Coastal Air publish in total?', observations: [slide] });
    expect(total.answer).toBe(54);
  });

  it('answers the gap between two percentages as a positive number', async () => {
    const shares = table('tab_5', ['Group', 'Share (%)'], [
      ['Cyclists', '18%'],
      ['Walkers', '42%'],
    ]);
    const result = await reader.read({ question: 'What is the percentage gap between cyclists and walkers?', observations: [shares] });
    expect(result.answer).toBe(24);
  });
});

describe('labels in running text', () => {
  it('reads a value in parentheses after its label, and never a day after a month or a number inside a range', async () => {
    const note = textObservation('t_4', 'Messages sent: Harbor (12), Hillside (30); survey fielded July 18-September 30, ages 18-29.', 2);
    const gap = await reader.read({ question: 'How many more messages did Hillside send than Harbor?', observations: [note] });
    expect(gap.answer).toBe(18);
    const dates = await reader.read({ question: 'What is the gap between July and September?', observations: [note] });
    expect(dates.answer).not.toBe(12);
  });
});

describe('items the evidence lacks', () => {
  it('answers no single value when an item is named nowhere in the evidence', async () => {
    const slide = textObservation('ocr_5', 'Northline focused its activity on posts: 31 in the first day, most in English.', 3);
    const result = await reader.read({ question: 'How many more posts did Northline publish than Westwind?', observations: [slide] });
    expect(result.answer).toBe('Not answerable');
    expect((result.notes ?? []).join(' ')).toContain('"Westwind" is named nowhere in the evidence');
    const lookup = await reader.read({ question: 'How many posts did Northline publish in the first day?', observations: [slide] });
    expect(lookup.answer).toBe(31);
  });
});

describe('one value per named item, in the order asked', () => {
  it('reads a "respectively" question as a list of the items\' values, whatever the question kind', async () => {
    expect(itemArithmetic('What were the visits of Hillside Clinic and Harbor Clinic respectively?')?.operation).toBe('list');
    const result = await reader.read({ question: 'What were the visits of Hillside Clinic and Harbor Clinic respectively?', observations: [visits] });
    expect(result).toMatchObject({ answer: ['980', '1240'], answer_format: 'List' });
    expect(result.support.map((s) => s.snippet)).toEqual([expect.stringContaining('Hillside Clinic'), expect.stringContaining('Harbor Clinic')]);
  });

  it('takes column headers as the items when the question enumerates measures of one row', async () => {
    const result = await reader.read({ question: 'How many visits and referrals did Hillside Clinic have, respectively?', observations: [visits] });
    expect(result.answer).toEqual(['980', '120']);
  });
});

describe('enumerations that share a word', () => {
  it('gives single-word items the head noun of the last item', () => {
    expect(enumeratedItems('What were the outputs of the north and south plants respectively?')).toEqual(['north plants', 'south plants']);
    expect(enumeratedItems('What is the combined output of Plant A and B?')).toEqual(['Plant A', 'Plant B']);
  });
});

describe('tables both ways', () => {
  it('finds the items as column headers when the rows name measures, and skips heading rows without values', async () => {
    const transposed = table('tab_7', ['Measure', 'Harbor Clinic', 'Hillside Clinic'], [
      ['Visits', '1,240', '980'],
      ['Referrals', '85', '120'],
    ]);
    const result = await reader.read({ question: 'How many more visits did Harbor Clinic have than Hillside Clinic?', observations: [transposed] });
    expect(result.answer).toBe(260);
    expect((result.notes ?? []).join(' ')).toContain('column "Harbor Clinic", row "Visits"');
    const sections = table('tab_8', ['Item', '2023'], [
      ['Fleet', ''],
      ['Vans', '40'],
      ['Trucks', '25'],
      ['Fleet', '65'],
      ['Drivers', '58'],
    ]);
    const gap = await reader.read({ question: 'How many more vehicles are in the fleet than drivers?', observations: [sections] });
    expect(gap.answer).toBe(7);
    expect((gap.notes ?? []).join(' ')).toContain('A = "Fleet" 65');
  });
});

describe('items in different tables', () => {
  it('reads each item from its own table when both stand under the same column, and cites both pages', async () => {
    const first = table('tab_9', ['Clinic', 'Visits'], [['Harbor Clinic', '1,240'], ['Bayview Clinic', '610']], 4);
    const next = table('tab_10', ['Clinic', 'Visits'], [['Hillside Clinic', '980'], ['Lakeside Clinic', '505']], 5);
    const result = await reader.read({ question: 'How many more visits did Harbor Clinic have than Lakeside Clinic?', observations: [first, next] });
    expect(result.answer).toBe(735);
    expect(result.support.map((s) => s.page)).toEqual([4, 5]);
    expect((result.notes ?? []).join(' ')).toContain('each in its own table');
    const other = table('tab_11', ['Clinic', 'Staff'], [['Lakeside Clinic', '12']], 6);
    const mixed = await reader.read({ question: 'How many more visits did Harbor Clinic have than Lakeside Clinic?', observations: [first, other] });
    expect(mixed.answer).not.toBe(1228);
  });
});

describe('hostile questions', () => {
  it('reads a very long question without "than", "and" or a question mark in linear time', () => {
    const long = `how many more ${'word '.repeat(200_000)}`;
    const started = Date.now();
    expect(itemArithmetic(long)).toBeUndefined();
    expect(itemArithmetic(`what is the total of ${'x, '.repeat(100_000)}y`)).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(2000);
  });
});
