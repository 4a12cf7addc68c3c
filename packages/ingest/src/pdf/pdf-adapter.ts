import { createHash } from 'node:crypto';
import { CONTENT_LIST_VERSION, DocTreeError, INGEST_OCR_DEFAULTS } from '@doctree/schema';
import type { ContentList, IngestWarning, PageInfo, PageSize } from '@doctree/schema';
import type { PdfRawBlock } from './pdf-blocks.js';
import { PdfVocabulary, classifyBlocks } from './pdf-classify.js';
import { splitRunningRows } from './pdf-furniture.js';
import { openPdfDocument, readPdfOutline, readPdfPageLabels } from './pdf-document.js';
import { assertOcrOptions, missingOcrLanguages, missingOcrPrograms, ocrPages, tesseractLanguagePackages } from './pdf-ocr.js';
import { readPageResult } from './pdf-page-result.js';
import type { PdfPageResult } from './pdf-page-result.js';
import { throwIfCancelled } from './pdf-pages.js';
import type { PdfFontCache } from './pdf-pages.js';
import { scanPdfStreams } from './pdf-stream-guard.js';
import { pdfWorkerScript, readPagesInWorkers, workerCount } from './pdf-workers.js';
import { DEFAULT_MAX_IMAGE_PIXELS, DEFAULT_MAX_OCR_PAGES, DEFAULT_MAX_PAGES } from '../limits.js';

/**
 * The PDF adapter: PDF bytes → `content_list.adapted.json` from the text layer and the page
 * graphics (CPU only, no models, no rendering). Text, titles with levels, lists, equations, page
 * furniture, tables (ruled and borderless) and figures (images and vector drawings) with their
 * captions.
 */

/** Generator name written into content lists made by this adapter. */
export const PDF_ADAPTER_GENERATOR = '@doctree/ingest@0.1.0';

/** Options of {@link adaptPdf}. */
export interface AdaptPdfOptions {
  /** Document id written to `doc_id` (e.g. the folder name under `data/`). */
  docId: string;
  /** File name as given by the user (not an absolute path); recorded in `source` and named in errors. */
  filename: string;
  /** Hex sha256 of the bytes when already known; computed with node:crypto otherwise. */
  sha256?: string;
  /** Password of an encrypted PDF. */
  password?: string;
  /** Progress: called after each page with pages done and the page count. Defaults to a no-op. */
  onPage?: (done: number, total: number) => void;
  /** Cancels between pages with a `CANCELLED` DocTreeError. */
  signal?: AbortSignal;
  /** Find tables and figures (default true); false gives text blocks only, as before they were added. */
  regions?: boolean;
  /**
   * Read the graphics (operator list) of every page when looking for tables and figures (default
   * false: only pages whose text suggests a ruled table or a figure — a caption, little text, a
   * tall blank stretch, unexplained cell rows — or whose fonts are new). Slower, finds slightly more.
   */
  allGraphics?: boolean;
  /**
   * Worker threads reading pages alongside this thread: `'auto'` (default) starts one per further core
   * (at most four) for documents of `WORKER_MIN_PAGES` (200) pages or more when the compiled worker script is available; a
   * number forces that many (0 reads every page in this thread). The result is the same either way. With 0 — what
   * callers that read documents side by side, one per core, pass (collection builds, `ingest` of several files) — OCR
   * also reads one batch of pages at a time: more `tesseract` processes than cores only slow each other down.
   */
  workers?: number | 'auto';
  /**
   * OCR pages without a text layer with `tesseract` (pages rendered by `pdftoppm`) when both are on PATH
   * (default true). Without them, or when false, such pages stay empty with an `OCR_UNAVAILABLE` warning.
   */
  ocr?: boolean;
  /**
   * Tesseract language(s) for OCR, e.g. `eng` or `eng+deu` (default `eng`; names of letters, digits and `_` joined by
   * `+`, see `OCR_LANGUAGE_PATTERN`). A language tesseract has no data for leaves the pages empty with one
   * `OCR_UNAVAILABLE` warning naming the package to install.
   */
  ocrLanguage?: string;
  /** Resolution pages are rendered at for OCR, 72–600 dpi (default 200): lower is faster and reads fewer words. */
  ocrDpi?: number;
  /** Called once after OCR ran (not when no page needed it or it could not run), with what it did and how long it took. */
  onOcr?: (stats: PdfOcrStats) => void;
  /**
   * Most pages OCRed (default {@link DEFAULT_MAX_OCR_PAGES}, 500): pages without a text layer past it stay empty with
   * one `OCR_CAPPED` warning. 0 turns OCR off.
   */
  maxOcrPages?: number;
  /**
   * Most pages: a PDF with more is refused (`SCHEMA_INVALID`) right after it is opened, before any page is read.
   * Default {@link DEFAULT_MAX_PAGES} (5 000).
   */
  maxPages?: number;
  /** Most bytes one Flate stream may decode to (default 256 MiB); more is `INPUT_UNSUPPORTED` (see `scanPdfStreams`). */
  maxStreamBytes?: number;
  /** Most decoded bytes of all Flate streams as a multiple of the file size, past 256 MiB (default 100). */
  maxDecodedRatio?: number;
  /**
   * Most pixels (width × height) of one image pdf.js decodes (default {@link DEFAULT_MAX_IMAGE_PIXELS}); larger images
   * are skipped (no figure found from them) with one `IMAGE_TOO_LARGE` warning.
   */
  maxImagePixels?: number;
}

