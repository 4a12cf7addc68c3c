import { buildFixtureTree } from '@doctree/index/testing';
import type { DocTree } from '@doctree/schema';
import { builtinDomainPack, domainPackFrom } from '@doctree/toolhub';
import { buildFixtureIndex, type FixtureIndex } from '@doctree/toolhub/testing';

import { balanceSheetTree } from '../__fixtures__/balance-sheet-tree.js';
import { DocTreeAgent } from '../agent/doctree-agent.js';
import type { FormulaOperandTrace } from '../agent/step-adapters.js';
import { analyzeQuestion } from '../analysis/question-analysis.js';
import { measureChangeSpec, measureSpec, namedMeasure, planComputation } from './pack-measures.js';

const finance = builtinDomainPack('finance');

/** The spec a question gets from the finance pack, read as the planner reads it (the question's own analysis). */
function specFor(question: string): ReturnType<typeof planComputation> {
  const a = analyzeQuestion(question, { pack: finance });
  return planComputation({ question, operations: a.operations, years: a.years, pack: finance, format: a.expected_format, entities: a.entities, yesNo: a.yes_no });
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

  it('computes nothing for a measure restricted to a part, asked about in words, or absent from the pack', () => {
    // A segment's margin is read as stated: entity totals would not give it.
    expect(specFor('What is the operating margin of the Dairy segment in 2022?')?.defined).toBeUndefined();
    expect(specFor('Why did the gross margin fall in 2022?')?.defined).toBeUndefined();
    expect(specFor('Did the operating margin of the Dairy segment improve in 2022?')?.defined).toBeUndefined();
    expect(specFor('Did the current ratio not improve in 2022?')?.defined).toBeUndefined();
    const generic = builtinDomainPack('generic');
    expect(measureSpec({ question: 'What is the quick ratio in 2022?', pack: generic, operations: ['ratio'], years: [2022], format: 'Float' })).toBeUndefined();
  });

  it('a change of a measure between two years is the measure at each year, newer minus older, in points for a percentage', () => {
    const spec = specFor('By how many percentage points did the net profit margin of Fabrikam change from FY2022 to FY2023?');
    expect(spec).toMatchObject({ operation: 'formula', percent: true, defined: 'net profit margin', expression: '(pct(A1 / B1, 1)) - (pct(A0 / B0, 1))' });
    expect(spec?.operands).toEqual([
      { name: 'A', phrase: 'net income', years: [2022, 2023], reduce: 'each' },
      { name: 'B', phrase: 'revenue', years: [2022, 2023], reduce: 'each' },
    ]);
    expect(spec?.parts?.map((p) => [p.year, p.expression])).toEqual([
      [2022, 'pct(A0 / B0, 1)'],
      [2023, 'pct(A1 / B1, 1)'],
    ]);
    // A plain measure changes in its own unit; an average operand is read from the year before the older one.
    const turnover = specFor('How did the asset turnover change between 2021 and 2023?');
    expect(turnover).toMatchObject({ operation: 'formula', percent: false, expression: '(A1 / ((B1 + B2) / 2)) - (A0 / ((B0 + B1) / 2))' });
    expect(turnover?.operands[1]).toEqual({ name: 'B', phrase: 'total assets', years: [2020, 2021, 2023], reduce: 'each' });
  });

  it('how much a measure fell is older minus newer; a percent change of a plain measure is relative', () => {
    expect(specFor('How much did the quick ratio decline from 2022 to 2023?')?.expression).toBe('((A0 - B0) / C0) - ((A1 - B1) / C1)');
    expect(specFor('What was the percentage change in the current ratio from 2022 to 2023?')).toMatchObject({ percent: true, expression: 'percent_change(A0 / B0, A1 / B1)' });
  });

  it("a yes/no question whether a measure moved compares the year named with the year before, in the measure's better direction", () => {
    // "As of" one year: that year against the year before.
    const improve = specFor('Is the current ratio of Fabrikam improving as of FY2023?');
    expect(improve).toMatchObject({ operation: 'increase', expression: '(A1 / B1) - (A0 / B0)' });
    expect(improve?.operands[0]?.years).toEqual([2022, 2023]);
    // Words about the measure's course over time do not restrict it to a part of the entity.
    expect(specFor('Does Fabrikam show a weakening gross margin trajectory as of FY2024?')).toMatchObject({ operation: 'decrease', defined: 'gross margin' });
    // Lower is better for leverage: improving is a fall.
    expect(specFor('Did the debt ratio improve between 2021 and 2023?')).toMatchObject({ operation: 'decrease' });
    expect(specFor('Did the debt ratio deteriorate in 2023?')).toMatchObject({ operation: 'increase' });
    // Plain direction words read the plain sign, whichever way is better.
    expect(specFor('Did the debt ratio decline in 2023?')).toMatchObject({ operation: 'decrease' });
    expect(specFor('Did the gross margin increase in 2023? Answer yes or no.')).toMatchObject({ operation: 'increase', percent: true });
    // Contradicting words ask nothing one can compute; a yes/no question never computes the measure's plain value.
    expect(specFor('Did the current ratio increase and worsen in 2023?')?.defined).toBeUndefined();
    expect(specFor('Is the current ratio above 1.5 in 2023?')?.defined).toBeUndefined();
  });

  it('computes no change without a year, and leaves basis points to the reader', () => {
    expect(measureChangeSpec({ question: 'Did the current ratio improve?', yesNo: true, pack: finance, operations: [], years: [] })).toBeUndefined();
    expect(specFor('By how many basis points did the gross margin change from 2022 to 2023?')?.defined).toBeUndefined();
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

  it('a yes/no question whether a measure improved is answered from its value at both years, and can say No', async () => {
    const agent = new DocTreeAgent({ index: report.index, domainPack: finance });
    // Current ratio 2.2 (2022) → 2.0 (2023): it did not improve.
    const current = await agent.ask('Did the current ratio of Contoso improve in FY2023?');
    expect(current.answer.answer).toBe('No');
    expect(current.answer.display).toBe('No (2.2 → 2, change -0.2)');
    // Debt ratio 0.6 → 0.5833: lower is better, so it improved; it did not increase.
    expect((await agent.ask('Has the debt ratio of Contoso improved as of FY2023?')).answer.answer).toBe('Yes');
    const increased = await agent.ask('Did the debt ratio of Contoso increase from FY2022 to FY2023?');
    expect(increased.answer.answer).toBe('No');
    // The trace shows the measure at each year and the change, each with its operands.
    const computed = increased.answer.trace.events
      .filter((e) => e.type === 'plan' && (e.data as { compute?: unknown } | undefined)?.compute !== undefined)
      .map((e) => (e.data as { compute: { result: number } }).compute.result);
    expect(computed[0]).toBeCloseTo(7000 / 12000 - 0.6, 4);
    expect(computed.slice(1).map((v) => Math.round(v * 1e4) / 1e4)).toEqual([0.6, 0.5833]);
  });

  it('a change of a percent measure between two years is answered in points', async () => {
    // Net profit margin 900 / 16,000 = 5.625 % (2022) → 1,100 / 20,000 = 5.5 % (2023).
    const run = await new DocTreeAgent({ index: report.index, domainPack: finance }).ask('By how many percentage points did the net profit margin of Contoso change from FY2022 to FY2023?');
    expect(run.answer.answer).toBeCloseTo(-0.125, 3);
    expect(computeEvent(run)?.operands.map((o) => [o.name, o.value])).toEqual([
      ['A0', 900],
      ['A1', 1100],
      ['B0', 16000],
      ['B1', 20000],
    ]);
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
