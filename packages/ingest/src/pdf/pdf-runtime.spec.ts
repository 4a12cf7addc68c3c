import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { PDFJS_PATCHES, ensurePatchedPdfjs, patchPdfjsSource } from './pdf-runtime.js';
import { openPdfDocument } from './pdf-document.js';
import { writeSimplePdf } from './simple-pdf-writer.js';

/** unpdf's pdf.js bundle as installed. */
function bundle(): { file: string; source: string } {
  const file = join(dirname(createRequire(__filename).resolve('unpdf')), 'pdfjs.mjs');
  return { file, source: readFileSync(file, 'utf8') };
}

describe('patchPdfjsSource', () => {
  it('applies every speed patch to the installed unpdf bundle (an unpdf upgrade that moves them shows here)', () => {
    const { source } = bundle();
    const { source: patched, applied } = patchPdfjsSource(source, 'file:///x/pdfjs.mjs');
    expect(applied).toEqual(PDFJS_PATCHES.map((p) => p.name));
    for (const patch of PDFJS_PATCHES) {
      expect(patched).toContain(patch.replace);
      expect(patched).not.toContain(patch.find);
    }
    expect(patched).not.toContain('import.meta.url');
    expect(patched).toContain('"file:///x/pdfjs.mjs"');
  });

  it('skips a patch whose text is missing or not unique and leaves such a bundle untouched', () => {
    const [first] = PDFJS_PATCHES;
    const twice = `${first!.find}a;${first!.find}b; import.meta.url`;
    expect(patchPdfjsSource(twice, 'file:///y')).toEqual({ source: twice, applied: [] });
    expect(patchPdfjsSource('nothing to patch', 'file:///y')).toEqual({ source: 'nothing to patch', applied: [] });
  });
});

describe('ensurePatchedPdfjs', () => {
  it('reports the patches in effect, and documents still open and read', async () => {
    const status = await ensurePatchedPdfjs();
    expect(status.applied.length === PDFJS_PATCHES.length || typeof status.reason === 'string').toBe(true);
    const doc = await openPdfDocument(writeSimplePdf([{ runs: [{ text: 'Patched engine', x: 72, y: 72, size: 12 }] }]), { filename: 'p.pdf' });
    try {
      const page = await doc.proxy.getPage(1);
      const content = await page.getTextContent();
      expect(content.items.map((i) => ('str' in i ? i.str : '')).join('')).toContain('Patched engine');
    } finally {
      await doc.close();
    }
  });
});
