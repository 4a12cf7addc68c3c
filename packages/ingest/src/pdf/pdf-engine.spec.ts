import { checkPdfEngine } from './pdf-engine.js';
import { writeSimplePdf } from './simple-pdf-writer.js';

describe('checkPdfEngine', () => {
  it('reads a generated PDF through unpdf on this runtime', async () => {
    const status = await checkPdfEngine();
    expect(status.error).toBeUndefined();
    expect(status.ok).toBe(true);
    expect(status.pdfjsVersion).toMatch(/^\d+\.\d+/);
  });
});

describe('writeSimplePdf', () => {
  it('writes pages, text and an outline that pdf.js reads back', async () => {
    const { getDocumentProxy, extractText } = await import('unpdf');
    const bytes = writeSimplePdf(
      [
        { runs: [{ text: '1 Introduction', x: 72, y: 80, size: 16, bold: true }, { text: 'Trees (and graphs).', x: 72, y: 110 }] },
        { runs: [{ text: '2 Method', x: 72, y: 80, size: 16, bold: true }], shapes: [{ kind: 'rect', x: 72, y: 100, width: 200, height: 50 }] },
      ],
      { title: 'Sample', outline: [{ title: '1 Introduction', pageIdx: 0 }, { title: '2 Method', pageIdx: 1 }] },
    );
    const pdf = await getDocumentProxy(bytes);
    expect(pdf.numPages).toBe(2);
    const { text } = await extractText(pdf, { mergePages: false });
    expect(text[0]).toContain('Trees (and graphs).');
    expect(text[1]).toContain('2 Method');
    const outline = await pdf.getOutline();
    expect(outline.map((o) => o.title)).toEqual(['1 Introduction', '2 Method']);
    await pdf.loadingTask.destroy();
  });
});
