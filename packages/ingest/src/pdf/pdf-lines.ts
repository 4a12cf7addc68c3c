import type { BBox } from '@doctree/schema';
import { logicalOrder, normalizePresentationForms } from './rtl-text.js';

/**
 * Text geometry of one PDF page: pdf.js text items become spans (positioned runs with a font),
 * spans on one baseline become lines. Pure functions; coordinates are PDF points with a top-left
 * origin (y grows downwards), as in every DocTree artifact.
 */

/** One positioned run of text as drawn by the PDF. */
export interface PdfSpan {
  text: string;
  /** `[x0, y0, x1, y1]`, PDF points, top-left origin. */
  bbox: BBox;
  /** Baseline y (top-left origin) for horizontal text. */
  baseline: number;
  /** Font size in points, from the text matrix. */
  size: number;
  /** True for bold / black / semibold faces (or text drawn twice to fake bold). */
  bold: boolean;
  /** Font name from the PDF without the subset prefix (`Times-Bold`), when known. */
  font?: string;
  /** True for text not running left to right (rotated margin stamps, vertical labels). */
  vertical?: boolean;
  /** True when the PDF draws a space right before this run (a word starts here, however small the gap). */
  spaceBefore?: boolean;
}

/** One line of text: spans sharing a baseline without a wide horizontal gap between them. */
export interface PdfLine {
  /** Text of the spans joined with single spaces where the PDF leaves a gap. */
  text: string;
  /** `[x0, y0, x1, y1]`, PDF points, top-left origin. */
  bbox: BBox;
  /** Baseline y of the line's dominant span. */
  baseline: number;
  /** Dominant font size (by character count), in points. */
  size: number;
  /** True when most characters are bold. */
  bold: boolean;
  /** Dominant font name, when known. */
  font?: string;
  /** The spans of the line, left to right. */
  spans: PdfSpan[];
  /** Column (0 = left, 1 = right) on a two-column page; absent for full-width lines and one-column pages. */
  column?: number;
  /** True for rotated / vertical text. */
  vertical?: boolean;
  /** The separate lines a row was merged from (left to right), when it was (see `mergeRows`). */
  pieces?: PdfLinePiece[];
}

/** One of the lines a merged row was made from. */
export interface PdfLinePiece {
  text: string;
  bbox: BBox;
  size: number;
}

/** Text layer of one page, as returned by `extractPdfPages`. */
export interface PdfPageText {
  /** 0-based page index. */
  page_idx: number;
  /** Page width in points (rotation applied). */
  width: number;
  /** Page height in points (rotation applied). */
  height: number;
  /** Page label from the PDF (`iv`, `F-3`) when present. */
  label?: string;
  /** False when the page has no text (scanned page, slide image). */
  has_text_layer: boolean;
  /** Lines in reading order: top band, body (left column before right column), bottom band. */
  lines: PdfLine[];
  /** `[x0, x1]` of the gutter between the columns on a two-column page. */
  gutter?: [number, number];
  /** Why pdf.js could not read the page, when it could not. */
  error?: string;
}

/** A gap wider than this many font sizes splits spans on one baseline into separate lines. */
const LINE_SPLIT_GAP_EM = 1.0;
/** After a lone list marker (bullet, `1.`, `(a)`) the text may start this far away. */
const MARKER_GAP_EM = 4.0;
/** A gap wider than this many font sizes between spans becomes a space. */
const SPACE_GAP_EM = 0.15;
/** A span starting this many font sizes left of the previous span's end belongs to another line: a space too. */
const BACKTRACK_EM = 0.5;

/** A lone list marker: bullet glyph or enumerator. */
const LONE_MARKER = /^(?:[•●▪■◦○‣⁃∙·*\-–—\uf0a7\uf0b7\uf0d8\uf0fc]|\(?\d{1,3}[.)]|\(?[a-z][.)]|\([ivx]{1,5}\)|[ivx]{1,5}\.)$/i;
/** An equation number at the right of a display equation. */
const EQUATION_NUMBER = /^\(\d{1,3}[a-z]?\)$/;

const round2 = (n: number): number => Math.round(n * 100) / 100;

/** Strips the six-letter subset prefix pdf.js keeps in embedded font names (`ABCDEF+Times-Bold`). */
export function cleanFontName(name: string): string {
  return name.replace(/^[A-Z]{6}\+/, '');
}

