import type { BBox } from '@doctree/schema';
import type { PdfRawBlock } from './pdf-blocks.js';
import { PdfVocabulary, classifyBlocks, joinBlockLines, titleLook } from './pdf-classify.js';
import type { PdfLine } from './pdf-lines.js';

const line = (text: string, y: number, size = 10, bold = false): PdfLine => ({
  text,
  bbox: [72, y - size, 72 + text.length * size * 0.5, y + size * 0.2] as BBox,
  baseline: y,
  size,
  bold,
  spans: [],
});

const block = (pageIdx: number, lines: PdfLine[], zone: PdfRawBlock['zone'] = 'body'): PdfRawBlock => ({
  page_idx: pageIdx,
  zone,
  lines,
  bbox: [72, lines[0]!.bbox[1], 400, lines[lines.length - 1]!.bbox[3]],
  size: lines[0]!.size,
  bold: lines[0]!.bold,
});

describe('joinBlockLines', () => {
  it('joins lines with single spaces', () => {
    expect(joinBlockLines(['Trees split data', '  into regions.  '])).toBe('Trees split data into regions.');
  });

  it('removes a line-break hyphen that splits a word', () => {
    expect(joinBlockLines(['a good exam-', 'ple of greed'])).toBe('a good example of greed');
    expect(joinBlockLines(['toxi-', 'city'])).toBe('toxicity');
  });

  it('keeps the hyphen of compounds', () => {
    expect(joinBlockLines(['a self-', 'supervised model'])).toBe('a self-supervised model');
    expect(joinBlockLines(['the state-of-the-', 'art results'])).toBe('the state-of-the-art results');
    expect(joinBlockLines(['an API-', 'based tool'])).toBe('an API-based tool');
    expect(joinBlockLines(['COVID-', '19 cases'])).toBe('COVID-19 cases');
  });

  it('decides with the document’s own words when they tell', () => {
    const vocabulary = new PdfVocabulary();
    vocabulary.addLine('We use data-driven methods and a well-known multiple baseline.');
    expect(joinBlockLines(['purely data-', 'driven'], vocabulary)).toBe('purely data-driven');
    expect(joinBlockLines(['multi-', 'ple runs'], vocabulary)).toBe('multiple runs');
  });

  it('drops soft hyphens', () => {
    expect(joinBlockLines(['inter\u00ad', 'national'])).toBe('international');
  });

  it('reads the word before a line-break hyphen after digits, dashes and punctuation as before', () => {
    expect(joinBlockLines(['item 7-exam-', 'ple text'])).toBe('item 7-example text');
    expect(joinBlockLines(['a 2--b-', 'ased thing'])).toBe('a 2--based thing');
    expect(joinBlockLines(['x\u2010', 'ray'])).toBe('xray');
    // No letter before the hyphen: not a split word.
    expect(joinBlockLines(['see (-', 'ple)'])).toBe('see (- ple)');
    expect(joinBlockLines(['-', 'next'])).toBe('- next');
    expect(joinBlockLines(['é-', 'tude'])).toBe('é- tude');
  });

  it('joins a long paragraph in time linear in its length', () => {
    const lines = Array.from({ length: 8000 }, (_, i) => (i % 3 === 0 ? 'the results of an exam-' : 'ple of the long block of text'));
    const started = performance.now();
    const text = joinBlockLines(lines);
    expect(text.startsWith('the results of an example of the long block of text ple')).toBe(true);
    // The end-anchored regex it replaced took over ten seconds here (every line rescanned the whole text).
    expect(performance.now() - started).toBeLessThan(2500);
  });
});

