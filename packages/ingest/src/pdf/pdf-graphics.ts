import type { BBox } from '@doctree/schema';
import { multiply } from './pdf-lines.js';

/**
 * Page graphics from a pdf.js operator list, in one pass over the operators: horizontal and
 * vertical rules (stroked segments, thin filled rectangles, edges of stroked rectangles), filled
 * rectangles, other painted paths (curves, polylines) and image boxes, all in PDF points with a
 * top-left origin. Transform matrices are followed through `save` / `restore` / `transform` and
 * form XObjects. Pure functions; no pixels are decoded or rendered.
 */

/** pdf.js operator codes used here (`pdfjs.OPS`; stable across pdf.js 4–6, checked at run time). */
export interface PdfOps {
  save: number;
  restore: number;
  transform: number;
  moveTo: number;
  lineTo: number;
  curveTo: number;
  curveTo2: number;
  curveTo3: number;
  closePath: number;
  rectangle: number;
  stroke: number;
  closeStroke: number;
  fill: number;
  eoFill: number;
  fillStroke: number;
  eoFillStroke: number;
  closeFillStroke: number;
  closeEOFillStroke: number;
  endPath: number;
  constructPath: number;
  setLineWidth: number;
  setFillRGBColor: number;
  setStrokeRGBColor: number;
  setFillGray?: number;
  setStrokeGray?: number;
  setFillColorN?: number;
  setStrokeColorN?: number;
  setGState?: number;
  paintFormXObjectBegin: number;
  paintFormXObjectEnd: number;
  paintImageXObject: number;
  paintInlineImageXObject: number;
  paintImageMaskXObject: number;
  paintImageXObjectRepeat?: number;
  paintInlineImageXObjectGroup?: number;
  paintImageMaskXObjectGroup?: number;
  paintSolidColorImageMask?: number;
}

/** A horizontal (`h`) or vertical (`v`) rule: a line along one axis; for `h`, y0 = y1 is its centre. */
export interface PdfRule {
  orientation: 'h' | 'v';
  /** Start and end along the rule (x for `h`, y for `v`), start ≤ end. */
  from: number;
  to: number;
  /** Position across the rule (y for `h`, x for `v`). */
  at: number;
  /** Thickness in points. */
  width: number;
}

/** A painted path that is neither a rule nor a plain rectangle, or a filled rectangle. */
export interface PdfPathPaint {
  bbox: BBox;
  /** Bézier segments. */
  curves: number;
  /** Line and curve pieces drawn (a rectangle counts four). */
  segments: number;
  /** True when the path is one axis-aligned filled rectangle. */
  rect: boolean;
  filled: boolean;
  stroked: boolean;
}

/** An image painted on the page. */
export interface PdfImagePaint {
  bbox: BBox;
  kind: 'xobject' | 'inline' | 'mask';
}

/** Graphics of one page. */
export interface PdfGraphics {
  rules: PdfRule[];
  /** Filled rectangles (cell shading, chart bars) and other painted paths, in painting order. */
  paths: PdfPathPaint[];
  images: PdfImagePaint[];
}

/** Minimal view of a pdf.js operator list. */
export interface PdfOperatorList {
  fnArray: ArrayLike<number>;
  argsArray: ArrayLike<unknown>;
}

/** A filled rectangle thinner than this (points) is a rule. */
const RULE_MAX_THICKNESS = 2.5;
/** A rule must be at least this long (points). */
const RULE_MIN_LENGTH = 4;
/** Slack (points) for "axis-aligned". */
const AXIS_SLACK = 0.8;
/** Colours at least this light are white paper. */
const WHITE = 0.97;
/** Thin fills at least this light are shading, not rules. */
const LIGHT = 0.75;
/** pdf.js path drawing codes inside `constructPath` buffers (pdf.js ≥ 5). */
const DRAW = { moveTo: 0, lineTo: 1, curveTo: 2, quadraticCurveTo: 3, closePath: 4 } as const;

/** Graphics state followed through the operator list. */
interface State {
  ctm: number[];
  lineWidth: number;
  /** Lightness of the fill / stroke colour (0 black … 1 white); white is invisible on paper. */
  fill: number;
  stroke: number;
}

const round2 = (n: number): number => Math.round(n * 100) / 100;