/** What OCR did in one {@link adaptPdf} call (see `AdaptPdfOptions.onOcr`). */
export interface PdfOcrStats {
  /** Pages without a text layer that went through OCR (rendered, then read by tesseract unless blank). */
  pages: number;
  /** Pages OCR read text from. */
  read: number;
  /** Pages OCR failed on. */
  failed: number;
  /** Wall time of OCR, in milliseconds. */
  ms: number;
}

/** Defaults merged under the caller's {@link AdaptPdfOptions}. */
export const ADAPT_PDF_DEFAULTS: Required<Pick<AdaptPdfOptions, 'onPage' | 'regions' | 'allGraphics' | 'workers' | 'ocr' | 'ocrLanguage' | 'ocrDpi'>> = {
  onPage: () => undefined,
  regions: true,
  allGraphics: false,
  workers: 'auto',
  ocr: INGEST_OCR_DEFAULTS.enabled,
  ocrLanguage: INGEST_OCR_DEFAULTS.language,
  ocrDpi: INGEST_OCR_DEFAULTS.dpi,
};

/** Characters of body text a page needs before its own body size counts. */
const PAGE_BODY_MIN_CHARS = 300;

/** The key with the largest weight. */
function heaviest(weights: ReadonlyMap<number, number>): { key: number; weight: number } | undefined {
  let best: { key: number; weight: number } | undefined;
  for (const [key, weight] of weights) if (!best || weight > best.weight) best = { key, weight };
  return best;
}


/**
 * Adapts a PDF into a content list (stage `adapted`): reads pages one at a time with unpdf,
 * rebuilds lines and blocks in reading order (two-column pages included), types titles (levels
 * from font statistics, numbering and the outline), paragraphs, lists, equations, headers, footers
 * and page numbers; tables (`table_body` HTML, Markdown, `Table N` captions) and figures (raster
 * images and vector drawings, `Figure N` captions) take the place of the text they cover, in
 * reading order (see `findRegions`, `attachCaptions`). Pages without a text layer are recorded (`has_text_layer: false`) with a
 * `NO_TEXT_LAYER` warning each; when `tesseract` and `pdftoppm` are on PATH they are OCRed (`ocr: true`, their text blocks
 * `origin: "ocr"`, one `OCR_APPLIED` warning), otherwise they stay empty with one `OCR_UNAVAILABLE` warning.
 *
 * @throws DocTreeError with `file` = `options.filename`: `INPUT_UNSUPPORTED` (not a PDF),
 * `PDF_CORRUPT`, `PDF_ENCRYPTED`, `PDF_PASSWORD_INCORRECT`, `PDF_NO_PAGES`, `CANCELLED`;
 * anything unexpected becomes `INTERNAL`.
 *
 * @example
 * ```ts
 * const list = await adaptPdf(await readFile('10k.pdf'), { docId: '3m-2022', filename: '10k.pdf' });
 * console.log(list.blocks.filter((b) => b.type === 'title').map((b) => b.text));
 * ```
 */
