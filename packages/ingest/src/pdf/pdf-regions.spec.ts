import { ContentListSchema } from '@doctree/schema';
import type { ContentBlock, ContentList, ImageBlock, TableBlock } from '@doctree/schema';
import { parseHtmlTable } from '../mineru/html-table.js';
import { adaptPdf } from './pdf-adapter.js';
import { extractPdfPages } from './pdf-text-layer.js';
import { writeSimplePdf } from './simple-pdf-writer.js';
import type { PdfPageSpec, PdfShape, PdfTextRun } from './simple-pdf-writer.js';

// ---------------------------------------------------------------------------------------------
// Fixtures: pages with tables and figures, all generated with writeSimplePdf.
// ---------------------------------------------------------------------------------------------

/** Helvetica advance widths (1/1000 em) of the characters right-aligned amounts use. */
const HELVETICA: Readonly<Record<string, number>> = { ' ': 278, $: 556, '(': 333, ')': 333, ',': 278, '.': 278, '-': 333, '%': 889, '\u2014': 1000 };

/** Width of text set in Helvetica (digits and amount punctuation exact, other characters approximate). */
const textWidth = (text: string, size: number): number => [...text].reduce((w, ch) => w + (HELVETICA[ch] ?? 556), 0) * (size / 1000);

/** A run whose right edge sits at `right`. */
const rightAligned = (text: string, right: number, y: number, size: number, bold = false): PdfTextRun => ({
  text,
  x: right - textWidth(text, size),
  y,
  size,
  ...(bold ? { bold: true } : {}),
});

/** Lines of prose, one run per line. */
function prose(marker: string, x: number, y: number, count: number, options: { width?: number; size?: number; pitch?: number } = {}): PdfTextRun[] {
  const words = `${marker} results show that careful evaluation of each model on held out data matters more than the choice of architecture when the data sets are small and noisy`.split(' ');
  const width = options.width ?? 80;
  const size = options.size ?? 10;
  const lines: string[] = [];
  let current = '';
  for (let i = 0; lines.length < count; i++) {
    const word = words[i % words.length]!;
    if ((current + ' ' + word).trim().length > width) {
      lines.push(current.trim());
      current = '';
    }
    current += ' ' + word;
  }
  return lines.map((text, i) => ({ text, x, y: y + i * (options.pitch ?? size * 1.3), size }));
}

/** A ruled 3-column × 4-row table with `Table 1: Results` above it, between two paragraphs. */
function ruledTablePdf(): Uint8Array {
  const xs = [72, 222, 372, 522];
  const ys = [190, 210, 230, 250, 270];
  const cells = [
    ['Model', 'Accuracy', 'F1'],
    ['Baseline', '71.2', '0.68'],
    ['Ours', '78.9', '0.75'],
    ['Ours + data', '80.1', '0.77'],
  ];
  const shapes: PdfShape[] = [
    ...ys.map((y): PdfShape => ({ kind: 'line', x: 72, y, width: 450, height: 0 })),
    ...xs.map((x): PdfShape => ({ kind: 'line', x, y: 190, width: 0, height: 80 })),
  ];
  const runs: PdfTextRun[] = [
    { text: 'Experiments', x: 72, y: 80, size: 14, bold: true },
    ...prose('Before', 72, 105, 4),
    { text: 'Table 1: Results', x: 72, y: 180, size: 10 },
    ...cells.flatMap((row, r) => row.map((text, c): PdfTextRun => ({ text, x: xs[c]! + 6, y: ys[r]! + 14, size: 10, ...(r === 0 ? { bold: true } : {}) }))),
    ...prose('After', 72, 300, 4),
  ];
  return writeSimplePdf([{ runs, shapes }]);
}

