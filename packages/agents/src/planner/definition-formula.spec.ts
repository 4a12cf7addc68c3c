import { computationSpec, definitionFormula } from './definition-formula.js';

describe('definitionFormula', () => {
  it('reads a defined ratio with an average balance over two year ends', () => {
    const spec = definitionFormula('What is the FY2019 asset turnover? Asset turnover is defined as: FY2019 revenue / (average total assets between FY2018 and FY2019). Round to two decimal places.', [2019]);
    expect(spec?.formula).toBe('A / B');
    expect(spec?.operands).toEqual([
      { name: 'A', phrase: 'revenue', years: [2019], reduce: 'value' },
      { name: 'B', phrase: 'total assets', years: [2018, 2019], reduce: 'average' },
    ]);
  });

  it('reads worded operators and a defined name', () => {
    const spec = definitionFormula('What is the FY2020 quick measure? Define quick measure as total current assets divided by total current liabilities.', [2020]);
    expect(spec?.expression).toBe('A / B');
    expect(spec?.defined).toBe('quick measure');
    expect(spec?.operands.map((o) => [o.phrase, o.years])).toEqual([
      ['total current assets', [2020]],
      ['total current liabilities', [2020]],
    ]);
    const less = definitionFormula('Define free cash as: (cash from operations - capital spending). Answer in USD millions.', [2021]);
    expect(less?.expression).toBe('(A - B)');
    expect(less?.operands.map((o) => o.phrase)).toEqual(['cash from operations', 'capital spending']);
    expect(definitionFormula('Define spread as current assets less current liabilities.')?.expression).toBe('A - B');
  });

  it('finds no formula where the question defines none', () => {
    expect(definitionFormula('What is the total revenue in FY2020?')).toBeUndefined();
    expect(definitionFormula('Margin is defined as the profit made on each sale.')).toBeUndefined();
  });
});

describe('computationSpec', () => {
  it('computes a growth rate between two fiscal years as (new - old) / old, and a CAGR over more years when asked', () => {
    const growth = computationSpec({ question: 'What is the FY2019 - FY2020 total revenue growth rate?', operations: ['percent_change'], years: [2019, 2020] });
    expect(growth).toMatchObject({ operation: 'percent_change', expression: 'percent_change(A0, A1)', percent: true });
    expect(growth?.operands).toEqual([{ name: 'A', phrase: 'total revenue', years: [2019, 2020], reduce: 'each' }]);
    const cagr = computationSpec({ question: 'What is the CAGR of unit sales from 2012 to 2016?', operations: ['percent_change'], years: [2012, 2016] });
    expect(cagr).toMatchObject({ operation: 'percent_change', expression: 'cagr(A0, A1, 4)', formula: '(A1 / A0)^(1/4) - 1' });
  });

  it('gathers the two line items of a ratio as two operands', () => {
    const spec = computationSpec({ question: 'What is the ratio of total debt to total equity in FY2021?', operations: ['ratio'], years: [2021] });
    expect(spec).toMatchObject({ operation: 'ratio', expression: 'ratio(A, B)' });
    expect(spec?.operands.map((o) => [o.phrase, o.years])).toEqual([
      ['total debt', [2021]],
      ['total equity', [2021]],
    ]);
  });

  it('shows a defined ratio as a percentage when the question asks for percents', () => {
    const spec = computationSpec({ question: 'What is the FY2015 D&A margin? Margin is defined as: D&A / revenue. Answer in units of percents.', operations: [], years: [2015] });
    expect(spec).toMatchObject({ operation: 'formula', expression: 'pct(A / B, 1)', percent: true });
  });
});

describe('computationSpec over several years and between two items', () => {
  it('averages a ratio of two items over a year range, year by year', () => {
    const spec = computationSpec({ question: 'What is the FY2017 - FY2019 3 year average of capex as a % of revenue?', operations: ['average', 'percent'], years: [2017, 2019] });
    expect(spec).toMatchObject({ operation: 'average', expression: 'avg(pct(A0, B0), pct(A1, B1), pct(A2, B2))', percent: true });
    expect(spec?.operands.map((o) => [o.phrase, o.years, o.reduce])).toEqual([
      ['capex', [2017, 2018, 2019], 'each'],
      ['revenue', [2017, 2018, 2019], 'each'],
    ]);
  });

  it('reads "how much less was A compared to B" as B - A, and one item against an earlier year as a change over years', () => {
    const less = computationSpec({ question: 'For the year ended March 31, 2003, how much less were the reserves compared to the income?', operations: ['difference'], years: [2003] });
    expect(less).toMatchObject({ operation: 'difference', expression: 'B - A' });
    expect(less?.operands.map((o) => [o.phrase, o.years])).toEqual([
      ['reserves', [2003]],
      ['income', [2003]],
    ]);
    const overYears = computationSpec({ question: 'How much higher was the dividend paid (in thousands) in 2002 compared to 2001?', operations: ['difference'], years: [2001, 2002] });
    expect(overYears).toMatchObject({ operation: 'difference', expression: 'A1 - A0' });
    expect(overYears?.operands[0]).toMatchObject({ years: [2001, 2002], reduce: 'each' });
    expect(overYears?.operands[0]!.phrase).not.toMatch(/compared|thousands/);
  });
});

describe('computationSpec item phrases', () => {
  it('leaves proper names and asides out of a line item', () => {
    const spec = computationSpec({ question: 'What is the FY2019 - FY2020 total revenue growth rate for Contoso (formerly known as Fabrikam)?', operations: ['percent_change'], years: [2019, 2020] });
    expect(spec?.operands[0]!.phrase).toBe('total revenue');
  });
});

describe('computationSpec in percents', () => {
  it('shows a ratio of two items asked in percents as a percentage', () => {
    const spec = computationSpec({ question: 'What is the capex to revenue ratio in FY2019? Answer in units of percents.', operations: ['ratio'], years: [2019] });
    expect(spec).toMatchObject({ operation: 'ratio', expression: 'pct(A, B)', percent: true });
  });
});