describe('titleLook', () => {
  const look = (text: string, size: number, bold: boolean, lines = 1): boolean =>
    titleLook({ size, bold, lines: Array.from({ length: lines }, (_, i) => line(text, 100 + i * 12, size, bold)) }, text, 10) !== undefined;

  it('accepts larger, bold, all-caps and numbered headings', () => {
    expect(look('Results', 14, false)).toBe(true);
    expect(look('Available Information', 10, true)).toBe(true);
    expect(look('CONSOLIDATED STATEMENTS OF CASH FLOWS', 10, false)).toBe(true);
    expect(look('2.3 Experimental Setup', 10, false)).toBe(true);
    expect(look('Item 7. Management’s Discussion and Analysis', 10, false)).toBe(true);
  });

  it('accepts numbered divisions that end in a full stop and numbered notes', () => {
    expect(look('Item 7. Management’s Discussion and Analysis of Financial Condition and Results of Operations.', 10, true)).toBe(true);
    expect(look('Item 1A. Risk Factors.', 10, false)).toBe(true);
    expect(look('NOTE 1. Significant Accounting Policies', 10, true)).toBe(true);
    expect(look('Note 12 - Long-Term Debt', 10, false)).toBe(true);
    expect(look('Notes to Consolidated Financial Statements', 10, true)).toBe(true);
    expect(look('Table of Contents', 10, true)).toBe(true);
  });

  it('rejects paragraphs, captions, table rows and lower-case starts', () => {
    expect(look('We train the model on all data and report the mean over five runs with different seeds.', 10, true)).toBe(false);
    expect(look('Figure 3: Accuracy by depth', 10, true)).toBe(false);
    expect(look('TABLE II', 10, true)).toBe(false);
    expect(look('Note: amounts may not add due to rounding', 10, true)).toBe(false);
    expect(look('Note 3. Amounts are in millions.', 10, false)).toBe(false);
    expect(look('Total net sales $ 34,229 $ 35,355', 10, true)).toBe(false);
    expect(look('continued from the previous page', 14, false)).toBe(false);
    expect(look('1. We expect growth', 10, false)).toBe(false);
    expect(look('Footnote in small bold', 7, true)).toBe(false);
  });
});