/** Rows of the borderless cash-flow statement: label, indent, and the 2018 / 2017 amounts. */
const STATEMENT_ROWS: ReadonlyArray<{ label: string; indent?: number; bold?: boolean; amounts?: [string, string]; dollars?: boolean }> = [
  { label: 'Cash Flows from Operating Activities', bold: true },
  { label: 'Net income including noncontrolling interest', amounts: ['4,918', '4,512'], dollars: true },
  { label: 'Adjustments to reconcile net income to net cash' },
  { label: 'provided by operating activities', indent: 8 },
  { label: 'Depreciation and amortization', indent: 8, amounts: ['1,362', '1,318'] },
  { label: 'Company pension and postretirement contributions', indent: 8, amounts: ['(341)', '(802)'] },
  { label: 'Net cash provided by operating activities', amounts: ['6,214', '5,987'] },
  { label: 'Cash Flows from Investing Activities', bold: true },
  { label: 'Purchases of property, plant and equipment (PP&E)', amounts: ['(1,482)', '(1,291)'] },
  { label: 'Proceeds from sale of PP&E and other assets', amounts: ['237', '58'] },
  { label: 'Acquisitions, net of cash acquired', amounts: ['17', '(1,876)'] },
  { label: 'Other \u2014 net', amounts: ['\u2014', '(6)'] },
  { label: 'Net cash provided by (used in) investing activities', amounts: ['207', '(2,874)'], dollars: true },
];

/** A borderless financial statement: title, `(Millions) 2018 2017` header, label column, right-aligned amounts, `$` signs apart. */
function statementPdf(): Uint8Array {
  const size = 9;
  const pitch = 12;
  const right = [440, 520];
  const runs: PdfTextRun[] = [
    { text: 'ACME Corp and Subsidiaries', x: 72, y: 76, size: 10, bold: true },
    { text: 'Consolidated Statement of Cash Flows', x: 72, y: 92, size: 12, bold: true },
    { text: 'Years ended December 31', x: 72, y: 106, size: 10, bold: true },
    { text: '(Millions)', x: 72, y: 130, size: 8, bold: true },
    rightAligned('2018', right[0]! - 4, 130, 8, true),
    rightAligned('2017', right[1]! - 4, 130, 8, true),
  ];
  STATEMENT_ROWS.forEach((row, i) => {
    const y = 145 + i * pitch;
    runs.push({ text: row.label, x: 72 + (row.indent ?? 0), y, size, ...(row.bold ? { bold: true } : {}) });
    row.amounts?.forEach((amount, c) => {
      runs.push(rightAligned(amount, right[c]!, y, size));
      if (row.dollars) runs.push({ text: '$', x: right[c]! - 55, y, size });
    });
  });
  runs.push(...prose('Statement', 72, 145 + STATEMENT_ROWS.length * pitch + 24, 3));
  return writeSimplePdf([{ runs }]);
}

/** Bars of the chart fixture: label, left edge, height. */
const BARS: ReadonlyArray<[string, number, number]> = [
  ['Industrial', 130, 120],
  ['Safety', 210, 90],
  ['Health', 290, 140],
  ['Consumer', 370, 60],
];

/** A vector bar chart (axes, bars, a trend curve, axis labels) with `Figure 2: Revenue by segment` below it. */
function chartPdf(): Uint8Array {
  const base = 320;
  const shapes: PdfShape[] = [
    { kind: 'line', x: 100, y: 160, width: 0, height: base - 160 },
    { kind: 'line', x: 100, y: base, width: 360, height: 0 },
    ...BARS.map(([, x, h]): PdfShape => ({ kind: 'rect', x, y: base - h, width: 50, height: h, gray: 0.4 })),
    { kind: 'curve', x: 150, y: 190, width: 260, height: 20, bulge: 15, lineWidth: 1 },
  ];
  const runs: PdfTextRun[] = [
    ...prose('Above', 72, 80, 5),
    rightAligned('0', 94, base + 3, 8),
    rightAligned('50', 94, base - 57, 8),
    rightAligned('100', 94, base - 117, 8),
    ...BARS.map(([label, x]): PdfTextRun => ({ text: label, x: x + 2, y: base + 14, size: 8 })),
    { text: 'Figure 2: Revenue by segment', x: 72, y: 365, size: 10 },
    ...prose('Below', 72, 395, 5),
  ];
  return writeSimplePdf([{ runs, shapes }]);
}

