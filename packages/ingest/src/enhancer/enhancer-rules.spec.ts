import type { ContentBlock, TitleBlock } from '@doctree/schema';
import { BlockFactory, contentList } from '../__fixtures__/content-blocks.js';
import { captionGuardRule } from './caption-guard.js';
import { enhanceContentList } from './enhance-content-list.js';
import { headingCleanupRule, numberingDepth } from './heading-cleanup.js';
import { referenceMarkingRule } from './reference-marking.js';
import { furnitureTemplate, repeatedFurnitureRule } from './repeated-furniture.js';
import { repairSplitWords, splitWordRepairRule, WordCounts } from './split-word-repair.js';
import { subfigureMergeRule } from './subfigure-merge.js';
import { repairWhitespace, textRepairRule } from './text-repair.js';

const flagsOf = (b: ContentBlock | undefined): string[] => b?.flags ?? [];

describe('repeated header/footer removal', () => {
  it('flags a running header and a page-numbered footer seen on >= 60 % of pages, not body text', () => {
    const f = new BlockFactory();
    const blocks: ContentBlock[] = [];
    for (let p = 0; p < 5; p++) {
      if (p < 4) blocks.push(f.text('ACME Corp | Annual Report 2023', p, [72, 30, 540, 42]));
      blocks.push(f.text(`Unique body text of page ${p} about revenue.`, p));
      blocks.push(f.text(`Page ${p + 1} of 5`, p, [280, 760, 340, 772]));
    }
    blocks.push(f.text('A short top note', 1, [72, 30, 200, 42]));
    const { blocks: out, outcome } = repeatedFurnitureRule().apply(blocks, contentList(blocks, 5));
    expect(outcome.changed).toBe(9);
    expect(out.filter((b) => flagsOf(b).includes('repeated_header'))).toHaveLength(4);
    expect(out.filter((b) => flagsOf(b).includes('repeated_footer'))).toHaveLength(5);
    expect(out.filter((b) => flagsOf(b).length === 0).map((b) => (b as { text: string }).text)).toContain('A short top note');
  });

  it('folds page numbers in templates', () => {
    expect(furnitureTemplate('Page 12 of 40')).toBe(furnitureTemplate('Page 3 of 40'));
    expect(furnitureTemplate('Annual report — xiv')).toBe(furnitureTemplate('Annual report — iv'));
  });
});

describe('caption guard', () => {
  it('turns caption-like titles into captions and leaves real headings and sentences alone', () => {
    const f = new BlockFactory();
    const blocks = [f.title('Figure 3: Accuracy over time', 2), f.title('3 Results', 1), f.text('Table 2: Hyper-parameters'), f.text('Table 2 shows the hyper-parameters we used in every run of the model.')];
    const { blocks: out } = captionGuardRule().apply(blocks, contentList(blocks, 1));
    expect(out[0]).toMatchObject({ type: 'text', text: 'Figure 3: Accuracy over time' });
    expect(flagsOf(out[0])).toEqual(['caption', 'heading_demoted']);
    expect(out[1]!.type).toBe('title');
    expect(flagsOf(out[2])).toEqual(['caption']);
    expect(flagsOf(out[3])).toEqual([]);
  });
});

describe('sub-figure merge', () => {
  it('merges touching image regions on a page into one figure with one caption', () => {
    const f = new BlockFactory();
    const list = contentList(
      [
        f.block({ type: 'image', page_idx: 0, bbox: [72, 100, 250, 250] }),
        f.block({ type: 'image', page_idx: 0, bbox: [255, 100, 430, 250], image_caption: ['Figure 2: (a) train (b) test'] }),
        f.block({ type: 'image', page_idx: 0, bbox: [72, 500, 250, 600] }),
      ],
      1,
    );
    const { blocks: out, outcome } = subfigureMergeRule().apply(list.blocks, list);
    expect(outcome.changed).toBe(1);
    expect(out).toHaveLength(2);
    expect(out[0]).toMatchObject({ bbox: [72, 100, 430, 250], image_caption: ['Figure 2: (a) train (b) test'] });
    expect(flagsOf(out[0])).toContain('merged_subfigure');
  });
});