const BOLD_NAME = /bold|black|heavy|semibd|demi|medium|[-,_ ]medi(?:ital|italic|obl|oblique)?$|[-,_ ]bd|extrabd|ultrabd|fett/i;

/** True when a font name names a bold face (`Arial-BoldMT`, `NimbusRomNo9L-Medi`, `Helvetica-Black`). */
export function isBoldFontName(name: string | undefined): boolean {
  return name !== undefined && BOLD_NAME.test(cleanFontName(name));
}

/** Characters of a text that are not whitespace (`text.replace(/\s/g, '').length`, without the copy). */
function nonSpaceChars(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) if (!isRegexSpace(text.charCodeAt(i))) n++;
  return n;
}

/** Weight of a line for block splitting: every span bold, none, or a mix (a run-in heading). */
export function lineWeight(line: PdfLine): 'bold' | 'regular' | 'mixed' {
  let bold = 0;
  let regular = 0;
  for (const span of line.spans) {
    const chars = nonSpaceChars(span.text);
    if (span.bold) bold += chars;
    else regular += chars;
  }
  if (line.spans.length === 0) return line.bold ? 'bold' : 'regular';
  if (regular === 0) return 'bold';
  if (bold === 0) return 'regular';
  return 'mixed';
}

/** Dominant value by character count. */
function dominant<T>(spans: readonly PdfSpan[], key: (span: PdfSpan) => T): T | undefined {
  const weights = new Map<T, number>();
  let best: T | undefined;
  let bestWeight = -1;
  for (const span of spans) {
    const value = key(span);
    const weight = (weights.get(value) ?? 0) + Math.max(1, span.text.length);
    weights.set(value, weight);
    if (weight > bestWeight) {
      best = value;
      bestWeight = weight;
    }
  }
  return best;
}

/** Union of boxes. */
export function unionBox(boxes: readonly BBox[]): BBox {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const b of boxes) {
    x0 = Math.min(x0, b[0]);
    y0 = Math.min(y0, b[1]);
    x1 = Math.max(x1, b[2]);
    y1 = Math.max(y1, b[3]);
  }
  return [round2(x0), round2(y0), round2(x1), round2(y1)];
}

/**
 * True for the characters `\s` matches in a JavaScript regex (ASCII whitespace, no-break and other Unicode spaces,
 * line and paragraph separators, the byte-order mark): a test on one character without a regex.
 */
