import type { Observation } from '@doctree/schema';
import { builtinDomainPack, domainPackFrom } from '@doctree/toolhub';
import { textObservation } from '../__fixtures__/report-tree.js';
import { analyzeQuestion, attachAnalysis } from '../analysis/question-analysis.js';
import { EvidenceSet } from './evidence-model.js';
import { ExtractiveReader } from './extractive-reader.js';
import { supportMatches } from './observation-text.js';
import { profileQuestion } from './question-profile.js';
import { cellQuantity, tableExtremeCandidates } from './table-extremes.js';

function table(nodeId: string, columns: string[], rows: string[][], caption?: string): Observation {
  const text = [columns.join(' | '), ...rows.map((r) => r.join(' | '))].join('\n');
  return { node_id: nodeId, modality: 'table', page: 4, bbox: null, payload: { kind: 'table', columns, rows, units: [], markdown: text, text, ...(caption ? { caption } : {}) } };
}

const reader = new ExtractiveReader();

/** A results table of a paper: datasets over two metrics each, one value (with its spread) per cell. */
const results = table(
  'tab_results',
  ['Method', 'Riverbank', '', 'Hillside', ''],
  [
    ['', 'Accuracy', 'Error rate', 'Accuracy', 'Error rate'],
    ['Baseline', '71.2(0.4)', '9.8', '64.0(0.9)', '12.5'],
    ['Sparse tree', '74.9(0.2)', '7.1', '61.3(1.1)', '14.0'],
    ['Dense mesh', '73.5(0.6)', '8.4', '66.8(0.3)', '11.2'],
    ['Average', '73.2', '8.4', '64.0', '12.6'],
  ],
  'Table 2: Results of the three methods on the two survey sites.',
);

describe('cellQuantity', () => {
  it('reads durations in days, amounts with their scale, values with a spread and short cells of one number', () => {
    expect(cellQuantity('18 months')!.value).toBeCloseTo(18 * 30.44, 6);
    expect(cellQuantity('2 years')!.value).toBeGreaterThan(cellQuantity('18 months')!.value);
    expect(cellQuantity('1 year 6 months')!.value).toBeCloseTo(365.25 + 6 * 30.44, 6);
    expect(cellQuantity('1-3 years', 'max')!.value).toBeCloseTo(3 * 365.25, 6);
    expect(cellQuantity('1-3 years', 'min')!.value).toBeCloseTo(365.25, 6);
    expect(cellQuantity('$1.2 million')!.value).toBe(1_200_000);
    expect(cellQuantity('84.5(1.1)')!.value).toBe(84.5);
    expect(cellQuantity('Down 3%')!.value).toBe(3);
  });

  it('is no quantity for years, words or several numbers', () => {
    expect(cellQuantity('2019')).toBeNull();
    expect(cellQuantity('Sparse tree')).toBeNull();
    expect(cellQuantity('1920 x 1080')).toBeNull();
    expect(cellQuantity('')).toBeNull();
  });
});

