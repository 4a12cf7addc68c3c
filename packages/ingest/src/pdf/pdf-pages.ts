import { DocTreeError } from '@doctree/schema';
import { openPdfDocument, readPdfPageLabels } from './pdf-document.js';
import type { OpenPdf } from './pdf-document.js';
import { layoutPage } from './pdf-layout.js';
import type { PdfPageLayout } from './pdf-layout.js';
import type { BBox } from '@doctree/schema';
import { buildLines, cleanFontName, dominantTurn, invert, isBoldFontName, mapBox, multiply, spanFromItem } from './pdf-lines.js';
import type { FontFacts, PdfLine, PdfPageText, PdfSpan, RawTextItem } from './pdf-lines.js';

/**
 * Per-page text extraction with unpdf: text items with their fonts become lines in reading order.
 * Pages are read one at a time and released, so long documents stay within memory.
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

/** Font facts cached per document, keyed by the pdf.js font id (`g_d0_f3`). */
export type PdfFontCache = Map<string, FontFacts>;

interface TextStyle {
  fontFamily?: string;
  ascent?: number;
  descent?: number;
}

interface CommonFont {
  name?: unknown;
  bold?: unknown;
  black?: unknown;
}

const isTextItem = (item: unknown): item is RawTextItem =>
  typeof item === 'object' && item !== null && typeof (item as { str?: unknown }).str === 'string' && Array.isArray((item as { transform?: unknown }).transform);

/** A page's text together with its layout (the flows the adapter segments into blocks). */
export interface PdfPageRead {
  /** The page's text, boxes in the displayed page's frame. */
  page: PdfPageText;
  /** Layout in the reading frame (turned so the text runs left to right). */
  layout: PdfPageLayout;
  /** Maps a box from the reading frame to the displayed page; absent when the frames agree. */
  toPage?: (box: BBox) => BBox;
}

/** A copy of a line with its boxes mapped to another frame. */
function mapLine(line: PdfLine, toPage: (box: BBox) => BBox): PdfLine {
  return { ...line, bbox: toPage(line.bbox), spans: line.spans.map((span) => ({ ...span, bbox: toPage(span.bbox) })) };
}

/**
 * Reads one page: text items, font names (resolved once per document through the page's operator
 * list, which is when pdf.js hands fonts over), lines and layout. Releases the page afterwards.
 */
export async function readPdfPage(doc: OpenPdf, pageIdx: number, fonts: PdfFontCache, label?: string): Promise<PdfPageRead> {
  const page = await doc.proxy.getPage(pageIdx + 1);
  try {
    const viewport = page.getViewport({ scale: 1 });
    const content = await page.getTextContent();
    const styles = content.styles as Record<string, TextStyle | undefined>;
    const items: RawTextItem[] = [];
    for (const item of content.items as unknown[]) if (isTextItem(item)) items.push(item);
    const unknown = [...new Set(items.filter((i) => i.str.trim() !== '' && !fonts.has(i.fontName)).map((i) => i.fontName))];
    if (unknown.length > 0) {
      try {
        await page.getOperatorList();
      } catch {
        // Without the operator list fonts fall back to their style facts.
      }
      for (const id of unknown) {
        const style = styles[id];
        let common: CommonFont | undefined;
        try {
          common = page.commonObjs.has(id) ? (page.commonObjs.get(id) as CommonFont) : undefined;
        } catch {
          common = undefined;
        }
        const name = typeof common?.name === 'string' && common.name ? cleanFontName(common.name) : undefined;
        const bold = isBoldFontName(name) || common?.bold === true || common?.black === true || /bold/i.test(style?.fontFamily ?? '');
        fonts.set(id, { ...(name ? { name } : {}), bold, ascent: style?.ascent ?? 0.8, descent: style?.descent ?? -0.2 });
      }
    }
    // Pages whose text runs sideways (a landscape table on a portrait page) are read turned.
    const turn = dominantTurn(items, viewport.transform as number[]);
    const frame = turn === 0 ? viewport : page.getViewport({ scale: 1, rotation: (viewport.rotation + turn) % 360 });
    const transform = frame.transform as number[];
    const back = turn === 0 ? undefined : multiply(viewport.transform as number[], invert(transform));
    const toPage = back ? (box: BBox): BBox => mapBox(box, back) : undefined;
    const spans: PdfSpan[] = [];
    for (const item of items) {
      const span = spanFromItem(item, transform, fonts.get(item.fontName));
      if (span) spans.push(span);
    }
    const lines = buildLines(spans);
    const layout = layoutPage(lines, frame.height);
    const reading = [...layout.top, ...layout.flows.flatMap((f) => f.lines), ...layout.bottom, ...layout.aside];
    const ordered = toPage ? reading.map((line) => mapLine(line, toPage)) : reading;
    const text: PdfPageText = {
      page_idx: pageIdx,
      width: Math.round(viewport.width * 100) / 100,
      height: Math.round(viewport.height * 100) / 100,
      has_text_layer: ordered.length > 0,
      lines: ordered,
    };
    if (label !== undefined) text.label = label;
    if (layout.gutter && !toPage) text.gutter = layout.gutter;
    return { page: text, layout, ...(toPage ? { toPage } : {}) };
  } finally {
    page.cleanup();
  }
}

/** Throws `CANCELLED` when the signal is aborted. */
export function throwIfCancelled(signal: AbortSignal | undefined, filename: string): void {
  if (signal?.aborted) throw new DocTreeError('CANCELLED', `Reading ${filename} was cancelled`, { file: filename });
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