/** A raster image XObject with `Fig. 3.` below it, a tiny icon, and on page 2 an inline image captioned above. */
function imagePdf(): Uint8Array {
  const page1: PdfPageSpec = {
    runs: [
      ...prose('Opening', 72, 80, 4),
      { text: 'Fig. 3. The prototype device in operation at the', x: 72, y: 370, size: 10 },
      { text: 'test site, seen from the north.', x: 72, y: 383, size: 10 },
      ...prose('Closing', 72, 420, 4),
    ],
    images: [
      { x: 150, y: 140, width: 300, height: 210 },
      { x: 60, y: 500, width: 10, height: 10 },
    ],
  };
  const page2: PdfPageSpec = {
    runs: [...prose('Second', 72, 80, 3), { text: 'Figure 4: Inline sample image', x: 180, y: 140, size: 10 }, ...prose('Last', 72, 300, 3)],
    images: [{ x: 200, y: 150, width: 150, height: 100, inline: true }],
  };
  return writeSimplePdf([page1, page2]);
}

/** A two-column page of prose with figures and amounts in the running text, and no table. */
function twoColumnProsePdf(): Uint8Array {
  const column = (marker: string, x: number, y: number, count: number): PdfTextRun[] =>
    prose(`${marker} In 2018 revenue grew 5% to $1,234 million and 2017`, x, y, count, { width: 46, size: 10, pitch: 12 });
  const runs: PdfTextRun[] = [
    { text: 'Two Columns of Running Text', x: 160, y: 80, size: 16, bold: true },
    ...column('Alpha', 56, 120, 12),
    ...column('Bravo', 56, 290, 12),
    ...column('Charlie', 320, 120, 12),
    ...column('Delta', 320, 290, 12),
    ...column('Echo', 56, 460, 10),
    ...column('Foxtrot', 320, 460, 10),
  ];
  return writeSimplePdf([{ runs }]);
}

/** A two-column page with a chart in the left column: text above it, its caption, text below; the right column after. */
function columnFigurePdf(): Uint8Array {
  const runs: PdfTextRun[] = [
    ...prose('Left', 56, 100, 5, { width: 44 }),
    { text: 'Figure 1: Left column chart', x: 56, y: 320, size: 9 },
    ...prose('Lower', 56, 350, 8, { width: 44 }),
    ...prose('Right', 320, 100, 22, { width: 44 }),
    { text: 'Q1', x: 90, y: 300, size: 8 },
    { text: 'Q2', x: 150, y: 300, size: 8 },
    { text: 'Q3', x: 210, y: 300, size: 8 },
  ];
  const shapes: PdfShape[] = [
    { kind: 'line', x: 70, y: 170, width: 0, height: 120 },
    { kind: 'line', x: 70, y: 290, width: 210, height: 0 },
    { kind: 'curve', x: 80, y: 270, width: 180, height: -80, bulge: 10, lineWidth: 1 },
    { kind: 'rect', x: 85, y: 230, width: 30, height: 60, gray: 0.5 },
    { kind: 'rect', x: 145, y: 210, width: 30, height: 80, gray: 0.5 },
    { kind: 'rect', x: 205, y: 190, width: 30, height: 100, gray: 0.5 },
  ];
  return writeSimplePdf([{ runs, shapes }]);
}

// ---------------------------------------------------------------------------------------------

const adapt = (bytes: Uint8Array): Promise<ContentList> => adaptPdf(bytes, { docId: 'doc', filename: 'doc.pdf' });

const textOf = (block: ContentBlock): string => ('text' in block ? block.text : 'list_items' in block ? block.list_items.join(' | ') : '');
const tables = (list: ContentList): TableBlock[] => list.blocks.filter((b): b is TableBlock => b.type === 'table');
const images = (list: ContentList): ImageBlock[] => list.blocks.filter((b): b is ImageBlock => b.type === 'image');
const paragraphs = (list: ContentList): string[] => list.blocks.filter((b) => b.type !== 'table' && b.type !== 'image').map(textOf);
const indexOf = (list: ContentList, predicate: (b: ContentBlock) => boolean): number => list.blocks.findIndex(predicate);

