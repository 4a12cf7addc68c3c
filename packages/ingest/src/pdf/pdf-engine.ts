import { ensurePatchedPdfjs, ensurePdfRuntime } from './pdf-runtime.js';
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
  /** Speed patches in effect on unpdf's pdf.js (`PDFJS_PATCHES`; empty when its stock bundle is used). */
  patches: string[];
  error?: string;
}

/** Loads unpdf and reads a generated one-page PDF end to end; never throws. */
export async function checkPdfEngine(): Promise<PdfEngineStatus> {
  const polyfilled = ensurePdfRuntime();
  const { applied: patches } = await ensurePatchedPdfjs();
  try {
    const unpdf = await import('unpdf');
    const bytes = writeSimplePdf([{ runs: [{ text: 'DocTree engine check', x: 72, y: 72, size: 14 }] }]);
    const pdf = await unpdf.getDocumentProxy(bytes);
    const { text } = await unpdf.extractText(pdf, { mergePages: true });
    const pdfjs = (await unpdf.getResolvedPDFJS()) as { version?: string };
    await pdf.loadingTask.destroy();
    const ok = text.includes('DocTree engine check');
    return {
      ok,
      engine: 'unpdf',
      polyfilled,
      patches,
      ...(pdfjs.version ? { pdfjsVersion: pdfjs.version } : {}),
      ...(ok ? {} : { error: 'the check PDF was read but its text did not come back' }),
    };
  } catch (error) {
    return { ok: false, engine: 'unpdf', polyfilled, patches, error: error instanceof Error ? error.message : String(error) };
  }
}