describe('heading clean-up', () => {
  it('marks table-of-contents pages and demotes their titles', () => {
    const f = new BlockFactory();
    const toc = [f.title('Table of Contents', 1, 1), ...['Item 1. Business 3', 'Item 1A. Risk Factors 9', 'Item 7. MD&A 25', 'Item 8. Financial Statements 40', 'Signatures 90'].map((t) => f.text(t, 1))];
    const blocks = [f.title('Item 1. Business', 1, 2), ...toc];
    const { blocks: out } = headingCleanupRule().apply(blocks, contentList(blocks, 3));
    expect(out.filter((b) => b.page_idx === 1).every((b) => flagsOf(b).includes('toc'))).toBe(true);
    expect(out.find((b) => b.page_idx === 1 && flagsOf(b).includes('heading_demoted'))?.type).toBe('text');
    expect(out[0]!.type).toBe('title');
  });

  it('does not take a statement page with a running "Table of Contents" link for a contents page', () => {
    const f = new BlockFactory();
    const blocks = [
      { ...f.text('Table of Contents', 4, [57, 20, 113, 28]), type: 'header' } as ContentBlock,
      f.title('Consolidated Statement of Income Years ended December 31', 2, 4),
      f.block({ type: 'table', page_idx: 4, table_body: '<table><tr><td>Net sales</td><td>28,436</td></tr></table>', table_caption: [], table_footnote: [] }),
      f.text('The accompanying Notes are an integral part of this statement 2018', 4),
      { ...f.text('56', 4, [294, 740, 301, 750]), type: 'page_number' } as ContentBlock,
    ];
    const { blocks: out } = headingCleanupRule().apply(blocks, contentList(blocks, 5));
    expect(out.some((b) => flagsOf(b).includes('toc'))).toBe(false);
    expect(out[1]!.type).toBe('title');
  });

  it('demotes running titles after their first occurrence', () => {
    const f = new BlockFactory();
    const blocks = [0, 1, 2, 3].map((p) => f.title('Notes to Consolidated Financial Statements', 1, p));
    const { blocks: out } = headingCleanupRule().apply(blocks, contentList(blocks, 4));
    expect(out.map((b) => flagsOf(b).includes('running_title'))).toEqual([false, true, true, true]);
  });

  it('repairs levels from decimal numbering and compacts them to start at 1', () => {
    const f = new BlockFactory();
    const blocks = [f.title('2 Method', 2), f.title('2.1 Data', 2), f.title('2.1.1 Cleaning', 3), f.title('Appendix', 2)];
    const { blocks: out } = headingCleanupRule().apply(blocks, contentList(blocks, 1));
    expect(out.map((b) => (b as TitleBlock).text_level)).toEqual([1, 2, 3, 2]);
    expect(numberingDepth('2019 Annual Report')).toBeUndefined();
    expect(numberingDepth('3.4.1 Results')).toBe(3);
  });
});

describe('hyphenation and whitespace repair', () => {
  it('fixes ligatures, soft hyphens and blank runs', () => {
    expect(repairWhitespace('ef\ufb01cient  and\u00a0e\u00adnough\tspace')).toBe('efficient and enough space');
  });

  it('composes spacing accents drawn before their letter', () => {
    expect(repairWhitespace('RL4F (Aky\u00a8urek et al., 2023), Jes\u00b4us Gonz\u00b4alez, Bartolom\u00b4 e')).toBe('RL4F (Akyürek et al., 2023), Jesús González, Bartolomé');
    expect(repairWhitespace('a price of 5\u00b4 is odd')).toBe('a price of 5\u00b4 is odd');
  });

  it('joins a word split across a column or page break', () => {
    const f = new BlockFactory();
    const blocks = [f.text('We study infor-', 0), f.text('mation retrieval over trees.', 1), f.text('Next paragraph.', 1)];
    const { blocks: out } = textRepairRule().apply(blocks, contentList(blocks, 2));
    expect(out).toHaveLength(2);
    expect(out[0]).toMatchObject({ text: 'We study information retrieval over trees.' });
    expect(flagsOf(out[0])).toContain('hyphenation_repaired');
  });
});

describe('reference-list marking', () => {
  it('flags blocks under References until the next heading of the same level', () => {
    const f = new BlockFactory();
    const blocks = [f.title('6 Conclusion', 1), f.text('We conclude.'), f.title('References', 1), f.text('[1] A. Author. A paper. 2020.'), f.block({ type: 'list', list_items: ['[2] B', '[3] C'], page_idx: 0 }), f.title('A Appendix', 1), f.text('Extra.')];
    const { blocks: out } = referenceMarkingRule().apply(blocks, contentList(blocks, 1));
    expect(out.map((b) => flagsOf(b).includes('reference_list'))).toEqual([false, false, false, true, true, false, false]);
  });
});

