import { stemEnglish } from './english-stemmer.js';
import { analyzeQuery, analyzeText, SPARSE_STOPWORDS } from './sparse-analyzer.js';

describe('analyzeText', () => {
  it('lower-cases, strips accents and folds compatibility forms', () => {
    expect(analyzeText('Café RÉSUMÉ ﬁnancial')).toEqual(['cafe', 'resum', 'financial']);
  });

  it('keeps numbers, dropping thousands separators', () => {
    expect(analyzeText('1,482 and 1482 and (1,291) and 1,482,000.25')).toEqual(['1482', '1482', '1291', '1482000.25']);
    expect(analyzeText('3.5 2.3.1 0.25')).toEqual(['3.5', '2.3.1', '0.25']);
    // Lists are not thousands: each number stays.
    expect(analyzeText('1,2,3')).toEqual(['1', '2', '3']);
  });

  it('turns currency and percent symbols into words', () => {
    expect(analyzeText('$1,482 million, up 12.5%')).toEqual(['usd', '1482', 'million', '12.5', 'percent']);
    expect(analyzeText('€5 and £3 pct')).toEqual(['eur', '5', 'gbp', '3', 'percent']);
  });

  it('keeps years, with fiscal years also as the year', () => {
    expect(analyzeText('FY2018 compared with 2017–2019')).toEqual(['fy2018', '2018', 'compar', '2017', '2019']);
  });

  it('emits one label term for every way of writing a figure or table label', () => {
    for (const text of ['Figure 3', 'Fig. 3', 'fig 3', 'FIGURE 3:', 'Figs. 3']) expect(analyzeText(text)).toContain('figure_3');
    for (const text of ['Table 2', 'Tab. 2', 'TABLE II', 'table 2.']) expect(analyzeText(text)).toContain('table_2');
    expect(analyzeText('Tables 2 and 3')).toEqual(expect.arrayContaining(['table_2', 'table_3']));
    expect(analyzeText('Figures 4, 5')).toEqual(expect.arrayContaining(['figure_4', 'figure_5']));
    expect(analyzeText('Figure 3a')).toEqual(expect.arrayContaining(['figure_3a', 'figure_3']));
    expect(analyzeText('Table A.1')).toContain('table_a.1');
  });

  it('labels items, sections, notes and appendices', () => {
    expect(analyzeText('Item 7A. Market Risk')).toContain('item_7a');
    expect(analyzeText('Item 7A. Market Risk')).not.toContain('item_7');
    expect(analyzeText('Item 7. MD&A')).toContain('item_7');
    expect(analyzeText('§ 2.3')).toEqual(['section', 'section_2.3', '2.3']);
    expect(analyzeText('see Section 2.3')).toContain('section_2.3');
    expect(analyzeText('Note 12 — Income Taxes')).toContain('note_12');
    expect(analyzeText('Appendix B')).toContain('appendix_b');
    expect(analyzeText('Part II')).toContain('part_2');
  });

  it('does not take a year for a label', () => {
    expect(analyzeText('the table 2018 revenue').some((term) => term.startsWith('table_'))).toBe(false);
  });

  it('stems plurals, -ed, -ing and final -e the same way', () => {
    expect(analyzeText('revenues')).toEqual(analyzeText('revenue'));
    expect(analyzeText('expenditures')).toEqual(analyzeText('expenditure'));
    expect(new Set(['increase', 'increased', 'increases', 'increasing'].map(stemEnglish)).size).toBe(1);
    expect(stemEnglish('companies')).toBe(stemEnglish('company'));
    expect(stemEnglish('running')).toBe('run');
    expect(stemEnglish('operations')).not.toBe(stemEnglish('operate'));
  });

  it('drops stopwords', () => {
    expect(analyzeText('What were the capital expenditures in 2018?')).toEqual(['capital', 'expenditur', '2018']);
    expect(analyzeText('the of and is which')).toEqual([]);
    expect(SPARSE_STOPWORDS.has('the')).toBe(true);
    expect(SPARSE_STOPWORDS.has('us')).toBe(false);
  });

  it('splits hyphenated compounds and keeps the joined word', () => {
    expect(analyzeText('hyper-parameters')).toEqual(['hyper', 'parameter', 'hyperparameter']);
    expect(analyzeText('hyperparameters')).toEqual(['hyperparameter']);
    expect(analyzeText('Form 10-K')).toEqual(['form', '10', 'k', '10k']);
    expect(analyzeText('2017-2019')).toEqual(['2017', '2019']);
  });

  it('handles acronyms, possessives, ampersands and CJK', () => {
    expect(analyzeText("U.S. company's R&D")).toEqual(['us', 'compani', 'r&d']);
    expect(analyzeText('营业收入')).toEqual(['营业', '业收', '收入']);
  });

  it('analyses queries to unique terms', () => {
    expect(analyzeQuery('Table 2 revenues and revenue')).toEqual(['tabl', 'table_2', '2', 'revenu']);
    expect(analyzeQuery('')).toEqual([]);
  });
  it('reads plain ASCII text and the same text with one non-ASCII character alike (two token patterns, one meaning)', () => {
    const ascii = "Fig. 3a: U.S. revenues of $1,482.5 rose 12% (FY2018, Table II, Item 7A, A.1, 10-K, R&D, company's `quoted`)";
    const withAccent = `${ascii} café`;
    expect(analyzeText(withAccent)).toEqual([...analyzeText(ascii), 'cafe']);
    // Words seen before are served from the analyser's memory: same terms the second time.
    expect(analyzeText(ascii)).toEqual(analyzeText(ascii));
  });
});