/** Value of one hex digit (`0-9`, `a-f`, `A-F`); -1 for any other character. */
function hexDigit(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  if (code >= 97 && code <= 102) return code - 87;
  if (code >= 65 && code <= 70) return code - 55;
  return -1;
}

/** The byte written by the two hex digits at `at`; -1 when either is not a hex digit. */
function hexByte(text: string, at: number): number {
  const hi = hexDigit(text.charCodeAt(at));
  const lo = hexDigit(text.charCodeAt(at + 1));
  return hi < 0 || lo < 0 ? -1 : hi * 16 + lo;
}

/**
 * Lightness (0 black … 1 white) of a colour argument: pdf.js passes `#rrggbb` strings; plain
 * component arrays (gray, RGB) are read too. Undefined for patterns and unknown forms.
 */
export function colorLightness(args: unknown): number | undefined {
  const list = Array.isArray(args) ? (args as unknown[]) : [];
  const first = list[0];
  let rgb: number[] | undefined;
  if (typeof first === 'string') {
    // `#rrggbb` read digit by digit (a regex, three slices and three parseInt calls per colour operator before).
    if (first.length === 7 && first.charCodeAt(0) === 35) {
      const r = hexByte(first, 1);
      const g = hexByte(first, 3);
      const b = hexByte(first, 5);
      if (r >= 0 && g >= 0 && b >= 0) rgb = [r / 255, g / 255, b / 255];
    }
  } else if (list.length > 0 && list.every((v) => typeof v === 'number')) {
    const nums = list as number[];
    const max = nums.some((v) => v > 1) ? 255 : 1;
    rgb = nums.length === 4 ? cmykToRgb(nums.map((v) => v / max)) : nums.map((v) => v / max);
  }
  if (!rgb || rgb.length === 0) return undefined;
  if (rgb.length === 1) return rgb[0];
  const [r = 0, g = 0, b = 0] = rgb;
  return 0.299 * r + 0.587 * g + 0.114 * b;
}

function cmykToRgb([c = 0, m = 0, y = 0, k = 0]: number[]): number[] {
  return [(1 - c) * (1 - k), (1 - m) * (1 - k), (1 - y) * (1 - k)];
}

/** One sub-path in page coordinates: its points and how many curves it had. */
interface SubPath {
  xs: number[];
  ys: number[];
  curves: number;
  /** Line and curve pieces drawn (closing counts one). */
  pieces: number;
  closed: boolean;
}

/** Collects graphics while walking an operator list. */
class GraphicsCollector {
  readonly rules: PdfRule[] = [];
  readonly paths: PdfPathPaint[] = [];
  readonly images: PdfImagePaint[] = [];
  private state: State;
  private readonly stack: State[] = [];
  private matrix: number[] | undefined;
  private pending: SubPath[] | undefined;

  constructor(
    private readonly viewport: readonly number[],
    private readonly pageBox: BBox,
  ) {
    this.state = { ctm: [1, 0, 0, 1, 0, 0], lineWidth: 1, fill: 0, stroke: 0 };
  }

  save(): void {
    this.stack.push({ ...this.state });
  }

  restore(): void {
    const previous = this.stack.pop();
    if (previous) {
      this.state = previous;
      this.matrix = undefined;
    }
  }

  transform(m: readonly number[]): void {
    if (m.length < 6) return;
    this.state.ctm = multiply(this.state.ctm, m);
    this.matrix = undefined;
  }

  setLineWidth(width: unknown): void {
    if (typeof width === 'number' && Number.isFinite(width)) this.state.lineWidth = width;
  }

  setFill(lightness: number | undefined): void {
    this.state.fill = lightness ?? 0;
  }

  setStroke(lightness: number | undefined): void {
    this.state.stroke = lightness ?? 0;
  }

  /** User space → page (top-left origin) matrix, cached until the CTM changes. */
  private get m(): number[] {
    this.matrix ??= multiply(this.viewport, this.state.ctm);
    return this.matrix;
  }

