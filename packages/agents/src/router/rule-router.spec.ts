import type { AnswerFormat, Operation, QueryType } from '@doctree/schema';

import { runRouterConformance } from '../testing/router-conformance.js';
import { extractSignals } from './question-signals.js';
import { RuleRouter } from './rule-router.js';

runRouterConformance('RuleRouter', (options) => new RuleRouter(options), { source: 'rules' });

interface Case {
  question: string;
  type?: QueryType;
  /** Types that must be among the candidates. */
  alsoConsidered?: QueryType[];
  format?: AnswerFormat;
  pages?: number[];
  years?: number[];
  units?: string[];
  operations?: Operation[];
  objects?: string[];
  constraints?: string[];
}

// Varied phrasing from annual reports, papers, manuals, slide decks and brochures (written for these tests).
const CASES: Case[] = [
  {
    question: 'What is the FY2019 free cash flow (in USD millions)? Use the statement of cash flows.',
    type: 'table_number',
    years: [2019],
    units: ['$', 'millions'],
    objects: ['cash flow statement'],
    format: 'Float',
    constraints: ['year:2019', 'unit:$', 'scale:millions', 'source:cash flow statement'],
  },
  { question: 'How many figures are there in Section 3?', type: 'figure_count', format: 'Int', operations: ['count'], objects: ['Section 3'] },
  { question: 'How many pie charts does the brochure contain?', type: 'figure_count', format: 'Int' },
  { question: 'What is the heading of the slide on page 7?', type: 'layout', pages: [7], format: 'Str' },
  { question: 'What colour is the logo in the top left corner of the cover page?', type: 'layout', pages: [1] },
  { question: 'In Figure 4, what is the value of the blue line in 2015?', type: 'chart', years: [2015], objects: ['Figure 4'] },
  { question: 'What percentage of respondents chose option B?', format: 'Float', units: ['%'], operations: ['percent'] },
  {
    question: 'What was the year-over-year percent change in operating income between fiscal 2020 and fiscal 2021?',
    alsoConsidered: ['table_number', 'multi_hop'],
    years: [2020, 2021],
    operations: ['percent_change'],
    format: 'Float',
  },
  { question: 'Give an overview of what this paper is about.', type: 'summary', format: 'Str' },
  { question: 'Is the warranty valid outside the European Union?', type: 'lookup', format: 'Str' },
  { question: 'List the countries where the company has manufacturing plants.', format: 'List', operations: ['list'] },
  { question: 'Which datasets are used in the experiments?', format: 'List' },
  { question: 'In which year was the company founded?', format: 'Int' },
  { question: 'On which page is the safety notice?', format: 'Int', operations: ['locate'] },
  { question: 'What does Table 2 report about latency on pp. 8-10?', pages: [8, 9, 10], objects: ['Table 2'] },
  { question: 'What is summarised on slides 3 and 5?', pages: [3, 5] },
  {
    question: 'What is the ratio of current assets to current liabilities in FY18? Round to two decimal places.',
    type: 'table_number',
    years: [2018],
    constraints: ['round:2', 'item:current assets', 'item:current liabilities'],
    format: 'Float',
  },
  // The line item asked, without the operation, the statement (a source) or the instructions around it.
  { question: 'Using the income statement: what was the change in net sales from 2020 to 2021?', constraints: ['item:net sales'] },
  { question: 'How much did research and development spending grow from 2017 to 2019, and what drove it?', alsoConsidered: ['multi_hop'], years: [2017, 2019] },
  { question: 'What is the average price per unit across the three tiers?', operations: ['average'], format: 'Float' },
  { question: 'Which product had the highest sales, and which had the lowest?', operations: ['max', 'min'] },
  // A line item named by its abbreviation is a table number; the words documents use for it come along as aliases.
  {
    question: 'What were purchases of PP&E in 2023 (in USD millions)?',
    type: 'table_number',
    format: 'Float',
    constraints: ['alias:property plant and equipment', 'alias:capital expenditures'],
  },
  { question: 'What was capex in 2021?', type: 'table_number', constraints: ['alias:capital expenditures', 'alias:purchases of property plant and equipment'] },
  // People are counted in text and tables, unless they are in a picture.
  { question: 'How many people did the company employ at the end of 2023?', format: 'Int', operations: ['count'] },
  { question: 'How many people are standing in the photo on the cover?', type: 'figure_count', format: 'Int' },
];

