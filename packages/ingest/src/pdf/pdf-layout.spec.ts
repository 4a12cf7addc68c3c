import type { BBox } from '@doctree/schema';
import { segmentFlow } from './pdf-blocks.js';
import { detectGutter, layoutPage } from './pdf-layout.js';
import { buildLines } from './pdf-lines.js';
import type { PdfLine, PdfSpan } from './pdf-lines.js';

const span = (text: string, x: number, baseline: number, size = 10, bold = false): PdfSpan => ({
  text,
  bbox: [x, baseline - 0.75 * size, x + text.length * size * 0.5, baseline + 0.2 * size] as BBox,
  baseline,
  size,
  bold,
});

const lineAt = (text: string, x0: number, x1: number, baseline: number, size = 10): PdfLine => ({
  text,
  bbox: [x0, baseline - 0.75 * size, x1, baseline + 0.2 * size],
  baseline,
  size,
  bold: false,
  spans: [],
});

describe('buildLines', () => {
  it('groups spans by baseline, joins a superscript and splits at a gutter', () => {
    const lines = buildLines([
      span('Trees', 72, 100),
      span('grow', 102, 100),
      span('2', 122.5, 96, 6),
      span('Right column text', 330, 100),
      span('Next line', 72, 113),
    ]);
    expect(lines.map((l) => l.text)).toEqual(['Trees grow2', 'Right column text', 'Next line']);
    expect(lines[0]!.bbox[0]).toBe(72);
  });

  it('keeps a bullet with its text across a wide gap and drops text drawn twice (fake bold)', () => {
    const lines = buildLines([span('•', 72, 100), span('Item text', 100, 100), span('Bold', 72, 120), span('Bold', 72.4, 120)]);
    expect(lines.map((l) => [l.text, l.bold])).toEqual([
      ['• Item text', false],
      ['Bold', true],
    ]);
  });
});

describe('buildLines in wrapped table cells', () => {
  it('keeps a cell’s wrapped lines apart when a taller neighbour cell would chain them into one row', () => {
    // Cell text wraps at a pitch of 1.1 em; a label in the next column sits between the two baselines.
    const lines = buildLines([
      span('gains, as well', 300, 100, 6),
      span('Up 19%', 200, 104, 9),
      span('as a favorable adjustment', 300, 106.6, 6),
    ]);
    expect(lines.map((l) => l.text).sort()).toEqual(['Up 19%', 'as a favorable adjustment', 'gains, as well']);
  });

  it('puts a space where the PDF draws one as a run of its own, however narrow', () => {
    const arrow = span('w', 72, 100);
    const text = { ...span('starting on page 6', 77.05, 100), spaceBefore: true };
    expect(buildLines([arrow, text]).map((l) => l.text)).toEqual(['w starting on page 6']);
    expect(buildLines([arrow, { ...text, spaceBefore: false }]).map((l) => l.text)).toEqual(['wstarting on page 6']);
  });

  it('puts a space before a run that starts left of where the previous run ended', () => {
    const lines = buildLines([span('dependent upon', 72, 100), span('closing price', 150, 98), span('the achievement', 72, 104)]);
    expect(lines.map((l) => l.text).join(' | ')).not.toMatch(/uponthe|pricethe/);
  });
});

describe('detectGutter', () => {
  const columns = (): PdfLine[] =>
    Array.from({ length: 10 }, (_, i) => [lineAt(`left ${i}`, 56, 290, 120 + i * 12), lineAt(`right ${i}`, 320, 556, 120 + i * 12)]).flat();

  it('finds the gap between two columns even with a full-width title', () => {
    const gutter = detectGutter([lineAt('A title across both columns', 100, 500, 80, 18), ...columns()]);
    expect(gutter).toEqual([290, 320]);
  });

  it('finds none on a one-column page or in a table of narrow cells', () => {
    expect(detectGutter(Array.from({ length: 12 }, (_, i) => lineAt(`body ${i}`, 72, 540, 100 + i * 12)))).toBeUndefined();
    const table = Array.from({ length: 10 }, (_, i) => [
      lineAt(`Label ${i}`, 72, 250, 100 + i * 12),
      lineAt('1,234', 380, 410, 100 + i * 12),
      lineAt('5,678', 480, 510, 100 + i * 12),
    ]).flat();
    expect(detectGutter(table)).toBeUndefined();
  });
});

describe('layoutPage', () => {
  it('puts band lines aside, and reads columns between full-width lines', () => {
    const layout = layoutPage(
      [
        lineAt('Running head', 72, 200, 30, 8),
        lineAt('A title across both columns', 100, 500, 80, 18),
        ...Array.from({ length: 6 }, (_, i) => [lineAt(`L${i}`, 56, 290, 120 + i * 12), lineAt(`R${i}`, 320, 556, 120 + i * 12)]).flat(),
        lineAt('7', 300, 306, 770, 9),
      ],
      792,
    );
    expect(layout.top.map((l) => l.text)).toEqual(['Running head']);
    expect(layout.bottom.map((l) => l.text)).toEqual(['7']);
    expect(layout.flows.map((f) => [f.column ?? null, f.lines.map((l) => l.text).join(' ')])).toEqual([
      [null, 'A title across both columns'],
      [0, 'L0 L1 L2 L3 L4 L5'],
      [1, 'R0 R1 R2 R3 R4 R5'],
    ]);
  });

  it('moves a page number printed right under the text to the bottom band', () => {
    const body = Array.from({ length: 5 }, (_, i) => lineAt(`Body line ${i}`, 72, 540, 100 + i * 12));
    const layout = layoutPage([...body, lineAt('4', 300, 306, 200, 9)], 792);
    expect(layout.bottom.map((l) => l.text)).toEqual(['4']);
  });
});

describe('segmentFlow', () => {
  it('starts blocks at paragraph gaps, first-line indents and font changes', () => {
    const rows: PdfLine[] = [
      { ...lineAt('Heading', 72, 140, 100, 14), bold: true },
      lineAt('First paragraph line one runs to the margin', 72, 540, 120),
      lineAt('and ends short.', 72, 200, 132),
      lineAt('Indented second paragraph starts here and runs', 90, 540, 144),
      lineAt('to the margin as well.', 72, 300, 156),
      lineAt('After a gap, a third paragraph.', 72, 400, 180),
    ];
    const blocks = segmentFlow(rows, 0, 2.5);
    expect(blocks.map((b) => b.lines.map((l) => l.text).join(' / '))).toEqual([
      'Heading',
      'First paragraph line one runs to the margin / and ends short.',
      'Indented second paragraph starts here and runs / to the margin as well.',
      'After a gap, a third paragraph.',
    ]);
  });
});