  /** Reads a pdf.js ≥ 5 `constructPath` buffer into sub-paths in page coordinates. */
  buildFromBuffer(buffer: ArrayLike<number>): SubPath[] {
    const [a = 1, b = 0, c = 0, d = 1, e = 0, f = 0] = this.m;
    const subs: SubPath[] = [];
    let current: SubPath | undefined;
    const point = (x: number, y: number): void => {
      current ??= { xs: [], ys: [], curves: 0, pieces: 0, closed: false };
      current.xs.push(a * x + c * y + e);
      current.ys.push(b * x + d * y + f);
    };
    for (let i = 0; i < buffer.length; ) {
      const code = buffer[i++];
      if (code === DRAW.moveTo) {
        if (current && current.xs.length > 0) subs.push(current);
        current = { xs: [], ys: [], curves: 0, pieces: 0, closed: false };
        point(buffer[i]!, buffer[i + 1]!);
        i += 2;
      } else if (code === DRAW.lineTo) {
        point(buffer[i]!, buffer[i + 1]!);
        if (current) current.pieces++;
        i += 2;
      } else if (code === DRAW.curveTo) {
        // Control points too: the curve lies within their hull, so the box covers its bulge.
        for (let k = 0; k < 6; k += 2) point(buffer[i + k]!, buffer[i + k + 1]!);
        if (current) {
          current.curves++;
          current.pieces++;
        }
        i += 6;
      } else if (code === DRAW.quadraticCurveTo) {
        for (let k = 0; k < 4; k += 2) point(buffer[i + k]!, buffer[i + k + 1]!);
        if (current) {
          current.curves++;
          current.pieces++;
        }
        i += 4;
      } else if (code === DRAW.closePath) {
        if (current && !current.closed) {
          current.closed = true;
          current.pieces++;
        }
      } else {
        break;
      }
    }
    if (current && current.xs.length > 0) subs.push(current);
    return subs;
  }

  /** Reads pdf.js < 5 `constructPath` arguments (`[ops, coords]`) into sub-paths. */
  buildFromOps(ops: ArrayLike<number>, coords: ArrayLike<number>, codes: PdfOps): SubPath[] {
    const [a = 1, b = 0, c = 0, d = 1, e = 0, f = 0] = this.m;
    const subs: SubPath[] = [];
    let current: SubPath | undefined;
    let j = 0;
    const point = (x: number, y: number): void => {
      current ??= { xs: [], ys: [], curves: 0, pieces: 0, closed: false };
      current.xs.push(a * x + c * y + e);
      current.ys.push(b * x + d * y + f);
    };
    for (let i = 0; i < ops.length; i++) {
      const op = ops[i];
      if (op === codes.rectangle) {
        const [x, y, w, h] = [coords[j]!, coords[j + 1]!, coords[j + 2]!, coords[j + 3]!];
        j += 4;
        if (current && current.xs.length > 0) subs.push(current);
        current = undefined;
        point(x, y);
        point(x + w, y);
        point(x + w, y + h);
        point(x, y + h);
        current!.closed = true;
        current!.pieces = 4;
        subs.push(current!);
        current = undefined;
      } else if (op === codes.moveTo) {
        if (current && current.xs.length > 0) subs.push(current);
        current = undefined;
        point(coords[j]!, coords[j + 1]!);
        j += 2;
      } else if (op === codes.lineTo) {
        point(coords[j]!, coords[j + 1]!);
        if (current) current.pieces++;
        j += 2;
      } else if (op === codes.curveTo) {
        for (let k = 0; k < 6; k += 2) point(coords[j + k]!, coords[j + k + 1]!);
        if (current) {
          current.curves++;
          current.pieces++;
        }
        j += 6;
      } else if (op === codes.curveTo2 || op === codes.curveTo3) {
        for (let k = 0; k < 4; k += 2) point(coords[j + k]!, coords[j + k + 1]!);
        if (current) {
          current.curves++;
          current.pieces++;
        }
        j += 4;
      } else if (op === codes.closePath) {
        if (current && !current.closed) {
          current.closed = true;
          current.pieces++;
        }
      }
    }
    if (current && current.xs.length > 0) subs.push(current);
    return subs;
  }

  /** Holds a path until a paint operator (older pdf.js paints in a separate operator). */
  hold(subs: SubPath[]): void {
    this.pending = subs;
  }

  /** Paints the held path. */
  paintHeld(fill: boolean, stroke: boolean): void {
    if (this.pending) this.paint(this.pending, fill, stroke);
    this.pending = undefined;
  }

