import { conceptMatch, conceptQueryTerms, conceptVariants, conceptsIn, DEFAULT_CONCEPTS, normalizeLabel } from './concept-vocabulary.js';

const names = (text: string): string[] => conceptsIn(text).map((c) => c.name);

describe('concept vocabulary', () => {
  it('writes abbreviations out and drops punctuation and remarks in parentheses', () => {
    expect(normalizeLabel('Purchases of PP&E')).toBe(' purchases of property plant and equipment ');
    expect(normalizeLabel('Purchases of property, plant and equipment (PP&E)')).toBe(' purchases of property plant and equipment ');
    expect(normalizeLabel('R&D spending')).toBe(' research and development spending ');
    expect(normalizeLabel('Net sales (in $ millions)')).toBe(' net sales ');
  });

  it('finds a concept named by its trigger, by an abbreviation, or by a line-item wording', () => {
    expect(names('What was FY2018 capex?')).toContain('capital expenditure');
    expect(names('What were purchases of PP&E in 2022?')).toContain('capital expenditure');
    expect(names('What were additions to property and equipment last year?')).toContain('capital expenditure');
    expect(names('What is net PP&E at year end?')).toContain('net property plant and equipment');
    expect(names('How many people did the company employ?')).toContain('employees');
    expect(names('Who founded the company?')).toEqual([]);
  });

  it('matches row labels written in another wording of the concept', () => {
    const capex = DEFAULT_CONCEPTS.filter((c) => c.name === 'capital expenditure');
    expect(conceptMatch('Purchases of property, plant and equipment (PP&E)', capex).score).toBe(1);
    expect(conceptMatch('Cash used for additions to property and equipment', capex).score).toBe(0.8);
    expect(conceptMatch('Proceeds from sale of businesses', capex).score).toBe(0);
  });

  it('expands a question with the words documents use, never repeating its own', () => {
    const terms = conceptQueryTerms('What was FY2018 capex (in USD millions)?');
    expect(terms).toEqual(['capital expenditures', 'purchases of property plant and equipment', 'purchases of property and equipment']);
    expect(conceptQueryTerms('What were capital expenditures in 2023?')).toEqual(['purchases of property plant and equipment', 'purchases of property and equipment']);
    expect(conceptQueryTerms('What were purchases of PP&E in 2022?')).toContain('property plant and equipment');
    expect(conceptQueryTerms('Who founded the company?')).toEqual([]);
  });

  it('rewrites a phrase in each alias of the concepts it names', () => {
    const variants = conceptVariants('capex 2022');
    expect(variants[0]).toBe('capex 2022');
    expect(variants).toContain('purchases of property plant and equipment 2022');
    expect(conceptVariants('segment margin')).toEqual(['segment margin']);
  });
});
