import type { DocTree, DocTreeNode } from '@doctree/schema';
import { enhanceContentList } from '../enhancer/enhance-content-list.js';
import { adaptPdf } from '../pdf/pdf-adapter.js';
import { writeSimplePdf, type PdfTextRun } from '../pdf/simple-pdf-writer.js';
import { buildDocTree } from './tree-builder.js';

/** Body lines at 10 pt, 13 pt apart, from `y`. */
const body = (text: string, y: number, lines = 3): PdfTextRun[] =>
  Array.from({ length: lines }, (_, i) => ({ text: `${text} line ${i + 1} of the discussion continues with ordinary words here.`, x: 72, y: y + i * 13, size: 10 }));

const heading = (text: string, y: number, size = 10): PdfTextRun => ({ text, x: 72, y, size, bold: true });

/**
 * A small annual filing: a cover page in large type, a contents page, PART I / PART II with Items, statements and
 * numbered notes under Item 8, a signature page whose names end in dates, and an award agreement appended after it.
 */
function filingPdf(): Uint8Array {
  return writeSimplePdf([
    {
      runs: [
        heading('UNITED STATES SECURITIES AND EXCHANGE COMMISSION', 60, 16),
        heading('Washington, D.C. 20549', 84),
        heading('FORM 10-K', 110, 16),
        heading('NORTHWIND TRADERS INC.', 140, 16),
        ...body('Cover', 170),
      ],
    },
    {
      runs: [
        heading('Table of Contents', 60),
        ...['Item 1. Business 3', 'Item 1A. Risk Factors 3', 'Item 7. Discussion and Analysis 4', 'Item 8. Financial Statements 4', 'Signatures 5'].map((text, i) => ({ text, x: 72, y: 90 + i * 14, size: 10 })),
      ],
    },
    { runs: [heading('PART I', 60), heading('Item 1. Business.', 80), ...body('Business', 100), heading('Distribution', 150), ...body('Distribution', 170)] },
    {
      runs: [
        heading('PART II', 60),
        heading('Item 8. Financial Statements and Supplementary Data.', 80),
        heading('Consolidated Balance Sheets', 100),
        ...body('Balance', 120),
        heading('Notes to Consolidated Financial Statements', 170),
        heading('NOTE 1. Significant Accounting Policies', 190),
        ...body('Policies', 210),
        heading('NOTE 2. Revenue', 260),
        ...body('Revenue', 280),
      ],
    },
    {
      runs: [
        heading('SIGNATURES', 60),
        ...body('Signed', 80, 2),
        ...['Ann Lee', 'Bo Chan', 'Cy Diaz', 'Di Ekberg', 'Ed Fox', 'Flo Gray'].map((name, i) => ({ text: `/s/ ${name}    Director    August 17, 2023`, x: 72, y: 130 + i * 14, size: 10 })),
      ],
    },
    { runs: [heading('STOCK AWARD AGREEMENT', 60, 13), ...body('Award', 84), heading('Vesting', 130), ...body('Vesting', 150)] },
  ]);
}

/** Sections as `depth title (parent title)`. */
function sections(tree: DocTree): string[] {
  const byId = new Map(tree.nodes.map((n) => [n.node_id, n]));
  const parentTitle = (n: DocTreeNode): string => {
    const parent = n.parent_id ? byId.get(n.parent_id) : undefined;
    return parent?.role === 'section' ? (parent.title ?? '') : 'root';
  };
  return tree.nodes.filter((n) => n.role === 'section').map((n) => `${n.level} ${n.title} (${parentTitle(n)})`);
}

describe('section depth of a generated filing', () => {
  let tree: DocTree;
  beforeAll(async () => {
    const adapted = await adaptPdf(filingPdf(), { docId: 'filing', filename: 'filing.pdf' });
    tree = buildDocTree(enhanceContentList(adapted).list);
  });

  it('keeps the cover page from enclosing the filing: PART at level 1, Items at 2, statements and notes below', () => {
    const list = sections(tree);
    expect(list).toEqual(
      expect.arrayContaining([
        '1 PART I (root)',
        '2 Item 1. Business. (PART I)',
        '3 Distribution (Item 1. Business.)',
        '1 PART II (root)',
        '2 Item 8. Financial Statements and Supplementary Data. (PART II)',
        '3 Consolidated Balance Sheets (Item 8. Financial Statements and Supplementary Data.)',
        '3 Notes to Consolidated Financial Statements (Item 8. Financial Statements and Supplementary Data.)',
        '4 NOTE 1. Significant Accounting Policies (Notes to Consolidated Financial Statements)',
        '4 NOTE 2. Revenue (Notes to Consolidated Financial Statements)',
      ]),
    );
    const cover = tree.nodes.find((n) => n.role === 'section' && n.title === 'UNITED STATES SECURITIES AND EXCHANGE COMMISSION')!;
    expect(cover.level).toBe(1);
    expect(cover.page_span[1]).toBeLessThan(2);
  });

  it('does not turn the contents page into sections, nor the signature page into a contents page', () => {
    const titles = tree.nodes.filter((n) => n.role === 'section').map((n) => n.title);
    expect(titles).not.toContain('Table of Contents');
    expect(titles.filter((t) => t?.startsWith('Item 1.'))).toHaveLength(1);
    expect(sections(tree)).toContain('1 SIGNATURES (root)');
  });

  it('puts the agreement appended after the signatures at the top, not inside the last Item', () => {
    expect(sections(tree)).toEqual(expect.arrayContaining(['1 STOCK AWARD AGREEMENT (root)', '2 Vesting (STOCK AWARD AGREEMENT)']));
  });
});