export function isRegexSpace(code: number): boolean {
  if (code <= 32) return code === 32 || (code >= 9 && code <= 13);
  if (code < 160) return false;
  return (
    code === 160 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/**
 * `text.replace(/\s+/g, ' ').trim()`: whitespace runs as one space, none at the ends. A text whose only whitespace
 * is single spaces between other characters (most texts) comes back as it is, without running the regex.
 */
export function collapseSpaces(text: string): string {
  const n = text.length;
  let clean = n > 0 && !isRegexSpace(text.charCodeAt(0)) && !isRegexSpace(text.charCodeAt(n - 1));
  for (let i = 1; clean && i < n - 1; i++) {
    const c = text.charCodeAt(i);
    if (isRegexSpace(c) && (c !== 32 || text.charCodeAt(i + 1) === 32 || isRegexSpace(text.charCodeAt(i + 1)))) clean = false;
  }
  return clean || n === 0 ? text : text.replace(/\s+/g, ' ').trim();
}

/** `/\s$/.test(text)` without scanning the text. */
export const endsInSpace = (text: string): boolean => text.length > 0 && isRegexSpace(text.charCodeAt(text.length - 1));

/** `/^\s/.test(text)`, one character read. */
export const startsWithSpace = (text: string): boolean => text.length > 0 && isRegexSpace(text.charCodeAt(0));

/** Builds a line from spans already ordered left to right. */
export function lineFromSpans(spans: PdfSpan[]): PdfLine {
  // Whether a space separates each span from the one before it (left to right on the page).
  const apart: boolean[] = spans.map((span, i) => {
    const prev = spans[i - 1];
    if (!prev) return false;
    const gap = span.bbox[0] - prev.bbox[2];
    const size = Math.max(prev.size, span.size);
    // A gap, or a run starting well left of where the previous one ended (a run of another line merged into this row).
    return gap > SPACE_GAP_EM * size || gap < -BACKTRACK_EM * size || (span.spaceBefore === true && gap > -0.1 * size);
  });
  // Right-to-left lines are read right to left (see logicalOrder); other lines keep the page order.
  const order = logicalOrder(spans.map((s) => s.text));
  let text = '';
  for (let k = 0; k < order.length; k++) {
    const i = order[k]!;
    const span = spans[i]!;
    if (k > 0) {
      const p = order[k - 1]!;
      const space = Math.abs(i - p) === 1 ? apart[Math.max(i, p)]! : true;
      // Last and first characters read directly: `/\s$/` over the growing text rescans it at every span.
      if (space && !endsInSpace(text) && !startsWithSpace(span.text)) text += ' ';
    }
    text += span.text;
  }
  const size = dominant(spans, (s) => Math.round(s.size * 10) / 10) ?? spans[0]?.size ?? 1;
  const boldChars = spans.reduce((n, s) => n + (s.bold ? s.text.length : 0), 0);
  const allChars = spans.reduce((n, s) => n + s.text.length, 0);
  const font = dominant(spans, (s) => s.font ?? '');
  const main = spans.reduce<PdfSpan | undefined>((best, s) => (!best || s.size > best.size ? s : best), undefined);
  const line: PdfLine = {
    text: collapseSpaces(text),
    bbox: unionBox(spans.map((s) => s.bbox)),
    baseline: round2(main?.baseline ?? spans[0]?.baseline ?? 0),
    size,
    bold: allChars > 0 && boldChars * 2 > allChars,
    spans,
  };
  if (font) line.font = font;
  if (spans.some((s) => s.vertical)) line.vertical = true;
  return line;
}

/** Vertical overlap of two boxes relative to the smaller height (0..1). */
function verticalOverlap(a: BBox, b: BBox): number {
  const overlap = Math.min(a[3], b[3]) - Math.max(a[1], b[1]);
  const smaller = Math.min(a[3] - a[1], b[3] - b[1]);
  return smaller > 0 ? Math.max(0, overlap) / smaller : 0;
}

/**
 * True when two runs of two characters or more cover the same horizontal stretch (over 30 % of the
 * narrower one) at different baselines. The same text drawn twice at one spot (fake bold) and accents
 * set over a letter are not stacked.
 */
function stacked(a: PdfSpan, b: PdfSpan): boolean {
  // The baseline first: it turns away the spans of the row itself without trimming texts.
  if (Math.abs(a.baseline - b.baseline) < 1.5) return false;
  if (a.text.trim().length < 2 || b.text.trim().length < 2) return false;
  const overlap = Math.min(a.bbox[2], b.bbox[2]) - Math.max(a.bbox[0], b.bbox[0]);
  return overlap > 0.3 * Math.min(a.bbox[2] - a.bbox[0], b.bbox[2] - b.bbox[0]);
}

/** Splits one baseline's spans (left to right) at wide gaps; keeps a lone list marker with its text. */
function splitAtGaps(row: PdfSpan[]): PdfSpan[][] {
  const pieces: PdfSpan[][] = [];
  let current: PdfSpan[] = [];
  for (let i = 0; i < row.length; i++) {
    const span = row[i]!;
    const prev = current[current.length - 1];
    if (prev) {
      const gap = span.bbox[0] - prev.bbox[2];
      const size = Math.max(prev.size, span.size);
      const loneMarker = current.length === 1 && LONE_MARKER.test(prev.text.trim());
      const equationNumber = i === row.length - 1 && EQUATION_NUMBER.test(span.text.trim());
      const limit = loneMarker ? MARKER_GAP_EM : LINE_SPLIT_GAP_EM;
      if (gap > limit * size && !equationNumber) {
        pieces.push(current);
        current = [];
      }
    }
    current.push(span);
  }
  if (current.length > 0) pieces.push(current);
  return pieces;
}

/**
 * Groups spans into lines: spans whose boxes overlap vertically (a superscript joins its line)
 * form one baseline; a baseline splits at horizontal gaps wider than one font size (column
 * gutters, table cells). Text drawn twice at the same spot (fake bold) is kept once, as bold.
 * Returns lines sorted top to bottom, then left to right; vertical text comes as one line per span.
 */
export function buildLines(spans: readonly PdfSpan[]): PdfLine[] {
  const horizontal = spans.filter((s) => !s.vertical && s.text.trim() !== '');
  const vertical = spans.filter((s) => s.vertical && s.text.trim() !== '');
  horizontal.sort((a, b) => a.baseline - b.baseline || a.bbox[0] - b.bbox[0]);
  const rows: Array<{ box: BBox; baseline: number; size: number; spans: PdfSpan[] }> = [];
  for (const span of horizontal) {
    let target: (typeof rows)[number] | undefined;
    let best = 0;
    for (let i = rows.length - 1; i >= 0; i--) {
      const row = rows[i]!;
      if (span.baseline - row.baseline > 2 * Math.max(row.size, span.size)) break;
      // Two runs of one line never cover the same stretch of it: a run under another one is the next
      // line (a wrapped table cell next to a taller cell), not part of this row.
      if (row.spans.some((s) => stacked(s, span))) continue;
      const overlap = verticalOverlap(row.box, span.bbox);
      const sameBaseline = Math.abs(row.baseline - span.baseline) <= 0.35 * Math.min(row.size, span.size);
      const score = sameBaseline ? 1 + overlap : overlap;
      if (score >= 0.5 && score > best) {
        target = row;
        best = score;
      }
    }
    if (!target) {
      rows.push({ box: [...span.bbox] as BBox, baseline: span.baseline, size: span.size, spans: [span] });
      continue;
    }
    const last = target.spans.find(
      (s) => s.text === span.text && Math.abs(s.bbox[0] - span.bbox[0]) < 1.5 && Math.abs(s.baseline - span.baseline) < 1.5,
    );
    if (last) {
      last.bold = true;
      continue;
    }
    target.spans.push(span);
    target.box = unionBox([target.box, span.bbox]);
    if (span.size > target.size) {
      target.size = span.size;
      target.baseline = span.baseline;
    }
  }
  const lines: PdfLine[] = [];
  for (const row of rows) {
    row.spans.sort((a, b) => a.bbox[0] - b.bbox[0]);
    for (const piece of splitAtGaps(row.spans)) {
      const line = lineFromSpans(piece);
      if (line.text) lines.push(line);
    }
  }
  for (const span of vertical) lines.push(lineFromSpans([span]));
  return lines;
}

/** Minimal view of a pdf.js text item. */
export interface RawTextItem {
  str: string;
  transform: readonly number[];
  width: number;
  height: number;
  fontName: string;
}

/** Font facts for a pdf.js font id (`g_d0_f1`). */
export interface FontFacts {
  name?: string;
  bold: boolean;
  ascent: number;
  descent: number;
}

/** Entry `i` of a matrix, `fallback` when it has none (as a destructuring default: only for `undefined`). */
function entry(m: readonly number[], i: number, fallback: number): number {
  const value = m[i];
  return value === undefined ? fallback : value;
}

/** Multiplies two affine matrices `[a, b, c, d, e, f]`. */
export function multiply(m1: readonly number[], m2: readonly number[]): number[] {
  // Indexed reads with the identity's entries for missing ones (what `const [a1 = 1, …] = m1` reads, without
  // the iterator a destructuring runs: this is called for every text item of every page).
  const a1 = entry(m1, 0, 1);
  const b1 = entry(m1, 1, 0);
  const c1 = entry(m1, 2, 0);
  const d1 = entry(m1, 3, 1);
  const e1 = entry(m1, 4, 0);
  const f1 = entry(m1, 5, 0);
  const a2 = entry(m2, 0, 1);
  const b2 = entry(m2, 1, 0);
  const c2 = entry(m2, 2, 0);
  const d2 = entry(m2, 3, 1);
  const e2 = entry(m2, 4, 0);
  const f2 = entry(m2, 5, 0);
  return [
    a1 * a2 + c1 * b2,
    b1 * a2 + d1 * b2,
    a1 * c2 + c1 * d2,
    b1 * c2 + d1 * d2,
    a1 * e2 + c1 * f2 + e1,
    b1 * e2 + d1 * f2 + f1,
  ];
}

/** Inverse of an affine matrix `[a, b, c, d, e, f]`. */
export function invert(m: readonly number[]): number[] {
  const [a = 1, b = 0, c = 0, d = 1, e = 0, f = 0] = m;
  const det = a * d - b * c || 1;
  return [d / det, -b / det, -c / det, a / det, (c * f - d * e) / det, (b * e - a * f) / det];
}

/** Maps a box through an affine matrix (the box of its four mapped corners). */
export function mapBox(box: BBox, m: readonly number[]): BBox {
  const [a = 1, b = 0, c = 0, d = 1, e = 0, f = 0] = m;
  const xs: number[] = [];
  const ys: number[] = [];
  for (const [x, y] of [
    [box[0], box[1]],
    [box[2], box[1]],
    [box[0], box[3]],
    [box[2], box[3]],
  ] as const) {
    xs.push(a * x + c * y + e);
    ys.push(b * x + d * y + f);
  }
  return [round2(Math.min(...xs)), round2(Math.min(...ys)), round2(Math.max(...xs)), round2(Math.max(...ys))];
}

/**
 * Clockwise turn (0, 90, 180 or 270 degrees) that makes most of a page's text run left to right,
 * weighted by characters; 0 unless at least 60% of the text agrees on another turn.
 */
export function dominantTurn(items: readonly RawTextItem[], viewport: readonly number[]): 0 | 90 | 180 | 270 {
  const weights = new Map<number, number>();
  let total = 0;
  for (const item of items) {
    const chars = item.str.trim().length;
    if (chars === 0) continue;
    const m = multiply(viewport, item.transform);
    const a = m[0]!;
    const b = m[1]!;
    const angle = Math.round((Math.atan2(b, a) * 180) / Math.PI / 90) * 90;
    const turn = (((360 - angle) % 360) + 360) % 360;
    weights.set(turn, (weights.get(turn) ?? 0) + chars);
    total += chars;
  }
  for (const turn of [90, 180, 270] as const) if ((weights.get(turn) ?? 0) >= 0.6 * total && total > 0) return turn;
  return 0;
}

/**
 * Converts a pdf.js text item to a span in top-left page coordinates. `viewport` is the transform
 * of `page.getViewport({ scale: 1 })` (handles the crop box offset and page rotation).
 * Returns undefined for empty items.
 */
export function spanFromItem(item: RawTextItem, viewport: readonly number[], font: FontFacts | undefined): PdfSpan | undefined {
  const text = normalizePresentationForms(item.str.replace(/\s+/g, ' '));
  if (!text.trim()) return undefined;
  const m = multiply(viewport, item.transform);
  const [a = 1, b = 0, c = 0, d = 1, e = 0, f = 0] = m;
  const along = Math.hypot(a, b) || 1;
  const up = Math.hypot(c, d);
  const size = up > 0 ? up : along;
  // Direction of writing and the "up" direction of the glyphs, in page space (y down).
  const dir = [a / along, b / along] as const;
  const upDir = up > 0 ? ([c / up, d / up] as const) : ([dir[1], -dir[0]] as const);
  const ascent = font && font.ascent > 0.2 && font.ascent < 1.5 ? font.ascent : 0.8;
  const descent = font && font.descent < 0 && font.descent > -0.8 ? -font.descent : 0.2;
  const width = Math.abs(item.width);
  // The four corners (below and above the baseline, at the start and the end of the run), without arrays.
  const below = -descent * size;
  const above = ascent * size;
  const x00 = e + dir[0] * 0 + upDir[0] * below;
  const x01 = e + dir[0] * width + upDir[0] * below;
  const x10 = e + dir[0] * 0 + upDir[0] * above;
  const x11 = e + dir[0] * width + upDir[0] * above;
  const y00 = f + dir[1] * 0 + upDir[1] * below;
  const y01 = f + dir[1] * width + upDir[1] * below;
  const y10 = f + dir[1] * 0 + upDir[1] * above;
  const y11 = f + dir[1] * width + upDir[1] * above;
  const bbox: BBox = [
    round2(Math.min(x00, x01, x10, x11)),
    round2(Math.min(y00, y01, y10, y11)),
    round2(Math.max(x00, x01, x10, x11)),
    round2(Math.max(y00, y01, y10, y11)),
  ];
  const span: PdfSpan = { text, bbox, baseline: round2(f), size: round2(size), bold: font?.bold ?? false };
  if (font?.name) span.font = font.name;
  if (!(dir[0] > 0.9)) span.vertical = true;
  return span;
}
