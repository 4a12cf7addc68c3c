import { QuestionAnalysisSchema } from '@doctree/schema';
import { builtinDomainPack, domainPackFrom } from '@doctree/toolhub';

import type { RouterDecision } from '@doctree/schema';

import type { PlanOptions, PlanOutcome } from '../planner/base-planner.js';
import { TemplatePlanner } from '../planner/template-planner.js';
import { RuleRouter } from '../router/rule-router.js';
import { profileQuestion } from '../reader/question-profile.js';
import { renderReaderPrompt } from '../reader/reader-prompt.js';
import { analysisOf, analyzeQuestion, compactAnalysis } from './question-analysis.js';

const finance = builtinDomainPack('finance');
const generic = builtinDomainPack('generic');

// Questions written for these tests (varied fields and phrasings).
describe('analyzeQuestion', () => {
  it('reads the operation, the two operands, years, rounding and format of a ratio question', () => {
    const a = analyzeQuestion('What is the ratio of total debt to total equity in FY2021? Round to two decimal places.', { pack: finance });
    expect(QuestionAnalysisSchema.parse(a)).toEqual(a);
    expect(a.operations).toContain('ratio');
    expect(a.operands).toEqual({ operation: 'ratio', sides: ['total debt', 'total equity'] });
    expect(a.line_items).toEqual(['total debt', 'total equity']);
    expect(a.years).toEqual([2021]);
    expect(a.round).toBe(2);
    expect(a.expected_format).toBe('Float');
    expect(a.pack).toBe('finance');
  });

  it('reads a percent change over two years with units, scale and a named source', () => {
    const a = analyzeQuestion('By what percent did net sales grow from 2022 to 2023 (in USD millions), per the income statement?', { pack: finance });
    expect(a.years).toEqual([2022, 2023]);
    expect(a.units).toEqual(['$', '%']);
    expect(a.scale).toBe('millions');
    expect(a.sources).toEqual(['income statement']);
    expect(a.concepts).toContain('revenue');
    expect(a.domain_quantity).toBe(true);
    expect(a.expected_format).toBe('Float');
  });

  it('expects the number type a question asks for in so many words, and text otherwise', () => {
    const gap = analyzeQuestion('How far apart are the two clinics in the survey? Please give the answer in float format.', { pack: generic });
    expect(gap.expected_format).toBe('Float');
    const whole = analyzeQuestion('What is the warranty of the kettle in years, as an integer?', { pack: generic });
    expect(whole.expected_format).toBe('Int');
    // "int" inside a longer word is not a number type.
    const text = analyzeQuestion('What is the main finding in internet use among rural clinics?', { pack: generic });
    expect(text.expected_format).toBe('Str');
  });

  it('reads counts, lists, yes/no questions, quarters and 1-based page references', () => {
    const count = analyzeQuestion('How many diagrams are on pages 4-6?', { pack: generic });
    expect(count.count).toBe(true);
    expect(count.pages).toEqual([4, 5, 6]);
    expect(count.expected_format).toBe('Int');
    const list = analyzeQuestion('List the accessories included with the blender.', { pack: generic });
    expect(list.list).toBe(true);
    expect(list.expected_format).toBe('List');
    const yes = analyzeQuestion('Is the filter dishwasher-safe?', { pack: generic });
    expect(yes.yes_no).toBe(true);
    const quarter = analyzeQuestion('What was the churn rate in the third quarter of 2020 on the last page?', { pack: generic, pageCount: 40 });
    expect(quarter.quarter).toBe('Q3');
    expect(quarter.pages).toEqual([40]);
    // A quarter written with its year gives both, whatever the spelling.
    for (const q of ['How did churn move in Q32020?', 'How did churn move in 3Q20?', "How did churn move in Q3 FY'20?", 'How did churn move in 2020Q3?']) {
      const glued = analyzeQuestion(q, { pack: generic });
      expect([glued.quarter, glued.years]).toEqual(['Q3', [2020]]);
    }
  });

  it('reads spelled-out, listed and ordinal pages and slides, and the page before the last', () => {
    const read = (q: string, pageCount?: number) => analyzeQuestion(q, { pack: generic, ...(pageCount ? { pageCount } : {}) }).pages;
    expect(read('What does page four say, and slides fourteen to sixteen?')).toEqual([4, 14, 15, 16]);
    expect(read('Is the chart on pages 3 or 5?')).toEqual([3, 5]);
    expect(read('What is on the 11th page and the second slide?')).toEqual([2, 11]);
    expect(read('What is on the penultimate page?', 30)).toEqual([29]);
    expect(read('Who signs on the cover page?')).toEqual([1]);
    expect(read('What grew in 2023?')).toEqual([]);
  });

  it('parses a definition the question gives into its operation and operands', () => {
    const a = analyzeQuestion('Yield is defined as: good units / units started. What was the yield of line B in 2019?', { pack: generic });
    expect(a.definitions).toEqual([{ term: 'Yield', formula: 'good units / units started', operation: 'ratio', operands: ['good units', 'units started'] }]);
    const minus = analyzeQuestion('Net margin = revenue minus cost of goods. What was it in 2020?', { pack: generic });
    expect(minus.definitions[0]).toMatchObject({ term: 'Net margin', operation: 'difference', operands: ['revenue', 'cost of goods'] });
  });

  it('names concepts by the pack it is given: a finance term means nothing to the generic pack', () => {
    const q = 'What were purchases of PP&E in 2023?';
    expect(analyzeQuestion(q, { pack: finance }).concepts).toContain('capital expenditure');
    expect(analyzeQuestion(q, { pack: generic }).concepts).toEqual([]);
    expect(analyzeQuestion(q, { pack: generic }).domain_quantity).toBe(false);
    const lab = domainPackFrom({
      format: 'doctree.domain-pack',
      version: 1,
      name: 'lab',
      concepts: [{ name: 'limit of detection', triggers: ['\\blod\\b'], aliases: ['limit of detection'] }],
      quantity_terms: ['\\bconcentrations?\\b'],
    });
    const a = analyzeQuestion('What is the LOD of the assay?', { pack: lab });
    expect(a.concepts).toEqual(['limit of detection']);
    expect(a.aliases).toContain('limit of detection');
    expect(a.domain_quantity).toBe(true);
  });

  it('is computed once per question and pack, carried with the router decision and read by the reader', async () => {
    const q = 'What was the difference between operating income and net income in 2022?';
    expect(analyzeQuestion(q, { pack: finance })).toBe(analyzeQuestion(q, { pack: finance }));
    const decision = await new RuleRouter({ pack: generic }).route(q);
    const carried = analysisOf(decision);
    expect(carried?.pack).toBe('generic');
    expect(carried?.operands?.operation).toBe('difference');
    const profile = profileQuestion(q, decision);
    expect(profile.sides?.sides).toEqual(['operating income', 'net income']);
    expect(profile.concepts).toEqual([]);
    expect(JSON.parse(compactAnalysis(carried!))).toMatchObject({ pack: 'generic', years: [2022] });
  });

  it('hands the analysis to the reader prompt as a compact JSON hint', async () => {
    const q = 'Throughput is defined as: units shipped / operating hours. What was it in 2021?';
    const decision = await new RuleRouter({ pack: generic }).route(q);
    const prompt = renderReaderPrompt(q, [], decision);
    const user = prompt.messages[1]!.content;
    expect(user).toContain('analysis: {"pack":"generic"');
    expect(user).toContain('"operands":["units shipped","operating hours"]');
  });

  it('reaches the planner through its re-validation of the decision', async () => {
    const seen: Array<string | undefined> = [];
    class Spy extends TemplatePlanner {
      protected override async _plan(decision: RouterDecision, options: PlanOptions): Promise<PlanOutcome> {
        seen.push(analysisOf(decision)?.pack);
        return super._plan(decision, options);
      }
    }
    const q = 'What share of the budget went to training in 2022?';
    await new Spy().plan(await new RuleRouter({ pack: generic }).route(q), { question: q });
    expect(seen).toEqual(['generic']);
  });
});
