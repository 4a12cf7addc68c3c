import { openPdfDocument } from './pdf-document.js';
import { ensurePatchedPdfjs, ensurePdfRuntime, ingestPdfjs } from './pdf-runtime.js';
import { writeSimplePdf } from './simple-pdf-writer.js';

/** What `doctree doctor` reports about the PDF engine. */
export interface PdfEngineStatus {
  /** True when unpdf loaded and read a generated one-page PDF. */
  ok: boolean;
  engine: 'unpdf';
  /** pdf.js version bundled by unpdf. */
  pdfjsVersion?: string;
  /** True when the Node 20 `transferToFixedLength` polyfill is active. */
  polyfilled: boolean;
  /** Speed patches in effect on the pdf.js ingest uses (`PDFJS_PATCHES`; empty when unpdf's stock bundle is used). */
  patches: string[];
  error?: string;
}

/** Loads the pdf.js ingest uses and reads a generated one-page PDF end to end, as ingest opens PDFs; never throws. */
export async function checkPdfEngine(): Promise<PdfEngineStatus> {
  const polyfilled = ensurePdfRuntime();
  const { applied: patches } = await ensurePatchedPdfjs();
  try {
    const bytes = writeSimplePdf([{ runs: [{ text: 'DocTree engine check', x: 72, y: 72, size: 14 }] }]);
    const doc = await openPdfDocument(bytes, { filename: 'engine-check.pdf' });
    let text = '';
    try {
      const page = await doc.proxy.getPage(1);
      const content = await page.getTextContent();
      text = content.items.map((item) => ('str' in item ? item.str : '')).join('');
    } finally {
      await doc.close();
    }
    const pdfjs = (await ingestPdfjs()) as { version?: unknown };
    const ok = text.includes('DocTree engine check');
    return {
      ok,
      engine: 'unpdf',
      polyfilled,
      patches,
      ...(typeof pdfjs.version === 'string' ? { pdfjsVersion: pdfjs.version } : {}),
      ...(ok ? {} : { error: 'the check PDF was read but its text did not come back' }),
    };
  } catch (error) {
    return { ok: false, engine: 'unpdf', polyfilled, patches, error: error instanceof Error ? error.message : String(error) };
  }
}
