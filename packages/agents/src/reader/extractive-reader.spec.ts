import type { Observation, ReadResult, RouterDecision } from '@doctree/schema';
import { reportIndex, textObservation } from '../__fixtures__/report-tree.js';
import { Observer } from '../observer/observe.js';
import { ExtractiveReader } from './extractive-reader.js';
import { observationText, supportMatches } from './observation-text.js';

const index = reportIndex();
const observer = new Observer();
const reader = new ExtractiveReader();
const see = (ids: string[]): Promise<Observation[]> => observer.observe(ids, index);

/** Every support quotes its observation exactly, and anchored ones are exact slices of the document text. */
function expectExactSupport(result: ReadResult, observations: readonly Observation[]): void {
  expect(result.support.length).toBeGreaterThan(0);
  for (const s of result.support) {
    const observation = observations.find((o) => o.node_id === s.node_id)!;
    expect(observation).toBeDefined();
    expect(supportMatches(s, observation)).toBe(true);
    expect(observationText(observation).text).toContain(s.snippet);
    expect(s.page).toBe(observation.page);
    if (observationText(observation).anchor) expect(index.tree.text.slice(s.char_start, s.char_end)).toBe(s.snippet);
  }
}

function decision(partial: Partial<RouterDecision['signals']>): RouterDecision {
  return {
    query_type: 'table_number',
    candidates: [{ type: 'table_number', score: 0.9 }],
    signals: { page_hints: [], objects: [], units: [], years: [], operations: [], expected_format: null, keywords: [], entities: [], ...partial },
    risk: { level: 'low', reasons: [] },
    constraints: [],
    sub_questions: [],
    confidence: 0.9,
    source: 'rules',
  };
}

