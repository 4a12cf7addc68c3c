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
    expect(result.answer).toBe(1482);
    expect(result.answer_format).toBe('Int');
    expect(result.display).toMatch(/^\$?1,482 million/);
    expect(result.confidence).toBeGreaterThan(0.6);
    expect(result.support[0]).toMatchObject({ node_id: 'tab_1', page: 3, snippet: 'Purchases of property, plant and equipment (PP&E) | (1,482)' });
    expectExactSupport(result, observations);
    expect(result.notes?.join('\n')).toMatch(/outflow/);
  });

  it('picks the year column the question asks for, and converts to the scale asked', async () => {
    const observations = await see(['tab_1']);
    const previous = await reader.read({ question: 'How much was depreciation and amortization in 2016?', observations });
    expect(previous.answer).toBe(1297);
    const billions = await reader.read({ question: 'What was net cash provided by operating activities in FY2017, in USD billions?', observations });
    expect(billions.answer).toBeCloseTo(5.987, 6);
    expect(billions.answer_format).toBe('Float');
    expect(billions.display).toMatch(/5\.987 billion/);
    expectExactSupport(billions, observations);
  });

  it('answers from paragraphs: amounts with units and percentages, with exact document offsets', async () => {
    const observations = await see(['t_1', 't_2', 'list_1']);
    const sales = await reader.read({ question: 'What were net sales in 2017, in millions of dollars?', observations });
    expect(sales.answer).toBe(27474);
    expectExactSupport(sales, observations);
    expect(sales.support[0]!.snippet).toContain('$27,474 million');

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
    // Only on the page named: Figure 2 (a photo) is on page 2, Figure 1 on page 1.
    const onPage = await reader.read({ question: 'How many figures are on page 2?', observations });
    expect(onPage).toMatchObject({ answer: 1, support: [expect.objectContaining({ node_id: 'img_2', page: 2 })] });
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
    expect(top).toMatchObject({ answer: 'Safety and Tooling', answer_format: 'Str' });
    expectExactSupport(top, observations);
    const segments = await reader.read({ question: 'List the business segments of the company.', observations: await see(['list_1', 't_2']) });
    expect(segments).toMatchObject({ answer: ['Safety and Tooling', 'Mobility and Electronics', 'Health Care', 'Consumer'], answer_format: 'List' });
    const founded = await reader.read({ question: 'In what year was the company founded?', observations });
    expect(founded).toMatchObject({ answer: 1911, answer_format: 'Int' });
    const place = await reader.read({ question: 'Where are the company headquarters located?', observations });
    expect(place.answer).toBe('Lakeview, Ohio');
    const sales = await see(['t_1']);
    expect(await reader.read({ question: 'Did net sales increase in 2018?', observations: sales })).toMatchObject({ answer: 'Yes', answer_format: 'Str' });
    expect(await reader.read({ question: 'Did net sales not increase in 2018?', observations: sales })).toMatchObject({ answer: 'No' });
  });

  it('prefers the number written with the unit a "how many" question measures', async () => {
    const chunk = 'Open the spice drawer. Add dried herbs (max. 30 g) and close the spice drawer. The tray holds 12 portions.';
    const result = await reader.read({ question: 'How many grams of herbs fit in the spice drawer?', observations: [textObservation('t_7', chunk, 25)] });
    expect(result).toMatchObject({ answer: 30, answer_format: 'Int' });
    expect(result.support[0]!.snippet).toContain('(max. 30 g)');
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

  it('gives a number to the words of its own clause, not to the nearest question word', async () => {
    const chunk = 'Cash and cash equivalents were $96.4 million at year end. Net cash provided by operating activities was $92.8 million and capital expenditures were $37.5 million, mainly for the new plant.';
    const capex = await reader.read({ question: 'What were capital expenditures in 2023?', observations: [textObservation('t_8', chunk, 2)] });
    expect(capex.answer).toBe(37.5);
    // The line item named in the statement's words finds the text's "capital expenditures" too.
    const ppe = await reader.read({ question: 'What were purchases of PP&E in 2023 (in USD millions)?', observations: [textObservation('t_8', chunk, 2)] });
    expect(ppe.answer).toBe(37.5);
    const operating = await reader.read({ question: 'What was net cash provided by operating activities in 2023?', observations: [textObservation('t_8', chunk, 2)] });
    expect(operating.answer).toBe(92.8);
    // A rate of change is not the amount asked; "rose 12.4% to $482.6 million" gives revenue its amount.
    const growth = 'Total revenue rose 12.4% to $482.6 million in 2023, compared with $429.4 million in 2022.';
    expect((await reader.read({ question: 'What was total revenue in 2023?', observations: [textObservation('t_10', growth, 1)] })).answer).toBe(482.6);
    expect((await reader.read({ question: 'What was total revenue in 2022?', observations: [textObservation('t_10', growth, 1)] })).answer).toBe(429.4);
    expect((await reader.read({ question: 'By what percentage did total revenue grow in 2023?', observations: [textObservation('t_10', growth, 1)] })).answer).toBe(12.4);
    const trailing = 'The company spent $12.0 million on marketing and $37.5 million of capital expenditures in 2023.';
    expect((await reader.read({ question: 'How much were capital expenditures in 2023?', observations: [textObservation('t_9', trailing, 2)] })).answer).toBe(37.5);
  });

  it('answers a line item named by an abbreviation from its table row, in the year column asked', async () => {
    const observations = await see(['tab_1', 't_3']);
    const result = await reader.read({ question: 'What were purchases of PP&E in 2017 (in USD millions)?', observations });
    expect(result).toMatchObject({ answer: 1291 });
    expect(result.support[0]!.snippet).toBe('Purchases of property, plant and equipment (PP&E) | (1,482) | (1,291)');
    expectExactSupport(result, observations);
  });

  it('computes a change over the years asked instead of reading one of the years', async () => {
    const observations = await see(['tab_1']);
    const change = await reader.read({ question: 'What was the change in depreciation and amortization from 2016 to 2018?', observations });
    expect(change.answer).toBe(65);
    expect(change.support).toHaveLength(2);
    expectExactSupport(change, observations);
    const higher = await reader.read({ question: 'How much higher was capital expenditure in 2018 compared to 2017?', observations });
    expect(higher.answer).toBe(191);
    const growth = await reader.read({ question: 'What was the percentage change in dividends paid to shareholders from 2017 to 2018?', observations });
    expect(growth.answer).toBeCloseTo(13.6729, 3);
  });

  it('combines two line items of one period: ratios and shares', async () => {
    const cash = await see(['tab_1']);
    const ratio = await reader.read({ question: 'What is the ratio of net cash provided by operating activities to net income in 2018?', observations: cash });
    expect(ratio.answer).toBeCloseTo(1.2635, 3);
    expect(ratio.support.map((s) => s.snippet)).toEqual([
      'Net cash provided by operating activities | 6,214',
      'Net income including noncontrolling interest | $ 4,918',
    ]);
    const segments = await see(['tab_2']);
    const share = await reader.read({ question: 'What percentage of total net sales came from the Health Care segment in 2018?', observations: segments });
    expect(share.answer).toBeCloseTo(20.5444, 3);
    expectExactSupport(share, segments);
  });

  it('takes a value the plan computed when its cells are rows the question asks about, and cites them', async () => {
    const observations = await see(['tab_1']);
    // Two line items the reader does not pair by itself ("how much more … than …"): the plan's steps did.
    const question = 'How much more was paid in dividends than spent on capital expenditure in 2018?';
    const computed = [
      {
        operation: 'difference',
        value: 1486,
        text: '1,486',
        percent: false,
        unit: '$',
        scale: 'millions',
        operands: [
          { node_id: 'tab_1', row: 'Dividends paid to shareholders', column: 'Years ended December 31 2018', raw: '(2,968)', value: 2968 },
          { node_id: 'tab_1', row: 'Purchases of property, plant and equipment (PP&E)', column: 'Years ended December 31 2018', raw: '(1,482)', value: 1482 },
        ],
      },
    ];
    const result = await reader.read({ question, observations, computed });
    expect(result.answer).toBe(1486);
    expect(result.notes?.join('\n')).toMatch(/computed by the plan/);
    expect(result.support.map((s) => s.snippet)).toEqual(['Dividends paid to shareholders | (2,968)', 'Purchases of property, plant and equipment (PP&E) | (1,482)']);
    expectExactSupport(result, observations);
    // A computation over rows the question does not ask about is not taken.
    const unrelated = [{ ...computed[0]!, value: 999, operands: computed[0]!.operands.map((o) => ({ ...o, row: 'Net cash used in financing activities', raw: '(6,318)' })) }];
    expect((await reader.read({ question, observations, computed: unrelated })).answer).not.toBe(999);
  });

  it('answers a list with short items, not with numbered paragraphs or their bare markers', async () => {
    const listOf = (nodeId: string, text: string, heading: string): Observation => ({ node_id: nodeId, modality: 'list', page: 3, bbox: null, payload: { kind: 'text', text, heading_path: [heading] } });
    const paragraphs = listOf(
      'list_8',
      '1.\nWe have audited the attached balance sheet of the company as at 31 March 2003 and the profit and loss account for the year ended on that date.\n2.\nWe conducted our audit of the company in accordance with the auditing standards generally accepted in India.',
      'Auditors report to the members of the company',
    );
    const bankers = listOf('list_9', 'State Bank of India\nBank of Baroda\nCitibank N.A.', 'Bankers');
    const result = await reader.read({ question: 'List the bankers of the company.', observations: [paragraphs, bankers] });
    expect(result).toMatchObject({ answer: ['State Bank of India', 'Bank of Baroda', 'Citibank N.A.'], answer_format: 'List' });
    const only = await reader.read({ question: 'List the audit statements of the company.', observations: [paragraphs] });
    if (Array.isArray(only.answer)) expect(only.answer).not.toContain('1.');
  });

  it('answers a descriptive question with the clause that answers it, not a fragment or the whole paragraph', async () => {
    const chunk =
      'Founded in 1952, the company operates in the packaging industry, making flexible and rigid containers for food and medical products. It employs 41,000 people in 40 countries.';
    const result = await reader.read({ question: 'What industry does the company operate in?', observations: [textObservation('t_11', chunk, 4)] });
    expect(result.answer).toBe('the packaging industry, making flexible and rigid containers for food and medical products');
    // Names still stop at the first preposition.
    const who = await reader.read({ question: 'Who founded the company?', observations: [textObservation('t_12', 'The company was founded by Jane Smith in Oslo in 1952.', 1)] });
    expect(who.answer).toBe('Jane Smith');
  });

  it('reads the value stated for each year of a sentence, and computes growth rates and changes from them', async () => {
    const chunk = 'Shipping and handling costs are charged to operations as incurred and totaled $512 million in 2021, $540 million in 2020 and $498 million in 2019.';
    const observations = [textObservation('t_13', chunk, 7)];
    // The value written before "in 2020", not the one nearest to "2020".
    expect((await reader.read({ question: 'What were shipping and handling costs in 2020?', observations })).answer).toBe(540);
    const growth = await reader.read({ question: 'What is the growth rate of shipping and handling costs in 2021?', observations });
    expect(growth.answer).toBeCloseTo(-5.1852, 3);
    expect(growth.support[0]!.snippet).toContain('$512 million in 2021, $540 million in 2020');
    const change = await reader.read({ question: 'What was the change in shipping and handling costs from 2019 to 2021?', observations });
    expect(change.answer).toBe(14);
  });

  it('computes a one-year growth rate from the previous year column of a table', async () => {
    const observations = await see(['tab_1']);
    const growth = await reader.read({ question: 'What was the growth rate of depreciation and amortization in 2017?', observations });
    expect(growth.answer).toBeCloseTo(1.619, 2);
    expect(growth.support).toHaveLength(2);
  });
});
