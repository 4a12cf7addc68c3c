import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { ContentListSchema, DocTreeError } from '@doctree/schema';
import type { ContentBlock, ContentList, DocTreeErrorCode } from '@doctree/schema';
import { adaptPdf } from './pdf-adapter.js';
import { extractPdfPages } from './pdf-text-layer.js';
import { writeSimplePdf } from './simple-pdf-writer.js';
import type { PdfPageSpec, PdfTextRun, SimplePdfOptions } from './simple-pdf-writer.js';

// ---------------------------------------------------------------------------------------------
// Fixtures: every PDF is generated with writeSimplePdf, except ../__fixtures__/pdf/encrypted.pdf
// (see the README there), so no licensed document is needed.
// ---------------------------------------------------------------------------------------------

/** Lines of a paragraph, one run per line, `pitch` points apart. */
function paragraph(lines: readonly string[], x: number, y: number, options: { size?: number; pitch?: number; bold?: boolean } = {}): PdfTextRun[] {
  const size = options.size ?? 11;
  const pitch = options.pitch ?? size * 1.3;
  return lines.map((text, i) => ({ text, x, y: y + i * pitch, size, ...(options.bold ? { bold: true } : {}) }));
}

/** Body text filler with a marker word, wrapped at about `width` characters per line. */
function filler(marker: string, lineCount: number, width = 78): string[] {
  const words = `${marker} trees split data into regions and each leaf predicts a value for the samples that reach it while the depth of the tree limits how far the model can adapt to noise in the training set`.split(' ');
  const lines: string[] = [];
  let current = '';
  let i = 0;
  while (lines.length < lineCount) {
    const word = words[i % words.length]!;
    i++;
    if ((current + ' ' + word).trim().length > width) {
      lines.push(current.trim());
      current = '';
    }
    current += ' ' + word;
  }
  return lines;
}

/**
 * A two-page single-column "paper": a 20 pt title, numbered headings at 14 / 12 / 11 pt bold
 * (`2.1 Setup` is set at 14 pt like a section, so only its numbering tells its level), paragraphs
 * with line-break hyphens, a bullet list, an ordered list, an equation, a running header and
 * page numbers.
 */
function paperPdf(): Uint8Array {
  const page1: PdfTextRun[] = [
    { text: 'A Study of Decision Trees', x: 160, y: 90, size: 20, bold: true },
    ...paragraph(filler('Abstract', 3), 72, 130),
    { text: '1 Introduction', x: 72, y: 200, size: 14, bold: true },
    ...paragraph([...filler('Opening', 2), 'The split criterion is a good exam-', 'ple of a greedy choice made at every node of the tree.'], 72, 225),
    { text: '1.1 Background', x: 72, y: 310, size: 12, bold: true },
    ...paragraph(filler('Background', 3), 72, 333),
    { text: '1.1.1 Early Work', x: 72, y: 400, size: 11, bold: true },
    ...paragraph(filler('Early', 2), 72, 422),
    ...paragraph(['\u2022 Pruning removes branches that do not help.', '\u2022 Bagging averages many trees trained on', '   resampled data.', '\u2022 Boosting fits trees to the residuals.'], 72, 470),
    ...paragraph(['1. Grow the tree until every leaf is pure.', '2. Prune it back on held-out data.'], 72, 545),
    { text: '1', x: 303, y: 760, size: 10 },
  ];
  const page2: PdfTextRun[] = [
    { text: 'A Study of Decision Trees', x: 72, y: 40, size: 9 },
    { text: '2 Method', x: 72, y: 90, size: 14, bold: true },
    ...paragraph(filler('Method', 3), 72, 115),
    { text: '2.1 Setup', x: 72, y: 180, size: 14, bold: true },
    ...paragraph(['We train a self-', 'supervised model first and then fit the trees on its features,', 'which keeps the whole pipeline simple to reproduce.'], 72, 205),
    { text: 'E = mc2', x: 280, y: 270, size: 11 },
    ...paragraph(filler('Closing', 3), 72, 300),
    { text: '- 2 -', x: 296, y: 760, size: 10 },
  ];
  return writeSimplePdf([{ runs: page1 }, { runs: page2 }], { title: 'A Study of Decision Trees' });
}

