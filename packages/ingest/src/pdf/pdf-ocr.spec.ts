import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ContentBlock } from '@doctree/schema';
import { adaptPdf } from './pdf-adapter.js';
import { blocksFromTesseractTsv, missingOcrPrograms, ocrPages, pgmHasInk } from './pdf-ocr.js';
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

/** A binary PGM (`P5`) of the given grey levels, one row. */
const pgm = (pixels: number[], header = `P5\n${pixels.length} 1\n255\n`): Uint8Array => new Uint8Array([...Buffer.from(header, 'latin1'), ...pixels]);

describe('pgmHasInk', () => {
  it('sees a blank page (white, or near-white noise) as blank and one dark pixel as ink', () => {
    expect(pgmHasInk(pgm([255, 255, 255, 255]))).toBe(false);
    expect(pgmHasInk(pgm([255, 252, 251, 255]))).toBe(false);
    expect(pgmHasInk(pgm([255, 255, 40, 255]))).toBe(true);
    expect(pgmHasInk(pgm([255, 255, 255], 'P5\n# made by a test\n3 1\n255\n'))).toBe(false);
  });

  it('counts what it cannot read as ink, so OCR still runs', () => {
    expect(pgmHasInk(new Uint8Array(Buffer.from('\x89PNG\r\n')))).toBe(true);
    expect(pgmHasInk(pgm([255, 255], 'P5\n2 1\n65535\n'))).toBe(true);
    expect(pgmHasInk(pgm([255], 'P5\n4 1\n255\n'))).toBe(true);
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

describe('ocrPages on a blank page', () => {
  // A stand-in tesseract that logs each call and finds nothing; pdftoppm is the real one.
  const rendererInstalled = missingOcrPrograms().every((name) => name !== 'pdftoppm');
  (rendererInstalled ? it : it.skip)('renders every page but runs tesseract only on pages with ink', async () => {
    const bin = mkdtempSync(join(tmpdir(), 'doctree-fake-tesseract-'));
    const log = join(bin, 'calls.log');
    writeFileSync(join(bin, 'tesseract'), `#!/bin/sh\necho "$1" >> '${log}'\nprintf 'level\\tpage_num\\n'\n`);
    chmodSync(join(bin, 'tesseract'), 0o755);
    writeFileSync(log, '');
    try {
      const bytes = writeSimplePdf([
        { runs: [], shapes: [{ kind: 'rect', x: 0, y: 0, width: 612, height: 792, gray: 1 }] },
        { runs: [], shapes: blockLetters('TILE', 100, 200) },
      ]);
      const result = await ocrPages(bytes, [0, 1], { filename: 'scan.pdf', tesseract: join(bin, 'tesseract') });
      expect(result.failed).toEqual(new Map());
      expect(readFileSync(log, 'utf8').trim().split('\n')).toEqual([expect.stringMatching(/page-2\.pgm$/)]);
    } finally {
      rmSync(bin, { recursive: true, force: true });
    }
  });
});