describe('adaptPdf tables', () => {
  it('reads a ruled table with its caption into one table block and takes its text out of the paragraphs', async () => {
    const list = await adapt(ruledTablePdf());
    expect(() => ContentListSchema.parse(list)).not.toThrow();
    const [table, ...others] = tables(list);
    expect(others).toHaveLength(0);
    expect(table).toMatchObject({ label: 'Table 1', table_caption: ['Table 1: Results'], table_footnote: [] });
    expect(parseHtmlTable(table!.table_body)).toEqual({
      rows: [
        ['Model', 'Accuracy', 'F1'],
        ['Baseline', '71.2', '0.68'],
        ['Ours', '78.9', '0.75'],
        ['Ours + data', '80.1', '0.77'],
      ],
      headerRows: 1,
    });
    expect(table!.table_body).toBe(
      '<table><thead><tr><th>Model</th><th>Accuracy</th><th>F1</th></tr></thead><tbody><tr><td>Baseline</td><td>71.2</td><td>0.68</td></tr><tr><td>Ours</td><td>78.9</td><td>0.75</td></tr><tr><td>Ours + data</td><td>80.1</td><td>0.77</td></tr></tbody></table>',
    );
    expect(table!.markdown).toBe('| Model | Accuracy | F1 |\n| --- | --- | --- |\n| Baseline | 71.2 | 0.68 |\n| Ours | 78.9 | 0.75 |\n| Ours + data | 80.1 | 0.77 |');
    const [x0, y0, x1, y1] = table!.bbox;
    expect([x0, y0, x1, y1].map(Math.round)).toEqual([72, 190, 522, 270]);
    const text = paragraphs(list).join(' ');
    for (const cell of ['Baseline', '71.2', '0.77', 'Accuracy', 'Table 1']) expect(text).not.toContain(cell);
    // Reading order: the paragraph above, the table, the paragraph below.
    const above = indexOf(list, (b) => textOf(b).startsWith('Before'));
    const below = indexOf(list, (b) => textOf(b).startsWith('After'));
    expect(above).toBeLessThan(list.blocks.indexOf(table!));
    expect(below).toBeGreaterThan(list.blocks.indexOf(table!));
  });

  it('reads a borderless financial statement with amounts in their year columns', async () => {
    const list = await adapt(statementPdf());
    expect(() => ContentListSchema.parse(list)).not.toThrow();
    expect(tables(list)).toHaveLength(1);
    const table = tables(list)[0]!;
    expect(table.table_caption).toEqual([]);
    expect(table.label).toBeUndefined();
    const { rows, headerRows } = parseHtmlTable(table.table_body);
    expect(headerRows).toBe(1);
    expect(rows[0]).toEqual(['(Millions)', '2018', '2017']);
    const row = (label: string): string[] | undefined => rows.find((r) => r[0] === label);
    expect(row('Purchases of property, plant and equipment (PP&E)')).toEqual(['Purchases of property, plant and equipment (PP&E)', '(1,482)', '(1,291)']);
    expect(row('Net income including noncontrolling interest')).toEqual(['Net income including noncontrolling interest', '$4,918', '$4,512']);
    expect(row('Net cash provided by (used in) investing activities')).toEqual(['Net cash provided by (used in) investing activities', '$207', '$(2,874)']);
    expect(row('Other \u2014 net')).toEqual(['Other \u2014 net', '\u2014', '(6)']);
    expect(row('Cash Flows from Investing Activities')).toEqual(['Cash Flows from Investing Activities', '', '']);
    // A label wrapped onto an indented line is one row.
    expect(row('Adjustments to reconcile net income to net cash provided by operating activities')).toEqual([
      'Adjustments to reconcile net income to net cash provided by operating activities',
      '',
      '',
    ]);
    expect(rows).toHaveLength(1 + STATEMENT_ROWS.length - 1);
    expect(table.markdown).toContain('| Purchases of property, plant and equipment (PP&E) | (1,482) | (1,291) |');
    // The statement title stays a title; amounts leave the paragraphs.
    expect(list.blocks.find((b) => b.type === 'title' && textOf(b).includes('Consolidated Statement of Cash Flows'))).toBeDefined();
    const text = paragraphs(list).join(' ');
    for (const amount of ['1,482', '4,918', '2018', 'Depreciation']) expect(text).not.toContain(amount);
    expect(text).toContain('Statement results show');
  });

  it('finds no table on a two-column prose page with amounts in the running text', async () => {
    const list = await adapt(twoColumnProsePdf());
    expect(tables(list)).toEqual([]);
    expect(images(list)).toEqual([]);
    expect(list.blocks.filter((b) => b.type === 'text').length).toBeGreaterThanOrEqual(6);
  });

  it('leaves tables and figures out with regions: false', async () => {
    const list = await adaptPdf(ruledTablePdf(), { docId: 'doc', filename: 'doc.pdf', regions: false });
    expect(tables(list)).toEqual([]);
    expect(paragraphs(list).join(' ')).toContain('Baseline');
  });

  it('keeps extractPdfPages a plain text layer (table cells stay lines)', async () => {
    const [page] = await extractPdfPages(statementPdf(), { filename: 's.pdf' });
    expect(page!.lines.some((l) => l.text.includes('(1,482)'))).toBe(true);
  });
});

