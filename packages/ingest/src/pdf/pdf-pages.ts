import { DocTreeError } from '@doctree/schema';
import type { OpenPdf } from './pdf-document.js';
import { layoutPage } from './pdf-layout.js';
import type { PdfPageLayout } from './pdf-layout.js';
import type { BBox } from '@doctree/schema';
import { buildLines, cleanFontName, dominantTurn, invert, isBoldFontName, mapBox, multiply, spanFromItem } from './pdf-lines.js';
import type { FontFacts, PdfLine, PdfPageText, PdfSpan, RawTextItem } from './pdf-lines.js';
import { pdfOpsFrom, readPdfGraphics } from './pdf-graphics.js';
import type { PdfOperatorList, PdfOps } from './pdf-graphics.js';
import { isRegionLine } from './pdf-region-line.js';
import { ingestPdfjs } from './pdf-runtime.js';
import type { PdfRegion } from './pdf-region-line.js';
import { findRegions, wantsGraphics } from './pdf-regions.js';
import { BorderlessTableMemo } from './pdf-tables.js';
import type { PageRegions } from './pdf-regions.js';

/**
 * Per-page text extraction with unpdf: text items with their fonts become lines in reading order.
 * Pages are read one at a time and released, so long documents stay within memory.
 */

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
  /** Layout in the reading frame (turned so the text runs left to right); tables and figures take part as placeholder lines. */
  layout: PdfPageLayout;
  /** Maps a box from the reading frame to the displayed page; absent when the frames agree. */
  toPage?: (box: BBox) => BBox;
  /** Tables and figures found on the page (reading frame), when asked for. */
  regions: PdfRegion[];
  /** True when the page's operator list was read for its graphics. */
  graphicsRead: boolean;
}

/** Options of {@link readPdfPage}. */
export interface ReadPdfPageOptions {
  /** Find tables and figures (reads the operator list of pages that may have them). Default false. */
  regions?: boolean;
  /** Read the graphics of every page instead of only pages whose text suggests tables or figures. Default false. */
  allGraphics?: boolean;
}

let opsTable: Promise<PdfOps | undefined> | undefined;

/** pdf.js operator codes (`OPS` of unpdf's bundled pdf.js), resolved once. */
function pdfOps(): Promise<PdfOps | undefined> {
  opsTable ??= ingestPdfjs()
    .then((pdfjs) => pdfOpsFrom((pdfjs as { OPS?: Record<string, number> }).OPS))
    .catch(() => undefined);
  return opsTable;
}

/** pdf.js `AnnotationMode.DISABLE`: the page's own content, without the appearance streams of its annotations. */
const ANNOTATION_MODE_DISABLE = 0;

/** Reads a page's operator list; undefined when pdf.js fails on it. */
async function operatorList(page: { getOperatorList(options?: { annotationMode?: number }): Promise<unknown> }): Promise<PdfOperatorList | undefined> {
  try {
    const list = (await page.getOperatorList({ annotationMode: ANNOTATION_MODE_DISABLE })) as Partial<PdfOperatorList>;
    return list.fnArray && list.argsArray ? (list as PdfOperatorList) : undefined;
  } catch {
    return undefined;
  }
}

/** A copy of a line with its boxes mapped to another frame. */
function mapLine(line: PdfLine, toPage: (box: BBox) => BBox): PdfLine {
  return { ...line, bbox: toPage(line.bbox), spans: line.spans.map((span) => ({ ...span, bbox: toPage(span.bbox) })) };
}

/**
 * Reads one page: text items, font names (resolved once per document through the page's operator
 * list, which is when pdf.js hands fonts over), lines and layout; with `options.regions`, also its
 * tables and figures (graphics are read only for pages whose text suggests them, see
 * `wantsGraphics`). Releases the page afterwards.
 */
export async function readPdfPage(doc: OpenPdf, pageIdx: number, fonts: PdfFontCache, label?: string, options: ReadPdfPageOptions = {}): Promise<PdfPageRead> {
  const page = await doc.proxy.getPage(pageIdx + 1);
  try {
    const viewport = page.getViewport({ scale: 1 });
    const content = await page.getTextContent();
    const styles = content.styles as Record<string, TextStyle | undefined>;
    const items: RawTextItem[] = [];
    for (const item of content.items as unknown[]) if (isTextItem(item)) items.push(item);
    const unknown = [...new Set(items.filter((i) => i.str.trim() !== '' && !fonts.has(i.fontName)).map((i) => i.fontName))];
    let ops: PdfOperatorList | undefined;
    if (unknown.length > 0) {
      // Without the operator list fonts fall back to their style facts.
      ops = await operatorList(page);
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
    // A space the PDF draws as a run of its own (however narrow its glyph) ends a word.
    let spaceBefore = false;
    for (const item of items) {
      if (item.str.trim() === '') {
        if (item.str.length > 0) spaceBefore = true;
        continue;
      }
      const span = spanFromItem(item, transform, fonts.get(item.fontName));
      if (span) {
        if (spaceBefore) span.spaceBefore = true;
        spans.push(span);
      }
      spaceBefore = false;
    }
    const lines = buildLines(spans);
    let flowLines: PdfLine[] = lines;
    let regions: PdfRegion[] = [];
    let graphicsRead = false;
    if (options.regions && lines.length > 0) {
      const frameSize = { width: frame.width, height: frame.height };
      // Regions from the text alone are needed to decide on graphics and when graphics are not read; a page whose
      // operator list is already here (new fonts) or that reads graphics anyway skips them.
      let found: PageRegions | undefined;
      // Both reads see the same lines: the second takes the borderless tables of the first.
      const memo = new BorderlessTableMemo();
      const textOnly = (): PageRegions => (found ??= findRegions(lines, undefined, frameSize, { memo }));
      const codes = await pdfOps();
      if (codes && (ops || options.allGraphics || wantsGraphics(lines, frameSize, textOnly()))) {
        ops ??= await operatorList(page);
        if (ops) {
          found = findRegions(lines, readPdfGraphics(ops, codes, transform, frameSize), frameSize, { memo });
          graphicsRead = true;
        }
      }
      const chosen = graphicsRead && found ? found : textOnly();
      regions = chosen.regions;
      flowLines = chosen.lines;
    }
    const layout = layoutPage(flowLines, frame.height);
    const reading = [...layout.top, ...layout.flows.flatMap((f) => f.lines), ...layout.bottom, ...layout.aside].filter((l) => !isRegionLine(l));
    const ordered = toPage ? reading.map((line) => mapLine(line, toPage)) : reading;
    const text: PdfPageText = {
      page_idx: pageIdx,
      width: Math.round(viewport.width * 100) / 100,
      height: Math.round(viewport.height * 100) / 100,
      has_text_layer: lines.length > 0,
      lines: ordered,
    };
    if (label !== undefined) text.label = label;
    if (layout.gutter && !toPage) text.gutter = layout.gutter;
    return { page: text, layout, ...(toPage ? { toPage } : {}), regions, graphicsRead };
  } finally {
    page.cleanup();
  }
}

/** Throws `CANCELLED` when the signal is aborted. */
export function throwIfCancelled(signal: AbortSignal | undefined, filename: string): void {
  if (signal?.aborted) throw new DocTreeError('CANCELLED', `Reading ${filename} was cancelled`, { file: filename });
}