  /** Records a painted path: rules, filled rectangles or a generic path box. */
  paint(subs: SubPath[], fill: boolean, stroke: boolean): void {
    this.pending = undefined;
    const filled = fill && this.state.fill < WHITE;
    const stroked = stroke && this.state.stroke < WHITE;
    // Thin light fills are shading strips, not rules.
    const ruleFill = filled && this.state.fill < LIGHT;
    if (!filled && !stroked) return;
    const [a = 1, b = 0, c = 0, d = 1] = this.m;
    // Line width in page units (average scale of the matrix).
    const width = Math.max(0.1, Math.abs(this.state.lineWidth) * Math.sqrt(Math.abs(a * d - b * c)) || 0.1);
    let curves = 0;
    let segments = 0;
    let x0 = Infinity;
    let y0 = Infinity;
    let x1 = -Infinity;
    let y1 = -Infinity;
    let generic = false;
    for (const sub of subs) {
      const n = sub.xs.length;
      // A lone point (`m` after `h`, a zero-length dot) draws nothing worth keeping.
      if (n < 2) continue;
      let sx0 = Infinity;
      let sy0 = Infinity;
      let sx1 = -Infinity;
      let sy1 = -Infinity;
      for (let i = 0; i < n; i++) {
        const x = sub.xs[i]!;
        const y = sub.ys[i]!;
        if (x < sx0) sx0 = x;
        if (x > sx1) sx1 = x;
        if (y < sy0) sy0 = y;
        if (y > sy1) sy1 = y;
      }
      x0 = Math.min(x0, sx0);
      y0 = Math.min(y0, sy0);
      x1 = Math.max(x1, sx1);
      y1 = Math.max(y1, sy1);
      curves += sub.curves;
      segments += sub.pieces;
      if (sub.curves > 0) {
        generic = true;
        continue;
      }
      const rect = isAxisRect(sub);
      if (rect && filled) {
        const w = sx1 - sx0;
        const h = sy1 - sy0;
        if (h <= RULE_MAX_THICKNESS && w >= RULE_MIN_LENGTH) {
          if (ruleFill || h <= 1.2) this.addRule('h', sx0, sx1, (sy0 + sy1) / 2, Math.max(h, 0.1));
        } else if (w <= RULE_MAX_THICKNESS && h >= RULE_MIN_LENGTH) {
          if (ruleFill || w <= 1.2) this.addRule('v', sy0, sy1, (sx0 + sx1) / 2, Math.max(w, 0.1));
        } else if (w > RULE_MAX_THICKNESS && h > RULE_MAX_THICKNESS) {
          this.addRect(sx0, sy0, sx1, sy1, stroked);
        }
        continue;
      }
      if (stroked) {
        // Every axis-aligned segment of a stroked polyline or rectangle is a rule.
        let allAxis = true;
        const last = sub.closed ? n : n - 1;
        for (let i = 0; i < last; i++) {
          const j = (i + 1) % n;
          const ax = sub.xs[i]!;
          const ay = sub.ys[i]!;
          const bx = sub.xs[j]!;
          const by = sub.ys[j]!;
          if (Math.abs(ay - by) <= AXIS_SLACK && Math.abs(ax - bx) >= RULE_MIN_LENGTH) this.addRule('h', Math.min(ax, bx), Math.max(ax, bx), (ay + by) / 2, width);
          else if (Math.abs(ax - bx) <= AXIS_SLACK && Math.abs(ay - by) >= RULE_MIN_LENGTH) this.addRule('v', Math.min(ay, by), Math.max(ay, by), (ax + bx) / 2, width);
          else if (Math.abs(ax - bx) > AXIS_SLACK || Math.abs(ay - by) > AXIS_SLACK) allAxis = false;
        }
        if (!allAxis || n > 5) generic = true;
        continue;
      }
      generic = true;
    }
    if (generic && x1 >= x0 && y1 >= y0) {
      this.paths.push({ bbox: [round2(x0), round2(y0), round2(x1), round2(y1)], curves, segments, rect: false, filled, stroked });
    }
  }

  private addRule(orientation: 'h' | 'v', from: number, to: number, at: number, width: number): void {
    if (!this.onPage(orientation === 'h' ? [from, at, to, at] : [at, from, at, to])) return;
    this.rules.push({ orientation, from: round2(from), to: round2(to), at: round2(at), width: round2(width) });
  }