describe('adaptPdf figures', () => {
  it('turns a vector bar chart into one image block with its caption and keeps its labels out of the text', async () => {
    const list = await adapt(chartPdf());
    expect(() => ContentListSchema.parse(list)).not.toThrow();
    expect(images(list)).toHaveLength(1);
    const figure = images(list)[0]!;
    expect(figure).toMatchObject({ source: 'vector', label: 'Figure 2', image_caption: ['Figure 2: Revenue by segment'], image_footnote: [] });
    expect(figure.img_path).toBeUndefined();
    const [x0, y0, x1, y1] = figure.bbox;
    expect(x0).toBeLessThanOrEqual(82);
    expect(y0).toBeLessThanOrEqual(180);
    expect(x1).toBeGreaterThanOrEqual(460);
    expect(y1).toBeGreaterThanOrEqual(330);
    expect(y1).toBeLessThan(355);
    const text = paragraphs(list).join(' ');
    for (const label of ['Industrial', 'Safety', 'Consumer', 'Figure 2', '100']) expect(text).not.toContain(label);
    expect(tables(list)).toEqual([]);
    const order = list.blocks.map((b) => (b.type === 'image' ? 'IMAGE' : textOf(b).split(' ')[0]));
    expect(order).toEqual(['Above', 'IMAGE', 'Below']);
  });

  it('turns an image XObject and an inline image into image blocks with Fig. / Figure captions; tiny images are ignored', async () => {
    const list = await adapt(imagePdf());
    const found = images(list);
    expect(found.map((b) => [b.page_idx, b.source, b.label, b.image_caption])).toEqual([
      [0, 'xobject', 'Figure 3', ['Fig. 3. The prototype device in operation at the test site, seen from the north.']],
      [1, 'xobject', 'Figure 4', ['Figure 4: Inline sample image']],
    ]);
    expect(found[0]!.bbox).toEqual([150, 140, 450, 350]);
    expect(found[1]!.bbox).toEqual([200, 150, 350, 250]);
    const text = paragraphs(list).join(' ');
    expect(text).not.toContain('prototype device');
    expect(text).not.toContain('Inline sample');
    expect(list.blocks.map((b) => (b.type === 'image' ? 'IMAGE' : textOf(b).split(' ')[0]))).toEqual(['Opening', 'IMAGE', 'Closing', 'Second', 'IMAGE', 'Last']);
  });

  it('places a figure of the left column in the column-aware reading order', async () => {
    const list = await adapt(columnFigurePdf());
    const order = list.blocks.map((b) => (b.type === 'image' ? `IMAGE:${b.label ?? ''}` : textOf(b).split(' ')[0]));
    expect(order).toEqual(['Left', 'IMAGE:Figure 1', 'Lower', 'Right']);
    const figure = images(list)[0]!;
    expect(figure.bbox[2]).toBeLessThan(300);
    expect(paragraphs(list).join(' ')).not.toMatch(/\bQ[123]\b/);
  });
});