describe('tableExtremeCandidates', () => {
  it('ranks the rows by the column a two-level header names, and leaves the average row out', async () => {
    const result = await reader.read({ question: 'Which method has the highest accuracy on Hillside?', observations: [results] });
    expect(result).toMatchObject({ answer: 'Dense mesh', answer_format: 'Str' });
    expect(result.support[0]!.snippet).toContain('Dense mesh');
    expect(supportMatches(result.support[0]!, results)).toBe(true);
    expect(result.notes?.join('\n')).toMatch(/runner-up "Baseline" \(64\)/);
  });

  it('takes the minimum for the best of a metric where lower is better (a pack word), the maximum otherwise', async () => {
    const error = await reader.read({ question: 'Which method performs best in error rate on Riverbank?', observations: [results] });
    expect(error.answer).toBe('Sparse tree');
    expect(error.notes?.join('\n')).toMatch(/lower is better/);
    const accuracy = await reader.read({ question: 'Which method performs best in accuracy on Riverbank?', observations: [results] });
    expect(accuracy.answer).toBe('Sparse tree');
    const worst = await reader.read({ question: 'Which method performs worst in error rate on Hillside?', observations: [results] });
    expect(worst.answer).toBe('Sparse tree');
    const worstAccuracy = await reader.read({ question: 'Which method performs worst in accuracy on Hillside?', observations: [results] });
    expect(worstAccuracy.answer).toBe('Sparse tree');
    const bestHill = await reader.read({ question: 'Which method performs best in error rate on Hillside?', observations: [results] });
    expect(bestHill.answer).toBe('Dense mesh');
  });

  it('reads the direction from the domain pack: a pack without the word ranks the largest value as best', () => {
    const question = 'Which method performs best in error rate on Riverbank?';
    const bare = domainPackFrom({ format: 'doctree.domain-pack', version: 1, name: 'bare', extends: 'none' });
    const withPack = (pack: typeof bare) => tableExtremeCandidates(new EvidenceSet([results], profileQuestion(question, attachAnalysis({} as never, analyzeQuestion(question, { pack })))));
    expect(withPack(builtinDomainPack('generic'))[0]!.answer).toBe('Sparse tree');
    expect(withPack(bare)[0]!.answer).toBe('Baseline');
  });

  it('ranks the columns by the row the question names, and answers a year asked of year columns', async () => {
    const visits = table('tab_visits', ['Visitors (thousands)', 'Museum', 'Aquarium', 'Zoo', 'Total'], [
      ['Weekday visitors', '12.0', '8.5', '15.2', '35.7'],
      ['Weekend visitors', '20.1', '22.4', '18.9', '61.4'],
    ]);
    const weekend = await reader.read({ question: 'Which attraction had the most weekend visitors?', observations: [visits] });
    expect(weekend).toMatchObject({ answer: 'Aquarium', answer_format: 'Str' });
    const byYear = table('tab_harvest', ['Harvest (tonnes)', '2019', '2020', '2021'], [
      ['Apples', '410', '385', '452'],
      ['Pears', '120', '131', '118'],
    ]);
    const year = await reader.read({ question: 'In which year was the pear harvest the largest?', observations: [byYear] });
    expect(year).toMatchObject({ answer: 2020, answer_format: 'Int' });
  });

  it('keeps the year column the question names', async () => {
    const byYear = table('tab_harvest', ['Harvest (tonnes)', '2019', '2020', '2021'], [
      ['Apples', '410', '385', '452'],
      ['Pears', '420', '131', '118'],
      ['Plums', '90', '401', '60'],
    ]);
    expect((await reader.read({ question: 'Which fruit had the largest harvest in 2020?', observations: [byYear] })).answer).toBe('Plums');
    expect((await reader.read({ question: 'Which fruit had the smallest harvest in 2019?', observations: [byYear] })).answer).toBe('Plums');
  });

  it('ranks the change between the two years asked, a fall as the most negative change', async () => {
    const byYear = table('tab_harvest', ['Harvest (tonnes)', '2019', '2020', '2021'], [
      ['Apples', '410', '385', '452'],
      ['Pears', '420', '131', '118'],
      ['Plums', '90', '401', '100'],
    ]);
    const rise = await reader.read({ question: 'Which fruit had the biggest increase in harvest from 2019 to 2021?', observations: [byYear] });
    expect(rise.answer).toBe('Apples');
    expect(rise.support).toHaveLength(2);
    const fall = await reader.read({ question: 'Which fruit had the biggest drop in harvest from 2019 to 2021?', observations: [byYear] });
    expect(fall.answer).toBe('Pears');
  });

  it('compares durations in one unit', async () => {
    const courses = table('tab_courses', ['Programme', 'Duration', 'Mode'], [
      ['Certificate in Pottery', '18 months', 'Part-time'],
      ['Diploma in Glasswork', '2 years', 'Full-time'],
      ['Short course in Enamel', '6 weeks', 'Evening'],
    ]);
    expect((await reader.read({ question: 'Which programme has the longest duration?', observations: [courses] })).answer).toBe('Diploma in Glasswork');
    expect((await reader.read({ question: 'Which programme has the shortest duration?', observations: [courses] })).answer).toBe('Short course in Enamel');
  });

  it('ranks the rows under a subtotal the question names, and sums the columns for a total no column names', async () => {
    const faults = table('tab_faults', ['Fault type', 'Line A', 'Line B', 'Line C'], [
      ['Wiring fault', '0', '0', '0'],
      ['Casting fault', '30', '36', '70'],
      ['Porosity', '10', '20', '15'],
      ['Shrinkage', '18', '12', '50'],
      ['Cold shut', '2', '4', '5'],
      ['Assembly fault', '70', '64', '30'],
    ]);
    const result = await reader.read({ question: 'Which kind of casting fault has the lowest total share across the lines?', observations: [faults] });
    expect(result.answer).toBe('Cold shut');
    expect(result.notes?.join('\n')).toMatch(/rows under "Casting fault"/);
  });

  it('ranks only the items the question names, answering with what tells them apart', async () => {
    const runs = table('tab_runs', ['Configuration', 'Score'], [
      ['Falcon (0.2)', '81.0'],
      ['Falcon (0.6)', '83.4'],
      ['Falcon (0.9)', '79.9'],
      ['Osprey (0.6)', '88.1'],
    ]);
    const result = await reader.read({ question: 'Which temperature gives Falcon the highest score?', observations: [runs] });
    expect(result.answer).toBe('0.6');
    const value = await reader.read({ question: 'What is the highest score of Falcon?', observations: [runs] });
    expect(value.answer).toBe(83.4);
  });

  it('ranks the rows of a table continued over pages as one table, citing the page of the winner', async () => {
    const columns = ['Component', 'Description', 'Funding share (%)'];
    const first = table('tab_p5', columns, [
      ['Payroll', 'Pays staff', '4'],
      ['Scheduling', 'Plans shifts', '7'],
    ]);
    const second = { ...table('tab_p6', columns, [
      ['Archiving', 'Keeps records', '12'],
      ['Reporting', 'Builds reports', '2'],
    ]), page: 5 };
    const result = await reader.read({ question: 'Which component has the largest funding share?', observations: [first, second] });
    expect(result.answer).toBe('Archiving');
    expect(result.support[0]).toMatchObject({ node_id: 'tab_p6', page: 5 });
  });

  it('does not take a row that several items share a name with for the metric (a model at several settings)', async () => {
    const scores = table('tab_scores', ['Model', 'Fluency', 'Recall'], [
      ['Heron (low)', '61.0', '40.2'],
      ['Heron (high)', '66.5', '38.0'],
      ['Kestrel', '70.1', '35.5'],
    ]);
    const result = await reader.read({ question: 'Which setting gives Heron the highest fluency?', observations: [scores] });
    expect(result.answer).toBe('high');
  });

  it('answers "the top N" with the first items in order, and shows the winning value beside a label', async () => {
    const stalls = table('tab_stalls', ['Stall', 'Weekly takings ($)'], [
      ['Bakery', '1,240'],
      ['Cheese', '980'],
      ['Flowers', '1,510'],
      ['Honey', '430'],
    ]);
    const top = await reader.read({ question: 'What are the top 2 stalls by weekly takings?', observations: [stalls] });
    expect(top).toMatchObject({ answer: ['Flowers', 'Bakery'], answer_format: 'List' });
    expect(top.support).toHaveLength(2);
    const one = await reader.read({ question: 'Which stall had the smallest weekly takings?', observations: [stalls] });
    expect(one).toMatchObject({ answer: 'Honey', display: 'Honey (430)' });
  });

  it('reads a table a section writes in its text (cells between bars), citing the winning row', async () => {
    const section = textObservation(
      'sec_9',
      [
        '4 Field trials',
        'Yields of the four lines over two seasons are shown below.',
        'Line | Dry season | Wet season',
        'Amber | 4.1 | 5.0',
        'Basalt | 3.8 | 6.2',
        'Cobalt | 4.6 | 5.4',
        'The wet season favoured every line.',
      ].join('\n'),
    );
    const result = await reader.read({ question: 'Which line gave the highest yield in the wet season?', observations: [section] });
    expect(result.answer).toBe('Basalt');
    expect(result.support[0]!.snippet).toContain('Basalt | 3.8 | 6.2');
    expect(supportMatches(result.support[0]!, section)).toBe(true);
  });

  it('ranks groups of year columns by the year asked, a group name written over one of its years', async () => {
    const segments = table('tab_seg', ['(in millions)', 'Orchards 2022', 'Orchards 2021', 'Change', '2022', 'Nurseries 2021', 'Change'], [
      ['Net sales', '$512 $', '450', '14%', '$(31) $', '20', 'NM'],
      ['Operating costs', '300', '280', '7', '64', '15', '327'],
    ]);
    const result = await reader.read({ question: 'Which segment had the lowest net sales in 2022?', observations: [segments] });
    expect(result.answer).toBe('Nurseries');
    expect(result.notes?.join('\n')).toMatch(/runner-up "Orchards" \(512\)/);
  });

  it('offers nothing without a superlative, or for a tie at the top', () => {
    const ask = (q: string, obs: Observation[]) => tableExtremeCandidates(new EvidenceSet(obs, profileQuestion(q)));
    expect(ask('What is the accuracy of Baseline on Hillside?', [results])).toEqual([]);
    const tie = table('tab_tie', ['Team', 'Goals'], [
      ['Reds', '4'],
      ['Blues', '4'],
      ['Greens', '1'],
    ]);
    expect(ask('Which team scored the most goals?', [tie])).toEqual([]);
  });
});
