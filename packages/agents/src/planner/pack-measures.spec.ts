import { buildFixtureTree } from '@doctree/index/testing';
import type { DocTree } from '@doctree/schema';
import { builtinDomainPack, domainPackFrom } from '@doctree/toolhub';
import { buildFixtureIndex, type FixtureIndex } from '@doctree/toolhub/testing';

import { balanceSheetTree } from '../__fixtures__/balance-sheet-tree.js';
import { DocTreeAgent } from '../agent/doctree-agent.js';
import type { FormulaOperandTrace } from '../agent/step-adapters.js';
import { analyzeQuestion } from '../analysis/question-analysis.js';
import { measureSpec, namedMeasure, planComputation } from './pack-measures.js';

const finance = builtinDomainPack('finance');

/** The spec a question gets from the finance pack, read as the planner reads it (the question's own analysis). */
function specFor(question: string): ReturnType<typeof planComputation> {
  const a = analyzeQuestion(question, { pack: finance });
  return planComputation({ question, operations: a.operations, years: a.years, pack: finance, format: a.expected_format, entities: a.entities });
}

describe('measureSpec', () => {
  it('turns a named measure into its formula over operands at the year asked, an average balance over two year ends', () => {
    const spec = specFor('What was the asset turnover of Fabrikam in FY2022?');
    expect(spec).toMatchObject({ operation: 'formula', formula: 'A / B', expression: 'A / B', percent: false, defined: 'asset turnover' });
    expect(spec?.operands).toEqual([
      { name: 'A', phrase: 'revenue', years: [2022], reduce: 'value' },
      { name: 'B', phrase: 'total assets', years: [2021, 2022], reduce: 'average' },
    ]);
  });

  it('shows a percent measure × 100, and the longest wording wins', () => {
    expect(specFor("What is Fabrikam's FY2021 gross margin?")).toMatchObject({ formula: '(A / B) × 100', expression: 'pct(A / B, 1)', percent: true, defined: 'gross margin' });
    expect(namedMeasure('What is the fixed asset turnover for 2020?', finance.measures)?.measure.name).toBe('fixed asset turnover');
    expect(specFor('What is the quick ratio for 2020?')?.operands.map((o) => o.phrase)).toEqual(['current assets', 'inventory', 'current liabilities']);
  });

  it('averages a measure over a year range, each year with its own average balance', () => {
    const spec = specFor('What is the FY2019 - FY2021 average return on assets?');
    expect(spec?.expression).toBe('avg(pct(A0 / ((B0 + B1) / 2), 1), pct(A1 / ((B1 + B2) / 2), 1), pct(A2 / ((B2 + B3) / 2), 1))');
    expect(spec?.operands).toEqual([
      { name: 'A', phrase: 'net income', years: [2019, 2020, 2021], reduce: 'each' },
      { name: 'B', phrase: 'total assets', years: [2018, 2019, 2020, 2021], reduce: 'each' },
    ]);
  });

  it('a question that defines its own formula keeps it', () => {
    const spec = specFor('What is the FY2022 current ratio? Current ratio is defined as: cash and equivalents / total current liabilities.');
    expect(spec?.operands.map((o) => o.phrase)).toEqual(['cash and equivalents', 'total current liabilities']);
    expect(spec?.defined).not.toBe('current ratio');
  });

  it('computes nothing for a measure restricted to a part, asked about in words, changed over years, or absent from the pack', () => {
    // A segment's margin is read as stated: entity totals would not give it.
    expect(specFor('What is the operating margin of the Dairy segment in 2022?')?.defined).toBeUndefined();
    expect(specFor('Why did the gross margin fall in 2022?')?.defined).toBeUndefined();
    expect(specFor('Did the current ratio improve in 2022?')?.defined).toBeUndefined();
    expect(specFor('How much did the current ratio change between 2021 and 2022?')?.defined).toBeUndefined();
    const generic = builtinDomainPack('generic');
    expect(measureSpec({ question: 'What is the quick ratio in 2022?', pack: generic, operations: ['ratio'], years: [2022], format: 'Float' })).toBeUndefined();
  });

  it('the question analysis expects a number when a named measure is asked for', () => {
    expect(analyzeQuestion('What was the return on equity in 2020?', { pack: finance }).expected_format).toBe('Float');
    expect(analyzeQuestion('What was the return on equity in 2020?', { pack: builtinDomainPack('generic') }).expected_format).toBe('Str');
  });
});

/** The `compute` trace event of a run: formula, operands, result. */
function computeEvent(run: Awaited<ReturnType<DocTreeAgent['ask']>>): { formula: string; operands: FormulaOperandTrace[]; result: number } | undefined {
  const event = run.answer.trace.events.find((e) => e.type === 'plan' && (e.data as { compute?: unknown } | undefined)?.compute !== undefined);
  return (event?.data as { compute: { formula: string; operands: FormulaOperandTrace[]; result: number } } | undefined)?.compute;
}

// A made-up field and document: a greenhouse cooperative's season report, and a pack that names a crop yield.
const GREENHOUSE_PACK = {
  format: 'doctree.domain-pack',
  version: 1,
  name: 'greenhouse',
  concepts: [
    { name: 'harvest weight', aliases: ['harvest weight', 'total harvest'] },
    { name: 'planted area', aliases: ['planted area', 'area under glass'] },
  ],
  measures: [
    {
      name: 'crop yield',
      aliases: ['crop yield', 'yield per hectare'],
      formula: 'A / B',
      operands: [
        { name: 'A', item: 'harvest weight' },
        { name: 'B', item: 'planted area', reduce: 'average' },
      ],
    },
  ],
};