/** Paragraph lines for one column (about 44 characters wide at 10 pt). */
const column = (marker: string, count: number): string[] => filler(marker, count, 44);

/**
 * A two-column page: a full-width title, two paragraphs per column, a full-width heading across
 * the gutter, then one more paragraph per column. Baselines of both columns line up, so only the
 * gutter keeps them apart.
 */
function twoColumnPdf(): Uint8Array {
  const left = 56;
  const right = 320;
  const runs: PdfTextRun[] = [
    { text: 'Forests of Randomised Trees in Practice', x: 130, y: 80, size: 18, bold: true },
    ...paragraph(column('Alpha', 5), left, 120, { size: 10, pitch: 12 }),
    ...paragraph(column('Bravo', 5), left, 200, { size: 10, pitch: 12 }),
    ...paragraph(column('Charlie', 5), right, 120, { size: 10, pitch: 12 }),
    ...paragraph(column('Delta', 5), right, 200, { size: 10, pitch: 12 }),
    { text: 'Results Measured Across Both Columns of the Page', x: 120, y: 300, size: 14, bold: true },
    ...paragraph(column('Echo', 6), left, 330, { size: 10, pitch: 12 }),
    ...paragraph(column('Foxtrot', 6), right, 330, { size: 10, pitch: 12 }),
  ];
  return writeSimplePdf([{ runs }]);
}

/**
 * Headings that all share one style (12 pt bold) and an outline nesting them: only the outline
 * can tell their levels. `Definitions` is set in body text and becomes a title through the outline.
 */
function outlinePdf(): Uint8Array {
  const pages: PdfPageSpec[] = [
    {
      runs: [
        { text: 'Overview', x: 72, y: 90, size: 12, bold: true },
        ...paragraph(filler('Overview', 3), 72, 115),
        { text: 'Scope', x: 72, y: 180, size: 12, bold: true },
        ...paragraph(filler('Scope', 3), 72, 205),
        { text: 'Definitions', x: 72, y: 270 },
        ...paragraph(filler('Definitions', 3), 72, 295),
      ],
    },
    {
      runs: [
        { text: 'Results', x: 72, y: 90, size: 12, bold: true },
        ...paragraph(filler('Results', 3), 72, 115),
        { text: 'Accuracy', x: 72, y: 180, size: 12, bold: true },
        ...paragraph(filler('Accuracy', 3), 72, 205),
      ],
    },
  ];
  const options: SimplePdfOptions = {
    outline: [
      { title: 'Overview', pageIdx: 0, level: 1 },
      { title: 'Scope', pageIdx: 0, level: 2 },
      { title: 'Definitions', pageIdx: 0, level: 3 },
      { title: 'Results', pageIdx: 1, level: 1 },
      { title: 'Accuracy', pageIdx: 1, level: 2 },
    ],
  };
  return writeSimplePdf(pages, options);
}

/** Four pages with running headers, a footer and page numbers in four styles. */
function furniturePdf(): Uint8Array {
  const numbers = ['12', 'Page 2 of 4', '- 3 -', 'iv'];
  const pages: PdfPageSpec[] = numbers.map((number, i) => ({
    runs: [
      { text: 'ACME Corp Annual Report', x: 72, y: 36, size: 9 },
      ...paragraph(filler(`Page${i}`, 6), 72, 100),
      { text: 'Confidential', x: 72, y: 765, size: 8 },
      { text: number, x: 500, y: 765, size: 9 },
    ],
  }));
  return writeSimplePdf(pages);
}

/** Page 1 has text, page 2 only a filled rectangle (a "scan"), page 3 text again. */
function partlyScannedPdf(): Uint8Array {
  return writeSimplePdf([
    { runs: paragraph(filler('First', 3), 72, 100) },
    { runs: [], shapes: [{ kind: 'rect', x: 50, y: 50, width: 500, height: 700 }] },
    { runs: paragraph(filler('Third', 3), 72, 100) },
  ]);
}

