import type { BBox } from '@doctree/schema';
import { rawBlock } from './pdf-blocks.js';
import type { PdfRawBlock } from './pdf-blocks.js';
import { rowTemplate, runningTemplates, splitRunningRows } from './pdf-furniture.js';
import type { PdfLine } from './pdf-lines.js';

const row = (text: string, y: number, size = 10, x = 72): PdfLine => ({
  text,
  bbox: [x, y - size, x + text.length * size * 0.5, y + size * 0.2] as BBox,
  baseline: y,
  size,
  bold: false,
  spans: [],
});

const WORDS = ['alpha', 'bravo', 'charlie', 'delta', 'echo'];

/** Five pages: two paragraphs each, the second ending in a footer row read into it (set at 80 % of the page). */
function pages(footer: (page: number) => string, extra: (page: number) => PdfRawBlock[] = () => []): PdfRawBlock[] {
  const blocks: PdfRawBlock[] = [];
  for (let p = 0; p < 5; p++) {
    const word = WORDS[p]!;
    blocks.push(rawBlock(p, 'body', [row(`Opening paragraph about ${word} trees.`, 100), row(`It continues on a ${word} row.`, 112)]));
    blocks.push(...extra(p));
    blocks.push(rawBlock(p, 'body', [row(`Closing paragraph about ${word}, the last before the footer.`, 600), row(footer(p), 634, 8)]));
  }
  return blocks;
}

const heights = new Map([0, 1, 2, 3, 4].map((p) => [p, 792]));
const texts = (blocks: readonly PdfRawBlock[], zone: PdfRawBlock['zone']): string[] => blocks.filter((b) => b.zone === zone).map((b) => b.lines.map((l) => l.text).join(' '));

describe('rowTemplate', () => {
  it('folds digits and drops a page number read into either end of the row', () => {
    expect(rowTemplate('Northwind Inc. 2021 Form 10-K 4')).toBe(rowTemplate('Northwind Inc. 2021 Form 10-K 117'));
    expect(rowTemplate('User Manual WMF 1500S 21')).toBe(rowTemplate('User Manual WMF 1500S'));
    expect(rowTemplate('12')).toBe('#');
    expect(rowTemplate('Annual report xiv')).toBe(rowTemplate('Annual report'));
    // Letters of any script count (by code point) when deciding whether a page number is dropped.
    expect(rowTemplate('Über 12')).toBe('über');
    expect(rowTemplate('éé 3')).toBe('éé #');
    expect(rowTemplate('𝐀𝐁𝐂 4')).toBe('𝐀𝐁𝐂');
    expect(rowTemplate('𝐀𝐁 4')).toBe('𝐀𝐁 #');
  });
});

describe('splitRunningRows', () => {
  it('takes a running footer set above the bottom band out of the paragraph it was read into', () => {
    const blocks = pages((p) => `Northwind Ltd. 2023 Annual Report ${p + 1}`);
    expect([...runningTemplates(blocks)]).toEqual(['northwind ltd. # annual report']);
    const out = splitRunningRows(blocks, heights, { bodySize: 10 });
    expect(texts(out, 'bottom')).toEqual([1, 2, 3, 4, 5].map((n) => `Northwind Ltd. 2023 Annual Report ${n}`));
    expect(texts(out, 'body').every((t) => !t.includes('Northwind'))).toBe(true);
    expect(texts(out, 'body')).toContain('Closing paragraph about echo, the last before the footer.');
  });

  it('leaves rows that repeat on fewer than 60 % of the pages, and bare numbers away from the page edges', () => {
    const blocks = pages((p) => (p < 2 ? 'Draft for review' : `Closing ${WORDS[p]!} remark`), (p) => [rawBlock(p, 'body', [row('42', 300)])]);
    const out = splitRunningRows(blocks, heights, { bodySize: 10 });
    expect(out).toHaveLength(blocks.length);
    expect(texts(out, 'body')).toContain('42');
  });

  it('takes a chart credit repeating the running header out of a body row, but keeps a larger heading of the same text', () => {
    const blocks: PdfRawBlock[] = [];
    for (let p = 0; p < 4; p++) {
      const word = WORDS[p]!;
      blocks.push(rawBlock(p, 'body', [row('PEW RESEARCH CENTER', 40, 9, 250)]));
      blocks.push(rawBlock(p, 'body', [row(`Opening ${word} text.`, 80)]));
      const merged: PdfLine = {
        ...row('adoption rate of 70%. PEW RESEARCH CENTER', 400),
        pieces: [
          { text: 'adoption rate of 70%.', bbox: [72, 390, 180, 402], size: 10 },
          { text: 'PEW RESEARCH CENTER', bbox: [320, 392, 400, 401], size: 8 },
        ],
      };
      blocks.push(rawBlock(p, 'body', [row('Older adults use the internet at rising', 388), merged, row('rates across every group.', 412)]));
      blocks.push(rawBlock(p, 'body', [row(`More ${word} text in the middle of the page.`, 500)]));
      blocks.push(rawBlock(p, 'body', [row(`Last ${word} row of the page.`, 680), row(`The very last ${word} row.`, 700)]));
    }
    blocks.push(rawBlock(0, 'body', [row('Pew Research Center', 300, 18)]));
    const out = splitRunningRows(blocks, new Map([0, 1, 2, 3].map((p) => [p, 792])), { bodySize: 10 });
    const body = texts(out, 'body');
    expect(body).toContain('Older adults use the internet at rising adoption rate of 70%. rates across every group.');
    expect(body).toContain('Pew Research Center');
    expect(texts(out, 'top')).toHaveLength(4);
    expect(texts(out, 'bottom')).toEqual(['PEW RESEARCH CENTER', 'PEW RESEARCH CENTER', 'PEW RESEARCH CENTER', 'PEW RESEARCH CENTER']);
  });
});