describe('enhanceContentList', () => {
  it('runs every rule, reports counts and renumbers read order', () => {
    const f = new BlockFactory();
    const blocks = [f.title('Figure 1: Overview', 1), f.text('Body  text.')];
    const { list, report } = enhanceContentList(contentList(blocks, 1));
    expect(list.stage).toBe('enhanced');
    expect(report.rules.map((r) => r.name)).toEqual(['repeated-furniture', 'split-word-repair', 'caption-guard', 'subfigure-merge', 'heading-cleanup', 'text-repair', 'reference-marking']);
    expect(report.rules.find((r) => r.name === 'caption-guard')?.changed).toBe(1);
    expect(list.blocks.map((b) => b.read_order)).toEqual([0, 1]);
  });
});

describe('split-word repair', () => {
  const counts = (text: string): WordCounts => {
    const c = new WordCounts();
    c.add(text);
    return c;
  };
  const vocabulary = counts(
    'Our business grew. The business of the Company. Balance sheet items; the balance sheet. Cash flows and cash flows. ' +
      'Directors and directors. OVERVIEW overview. Operations, operations. See Part III and Part III. A cross walk across the street, across.',
  );

  it('joins a split tail or head when the whole word is used elsewhere and the piece is not a word', () => {
    expect(repairSplitWords('Item 1. Busines s.', vocabulary)).toBe('Item 1. Business.');
    expect(repairSplitWords('Consolidated Balance Shee t', vocabulary)).toBe('Consolidated Balance Sheet');
    expect(repairSplitWords('Statement of Cash Flow s', vocabulary)).toBe('Statement of Cash Flows');
    expect(repairSplitWords('Item 10. Director s, Executive Officers', vocabulary)).toBe('Item 10. Directors, Executive Officers');
    expect(repairSplitWords('OVERVI EW', vocabulary)).toBe('OVERVIEW');
    expect(repairSplitWords('RESULTS OF OPERATI ONS', vocabulary)).toBe('RESULTS OF OPERATIONS');
    expect(repairSplitWords('Market for Registrant’ s Common Equity', vocabulary)).toBe('Market for Registrant’s Common Equity');
  });

  it('joins roman division numbers after PART / Item / Article', () => {
    expect(repairSplitWords('PART II I', vocabulary)).toBe('PART III');
    expect(repairSplitWords('PART I V', vocabulary)).toBe('PART IV');
    expect(repairSplitWords('Schedule I and II I think', vocabulary)).toBe('Schedule I and II I think');
  });

  it('leaves real word pairs, case changes and unknown joins alone', () => {
    expect(repairSplitWords('a cross walk', vocabulary)).toBe('a cross walk');
    expect(repairSplitWords('Our Business grew', vocabulary)).toBe('Our Business grew');
    expect(repairSplitWords('the Company s', vocabulary)).toBe('the Company s');
    expect(repairSplitWords('Exhibit A and Schedule I', vocabulary)).toBe('Exhibit A and Schedule I');
    expect(repairSplitWords('4D s 10-K', vocabulary)).toBe('4D s 10-K');
  });

  it('repairs titles (with their numbering), text and list items from the document vocabulary', () => {
    const f = new BlockFactory();
    const blocks = [
      { ...(f.title('PART II I', 1) as TitleBlock), numbering: 'PART II' },
      f.title('Consolidated Balance Shee t', 2),
      f.text('The balance sheet shows assets. The balance sheet is audited. Part III covers directors; see Part III.'),
      f.block({ type: 'list', page_idx: 0, list_items: ['Balance Shee t', 'Other items'] }),
    ];
    const { blocks: out, outcome } = splitWordRepairRule().apply(blocks, contentList(blocks, 1));
    expect(outcome.changed).toBe(3);
    expect(out[0]).toMatchObject({ text: 'PART III', numbering: 'PART III' });
    expect(out[1]).toMatchObject({ text: 'Consolidated Balance Sheet' });
    expect(out[3]).toMatchObject({ list_items: ['Balance Sheet', 'Other items'] });
  });
});
