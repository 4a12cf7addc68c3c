import type { BBox } from '@doctree/schema';
import type { PdfLine, PdfSpan } from '../pdf/pdf-lines.js';

/** A span of `text` at x, on the baseline y, about 0.5 em per character wide (made-up geometry for table specs). */
export function span(text: string, x: number, y: number, size = 9): PdfSpan {
  const bbox: BBox = [x, y - 0.8 * size, x + 0.5 * size * text.length, y + 0.2 * size];
  return { text, bbox, baseline: y, size, bold: false };
}

/** A line of spans: their union box, texts joined by spaces, baseline and size of the first. */
export function line(spans: PdfSpan[]): PdfLine {
  const bbox: BBox = [Math.min(...spans.map((s) => s.bbox[0])), Math.min(...spans.map((s) => s.bbox[1])), Math.max(...spans.map((s) => s.bbox[2])), Math.max(...spans.map((s) => s.bbox[3]))];
  return { text: spans.map((s) => s.text).join(' '), bbox, baseline: spans[0]!.baseline, size: spans[0]!.size, bold: false, spans };
}
