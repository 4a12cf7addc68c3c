import type { PdfFigureRegion, PdfTableRegion } from './pdf-region-types.js';
import type { PdfLine } from './pdf-lines.js';

/**
 * Placeholder lines for tables and figures: a region found on a page takes part in the page layout
 * as one line with the region's box, so it lands in the column-aware reading order where its top
 * edge falls, and becomes a block of its own.
 */

/** A table or figure found on a page. */
export type PdfRegion = PdfTableRegion | PdfFigureRegion;

/** A line standing for a region: no text, the region's box, `baseline` at its top edge. */
export interface PdfRegionLine extends PdfLine {
  region: PdfRegion;
}

/** True for a region placeholder line. */
export function isRegionLine(line: PdfLine): line is PdfRegionLine {
  return (line as Partial<PdfRegionLine>).region !== undefined;
}

/** The placeholder line of a region; its size is the dominant size of the text it covers (1 without text). */
export function regionLine(region: PdfRegion): PdfRegionLine {
  const weights = new Map<number, number>();
  for (const line of region.lines) weights.set(line.size, (weights.get(line.size) ?? 0) + line.text.length);
  let size = 1;
  let best = -1;
  for (const [s, w] of weights) {
    if (w > best) {
      size = s;
      best = w;
    }
  }
  return { text: '', bbox: region.bbox, baseline: region.bbox[1], size, bold: false, spans: [], region };
}
