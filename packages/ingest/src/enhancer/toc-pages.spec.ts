import type { ContentBlock } from '@doctree/schema';
import { BlockFactory } from '../__fixtures__/content-blocks.js';
import { findTocPages, inlinePageReferences, isTocLine } from './toc-pages.js';

describe('isTocLine', () => {
  it('takes a line ending in a page number the document can reach', () => {
    expect(isTocLine('Item 7. Management’s Discussion and Analysis 25', 120)).toBe(true);
    expect(isTocLine('Introduction ........ 3', 120)).toBe(true);
    expect(isTocLine('Preface   xi', 120)).toBe(true);
  });

  it('rejects dates and years past the document’s pages', () => {
    expect(isTocLine('Jane Roe, Director August 17, 2023', 120)).toBe(false);
    expect(isTocLine('Fiscal year ended 2023', 120)).toBe(false);
    expect(isTocLine('Net sales grew in every segment', 120)).toBe(false);
  });
});

describe('inlinePageReferences', () => {
  it('reads the page numbers after entries of a contents list set as running text', () => {
    expect(inlinePageReferences('Balance Sheets 7 Statements of Equity 8 Statements of Cash Flows 9 Notes 10', 70)).toEqual([7, 8, 9, 10]);
    expect(inlinePageReferences('Legal Proceedings 60 Item 1A. Risk Factors 60 Item 2.', 70)).toEqual([60, 60]);
    expect(inlinePageReferences('ITEM 1 Business 4 ITEM 2 Properties 16', 70)).toEqual([4, 16]);
  });

  it('finds none in a sentence or a dated line', () => {
    expect(inlinePageReferences('Revenue rose 12 percent in the year.', 70)).toEqual([]);
    expect(inlinePageReferences('Signed on behalf of the Board August 17, 2023', 70)).toEqual([]);
  });
});

describe('findTocPages', () => {
  const entries = ['Item 1. Business 3', 'Item 1A. Risk Factors 9', 'Item 7. Discussion and Analysis 25', 'Item 8. Financial Statements 40', 'Signatures 90'];

  it('finds a page of lines ending in page numbers, headers and footers aside', () => {
    const f = new BlockFactory();
    const blocks = [
      { ...f.text('Table of Contents', 1, [57, 20, 113, 28]), type: 'header' } as ContentBlock,
      ...entries.map((t) => f.text(t, 1)),
      f.text('Body text on another page that runs to its full stop.', 2),
    ];
    expect([...findTocPages(blocks, 100).keys()]).toEqual([1]);
  });

  it('does not take a signature page, where every name ends in a date, for contents', () => {
    const f = new BlockFactory();
    const names = ['Ann Lee', 'Bo Chan', 'Cy Diaz', 'Di Ekberg', 'Ed Fox', 'Flo Gray'].map((n) => f.text(`/s/ ${n} ${n}, Director August 17, 2023`, 4));
    const blocks = [f.title('Signatures', 7, 4), ...names];
    expect(findTocPages(blocks, 120).size).toBe(0);
  });

  it('finds a contents list set as one run of text under a contents title, and starts it at the title', () => {
    const f = new BlockFactory();
    const blocks = [
      f.title('Item 8. Financial Statements and Supplementary Data', 2, 3),
      f.title('Index to the Consolidated Financial Statements', 3, 3),
      f.text('Statements of Operations 48 Statements of Comprehensive Income 49 Statements of Financial Position 50 Statements of Cash Flows 51 Notes 53', 3),
    ];
    expect([...findTocPages(blocks, 120)]).toEqual([[3, 1]]);
  });

  it('finds a dense run of ascending page references without a title, but not a numbered legend', () => {
    const f = new BlockFactory();
    const toc = f.text(
      'ITEM 1 Business 4 ITEM 1A Risk Factors 10 ITEM 1B Unresolved Staff Comments 16 ITEM 2 Properties 16 ITEM 3 Legal Proceedings 17 ITEM 4 Mine Safety 17 ITEM 5 Market 18 ITEM 6 Reserved 18 ITEM 7 Discussion 19 ITEM 8 Statements 43',
      1,
    );
    const legend = f.text(
      'Parts: 1 Bean hopper 2 Powder hopper 3 Manual insert 4 Touch display 5 Spout 6 Drip tray 7 Grounds container 8 Water tank 9 Steam wand 10 Cup rest 11 Lid',
      6,
    );
    expect([...findTocPages([toc, legend], 120).keys()]).toEqual([1]);
  });
});
