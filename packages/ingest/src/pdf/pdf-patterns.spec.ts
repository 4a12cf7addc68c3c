import { headingNumbering, isPageNumberText, listMarker, looksLikeEquation } from './pdf-patterns.js';

describe('listMarker', () => {
  it.each([
    ['• Pruning helps', 'bullet', '•', 'Pruning helps'],
    ['- dash item', 'bullet', '-', 'dash item'],
    ['– en dash item', 'bullet', '–', 'en dash item'],
    ['* starred item', 'bullet', '*', 'starred item'],
    ['\uf0b7 Wingdings bullet', 'bullet', '\uf0b7', 'Wingdings bullet'],
    ['1. First step', 'ordered', '1.', 'First step'],
    ['(a) first clause', 'ordered', '(a)', 'first clause'],
    ['iv. fourth', 'ordered', 'iv.', 'fourth'],
    ['[12] A. Author. A paper. 2020.', 'reference', '[12]', 'A. Author. A paper. 2020.'],
  ])('reads %j as a %s item', (text, kind, marker, rest) => {
    expect(listMarker(text)).toEqual({ kind, marker, rest });
  });

  it.each(['2.3 Method', '-5% margin', '2022. Revenue grew', 'Plain sentence.', 'A. Smith wrote'])('leaves %j alone', (text) => {
    expect(listMarker(text)).toBeUndefined();
  });
});

describe('headingNumbering', () => {
  it.each([
    ['2.3 Method', 'decimal', '2.3', 2],
    ['2.3.1 Details', 'decimal', '2.3.1', 3],
    ['1 Introduction', 'decimal', '1', 1],
    ['Item 7. Management’s Discussion', 'item', 'Item 7', 1],
    ['ITEM 7A. QUANTITATIVE DISCLOSURES', 'item', 'Item 7A', 1],
    ['PART II', 'part', 'PART II', 1],
    ['Part iv — Exhibits', 'part', 'PART IV', 1],
    ['Chapter 3 Trees', 'chapter', 'Chapter 3', 1],
    ['Appendix A Proofs', 'appendix', 'Appendix A', 1],
    ['II. RELATED WORK', 'roman', 'II', 1],
    ['B. Datasets', 'letter', 'B', 2],
    ['NOTE 1. Significant Accounting Policies', 'note', 'Note 1', 1],
    ['Note 12 - Long-Term Debt', 'note', 'Note 12', 1],
    ['Note 3: Revenue', 'note', 'Note 3', 1],
  ])('reads %j', (text, kind, numbering, depth) => {
    expect(headingNumbering(text)).toEqual({ kind, text: numbering, depth });
  });

  it.each(['2022 was a good year', 'Results', '4D Company', '10,000 units', 'Note 3 describes the plans', 'Notes to Consolidated Financial Statements'])('finds none in %j', (text) => {
    expect(headingNumbering(text)).toBeUndefined();
  });
});

describe('isPageNumberText', () => {
  it.each(['12', 'Page 12', 'Page 12 of 40', '12 / 40', '- 12 -', '— 7 —', 'xii', 'F-3', '| 5'])('accepts %j', (text) => {
    expect(isPageNumberText(text)).toBe(true);
  });

  it.each(['Revenue', '2022 Annual Report', 'Table 12', '12.5%', ''])('rejects %j', (text) => {
    expect(isPageNumberText(text)).toBe(false);
  });

  it('accepts the page’s own label', () => {
    expect(isPageNumberText('A-ii', 'A-ii')).toBe(true);
  });
});

describe('looksLikeEquation', () => {
  it.each(['E = mc2', 'y = f(x) + ε', 'L(θ) = −∑ log p(x)', 'a² + b² = c²', '∀x ∈ X : x ≥ 0'])('accepts %j', (text) => {
    expect(looksLikeEquation(text)).toBe(true);
  });

  it.each([
    'Total revenue = 5 billion dollars this year',
    'We set the learning rate to 0.1 for all runs.',
    'Net income increased 12% compared with last year',
    '2022 2021 2020',
  ])('rejects prose %j', (text) => {
    expect(looksLikeEquation(text)).toBe(false);
  });
});