describe('classifyBlocks', () => {
  const context = { bodySize: 10, outline: [], pageSizes: new Map([[0, { width: 612, height: 792 }]]) };

  it('nests unnumbered headings under PART / Item headings of the same style', () => {
    const blocks = classifyBlocks(
      [
        block(0, [line('PART II', 100, 10, true)]),
        block(0, [line('Item 7. Management’s Discussion and Analysis', 120, 10, true)]),
        block(0, [line('Overview of Results', 140, 10, true)]),
        block(0, [line('Revenue grew in every segment this year and margins improved.', 160)]),
        block(0, [line('Liquidity and Capital Resources', 180, 10, true)]),
        block(0, [line('Item 8. Financial Statements', 200, 10, true)]),
      ],
      context,
    );
    expect(blocks.map((b) => (b.type === 'title' ? [b.text_level, b.numbering ?? null] : b.type))).toEqual([
      [1, 'PART II'],
      [2, 'Item 7'],
      [3, null],
      'text',
      [3, null],
      [2, 'Item 8'],
    ]);
  });

  it('levels the cover page, the body and the documents after the signatures each on their own', () => {
    const pageSizes = new Map(Array.from({ length: 40 }, (_, p) => [p, { width: 612, height: 792 }] as const));
    const blocks = classifyBlocks(
      [
        block(0, [line('UNITED STATES SECURITIES AND EXCHANGE COMMISSION', 60, 16, true)]),
        block(0, [line('Washington, D.C. 20549', 80, 10, true)]),
        block(0, [line('FORM 10-K', 100, 16, true)]),
        block(0, [line('Commission file number 1-1234', 120, 10, true)]),
        block(2, [line('PART I', 60, 10, true)]),
        block(2, [line('Item 1. Business.', 80, 10, true)]),
        block(2, [line('Our business sells trees to gardens in many countries.', 100)]),
        block(2, [line('Distribution', 120, 10, true)]),
        block(9, [line('PART II', 60, 10, true)]),
        block(9, [line('Item 8. Financial Statements and Supplementary Data.', 80, 10, true)]),
        block(9, [line('CONSOLIDATED BALANCE SHEETS', 100, 10, true)]),
        block(30, [line('SIGNATURES', 60, 10, true)]),
        block(30, [line('Pursuant to the requirements of the Act the report is signed.', 80)]),
        block(31, [line('STOCK AWARD AGREEMENT', 60, 12, true)]),
        block(31, [line('Vesting', 80, 10, true)]),
      ],
      { ...context, pageSizes },
    );
    expect(blocks.filter((b) => b.type === 'title').map((b) => (b.type === 'title' ? `${b.text_level} ${b.text}` : ''))).toEqual([
      // Cover lines rank by their own styles (all caps above mixed case) and close before PART I.
      '1 UNITED STATES SECURITIES AND EXCHANGE COMMISSION',
      '3 Washington, D.C. 20549',
      '2 FORM 10-K',
      '3 Commission file number 1-1234',
      '1 PART I',
      '2 Item 1. Business.',
      '3 Distribution',
      '1 PART II',
      '2 Item 8. Financial Statements and Supplementary Data.',
      '3 CONSOLIDATED BALANCE SHEETS',
      '1 SIGNATURES',
      '1 STOCK AWARD AGREEMENT',
      '2 Vesting',
    ]);
  });

  it('nests a run-in paragraph heading inside the numbered section before it', () => {
    const blocks = classifyBlocks(
      [
        block(0, [line('3 Methodologies', 100, 12, true)]),
        block(0, [line('3.1 Training-Time Correction', 120, 11, true)]),
        block(0, [line('Direct Optimization with Human Feedback.', 140, 11, true)]),
        block(0, [line('In an ideal scenario we would use human feedback directly to train the model.', 160)]),
        block(0, [line('3.2 Generation-Time Correction', 180, 11, true)]),
      ],
      context,
    );
    expect(blocks.map((b) => (b.type === 'title' ? b.text_level : b.type))).toEqual([1, 2, 3, 'text', 2]);
  });

  it('puts numbered notes at one level below the notes title, and their sub-headings inside them', () => {
    const blocks = classifyBlocks(
      [
        block(0, [line('Item 8. Financial Statements and Supplementary Data.', 100, 10, true)]),
        block(0, [line('Consolidated Statement of Income', 120, 10, true)]),
        block(0, [line('Notes to Consolidated Financial Statements', 140, 10, true)]),
        block(0, [line('NOTE 1. Significant Accounting Policies', 160, 10, true)]),
        block(0, [line('Consolidation: the statements include all subsidiaries.', 180)]),
        block(0, [line('Earnings Per Share Computations', 200, 10, true)]),
        block(0, [line('NOTE 2. Revenue', 220, 10, true)]),
        block(0, [line('Item 9. Changes in and Disagreements With Accountants.', 240, 10, true)]),
      ],
      context,
    );
    expect(blocks.map((b) => (b.type === 'title' ? [b.text_level, b.numbering ?? null] : b.type))).toEqual([
      [1, 'Item 8'],
      [2, null],
      [2, null],
      [3, 'Note 1'],
      'text',
      [4, null],
      [3, 'Note 2'],
      [1, 'Item 9'],
    ]);
  });

  it('reads a line at the top edge of one page only as body text (a statement title set high), not a running header', () => {
    const pages = new Map([0, 1, 2, 3].map((p) => [p, { width: 612, height: 792 }]));
    const raws: PdfRawBlock[] = [];
    for (let p = 0; p < 4; p++) {
      raws.push(block(p, [line('ACME Corp Quarterly Report', 30, 9)], 'top'));
      if (p === 2) raws.push(block(p, [line('CONDENSED CONSOLIDATED STATEMENTS OF CASH FLOWS', 45, 10)], 'top'));
      raws.push(block(p, [line(`Body text of page ${p + 1} with enough words to be a paragraph.`, 200)]));
    }
    const blocks = classifyBlocks(raws, { ...context, pageSizes: pages });
    expect(blocks.filter((b) => b.type === 'header')).toHaveLength(4);
    expect(blocks.find((b) => b.page_idx === 2 && b.type === 'title')).toMatchObject({ text: 'CONDENSED CONSOLIDATED STATEMENTS OF CASH FLOWS' });
  });

  it('types the furniture bands and merges consecutive list items', () => {
    const blocks = classifyBlocks(
      [
        block(0, [line('Annual Report 2022', 30, 8)], 'top'),
        block(0, [line('• first point', 100)]),
        block(0, [line('• second point', 112), line('continues here', 124)]),
        block(0, [line('Page 3 of 9', 770, 8)], 'bottom'),
      ],
      context,
    );
    expect(blocks.map((b) => [b.type, 'text' in b ? b.text : 'list_items' in b ? b.list_items : null])).toEqual([
      ['header', 'Annual Report 2022'],
      ['list', ['first point', 'second point continues here']],
      ['page_number', 'Page 3 of 9'],
    ]);
  });
});