describe('ExtractiveReader', () => {
  it('answers a FinanceBench-style capex question from the cash-flow table, citing the row', async () => {
    const observations = await see(['sec_2', 'tab_1', 't_3', 't_1']);
    const result = await reader.read({
      question:
        'What is the FY2018 capital expenditure amount (in USD millions) for Northwind? Give a response to the question by relying on the details shown in the cash flow statement.',
      observations,
    });
    expect(result.answer).toBe(1577);
    expect(result.answer_format).toBe('Int');
    expect(result.confidence).toBeGreaterThan(0.6);
    expect(result.support[0]).toMatchObject({ node_id: 'tab_1', page: 3, snippet: 'Purchases of property, plant and equipment (PP&E) | (1,577)' });
    expectExactSupport(result, observations);
    expect(result.notes?.join('\n')).toMatch(/outflow/);
  });

  it('picks the year column the question asks for, and converts to the scale asked', async () => {
    const observations = await see(['tab_1']);
    const previous = await reader.read({ question: 'How much was depreciation and amortization in 2016?', observations });
    expect(previous.answer).toBe(1474);
    const billions = await reader.read({ question: 'What was net cash provided by operating activities in FY2017, in USD billions?', observations });
    expect(billions.answer).toBeCloseTo(6.24, 6);
    expect(billions.answer_format).toBe('Float');
    expectExactSupport(billions, observations);
  });

  it('answers from paragraphs: amounts with units and percentages, with exact document offsets', async () => {
    const observations = await see(['t_1', 't_2', 'list_1']);
    const sales = await reader.read({ question: 'What were net sales in 2017, in millions of dollars?', observations });
    expect(sales.answer).toBe(31657);
    expectExactSupport(sales, observations);
    expect(sales.support[0]!.snippet).toContain('$31,657 million');

    const growth = await reader.read({ question: 'By what percentage did net sales increase in 2018?', observations, decision: decision({ expected_format: 'Float' }) });
    expect(growth).toMatchObject({ answer: 4.2, answer_format: 'Float' });
  });

  it('counts observed figures, and only the charts when charts are asked', async () => {
    const observations = await see(['t_1', 'img_1', 'img_2', 'tab_2']);
    const figures = await reader.read({ question: 'How many figures are shown in the discussion and analysis section?', observations });
    expect(figures).toMatchObject({ answer: 2, answer_format: 'Int' });
    expect(figures.support.map((s) => s.node_id).sort()).toEqual(['img_1', 'img_2']);
    expectExactSupport(figures, observations);
    const charts = await reader.read({ question: 'How many bar charts are there?', observations });
    expect(charts.answer).toBe(1);
  });

  it('returns Not answerable (None) when the evidence does not hold the answer', async () => {
    const observations = await see(['tab_1', 't_3']);
    const result = await reader.read({ question: 'How many employees did the company have at the end of 2018?', observations });
    expect(result).toMatchObject({ answer: 'Not answerable', answer_format: 'None', support: [] });
    const empty = await reader.read({ question: 'What was the FY2018 capital expenditure?', observations: [] });
    expect(empty.answer_format).toBe('None');
  });

  it('answers superlatives, lists, years and places', async () => {
    const observations = await see(['t_2', 'list_1', 'tab_2']);
    const top = await reader.read({ question: 'Which segment had the highest net sales in 2018?', observations });
    expect(top).toMatchObject({ answer: 'Safety and Industrial', answer_format: 'Str' });
    expectExactSupport(top, observations);
    const segments = await reader.read({ question: 'List the business segments of the company.', observations: await see(['list_1', 't_2']) });
    expect(segments).toMatchObject({ answer: ['Safety and Industrial', 'Transportation and Electronics', 'Health Care', 'Consumer'], answer_format: 'List' });
    const founded = await reader.read({ question: 'In what year was the company founded?', observations });
    expect(founded).toMatchObject({ answer: 1902, answer_format: 'Int' });
    const place = await reader.read({ question: 'Where are the company headquarters located?', observations });
    expect(place.answer).toBe('Maplewood, Minnesota');
    const sales = await see(['t_1']);
    expect(await reader.read({ question: 'Did net sales increase in 2018?', observations: sales })).toMatchObject({ answer: 'Yes', answer_format: 'Str' });
    expect(await reader.read({ question: 'Did net sales not increase in 2018?', observations: sales })).toMatchObject({ answer: 'No' });
  });

  it('prefers the number written with the unit a "how many" question measures', async () => {
    const chunk = 'Open the manual insert lid. Insert ground coffee (max. 16 g) and close the manual insert lid. The grounds container holds 50 brewing cycles.';
    const result = await reader.read({ question: 'How many grams of coffee can be put in the manual insert?', observations: [textObservation('t_7', chunk, 25)] });
    expect(result).toMatchObject({ answer: 16, answer_format: 'Int' });
    expect(result.support[0]!.snippet).toContain('(max. 16 g)');
  });

  it('reads plain text chunks (as the RAG baseline passes them), with offsets within the chunk or the document', async () => {
    const chunk = 'Revenue for fiscal 2022 was $4.1 billion. Operating margin improved to 18.5% from 16.0%.';
    const local = await reader.read({ question: 'What was the operating margin in fiscal 2022?', observations: [textObservation('chunk-7', chunk, 12)] });
    expect(local).toMatchObject({ answer: 18.5, answer_format: 'Float' });
    const s = local.support[0]!;
    expect(chunk.slice(s.char_start, s.char_end)).toBe(s.snippet);
    expect(s.page).toBe(12);

    const anchored = await reader.read({ question: 'What was revenue for fiscal 2022, in USD billions?', observations: [textObservation('chunk-7', chunk, 12, 1000)] });
    expect(anchored.answer).toBe(4.1);
    expect(anchored.support[0]!.char_start).toBeGreaterThanOrEqual(1000);
    expect(chunk.slice(anchored.support[0]!.char_start - 1000, anchored.support[0]!.char_end - 1000)).toBe(anchored.support[0]!.snippet);
  });
});