  private addRect(x0: number, y0: number, x1: number, y1: number, stroked: boolean): void {
    const box: BBox = [round2(x0), round2(y0), round2(x1), round2(y1)];
    if (!this.onPage(box)) return;
    const [px0, py0, px1, py1] = this.pageBox;
    // A page-sized background is not content.
    if (x1 - x0 >= 0.9 * (px1 - px0) && y1 - y0 >= 0.9 * (py1 - py0)) return;
    this.paths.push({ bbox: box, curves: 0, segments: 4, rect: true, filled: true, stroked });
  }

  /** Records an image painted into the unit square of the current matrix. */
  image(kind: PdfImagePaint['kind']): void {
    const [a = 1, b = 0, c = 0, d = 1, e = 0, f = 0] = this.m;
    const xs = [e, a + e, c + e, a + c + e];
    const ys = [f, b + f, d + f, b + d + f];
    const box: BBox = [round2(Math.min(...xs)), round2(Math.min(...ys)), round2(Math.max(...xs)), round2(Math.max(...ys))];
    if (this.onPage(box)) this.images.push({ bbox: box, kind });
  }

  private onPage(box: BBox): boolean {
    const [px0, py0, px1, py1] = this.pageBox;
    return box[2] >= px0 - 1 && box[0] <= px1 + 1 && box[3] >= py0 - 1 && box[1] <= py1 + 1;
  }
}

/** True when a sub-path is an axis-aligned rectangle (4 corners, optionally closed back to the start). */
function isAxisRect(sub: SubPath): boolean {
  let n = sub.xs.length;
  if (n === 5 && Math.abs(sub.xs[4]! - sub.xs[0]!) <= AXIS_SLACK && Math.abs(sub.ys[4]! - sub.ys[0]!) <= AXIS_SLACK) n = 4;
  if (n !== 4) return false;
  for (let i = 0; i < 4; i++) {
    const j = (i + 1) % 4;
    const dx = Math.abs(sub.xs[i]! - sub.xs[j]!);
    const dy = Math.abs(sub.ys[i]! - sub.ys[j]!);
    if (dx > AXIS_SLACK && dy > AXIS_SLACK) return false;
  }
  return true;
}

/** A 2D affine matrix from an operator argument, when it is one. */
function matrixArg(value: unknown): number[] | undefined {
  if (!value || typeof value !== 'object') return undefined;
  if (Array.isArray(value) || ArrayBuffer.isView(value)) {
    // Arrays and typed arrays (every matrix pdf.js passes) read by index, without copying them.
    const items = value as ArrayLike<unknown>;
    if (items.length < 6) return undefined;
    const out: number[] = [];
    for (let i = 0; i < 6; i++) {
      const v = items[i];
      if (typeof v !== 'number' || !Number.isFinite(v)) return undefined;
      out.push(v);
    }
    return out;
  }
  const list = Array.from(value as ArrayLike<unknown>);
  return list.length >= 6 && list.slice(0, 6).every((v) => typeof v === 'number' && Number.isFinite(v)) ? (list.slice(0, 6) as number[]) : undefined;
}

/**
 * Reads the graphics of one page from its operator list in a single pass. `viewport` maps PDF user
 * space to the page frame (the `transform` of `page.getViewport(...)`), `pageSize` bounds the
 * page. Handles pdf.js ≥ 5 `constructPath` (paint operator and a drawing buffer) and the older
 * form (operator and coordinate arrays followed by a paint operator).
 */
