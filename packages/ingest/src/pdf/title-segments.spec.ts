import { headingNumbering } from './pdf-patterns.js';
import { segmentTitles, type SegmentTitle } from './title-segments.js';

/** Titles as `[text, 0-based page]` pairs, numbered as the PDF adapter numbers them. */
const titles = (...rows: Array<[string, number]>): SegmentTitle[] =>
  rows.map(([text, pageIdx]) => {
    const numbering = headingNumbering(text);
    return { text, pageIdx, ...(numbering ? { numbering } : {}) };
  });

/** Segments as `role: first title … last title` strings. */
const describeSegments = (list: SegmentTitle[], pageCount: number, options = {}): string[] =>
  segmentTitles(list, pageCount, options).map((s) => `${s.role}: ${list[s.indices[0]!]!.text} … ${list[s.indices[s.indices.length - 1]!]!.text}`);

describe('segmentTitles', () => {
  const filing = titles(
    ['UNITED STATES SECURITIES AND EXCHANGE COMMISSION', 0],
    ['Washington, D.C. 20549', 0],
    ['FORM 10-K', 0],
    ['NORTHWIND TRADERS INC.', 0],
    ['PART I', 3],
    ['Item 1. Business', 3],
    ['Overview', 3],
    ['PART II', 20],
    ['Item 8. Financial Statements and Supplementary Data', 50],
    ['Consolidated Balance Sheets', 52],
    ['SIGNATURE S', 110],
    ['STOCK AWARD AGREEMENT', 112],
    ['Article 1', 112],
  );

  it('splits a filing into cover page, body from PART I, and what follows the signatures', () => {
    expect(describeSegments(filing, 120)).toEqual([
      'front: UNITED STATES SECURITIES AND EXCHANGE COMMISSION … NORTHWIND TRADERS INC.',
      'body: PART I … Consolidated Balance Sheets',
      'back: SIGNATURE S … Article 1',
    ]);
  });

  it('opens the body with an outer division that appears once (a lone PART over its Items)', () => {
    const list = titles(['Quarterly Report', 0], ['PART II', 1], ['Item 7. Discussion', 1], ['Overview', 1], ['Item 8. Statements', 2]);
    expect(describeSegments(list, 10)).toEqual(['front: Quarterly Report … Quarterly Report', 'body: PART II … Item 8. Statements']);
  });

  it('takes a paper’s title block as front matter before its numbered sections', () => {
    const list = titles(['A Study of Decision Trees', 0], ['Abstract', 0], ['1 Introduction', 0], ['1.1 Background', 1], ['2 Method', 2], ['References', 5]);
    expect(describeSegments(list, 8)).toEqual(['front: A Study of Decision Trees … Abstract', 'body: 1 Introduction … References']);
  });

  it('keeps one body without a division series, or when the first division comes late', () => {
    const plain = titles(['Annual Review', 0], ['Highlights', 0], ['Outlook', 1]);
    expect(describeSegments(plain, 4)).toEqual(['body: Annual Review … Outlook']);
    const late = titles(['Welcome', 0], ['Using the Machine', 10], ['1 Cleaning', 40], ['2 Descaling', 45]);
    expect(describeSegments(late, 60)).toEqual(['body: Welcome … 2 Descaling']);
    expect(segmentTitles([], 5)).toEqual([]);
  });

  it('closes the body only at a closing heading after the last division', () => {
    const early = titles(['PART I', 0], ['Signatures', 1], ['Item 1. Business', 1], ['PART II', 2], ['Item 5. Market', 2]);
    expect(describeSegments(early, 10)).toEqual(['body: PART I … Item 5. Market']);
    const custom = titles(['Chapter 1 Basics', 0], ['Chapter 2 Practice', 3], ['Index', 9], ['A', 9]);
    expect(describeSegments(custom, 10, { closingHeading: /^index$/i })).toEqual(['body: Chapter 1 Basics … Chapter 2 Practice', 'back: Index … A']);
  });
});