export async function adaptPdf(bytes: Uint8Array, options: AdaptPdfOptions): Promise<ContentList> {
  const settings = { ...ADAPT_PDF_DEFAULTS, ...options };
  const { filename, signal } = settings;
  if (!settings.docId) throw new DocTreeError('USAGE', 'adaptPdf needs a docId', { file: filename });
  assertOcrOptions(settings, filename);
  throwIfCancelled(signal, filename);
  const sha256 = (settings.sha256 ?? createHash('sha256').update(bytes).digest('hex')).toLowerCase();
  const size = bytes.byteLength;
  const maxImagePixels = settings.maxImagePixels ?? DEFAULT_MAX_IMAGE_PIXELS;
  // Decompression bombs are refused before pdf.js expands them.
  const streams = await scanPdfStreams(bytes, {
    filename,
    maxImagePixels,
    ...(settings.maxStreamBytes !== undefined ? { maxStreamBytes: settings.maxStreamBytes } : {}),
    ...(settings.maxDecodedRatio !== undefined ? { maxDecodedRatio: settings.maxDecodedRatio } : {}),
  });
  const doc = await openPdfDocument(bytes, { filename, maxImagePixels, ...(settings.password !== undefined ? { password: settings.password } : {}) });
  try {
    const maxPages = settings.maxPages ?? DEFAULT_MAX_PAGES;
    if (doc.pageCount > maxPages) {
      throw new DocTreeError('SCHEMA_INVALID', `the document has ${doc.pageCount} pages, more than the maximum page count ${maxPages}`, {
        file: filename,
        hint: 'Raise ingest.limits.max_pages in doctree.config.json (maxPages) if the document really has that many pages.',
      });
    }
    const outline = await readPdfOutline(doc.proxy);
    const labels = await readPdfPageLabels(doc.proxy);
    const fonts: PdfFontCache = new Map();
    const vocabulary = new PdfVocabulary();
    const sizeWeights = new Map<number, number>();
    const pageBodySizes = new Map<number, number>();
    const pages: PageInfo[] = [];
    const pageSizes = new Map<number, PageSize>();
    const warnings: IngestWarning[] = [];
    if (streams.largeImages.length > 0) {
      const largest = streams.largeImages.reduce((a, b) => (b.width * b.height > a.width * a.height ? b : a));
      warnings.push({
        code: 'IMAGE_TOO_LARGE',
        message: `${streams.largeImages.length} image(s) exceed ${maxImagePixels} pixels (largest ${largest.width}×${largest.height}) and were skipped (limit ingest.limits.max_image_pixels).`,
      });
    }
    const raws: PdfRawBlock[] = [];
    const textless: number[] = [];
    let unreadable = 0;
    let lastSize: PageSize = { width: 612, height: 792 };
    const readHere = (pageIdx: number): Promise<PdfPageResult> => {
      const label = labels?.[pageIdx];
      return readPageResult(doc, pageIdx, fonts, {
        regions: settings.regions,
        allGraphics: settings.allGraphics,
        ...(label !== undefined ? { label } : {}),
        fallbackSize: lastSize,
      });
    };
    let done = 0;
    const progress = (): void => settings.onPage?.(++done, doc.pageCount);
    const script = pdfWorkerScript();
    const workers = script ? workerCount(doc.pageCount, settings.workers) : 0;
    const results: AsyncIterable<PdfPageResult> =
      workers >= 1 && script
        ? readPagesInWorkers(doc.pageCount, {
            input: {
              bytes,
              filename,
              ...(settings.password !== undefined ? { password: settings.password } : {}),
              ...(labels ? { labels } : {}),
              regions: settings.regions,
              allGraphics: settings.allGraphics,
              maxImagePixels,
            },
            workers,
            script,
            fallback: readHere,
            onArrive: progress,
            onWorkerFailure: (reason) =>
              warnings.push({ code: 'PDF_WORKERS_FAILED', message: `Reading pages in worker threads failed (${reason}); the remaining pages were read in the main thread.` }),
            ...(signal ? { signal } : {}),
          })
        : (async function* inProcess(): AsyncGenerator<PdfPageResult> {
            for (let pageIdx = 0; pageIdx < doc.pageCount; pageIdx++) {
              throwIfCancelled(signal, filename);
              yield await readHere(pageIdx);
              progress();
              // pdf.js runs on promise jobs alone, which starve every other event until the document is done: let
              // timers, I/O and worker messages (another file's worker waiting for its next file) through between pages.
              await new Promise<void>((resolve) => setImmediate(resolve));
            }
          })();
    for await (const result of results) {
      const pageIdx = result.info.page_idx;
      for (const line of result.lines) vocabulary.addLine(line);
      let pageBody: { key: number; weight: number } | undefined;
      for (const [key, weight] of result.sizeWeights) {
        sizeWeights.set(key, (sizeWeights.get(key) ?? 0) + weight);
        if (!pageBody || weight > pageBody.weight) pageBody = { key, weight };
      }
      if (pageBody !== undefined && pageBody.weight >= PAGE_BODY_MIN_CHARS) pageBodySizes.set(pageIdx, pageBody.key);
      raws.push(...result.blocks);
      pages.push(result.info);
      pageSizes.set(pageIdx, result.info);
      lastSize = { width: result.info.width, height: result.info.height };
      if (result.error !== undefined) {
        unreadable++;
        warnings.push({ code: 'PAGE_UNREADABLE', page_idx: pageIdx, message: `Page ${pageIdx + 1} could not be read: ${result.error}` });
      } else if (!result.info.has_text_layer) {
        textless.push(pageIdx);
        warnings.push({
          code: 'NO_TEXT_LAYER',
          page_idx: pageIdx,
          message: `Page ${pageIdx + 1} has no text layer (scanned or image-only).`,
        });
      }
    }
    if (unreadable === doc.pageCount) {
      throw new DocTreeError('PDF_CORRUPT', `No page of ${filename} could be read`, { file: filename });
    }
    const maxOcrPages = Math.max(0, Math.floor(settings.maxOcrPages ?? DEFAULT_MAX_OCR_PAGES));
    if (textless.length > maxOcrPages && settings.ocr && missingOcrPrograms().length === 0) {
      // Past the cap, pages stay empty: OCR takes seconds a page (10 000 blank pages would take hours).
      const skipped = textless.splice(maxOcrPages);
      warnings.push({
        code: 'OCR_CAPPED',
        message: `${skipped.length + textless.length} page(s) have no text layer; OCR is capped at ${maxOcrPages} page(s) (ingest.limits.max_ocr_pages), so pages ${skipped[0]! + 1}–${skipped[skipped.length - 1]! + 1} stay empty.`,
      });
    }
    if (textless.length > 0) {
      const missing = settings.ocr ? missingOcrPrograms() : [];
      const absentLanguages = settings.ocr && missing.length === 0 ? await missingOcrLanguages(settings.ocrLanguage) : [];
      if (!settings.ocr || missing.length > 0 || absentLanguages.length > 0) {
        const list = textless.map((i) => i + 1).join(', ');
        const why = !settings.ocr
          ? 'OCR was turned off'
          : missing.length > 0
            ? `OCR cannot run (${missing.join(' and ')} not on PATH; install tesseract-ocr and poppler-utils)`
            : `OCR cannot run (tesseract has no data for ${absentLanguages.join(', ')} of ingest.ocr.language "${settings.ocrLanguage}"; install ${tesseractLanguagePackages(absentLanguages).join(' ')})`;
        warnings.push({ code: 'OCR_UNAVAILABLE', message: `${textless.length} page(s) have no text layer and ${why}; they stay empty: ${list}.` });
      } else {
        const ocrStart = performance.now();
        // A document read in this thread beside others (workers 0: one document per core) OCRs on its own core too.
        const ocrConcurrency = settings.workers === 0 ? { concurrency: 1 } : {};
        const ocr = await ocrPages(bytes, textless, { filename, language: settings.ocrLanguage, dpi: settings.ocrDpi, ...ocrConcurrency, ...(signal ? { signal } : {}) });
        settings.onOcr?.({ pages: textless.length, read: ocr.blocks.size, failed: ocr.failed.size, ms: performance.now() - ocrStart });
        for (const [pageIdx, pageBlocks] of ocr.blocks) {
          pages[pageIdx] = { ...pages[pageIdx]!, ocr: true };
          for (const block of pageBlocks) for (const line of block.lines) vocabulary.addLine(line.text);
          raws.push(...pageBlocks);
        }
        // Blocks stay in page order (OCR pages were empty until now).
        raws.sort((a, b) => a.page_idx - b.page_idx);
        const read = [...ocr.blocks.keys()];
        const empty = textless.filter((p) => !ocr.blocks.has(p) && !ocr.failed.has(p));
        if (read.length > 0) warnings.push({ code: 'OCR_APPLIED', message: `Text of ${read.length} page(s) without a text layer comes from OCR (tesseract): ${read.map((p) => p + 1).join(', ')}.` });
        if (empty.length > 0) warnings.push({ code: 'OCR_NO_TEXT', message: `OCR found no text on ${empty.length} page(s); they stay empty: ${empty.map((p) => p + 1).join(', ')}.` });
        for (const [pageIdx, reason] of ocr.failed) warnings.push({ code: 'OCR_FAILED', page_idx: pageIdx, message: `OCR of page ${pageIdx + 1} failed (${reason}); the page stays empty.` });
      }
    }
    const bodySize = heaviest(sizeWeights)?.key ?? 10;
    // Running headers and footers set outside the edge bands leave the paragraphs they were read into.
    const pageHeights = new Map([...pageSizes].map(([pageIdx, size]) => [pageIdx, size.height]));
    const classified = classifyBlocks(splitRunningRows(raws, pageHeights, { bodySize }), { bodySize, outline, pageSizes, vocabulary, pageBodySizes, ...(labels ? { labels } : {}) });
    // Text on an OCRed page (it had no text layer) came from tesseract: its blocks say so (`origin: "ocr"`).
    const blocks = classified.map((b) => (pages[b.page_idx]?.ocr && b.type !== 'image' ? { ...b, origin: 'ocr' as const } : b));
    return {
      format: 'doctree.content_list',
      version: CONTENT_LIST_VERSION,
      stage: 'adapted',
      doc_id: settings.docId,
      source: { filename, kind: 'pdf', sha256, bytes: size },
      pages,
      outline,
      blocks,
      warnings,
      generator: PDF_ADAPTER_GENERATOR,
    };
  } catch (error) {
    throw DocTreeError.from(error, 'INTERNAL', { file: filename });
  } finally {
    await doc.close();
  }
}