/** A hand-written PDF whose page tree is empty (`/Count 0`). */
function zeroPagePdf(): Uint8Array {
  const objects = ['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [] /Count 0 >>'];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((content, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj\n${content}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new Uint8Array(Buffer.from(body, 'latin1'));
}

/** The first `keep` share of a valid PDF: a truncated download. */
function truncatedPdf(keep = 0.6): Uint8Array {
  const bytes = paperPdf();
  return bytes.slice(0, Math.floor(bytes.length * keep));
}

/** Password of `encrypted.pdf`. */
const ENCRYPTED_PDF_PASSWORD = 'doctree';

/** `encrypted.pdf`: one page, AES-256, user password {@link ENCRYPTED_PDF_PASSWORD}. */
function encryptedPdf(): Uint8Array {
  return new Uint8Array(readFileSync(join(__dirname, '..', '__fixtures__', 'pdf', 'encrypted.pdf')));
}

// ---------------------------------------------------------------------------------------------

const adapt = (bytes: Uint8Array, filename = 'doc.pdf'): Promise<ContentList> => adaptPdf(bytes, { docId: 'doc', filename });

const textOf = (block: ContentBlock): string =>
  'text' in block ? block.text : 'list_items' in block ? block.list_items.join(' | ') : '';

const titles = (list: ContentList): Array<[string, number]> =>
  list.blocks.flatMap((b) => (b.type === 'title' ? [[b.text, b.text_level] as [string, number]] : []));

/** Asserts adaptPdf rejects with a DocTreeError of `code` naming the file. */
async function expectFailure(promise: Promise<unknown>, code: DocTreeErrorCode, filename: string): Promise<DocTreeError> {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(DocTreeError.isInstance(error)).toBe(true);
  const docTreeError = error as DocTreeError;
  expect(docTreeError.code).toBe(code);
  expect(docTreeError.file).toBe(filename);
  expect(docTreeError.toOneLine()).toContain(filename);
  return docTreeError;
}

describe('adaptPdf on a generated paper', () => {
  let list: ContentList;
  beforeAll(async () => {
    list = await adapt(paperPdf(), 'paper.pdf');
  });

  it('produces a valid adapted content list with source facts and page sizes', () => {
    expect(() => ContentListSchema.parse(list)).not.toThrow();
    const bytes = paperPdf();
    expect(list.stage).toBe('adapted');
    expect(list.generator).toBe('@doctree/ingest@0.1.0');
    expect(list.source).toEqual({ filename: 'paper.pdf', kind: 'pdf', sha256: createHash('sha256').update(bytes).digest('hex'), bytes: bytes.byteLength });
    expect(list.pages).toEqual([
      { page_idx: 0, width: 612, height: 792, has_text_layer: true, ocr: false },
      { page_idx: 1, width: 612, height: 792, has_text_layer: true, ocr: false },
    ]);
    expect(list.warnings).toEqual([]);
    list.blocks.forEach((block, i) => {
      expect(block.read_order).toBe(i);
      expect(block.origin).toBe('pdf');
      expect(block.page_size).toEqual({ width: 612, height: 792 });
    });
    expect(new Set(list.blocks.map((b) => b.block_id)).size).toBe(list.blocks.length);
  });

  it('finds headings with levels from font size and numbering', () => {
    expect(titles(list)).toEqual([
      // The title block before `1 Introduction` is front matter: it does not enclose the numbered sections.
      ['A Study of Decision Trees', 1],
      ['1 Introduction', 1],
      ['1.1 Background', 2],
      ['1.1.1 Early Work', 3],
      ['2 Method', 1],
      // Set at 14 pt like "2 Method"; its numbering puts it one level deeper.
      ['2.1 Setup', 2],
    ]);
    const setup = list.blocks.find((b) => b.type === 'title' && b.text === '2.1 Setup');
    expect(setup).toMatchObject({ numbering: '2.1', font: { size: 14, bold: true } });
  });

  it('gives blocks top-left-origin boxes in PDF points', () => {
    const title = list.blocks.find((b) => b.type === 'title' && b.text === 'A Study of Decision Trees')!;
    const [x0, y0, x1, y1] = title.bbox;
    // Baseline at 90 pt from the top, 20 pt type: the box spans the baseline.
    expect(x0).toBeCloseTo(160, 0);
    expect(y0).toBeGreaterThan(70);
    expect(y0).toBeLessThan(80);
    expect(y1).toBeGreaterThan(90);
    expect(y1).toBeLessThan(96);
    expect(x1).toBeGreaterThan(x0 + 100);
  });

  it('joins paragraph lines without newlines and repairs line-break hyphens only where they split a word', () => {
    const paragraphs = list.blocks.filter((b) => b.type === 'text').map(textOf);
    expect(paragraphs.every((t) => !t.includes('\n'))).toBe(true);
    expect(paragraphs.find((t) => t.includes('good example of a greedy choice'))).toBeDefined();
    expect(paragraphs.find((t) => t.includes('exam-'))).toBeUndefined();
    expect(paragraphs.find((t) => t.includes('We train a self-supervised model first'))).toBeDefined();
  });

  it('detects bullet and ordered lists with one string per item', () => {
    const lists = list.blocks.filter((b): b is Extract<ContentBlock, { type: 'list' }> => b.type === 'list');
    expect(lists.map((l) => [l.sub_type, l.list_items])).toEqual([
      ['bullet', ['Pruning removes branches that do not help.', 'Bagging averages many trees trained on resampled data.', 'Boosting fits trees to the residuals.']],
      ['ordered', ['1. Grow the tree until every leaf is pure.', '2. Prune it back on held-out data.']],
    ]);
  });

  it('types page numbers, running headers and a short equation', () => {
    const furniture = list.blocks.filter((b) => ['header', 'footer', 'page_number'].includes(b.type)).map((b) => [b.page_idx, b.type, textOf(b)]);
    expect(furniture).toEqual([
      [0, 'page_number', '1'],
      [1, 'header', 'A Study of Decision Trees'],
      [1, 'page_number', '- 2 -'],
    ]);
    expect(list.blocks.filter((b) => b.type === 'equation').map(textOf)).toEqual(['E = mc2']);
  });

  it('keeps reading order: headings before their paragraphs, page by page', () => {
    const order = list.blocks.map(textOf);
    const at = (needle: string): number => order.findIndex((t) => t.startsWith(needle));
    expect(at('A Study of Decision Trees')).toBeLessThan(at('Abstract'));
    expect(at('1 Introduction')).toBeLessThan(at('Opening'));
    expect(at('Opening')).toBeLessThan(at('1.1 Background'));
    expect(at('2 Method')).toBeLessThan(at('Method trees'));
    expect(at('Closing')).toBeGreaterThan(at('E = mc2'));
  });
});

describe('adaptPdf layouts', () => {
  it('reads a two-column page left column first, keeping full-width headings in place', async () => {
    const list = await adapt(twoColumnPdf());
    const order = list.blocks.map((b) => textOf(b).split(' ')[0]);
    expect(order).toEqual(['Forests', 'Alpha', 'Bravo', 'Charlie', 'Delta', 'Results', 'Echo', 'Foxtrot']);
    expect(list.blocks.filter((b) => b.type === 'title').map(textOf)).toEqual([
      'Forests of Randomised Trees in Practice',
      'Results Measured Across Both Columns of the Page',
    ]);
    const alpha = list.blocks[1]!;
    const charlie = list.blocks[3]!;
    expect(alpha.bbox[2]).toBeLessThan(300);
    expect(charlie.bbox[0]).toBeGreaterThan(300);
  });

  it('lets the outline fix heading levels and find headings set in body text', async () => {
    const list = await adapt(outlinePdf());
    expect(titles(list)).toEqual([
      ['Overview', 1],
      ['Scope', 2],
      ['Definitions', 3],
      ['Results', 1],
      ['Accuracy', 2],
    ]);
    expect(list.outline).toEqual([
      { title: 'Overview', level: 1, page_idx: 0 },
      { title: 'Scope', level: 2, page_idx: 0 },
      { title: 'Definitions', level: 3, page_idx: 0 },
      { title: 'Results', level: 1, page_idx: 1 },
      { title: 'Accuracy', level: 2, page_idx: 1 },
    ]);
  });

  it('types page numbers in several styles, running headers and footers', async () => {
    const list = await adapt(furniturePdf());
    const furniture = list.blocks.filter((b) => ['header', 'footer', 'page_number'].includes(b.type)).map((b) => [b.page_idx, b.type, textOf(b)]);
    expect(furniture).toEqual([
      [0, 'header', 'ACME Corp Annual Report'],
      [0, 'footer', 'Confidential'],
      [0, 'page_number', '12'],
      [1, 'header', 'ACME Corp Annual Report'],
      [1, 'footer', 'Confidential'],
      [1, 'page_number', 'Page 2 of 4'],
      [2, 'header', 'ACME Corp Annual Report'],
      [2, 'footer', 'Confidential'],
      [2, 'page_number', '- 3 -'],
      [3, 'header', 'ACME Corp Annual Report'],
      [3, 'footer', 'Confidential'],
      [3, 'page_number', 'iv'],
    ]);
    expect(list.blocks.filter((b) => b.type === 'text')).toHaveLength(4);
  });

  it('takes a running footer set well above the bottom edge out of the paragraphs', async () => {
    // The footer sits at 81 % of the page height, above the bottom band, right under the last paragraph.
    const words = ['Alpha', 'Bravo', 'Charlie', 'Delta', 'Echo'];
    const bytes = writeSimplePdf(
      words.map((word, p) => ({
        runs: [
          ...paragraph(filler(word, 4), 72, 100),
          ...paragraph(filler(`${word}Close`, 3), 72, 600),
          { text: 'Northwind Ltd.', x: 215, y: 645, size: 8, bold: true },
          { text: '2023 Annual Report', x: 281, y: 645, size: 8 },
          { text: String(p + 1), x: 365, y: 645, size: 8, bold: true },
        ],
      })),
    );
    const list = await adapt(bytes);
    expect(list.blocks.filter((b) => b.type === 'text' && textOf(b).includes('Northwind'))).toEqual([]);
    const footers = list.blocks.filter((b) => b.type === 'footer').map((b) => [b.page_idx, textOf(b)]);
    expect(footers).toEqual(words.map((_, p) => [p, `Northwind Ltd. 2023 Annual Report ${p + 1}`]));
  });

  it('reads a page whose text runs sideways turned, with boxes on the displayed page', async () => {
    // /Rotate 90 with upright content: a viewer shows the text running down the page.
    const bytes = writeSimplePdf([{ rotate: 90, runs: [{ text: 'Sideways Heading', x: 72, y: 80, size: 16, bold: true }, ...paragraph(filler('Sideways', 3), 72, 110)] }]);
    const list = await adapt(bytes);
    expect(list.pages[0]).toMatchObject({ width: 792, height: 612 });
    expect(list.blocks.map((b) => [b.type, textOf(b).split(' ')[0]])).toEqual([
      ['title', 'Sideways'],
      ['text', 'Sideways'],
    ]);
    const [x0, y0, x1, y1] = list.blocks[0]!.bbox;
    // Turned clockwise, the heading becomes a tall, narrow box near the right edge.
    expect(y1 - y0).toBeGreaterThan(x1 - x0);
    expect(x0).toBeGreaterThan(690);
    expect(x1).toBeLessThanOrEqual(792);
  });

  it('records pages without a text layer and says OCR did not run', async () => {
    const list = await adaptPdf(partlyScannedPdf(), { docId: 'doc', filename: 'doc.pdf', ocr: false });
    expect(list.pages.map((p) => p.has_text_layer)).toEqual([true, false, true]);
    expect(list.warnings[0]).toMatchObject({ code: 'NO_TEXT_LAYER', page_idx: 1 });
    expect(list.warnings[1]!.code).toBe('OCR_UNAVAILABLE');
    expect(list.warnings[1]!.message).toContain('2');
    expect(list.blocks.map((b) => b.page_idx)).toEqual([0, 2]);
    expect(() => ContentListSchema.parse(list)).not.toThrow();
  });
});

describe('adaptPdf progress and cancellation', () => {
  it('reports progress once per page', async () => {
    const calls: Array<[number, number]> = [];
    await adaptPdf(furniturePdf(), { docId: 'doc', filename: 'f.pdf', onPage: (done, total) => calls.push([done, total]) });
    expect(calls).toEqual([
      [1, 4],
      [2, 4],
      [3, 4],
      [4, 4],
    ]);
  });

  it('stops with CANCELLED when the signal is aborted', async () => {
    const controller = new AbortController();
    const run = adaptPdf(furniturePdf(), {
      docId: 'doc',
      filename: 'f.pdf',
      signal: controller.signal,
      onPage: (done) => {
        if (done === 2) controller.abort();
      },
    });
    await expectFailure(run, 'CANCELLED', 'f.pdf');
  });

  it('accepts a Node Buffer (what readFile returns) as well as a Uint8Array', async () => {
    const list = await adaptPdf(Buffer.from(paperPdf()), { docId: 'doc', filename: 'buffer.pdf' });
    expect(list.blocks.some((b) => b.type === 'title' && b.text === 'A Study of Decision Trees')).toBe(true);
  });

  it('leaves the caller’s bytes intact and uses a given sha256', async () => {
    const bytes = paperPdf();
    const copy = bytes.slice();
    const sha256 = 'a'.repeat(64);
    const list = await adaptPdf(bytes, { docId: 'doc', filename: 'p.pdf', sha256 });
    expect(list.source.sha256).toBe(sha256);
    expect(bytes).toEqual(copy);
  });
});

describe('adaptPdf on bad input', () => {
  it('rejects bytes that are not a PDF with INPUT_UNSUPPORTED', async () => {
    await expectFailure(adapt(new TextEncoder().encode('# Notes\nnot a pdf at all'), 'notes.pdf'), 'INPUT_UNSUPPORTED', 'notes.pdf');
  });

  it('rejects a truncated PDF with PDF_CORRUPT', async () => {
    await expectFailure(adapt(truncatedPdf(), 'cut.pdf'), 'PDF_CORRUPT', 'cut.pdf');
    await expectFailure(adapt(truncatedPdf(0.05), 'cut.pdf'), 'PDF_CORRUPT', 'cut.pdf');
  });

  it('rejects a PDF with an empty page tree with PDF_NO_PAGES', async () => {
    await expectFailure(adapt(zeroPagePdf(), 'empty.pdf'), 'PDF_NO_PAGES', 'empty.pdf');
  });

  it('asks for the password of an encrypted PDF and tells a wrong one apart', async () => {
    await expectFailure(adapt(encryptedPdf(), 'locked.pdf'), 'PDF_ENCRYPTED', 'locked.pdf');
    await expectFailure(adaptPdf(encryptedPdf(), { docId: 'doc', filename: 'locked.pdf', password: 'wrong' }), 'PDF_PASSWORD_INCORRECT', 'locked.pdf');
    const list = await adaptPdf(encryptedPdf(), { docId: 'doc', filename: 'locked.pdf', password: ENCRYPTED_PDF_PASSWORD });
    expect(list.blocks.map((b) => [b.type, textOf(b)])).toEqual([
      ['title', 'Encrypted fixture'],
      ['text', 'This page is readable with the password doctree.'],
    ]);
  });
});

describe('extractPdfPages', () => {
  it('returns each page’s lines with top-left boxes, fonts and columns for later steps', async () => {
    const [page] = await extractPdfPages(twoColumnPdf(), { filename: 'two.pdf' });
    expect(page).toMatchObject({ page_idx: 0, width: 612, height: 792, has_text_layer: true });
    expect(page!.gutter).toBeDefined();
    const title = page!.lines[0]!;
    expect(title).toMatchObject({ text: 'Forests of Randomised Trees in Practice', size: 18, bold: true, font: 'Helvetica-Bold' });
    expect(title.column).toBeUndefined();
    expect(title.baseline).toBeCloseTo(80, 1);
    const charlie = page!.lines.find((l) => l.text.startsWith('Charlie'))!;
    expect(charlie.column).toBe(1);
    expect(charlie.bbox[0]).toBeCloseTo(320, 0);
    expect(charlie.spans.length).toBeGreaterThan(0);
  });

  it('marks a page without text and throws DocTreeErrors like adaptPdf', async () => {
    const pages = await extractPdfPages(partlyScannedPdf(), { filename: 'scan.pdf' });
    expect(pages.map((p) => [p.has_text_layer, p.lines.length > 0])).toEqual([
      [true, true],
      [false, false],
      [true, true],
    ]);
    await expectFailure(extractPdfPages(encryptedPdf(), { filename: 'locked.pdf' }), 'PDF_ENCRYPTED', 'locked.pdf');
  });
});