describe('RuleRouter on varied questions', () => {
  const router = new RuleRouter();
  it.each(CASES)('$question', async (c) => {
    const d = await router.route(c.question);
    if (c.type !== undefined) expect(d.query_type).toBe(c.type);
    for (const t of c.alsoConsidered ?? []) expect(d.candidates.map((x) => x.type)).toContain(t);
    if (c.format !== undefined) expect(d.signals.expected_format).toBe(c.format);
    if (c.pages !== undefined) expect(d.signals.page_hints).toEqual(c.pages);
    if (c.years !== undefined) expect(d.signals.years).toEqual(c.years);
    if (c.units !== undefined) expect(d.signals.units).toEqual(c.units);
    for (const op of c.operations ?? []) expect(d.signals.operations).toContain(op);
    for (const o of c.objects ?? []) expect(d.signals.objects.map((x) => x.label ?? x.text)).toContain(o);
    for (const k of c.constraints ?? []) expect(d.constraints).toContain(k);
    expect(d.source).toBe('rules');
  });

  it('reads page hints as the 1-based pages people write, including words and ordinals', () => {
    expect(extractSignals('What is on page five?').page_hints).toEqual([5]);
    expect(extractSignals('Compare the second page with the fourth page.').page_hints).toEqual([2, 4]);
    expect(extractSignals('What is on p. 1?').page_hints).toEqual([1]);
    expect(extractSignals('What is on page 0?').page_hints).toEqual([]);
    expect(extractSignals('What does the penultimate page show?', { pageCount: 20 }).page_hints).toEqual([19]);
    const unknownLength = extractSignals('What does the last page show?');
    expect(unknownLength.page_hints).toEqual([]);
    expect(unknownLength.last_page).toBe(true);
    expect(unknownLength.constraints).toContain('page:last');
  });

  it('reads fiscal years in their usual spellings, but not amounts', () => {
    expect(extractSignals('Revenue in FY2018 vs FY 2017 and fiscal 2019 and FY20?').years).toEqual([2017, 2018, 2019, 2020]);
    expect(extractSignals('What was capex in 2018-19?').years).toEqual([2018, 2019]);
    expect(extractSignals('Is $2015 million more than 1999 units?').years).toEqual([]);
    expect(extractSignals('What were Q3 2020 sales?').constraints).toEqual(expect.arrayContaining(['year:2020', 'quarter:Q3']));
  });

  it('puts the words of the asking sentence first when instructions wrap the question', () => {
    const s = extractSignals('You are a credit analyst reviewing filings. Using only the income statement, answer this: what was the FY2021 interest expense? Reply in USD millions.');
    expect(s.keywords.slice(0, 2)).toEqual(['interest', 'expense']);
    expect(s.keywords).toEqual(expect.arrayContaining(['credit', 'analyst']));
  });

  it('keeps names out of operations and keywords clean of question words', () => {
    const s = extractSignals('What was the operating margin of Best Buy in FY2022?');
    expect(s.entities).toContain('Best Buy');
    expect(s.operations).not.toContain('max');
    expect(s.keywords).toEqual(expect.arrayContaining(['operating', 'margin']));
    expect(s.keywords).not.toContain('what');
    expect(s.keywords).not.toContain('fy2022');
  });

  it('routes "how many people/employees" to a count over text, not to a figure count', async () => {
    for (const q of ['How many people did the company employ at the end of 2023?', 'How many employees worked in research and development?', 'How many people attended the annual meeting?']) {
      const d = await router.route(q);
      expect(d.query_type).not.toBe('figure_count');
      expect(d.candidates.map((c) => c.type)).not.toContain('figure_count');
    }
    expect((await router.route('How many people are there in the images on page 3?')).query_type).toBe('figure_count');
    expect((await router.route('How many tables are in Section 2?')).query_type).toBe('figure_count');
  });

  it('flags a page beyond the end of the document as possibly unanswerable', async () => {
    const d = await router.route('What is the chart on page 90 about?', { pageCount: 40 });
    expect(d.query_type).toBe('unanswerable');
    expect(d.risk.level).toBe('high');
  });

  it('rates risk: counting and combining are high, a plain lookup with anchors is low', async () => {
    expect((await router.route('How many tables are in the appendix?')).risk.level).toBe('high');
    expect((await router.route('Who is the chief executive officer named in the letter to shareholders?')).risk.level).toBe('low');
  });

  it('splits multi-hop questions into sub-questions', async () => {
    const ratio = await router.route('What is the ratio of total debt to total equity in FY2021?');
    expect(ratio.sub_questions).toEqual(['What is total debt in 2021?', 'What is total equity in 2021?']);
    const twoQuestions = await router.route('What was net income in 2020? And what was it in 2021?');
    expect(twoQuestions.sub_questions).toEqual(['What was net income in 2020?', 'And what was it in 2021?']);
  });
});
