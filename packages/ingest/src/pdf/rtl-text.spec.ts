import fc from 'fast-check';
import type { ContentBlock } from '@doctree/schema';
import { adaptPdf } from './pdf-adapter.js';
import { hasRtl, logicalOrder, logicalRtlText, normalizePresentationForms, visualToLogicalLine } from './rtl-text.js';
import { writeSimplePdf } from './simple-pdf-writer.js';

/** How a producer stores a right-to-left line: its characters left to right as drawn (the logical string reversed, numbers and Latin kept). */
const visual = (logical: string): string => {
  const runs = logical.match(/[0-9A-Za-z]+|[^0-9A-Za-z]/g) ?? [];
  return runs.reverse().join('');
};

/** `مرحبا سلام` as Arabic presentation forms (the shaped glyphs), in logical order. */
const ARABIC_FORMS = '\uFEE3\uFEAE\uFEA3\uFE92\uFE8E \uFEB3\uFEE0\uFE8E\uFEE1';
const ARABIC = 'مرحبا سلام';

const textOf = (blocks: ContentBlock[]): string[] => blocks.map((b) => ('text' in b && typeof b.text === 'string' ? b.text : '')).filter(Boolean);

describe('right-to-left text in logical order', () => {
  it('maps Arabic presentation forms to the letters people type', () => {
    expect(normalizePresentationForms(ARABIC_FORMS)).toBe(ARABIC);
    expect(normalizePresentationForms('\uFEFB')).toBe('\u0644\u0627');
    expect(normalizePresentationForms('ﬁnance 2023')).toBe('ﬁnance 2023');
  });

  it('reads a right-to-left line right to left, numbers and Latin names kept in their order', () => {
    expect(visualToLogicalLine('עולם שלום')).toBe('שלום עולם');
    expect(visualToLogicalLine('שנתי 2023 דוח')).toBe('דוח 2023 שנתי');
    expect(visualToLogicalLine('שלום Acme Inc בנק דוח')).toBe('דוח בנק Acme Inc שלום');
    expect(visualToLogicalLine('Bank לאומי בנק report')).toBe('Bank בנק לאומי report');
    expect(visualToLogicalLine('Plain English line 42')).toBe('Plain English line 42');
  });

  it('orders the pieces of a line (pdf.js items, each already logical inside) for reading', () => {
    expect(logicalOrder(['עולם', ' ', 'שלום'])).toEqual([2, 1, 0]);
    expect(logicalOrder(['Bank ', 'לאומי', ' ', 'בנק', ' report'])).toEqual([0, 3, 2, 1, 4]);
    expect(logicalOrder(['שלום עולם'])).toEqual([0]);
    expect(logicalOrder(['Total', ' ', '2023'])).toEqual([0, 1, 2]);
  });

  it('never throws, keeps every word, and leaves text without right-to-left letters alone (property)', () => {
    const word = fc.oneof(fc.constantFrom('שלום', 'מרחבא', 'سلام', '\uFEE3\uFEAE', '2023', 'Apple', '(5)', 'constructor', '\u0301'), fc.string({ maxLength: 6 }));
    fc.assert(
      fc.property(fc.array(word, { maxLength: 40 }), (words) => {
        const line = words.join(' ');
        const out = visualToLogicalLine(line);
        expect(out.split(' ').sort()).toEqual(line.split(' ').sort());
        if (!hasRtl(line)) expect(out).toBe(line);
        expect(typeof logicalRtlText(line)).toBe('string');
      }),
    );
  });

  it('is linear on long lines', () => {
    const long = Array.from({ length: 100_000 }, (_, i) => (i % 3 === 0 ? '2023' : 'שלום')).join(' ');
    const started = performance.now();
    expect(visualToLogicalLine(long).length).toBe(long.length);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('stores Hebrew and Arabic lines of a PDF in logical order, searchable as typed', async () => {
    const bytes = writeSimplePdf([
      {
        runs: [
          // One run for the whole line (pdf.js reorders it as one item) …
          { text: visual('שלום עולם'), x: 300, y: 100, size: 14, unicode: true },
          // … and one run per word, left to right on the page (the line is assembled from items in page order).
          { text: visual('מאזן'), x: 380, y: 120, size: 14, unicode: true },
          { text: visual('מאוחד'), x: 300, y: 120, size: 14, unicode: true },
          { text: visual('דוח 2023 שנתי'), x: 300, y: 140, size: 14, unicode: true },
          { text: Array.from(ARABIC_FORMS).reverse().join(''), x: 300, y: 180, size: 14, unicode: true },
          { text: 'Plain English text stays as it is.', x: 72, y: 240 },
        ],
      },
    ]);
    const list = await adaptPdf(bytes, { docId: 'rtl', filename: 'rtl.pdf', ocr: false });
    const text = textOf(list.blocks).join('\n');
    expect(text).toContain('שלום עולם');
    expect(text).toContain('מאזן מאוחד');
    expect(text).toContain('דוח 2023 שנתי');
    expect(text).toContain(ARABIC);
    expect(text).not.toMatch(/[\uFB50-\uFDFF\uFE70-\uFEFC]/);
    expect(text).toContain('Plain English text stays as it is.');
  });
});
