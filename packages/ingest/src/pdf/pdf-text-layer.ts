import { openPdfDocument, readPdfPageLabels } from './pdf-document.js';
import type { PdfPageText } from './pdf-lines.js';
import { readPdfPage, throwIfCancelled } from './pdf-pages.js';
import type { PdfFontCache } from './pdf-pages.js';

/**
 * The plain text layer of a PDF, page by page: the public entry points over `readPdfPage`. Kept apart
 * from the page reader so the published declarations never reference pdf.js types.
 */

/** Options of {@link extractPdfPages} and {@link iteratePdfPages}. */
export interface ExtractPdfPagesOptions {
  /** File name as given by the user; named in every error. */
  filename: string;
  /** Password of an encrypted PDF. */
  password?: string;
  /** Called after each page with pages done and the page count. */
  onPage?: (done: number, total: number) => void;
  /** Stops between pages with a `CANCELLED` DocTreeError. */
  signal?: AbortSignal;
}

/**
 * Yields the text layer of each page in order, one page in memory at a time. A page pdf.js cannot
 * read comes back with `has_text_layer: false` and `error` set; errors opening the document throw
 * (see `openPdfDocument`).
 */
export async function* iteratePdfPages(bytes: Uint8Array, options: ExtractPdfPagesOptions): AsyncGenerator<PdfPageText> {
  const { filename, signal, onPage } = options;
  throwIfCancelled(signal, filename);
  const doc = await openPdfDocument(bytes, options);
  try {
    const labels = await readPdfPageLabels(doc.proxy);
    const fonts: PdfFontCache = new Map();
    for (let pageIdx = 0; pageIdx < doc.pageCount; pageIdx++) {
      throwIfCancelled(signal, filename);
      const label = labels?.[pageIdx];
      let page: PdfPageText;
      try {
        page = (await readPdfPage(doc, pageIdx, fonts, label)).page;
      } catch (error) {
        page = {
          page_idx: pageIdx,
          width: 612,
          height: 792,
          has_text_layer: false,
          lines: [],
          error: error instanceof Error ? error.message : String(error),
          ...(label !== undefined ? { label } : {}),
        };
      }
      onPage?.(pageIdx + 1, doc.pageCount);
      yield page;
    }
  } finally {
    await doc.close();
  }
}

/** Reads the text layer of every page (see {@link iteratePdfPages}); for the table / figure steps. */
export async function extractPdfPages(bytes: Uint8Array, options: ExtractPdfPagesOptions): Promise<PdfPageText[]> {
  const pages: PdfPageText[] = [];
  for await (const page of iteratePdfPages(bytes, options)) pages.push(page);
  return pages;
}
