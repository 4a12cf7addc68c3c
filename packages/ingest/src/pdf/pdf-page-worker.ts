import { parentPort, workerData } from 'node:worker_threads';
import { openPdfDocument } from './pdf-document.js';
import { readPageResult } from './pdf-page-result.js';
import type { PdfPageResult } from './pdf-page-result.js';
import type { PdfFontCache } from './pdf-pages.js';

/**
 * Worker-thread entry of the PDF adapter: opens the PDF and reads one range of its pages, posting
 * one {@link PdfPageWorkerMessage} per page, then `done`. Started by `readPagesInWorkers`.
 */

/** What the main thread gives a page worker. */
export interface PdfPageWorkerInput {
  bytes: Uint8Array;
  filename: string;
  password?: string;
  /** First page (0-based) and the page after the last one. */
  from: number;
  to: number;
  labels?: Array<string | undefined>;
  regions: boolean;
  allGraphics: boolean;
  /** Most pixels of one image pdf.js decodes (see `OpenPdfOptions.maxImagePixels`). */
  maxImagePixels?: number;
}

/** Messages of a page worker. */
export type PdfPageWorkerMessage = { type: 'page'; result: PdfPageResult } | { type: 'done' } | { type: 'error'; code?: string; message: string };

async function run(input: PdfPageWorkerInput, post: (message: PdfPageWorkerMessage) => void): Promise<void> {
  const doc = await openPdfDocument(input.bytes, { filename: input.filename, ...(input.maxImagePixels !== undefined ? { maxImagePixels: input.maxImagePixels } : {}), ...(input.password !== undefined ? { password: input.password } : {}) });
  try {
    const fonts: PdfFontCache = new Map();
    let fallbackSize: { width: number; height: number } | undefined;
    for (let pageIdx = input.from; pageIdx < input.to; pageIdx++) {
      const label = input.labels?.[pageIdx];
      const result = await readPageResult(doc, pageIdx, fonts, {
        regions: input.regions,
        allGraphics: input.allGraphics,
        ...(label !== undefined ? { label } : {}),
        ...(fallbackSize ? { fallbackSize } : {}),
      });
      fallbackSize = { width: result.info.width, height: result.info.height };
      post({ type: 'page', result });
    }
  } finally {
    await doc.close();
  }
  post({ type: 'done' });
}

if (parentPort && (workerData as { doctreePdfPages?: PdfPageWorkerInput } | undefined)?.doctreePdfPages) {
  const port = parentPort;
  const input = (workerData as { doctreePdfPages: PdfPageWorkerInput }).doctreePdfPages;
  run(input, (message) => port.postMessage(message)).catch((error: unknown) => {
    const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
    port.postMessage({ type: 'error', ...(typeof code === 'string' ? { code } : {}), message: error instanceof Error ? error.message : String(error) });
  });
}