export function readPdfGraphics(
  list: PdfOperatorList,
  ops: PdfOps,
  viewport: readonly number[],
  pageSize: { width: number; height: number },
): PdfGraphics {
  const collector = new GraphicsCollector(viewport, [0, 0, pageSize.width, pageSize.height]);
  const fills = new Set([ops.fill, ops.eoFill]);
  const strokes = new Set([ops.stroke, ops.closeStroke]);
  const both = new Set([ops.fillStroke, ops.eoFillStroke, ops.closeFillStroke, ops.closeEOFillStroke]);
  const imageOps = new Map<number, PdfImagePaint['kind']>([
    [ops.paintImageXObject, 'xobject'],
    [ops.paintInlineImageXObject, 'inline'],
    [ops.paintImageMaskXObject, 'mask'],
  ]);
  if (ops.paintInlineImageXObjectGroup !== undefined) imageOps.set(ops.paintInlineImageXObjectGroup, 'inline');
  if (ops.paintImageMaskXObjectGroup !== undefined) imageOps.set(ops.paintImageMaskXObjectGroup, 'mask');
  if (ops.paintSolidColorImageMask !== undefined) imageOps.set(ops.paintSolidColorImageMask, 'mask');
  // Every operator this pass acts on; the rest (text showing, fonts, most of a text page's operators) are skipped
  // with one look-up instead of running through every case below.
  const handled = new Set<number | undefined>([
    ops.save, ops.restore, ops.transform, ops.paintFormXObjectBegin, ops.paintFormXObjectEnd, ops.setLineWidth,
    ops.setFillRGBColor, ops.setFillGray, ops.setFillColorN, ops.setStrokeRGBColor, ops.setStrokeGray, ops.setStrokeColorN,
    ops.constructPath, ...fills, ...strokes, ...both, ops.endPath, ...imageOps.keys(), ops.paintImageXObjectRepeat,
  ]);
  const { fnArray, argsArray } = list;
  const count = Math.min(fnArray.length, argsArray.length);
  for (let i = 0; i < count; i++) {
    const fn = fnArray[i]!;
    if (!handled.has(fn)) continue;
    const args = argsArray[i] as unknown[] | null | undefined;
    switch (fn) {
      case ops.save:
        collector.save();
        continue;
      case ops.restore:
        collector.restore();
        continue;
      case ops.transform: {
        const m = matrixArg(args);
        if (m) collector.transform(m);
        continue;
      }
      case ops.paintFormXObjectBegin: {
        collector.save();
        const m = matrixArg(args?.[0]);
        if (m) collector.transform(m);
        continue;
      }
      case ops.paintFormXObjectEnd:
        collector.restore();
        continue;
      case ops.setLineWidth:
        collector.setLineWidth(args?.[0]);
        continue;
      case ops.setFillRGBColor:
      case ops.setFillGray:
      case ops.setFillColorN:
        collector.setFill(colorLightness(args));
        continue;
      case ops.setStrokeRGBColor:
      case ops.setStrokeGray:
      case ops.setStrokeColorN:
        collector.setStroke(colorLightness(args));
        continue;
      case ops.constructPath: {
        if (!args) continue;
        const first = args[0];
        if (typeof first === 'number' && Array.isArray(args[1])) {
          // pdf.js ≥ 5: [paint operator, [buffer], minMax].
          const buffer = (args[1] as unknown[])[0] as ArrayLike<number> | null | undefined;
          const subs = buffer ? collector.buildFromBuffer(buffer) : [];
          if (fills.has(first)) collector.paint(subs, true, false);
          else if (strokes.has(first)) collector.paint(subs, false, true);
          else if (both.has(first)) collector.paint(subs, true, true);
          else collector.hold(subs);
        } else if (first && typeof first === 'object' && args[1] && typeof args[1] === 'object') {
          collector.hold(collector.buildFromOps(first as ArrayLike<number>, args[1] as ArrayLike<number>, ops));
        }
        continue;
      }
      default:
        break;
    }
    if (fills.has(fn)) collector.paintHeld(true, false);
    else if (strokes.has(fn)) collector.paintHeld(false, true);
    else if (both.has(fn)) collector.paintHeld(true, true);
    else if (fn === ops.endPath) collector.paintHeld(false, false);
    else {
      const kind = imageOps.get(fn);
      if (kind) collector.image(kind);
      else if (fn === ops.paintImageXObjectRepeat) collector.image('xobject');
    }
  }
  return { rules: collector.rules, paths: collector.paths, images: collector.images };
}

/** Reads the operator codes this module needs from `pdfjs.OPS`; undefined when one is missing. */
export function pdfOpsFrom(table: Readonly<Record<string, number>> | undefined): PdfOps | undefined {
  if (!table) return undefined;
  const required = [
    'save', 'restore', 'transform', 'moveTo', 'lineTo', 'curveTo', 'curveTo2', 'curveTo3', 'closePath', 'rectangle', 'stroke',
    'closeStroke', 'fill', 'eoFill', 'fillStroke', 'eoFillStroke', 'closeFillStroke', 'closeEOFillStroke', 'endPath', 'constructPath',
    'setLineWidth', 'setFillRGBColor', 'setStrokeRGBColor', 'paintFormXObjectBegin', 'paintFormXObjectEnd', 'paintImageXObject',
    'paintInlineImageXObject', 'paintImageMaskXObject',
  ] as const;
  for (const name of required) if (typeof table[name] !== 'number') return undefined;
  return table as unknown as PdfOps;
}
