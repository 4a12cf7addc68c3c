import { DocTreeError } from '@doctree/schema';
import type { PageInfo, PageSize } from '@doctree/schema';
import { pageBlocks } from './pdf-blocks.js';
import type { PdfRawBlock } from './pdf-blocks.js';
import type { OpenPdf } from './pdf-document.js';
import { readPdfPage } from './pdf-pages.js';
import type { PdfFontCache } from './pdf-pages.js';
import { attachCaptions } from './pdf-regions.js';

/**
 * One page of a PDF read into everything the adapter keeps of it: page facts, raw blocks (span
 * detail dropped), the words for the document vocabulary and the body font sizes. Plain data, so a
 * worker thread can hand it to the main thread unchanged.
 */

/** What the adapter keeps of one page. */
export interface PdfPageResult {
  /** Page facts (`has_text_layer` false for a page without text or one pdf.js could not read). */
  info: PageInfo;
  /** Raw blocks in reading order, boxes on the displayed page, span detail dropped. */
  blocks: PdfRawBlock[];
  /** Text of every line of the page's blocks (for the document vocabulary). */
  lines: string[];
  /** Characters of body text per font size (0.5 pt buckets): `[size, characters]`. */
  sizeWeights: Array<[number, number]>;
  /** Why pdf.js could not read the page, when it could not. */
  error?: string;
}

/** Options of {@link readPageResult}. */
export interface ReadPageResultOptions {
  /** Find tables and figures. */
  regions: boolean;
  /** Read the graphics of every page. */
  allGraphics: boolean;
  /** Page label from the PDF. */
  label?: string;
  /** Size of the page before, used when this one cannot be read. */
  fallbackSize?: PageSize;
}

/** Drops span detail (and the text lines a table or figure covers) from blocks kept until the end of the document. */
function compact(blocks: PdfRawBlock[]): PdfRawBlock[] {
  for (const block of blocks) {
    block.lines = block.lines.map((line) => ({ ...line, spans: [] }));
    if (block.region) block.region = { ...block.region, lines: [] };
  }
  return blocks;
}

/**
 * Reads one page into a {@link PdfPageResult}. A page pdf.js fails on comes back without text and with
 * `error` set; a DocTreeError (cancellation) is thrown.
 */
export async function readPageResult(doc: OpenPdf, pageIdx: number, fonts: PdfFontCache, options: ReadPageResultOptions): Promise<PdfPageResult> {
  const { label } = options;
  const labelled = label !== undefined ? { label } : {};
  try {
    const { page, layout, toPage } = await readPdfPage(doc, pageIdx, fonts, label, { regions: options.regions, allGraphics: options.allGraphics });
    const blocks = attachCaptions(pageBlocks(layout, pageIdx));
    if (toPage) for (const block of blocks) block.bbox = toPage(block.bbox);
    const lines: string[] = [];
    const weights = new Map<number, number>();
    for (const block of blocks) {
      for (const line of block.lines) {
        lines.push(line.text);
        if (block.zone === 'body') {
          const key = Math.round(line.size * 2) / 2;
          weights.set(key, (weights.get(key) ?? 0) + line.text.length);
        }
      }
    }
    return {
      info: { page_idx: pageIdx, width: page.width, height: page.height, has_text_layer: page.has_text_layer, ocr: false, ...labelled },
      blocks: compact(blocks),
      lines,
      sizeWeights: [...weights],
    };
  } catch (error) {
    if (DocTreeError.isInstance(error)) throw error;
    const size = options.fallbackSize ?? { width: 612, height: 792 };
    return {
      info: { page_idx: pageIdx, width: size.width, height: size.height, has_text_layer: false, ocr: false, ...labelled },
      blocks: [],
      lines: [],
      sizeWeights: [],
      error: error instanceof Error ? error.message : String(error),
    };
  }
}
