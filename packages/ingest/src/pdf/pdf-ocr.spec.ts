import type { ContentBlock } from '@doctree/schema';
import { adaptPdf } from './pdf-adapter.js';
import { blocksFromTesseractTsv, missingOcrPrograms } from './pdf-ocr.js';
import { writeSimplePdf } from './simple-pdf-writer.js';
import type { PdfShape } from './simple-pdf-writer.js';

/** Tesseract TSV: a header row, then level-5 rows are words (block, paragraph, line, word, box, confidence, text). */
const TSV = [
  'level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext',
  '1\t1\t0\t0\t0\t0\t0\t0\t1700\t2200\t-1\t',
  '5\t1\t1\t1\t1\t1\t200\t300\t180\t40\t96.1\tQuarterly',
  '5\t1\t1\t1\t1\t2\t400\t302\t120\t38\t95.0\tresults',
  '5\t1\t1\t1\t2\t1\t200\t360\t90\t40\t91.2\tgrew',
  '5\t1\t1\t1\t2\t2\t300\t360\t60\t40\t12.0\t~~',
  '5\t1\t2\t1\t1\t1\t200\t600\t200\t40\t88.8\tOutlook',
].join('\n');

describe('blocksFromTesseractTsv', () => {
  it('groups words into lines and paragraphs, scales pixel boxes to points and drops unsure words', () => {
    const blocks = blocksFromTesseractTsv(TSV, 3, 72 / 200);
    expect(blocks.map((b) => b.lines.map((l) => l.text))).toEqual([['Quarterly results', 'grew'], ['Outlook']]);
    expect(blocks[0]).toMatchObject({ page_idx: 3, zone: 'body' });
    expect(blocks[0]!.lines[0]!.bbox).toEqual([72, 108, 187.2, 122.4]);
    expect(blocks[1]!.lines[0]!.size).toBeCloseTo(14.4, 1);
  });
});

describe('missingOcrPrograms', () => {
  it('names tesseract and pdftoppm when they are not on PATH', () => {
    expect(missingOcrPrograms('')).toEqual(['tesseract', 'pdftoppm']);
  });
});

/** Block capitals drawn with filled rectangles: a scanned-looking page with no text layer. */
function blockLetters(word: string, x0: number, y: number): PdfShape[] {
  const shapes: PdfShape[] = [];
  const s = 10;
  const h = 80;
  const w = 50;
  let x = x0;
  for (const ch of word) {
    const r = (dx: number, dy: number, width: number, height: number): void => {
      shapes.push({ kind: 'rect', x: x + dx, y: y + dy, width, height, gray: 0 });
    };
    const strokes: Record<string, Array<[number, number, number, number]>> = {
      T: [
        [0, 0, w, s],
        [w / 2 - s / 2, 0, s, h],
      ],
      I: [[w / 2 - s / 2, 0, s, h]],
      L: [
        [0, 0, s, h],
        [0, h - s, w, s],
      ],
      E: [
        [0, 0, s, h],
        [0, 0, w, s],
        [0, h / 2 - s / 2, w * 0.8, s],
        [0, h - s, w, s],
      ],
    };
    for (const [dx, dy, width, height] of strokes[ch] ?? []) r(dx, dy, width, height);
    x += ch === 'I' ? 35 : 70;
  }
  return shapes;
}

const textOf = (b: ContentBlock): string => ('text' in b ? b.text : '');

describe('adaptPdf on a page without a text layer', () => {
  const bytes = writeSimplePdf([{ runs: [{ text: 'A page with a text layer.', x: 72, y: 90, size: 12 }] }, { runs: [], shapes: blockLetters('TILE', 100, 200) }]);

  it('leaves the page empty with a warning when OCR is off', async () => {
    const list = await adaptPdf(bytes, { docId: 'scan', filename: 'scan.pdf', ocr: false });
    expect(list.pages[1]).toMatchObject({ has_text_layer: false, ocr: false });
    expect(list.blocks.filter((b) => b.page_idx === 1)).toEqual([]);
    expect(list.warnings.map((w) => w.code)).toEqual(['NO_TEXT_LAYER', 'OCR_UNAVAILABLE']);
  });

  const ocrInstalled = missingOcrPrograms().length === 0;
  (ocrInstalled ? it : it.skip)('reads it with tesseract when tesseract and pdftoppm are installed', async () => {
    const list = await adaptPdf(bytes, { docId: 'scan', filename: 'scan.pdf' });
    expect(list.pages[1]).toMatchObject({ has_text_layer: false, ocr: true });
    expect(list.blocks.filter((b) => b.page_idx === 1).map(textOf)).toEqual(['TILE']);
    expect(list.warnings.map((w) => w.code)).toEqual(['NO_TEXT_LAYER', 'OCR_APPLIED']);
  });
});