const SEASON_ROWS = [
  ['Season summary', '2023', '2022'],
  ['Total harvest (tonnes)', '1,260', '1,020'],
  ['Area under glass (hectares)', '44', '40'],
  ['Pickers employed', '85', '80'],
];

function greenhouseTree(): DocTree {
  const text = SEASON_ROWS.map((r) => r.join(' | ')).join('\n');
  return buildFixtureTree({ doc_id: 'northfield-growers-2023', title: 'Northfield Growers Season Report 2023', page_count: 2 }, [
    { node_id: 'sec_0', role: 'document', parent: null, title: 'Northfield Growers Season Report 2023' },
    { node_id: 'sec_1', role: 'section', parent: 'sec_0', title: 'The season in numbers', page: 1 },
    { node_id: 't_1', role: 'paragraph', parent: 'sec_1', page: 1, text: 'A warm spring and a second tomato house made 2023 our best season yet.' },
    { node_id: 'tab_1', role: 'table', parent: 'sec_1', page: 1, text, table: { html: '', header_rows: 1, rows: SEASON_ROWS } },
  ]);
}

/** An income statement whose tax rows share words: the pre-tax income row is not the tax expense row. */
const TAX_ROWS = [
  ['(Thousands)', '2024', '2023'],
  ['Revenues', '90,000', '84,000'],
  ['Operating income', '12,000', '10,500'],
  ['Interest expense', '(1,500)', '(1,400)'],
  ['Income before income taxes', '10,000', '9,000'],
  ['Provision for income taxes', '2,100', '1,800'],
  ['Net income', '7,900', '7,200'],
];

function taxTree(): DocTree {
  const text = TAX_ROWS.map((r) => r.join(' | ')).join('\n');
  return buildFixtureTree({ doc_id: 'tailspin-2024', title: 'Tailspin Toys Annual Report 2024', page_count: 2 }, [
    { node_id: 'sec_0', role: 'document', parent: null, title: 'Tailspin Toys Annual Report 2024' },
    { node_id: 'sec_1', role: 'section', parent: 'sec_0', title: 'Consolidated Statements of Operations', page: 1 },
    { node_id: 't_1', role: 'paragraph', parent: 'sec_1', page: 1, text: 'The consolidated statements of operations for fiscal 2024 and 2023 follow.' },
    { node_id: 'tab_1', role: 'table', parent: 'sec_1', page: 1, text, table: { html: '', header_rows: 1, rows: TAX_ROWS } },
  ]);
}

describe('named measures through the agent (operands gathered one by one, then computed)', () => {
  let report: FixtureIndex;
  let season: FixtureIndex;
  let taxes: FixtureIndex;
  beforeAll(async () => {
    [report, season, taxes] = await Promise.all([buildFixtureIndex(balanceSheetTree()), buildFixtureIndex(greenhouseTree()), buildFixtureIndex(taxTree())]);
  });
  afterAll(async () => {
    await Promise.all([report.cleanup(), season.cleanup(), taxes.cleanup()]);
  });

  it('operands whose rows share words each find their own row (tax expense over pre-tax income; EBIT over interest expense)', async () => {
    const agent = new DocTreeAgent({ index: taxes.index, domainPack: finance });
    const tax = await agent.ask('What was the effective tax rate of Tailspin in FY2024?');
    expect(computeEvent(tax)?.operands.map((o) => [o.label, o.value])).toEqual([
      ['Provision for income taxes', 2100],
      ['Income before income taxes', 10000],
    ]);
    expect(tax.answer.answer).toBeCloseTo(21, 4);
    const coverage = await agent.ask('What is the interest coverage ratio for FY2023?');
    expect(computeEvent(coverage)?.operands.map((o) => [o.label, o.value])).toEqual([
      ['Operating income', 10500],
      ['Interest expense', 1400],
    ]);
    expect(coverage.answer.answer).toBeCloseTo(7.5, 4);
  });

  it('a finance measure named without its formula is computed, and the trace shows operands, formula and result', async () => {
    const run = await new DocTreeAgent({ index: report.index, domainPack: finance }).ask("What is Contoso's FY2023 asset turnover?");
    const compute = computeEvent(run);
    expect(compute?.formula).toBe('A / B');
    expect(compute?.operands.map((o) => [o.name, o.label, o.value])).toEqual([
      ['A', 'Net sales', 20000],
      ['B', 'Total assets', 11000],
    ]);
    expect(run.answer.answer).toBeCloseTo(20000 / 11000, 2);
  });

  it('a percent measure is answered in percents', async () => {
    const run = await new DocTreeAgent({ index: report.index, domainPack: finance }).ask('What was the return on assets in FY2023?');
    expect(computeEvent(run)?.operands.map((o) => [o.label, o.value])).toEqual([
      ['Net income', 1100],
      ['Total assets', 11000],
    ]);
    expect(run.answer.answer).toBeCloseTo(10, 4);
  });

  it("a user's pack adds a measure of its own field, computed on its document", async () => {
    const pack = domainPackFrom(GREENHOUSE_PACK);
    const run = await new DocTreeAgent({ index: season.index, domainPack: pack }).ask("What was Northfield's crop yield in 2023?");
    const compute = computeEvent(run);
    expect(compute?.operands.map((o) => [o.name, o.label, o.value])).toEqual([
      ['A', 'Total harvest (tonnes)', 1260],
      ['B', 'Area under glass (hectares)', 42],
    ]);
    expect(run.answer.answer).toBeCloseTo(30, 4);
    // Without the pack the same question names no measure: nothing is computed.
    const plain = await new DocTreeAgent({ index: season.index, domainPack: builtinDomainPack('generic') }).ask("What was Northfield's crop yield in 2023?");
    expect(computeEvent(plain)).toBeUndefined();
  });
});
