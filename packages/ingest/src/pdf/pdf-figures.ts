import type { BBox } from '@doctree/schema';
import { parseCaptionLabel } from '../builder/labels.js';
import type { PdfGraphics } from './pdf-graphics.js';
import { FURNITURE_BAND } from './pdf-layout.js';
import type { PdfLine } from './pdf-lines.js';
import { groupRows, wordCount } from './pdf-table-grid.js';
import { boxesOverlap, ruleBox } from './pdf-geometry.js';
import type { PdfFigureRegion } from './pdf-region-types.js';

export type { PdfFigureRegion } from './pdf-region-types.js';

/**
 * Figure detection from page graphics: painted images (image XObjects, inline images, image
 * masks) and vector drawings (curves, polylines, filled shapes and the rules around them) are
 * clustered into regions; a region becomes a figure when it holds an image of a useful size, or
 * enough drawing with little text in it (a chart: axes, bars, labels). Text lines inside a figure
 * (axis labels, legends) and short labels right next to it belong to the figure and leave the text
 * flow; they are not kept (the figure has no text of its own, as with MinerU). Captions are joined
 * later from the text blocks. Pure functions; PDF points, top-left origin.
 */


/** Options of {@link findFigures}. */
export interface FindFiguresOptions {
  /** Page size in points (reading frame). */
  pageSize: { width: number; height: number };
  /** Table boxes already found: their graphics are not figures. */
  tables?: readonly BBox[];
}

/** Images smaller than this (points, either side) are icons, bullets or glyphs. */
const MIN_IMAGE = 24;
/** Drawings closer than this (points) belong to one figure. */
const CLUSTER_GAP = 10;
/** Cell size (points) of the occupancy grid used to cluster drawings. */
const CELL = 4;
/** Most grid cells marked per page before clustering gives up (pathological drawings). */
const MAX_MARKED_CELLS = 3_000_000;
/** Smallest vector figure (points). */
const MIN_VECTOR_WIDTH = 40;
const MIN_VECTOR_HEIGHT = 30;
/** Largest share of a vector figure's area its text may cover (higher with a caption next to it). */
const MAX_TEXT_COVER = 0.35;
const MAX_TEXT_COVER_CAPTIONED = 0.6;
/** A line with this many words is running text, not a label. */
const PROSE_WORDS = 10;

const round2 = (n: number): number => Math.round(n * 100) / 100;

interface Element {
  bbox: BBox;
  kind: 'image' | 'path' | 'rect' | 'rule';
  curves: number;
  /** A filled box with text on it (cell shading, a sidebar): groups a table, never makes a figure. */
  behindText?: boolean;
}

const centreIn = (box: BBox, outer: BBox, pad = 0): boolean => {
  const cx = (box[0] + box[2]) / 2;
  const cy = (box[1] + box[3]) / 2;
  return cx >= outer[0] - pad && cx <= outer[2] + pad && cy >= outer[1] - pad && cy <= outer[3] + pad;
};

const area = (b: BBox): number => Math.max(0, b[2] - b[0]) * Math.max(0, b[3] - b[1]);

function union(a: BBox, b: BBox): BBox {
  return [Math.min(a[0], b[0]), Math.min(a[1], b[1]), Math.max(a[2], b[2]), Math.max(a[3], b[3])];
}

/** True for running text: many words, or a long line filling most of the box. */
function isProse(line: PdfLine, box: BBox): boolean {
  return wordCount(line.text) >= PROSE_WORDS || (line.text.length >= 50 && line.bbox[2] - line.bbox[0] >= 0.6 * (box[2] - box[0]));
}

const isFigureCaption = (text: string): boolean => parseCaptionLabel(text)?.kind === 'figure';

/**
 * Clusters element boxes (widened by {@link CLUSTER_GAP}) that touch, through an occupancy grid of
 * {@link CELL}-point cells: linear in the area the elements cover, never pairwise.
 */
function clusterElements(elements: readonly Element[], pageSize: { width: number; height: number }): Element[][] | undefined {
  const cols = Math.max(1, Math.ceil(pageSize.width / CELL) + 1);
  const rows = Math.max(1, Math.ceil(pageSize.height / CELL) + 1);
  const owner = new Int32Array(cols * rows).fill(-1);
  const parent = elements.map((_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) {
      parent[i] = parent[parent[i]!]!;
      i = parent[i]!;
    }
    return i;
  };
  // `joined[j] === i` once element j's cluster was merged with element i's: the many cells where a large element
  // (a frame, a background) meets the same neighbour need no further look-ups. Clusters only ever grow, so a pair
  // once joined stays joined, and the merges made (and so the clusters) are those of merging at every cell.
  const joined = new Int32Array(elements.length).fill(-1);
  let marked = 0;
  elements.forEach((element, i) => {
    const half = CLUSTER_GAP / 2;
    const c0 = Math.max(0, Math.floor((element.bbox[0] - half) / CELL));
    const c1 = Math.min(cols - 1, Math.floor((element.bbox[2] + half) / CELL));
    const r0 = Math.max(0, Math.floor((element.bbox[1] - half) / CELL));
    const r1 = Math.min(rows - 1, Math.floor((element.bbox[3] + half) / CELL));
    for (let r = r0; r <= r1; r++) {
      for (let c = c0; c <= c1; c++) {
        const cell = r * cols + c;
        const other = owner[cell]!;
        if (other < 0) owner[cell] = i;
        else if (joined[other] !== i) {
          joined[other] = i;
          const a = find(other);
          const b = find(i);
          if (a !== b) parent[b] = a;
        }
      }
    }
    marked += (r1 - r0 + 1) * (c1 - c0 + 1);
  });
  if (marked > MAX_MARKED_CELLS) return undefined;
  const groups = new Map<number, Element[]>();
  elements.forEach((element, i) => {
    const root = find(i);
    const list = groups.get(root) ?? [];
    list.push(element);
    groups.set(root, list);
  });
  return [...groups.values()];
}

/** Short lines right next to a figure (axis labels outside the plot, legend entries) that belong to it. */
function nearbyLabels(box: BBox, lines: readonly PdfLine[], taken: ReadonlySet<PdfLine>): PdfLine[] {
  const out: PdfLine[] = [];
  for (const line of lines) {
    if (taken.has(line) || line.vertical) continue;
    const text = line.text.trim();
    if (text.length > 30 || wordCount(text) > 4 || parseCaptionLabel(text)) continue;
    const gap = Math.max(1.2 * line.size, 6);
    const [x0, y0, x1, y1] = line.bbox;
    const cx = (x0 + x1) / 2;
    const cy = (y0 + y1) / 2;
    // Beside the box (a tick label level with the axis end counts), or under / over it.
    const overlapsX = cx >= box[0] - line.size && cx <= box[2] + line.size;
    const overlapsY = cy >= box[1] - line.size && cy <= box[3] + line.size;
    const below = y0 >= box[3] - 1 && y0 - box[3] <= gap;
    const above = y1 <= box[1] + 1 && box[1] - y1 <= gap;
    const left = x1 <= box[0] + 1 && box[0] - x1 <= gap + line.size;
    const right = x0 >= box[2] - 1 && x0 - box[2] <= gap + line.size;
    if ((overlapsX && (below || above)) || (overlapsY && (left || right))) out.push(line);
  }
  return out;
}

/**
 * A test "does a line's centre fall in this box?" answered by binary search over the lines sorted by
 * their vertical centre, so pages with thousands of filled boxes stay fast.
 */
function centreIndex(lines: readonly PdfLine[]): (box: BBox) => boolean {
  const centres = lines.map((l) => [(l.bbox[0] + l.bbox[2]) / 2, (l.bbox[1] + l.bbox[3]) / 2] as const).sort((a, b) => a[1] - b[1]);
  return (box) => {
    let lo = 0;
    let hi = centres.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (centres[mid]![1] < box[1]) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < centres.length && centres[i]![1] <= box[3]; i++) {
      const x = centres[i]![0];
      if (x >= box[0] && x <= box[2]) return true;
    }
    return false;
  };
}

/** Clip boxes of page graphics as cluster elements; `skip` leaves out elements (inside tables). */
function pageElements(graphics: PdfGraphics, lines: readonly PdfLine[], pageSize: { width: number; height: number }, skip: (box: BBox) => boolean): Element[] {
  const pageArea = pageSize.width * pageSize.height;
  const bandTop = pageSize.height * FURNITURE_BAND;
  const bandBottom = pageSize.height * (1 - FURNITURE_BAND);
  const textCentreIn = centreIndex(lines);
  const elements: Element[] = [];
  for (const image of graphics.images) {
    const b = clip(image.bbox, pageSize);
    if (!b || b[2] - b[0] < MIN_IMAGE || b[3] - b[1] < MIN_IMAGE) continue;
    if (b[3] <= bandTop || b[1] >= bandBottom || skip(b)) continue;
    if (area(b) >= 0.5 * pageArea) {
      const prose = lines.filter((l) => centreIn(l.bbox, b) && isProse(l, b)).length;
      if (prose >= 3) continue;
    }
    elements.push({ bbox: b, kind: 'image', curves: 0 });
  }
  for (const path of graphics.paths) {
    const b = clip(path.bbox, pageSize);
    if (!b || skip(b) || area(b) >= 0.8 * pageArea) continue;
    // Filled boxes behind text are text backgrounds (shaded cells, sidebars), not drawings.
    elements.push({ bbox: b, kind: path.rect ? 'rect' : 'path', curves: path.curves, ...(path.rect && textCentreIn(b) ? { behindText: true } : {}) });
  }
  for (const rule of graphics.rules) {
    const b = clip(ruleBox(rule), pageSize);
    if (b && !skip(b)) elements.push({ bbox: b, kind: 'rule', curves: 0 });
  }
  return elements;
}

/** Bold short lines right above a box (the header row of a shaded table, set on white). */
function headerLinesAbove(box: BBox, lines: readonly PdfLine[], taken: ReadonlySet<PdfLine>): PdfLine[] {
  const out: PdfLine[] = [];
  let top = box[1];
  const candidates = lines
    .filter((l) => !taken.has(l) && l.bbox[3] <= box[1] + 1 && l.bbox[0] >= box[0] - 2 && l.bbox[2] <= box[2] + 2)
    .sort((a, b) => b.bbox[3] - a.bbox[3]);
  for (const line of candidates) {
    if (top - line.bbox[3] > 1.2 * line.size) break;
    if (!line.bold || wordCount(line.text) > 8 || parseCaptionLabel(line.text)) break;
    out.push(line);
    top = Math.min(top, line.bbox[1]);
  }
  return out;
}

/**
 * Drawn regions holding rows of cells: clusters of page graphics with shading behind text (cell
 * backgrounds of HTML-style filings) whose text splits into rows of several pieces, with the
 * bold heading rows right above them. Candidates for text-derived tables (`tableFromLines`).
 */
export function findShadedRegions(lines: readonly PdfLine[], graphics: PdfGraphics, pageSize: { width: number; height: number }): Array<{ bbox: BBox; lines: PdfLine[] }> {
  const elements = pageElements(graphics, lines, pageSize, () => false).filter((e) => e.kind !== 'image');
  if (!elements.some((e) => e.behindText)) return [];
  const clusters = clusterElements(elements, pageSize);
  if (!clusters) return [];
  const out: Array<{ bbox: BBox; lines: PdfLine[] }> = [];
  const taken = new Set<PdfLine>();
  for (const cluster of clusters) {
    if (!cluster.some((e) => e.behindText)) continue;
    const box = cluster.map((e) => e.bbox).reduce(union);
    const inside = lines.filter((l) => !taken.has(l) && centreIn(l.bbox, box, 2) && !parseCaptionLabel(l.text));
    if (!tabularText(inside, true)) continue;
    const header = headerLinesAbove(box, lines, taken);
    const all = [...header, ...inside];
    for (const l of all) taken.add(l);
    out.push({ bbox: all.map((l) => l.bbox).reduce(union, box), lines: all });
  }
  return out;
}

/**
 * Finds the figures of a page from its graphics and text lines. Tiny images, images in the
 * running header / footer bands, and page-sized images behind running text (backgrounds, scans
 * with a text layer) are ignored; vector drawings need some size, more than bare rules, no cell
 * shading, no rows of table cells and little running text inside (up to 35% of the area, 60% with
 * a `Figure N` caption next to it). Graphics inside `options.tables` are skipped. Overlapping
 * figures, and panels with nothing but their labels between them, are merged.
 */
export function findFigures(lines: readonly PdfLine[], graphics: PdfGraphics, options: FindFiguresOptions): PdfFigureRegion[] {
  const { pageSize } = options;
  const tables = options.tables ?? [];
  const elements = pageElements(graphics, lines, pageSize, (box) => tables.some((t) => centreIn(box, t, 2)));
  if (elements.length === 0) return [];
  const clusters = clusterElements(elements, pageSize);
  if (!clusters) return [];
  const captions = lines.filter((l) => isFigureCaption(l.text));
  const captionNear = (box: BBox): boolean =>
    captions.some((c) => {
      const overlapX = Math.min(c.bbox[2], box[2]) - Math.max(c.bbox[0], box[0]) > 0;
      const gap = Math.max(c.bbox[1] - box[3], box[1] - c.bbox[3]);
      return overlapX && gap <= 3 * c.size + 6;
    });
  const figures: PdfFigureRegion[] = [];
  const taken = new Set<PdfLine>();
  for (const cluster of clusters) {
    let box = cluster.map((e) => e.bbox).reduce(union);
    const images = cluster.filter((e) => e.kind === 'image');
    const drawings = cluster.filter((e) => (e.kind === 'path' || e.kind === 'rect') && !e.behindText);
    // Cell shading (filled boxes behind text, some cells empty) is a table's background, not a chart.
    const shaded = cluster.filter((e) => e.behindText).length;
    const emptyBoxes = cluster.filter((e) => e.kind === 'rect' && !e.behindText).length;
    if (images.length === 0 && shaded > 0 && shaded >= 0.3 * (shaded + emptyBoxes)) continue;
    const curves = cluster.reduce((n, e) => n + e.curves, 0);
    const ruleCount = cluster.filter((e) => e.kind === 'rule').length;
    const source: PdfFigureRegion['source'] = images.length > 0 ? 'xobject' : 'vector';
    if (source === 'vector') {
      if (box[2] - box[0] < MIN_VECTOR_WIDTH || box[3] - box[1] < MIN_VECTOR_HEIGHT) continue;
      if (drawings.length < 2 && curves < 4) continue;
      if (drawings.length + ruleCount < 3) continue;
    }
    const inside = lines.filter((l) => !taken.has(l) && centreIn(l.bbox, box, 2) && !isFigureCaption(l.text));
    const prose = inside.filter((l) => isProse(l, box));
    if (source === 'vector') {
      if (tabularText(inside)) continue;
      const cover = inside.reduce((s, l) => s + area(l.bbox), 0) / Math.max(1, area(box));
      const limit = captionNear(box) ? MAX_TEXT_COVER_CAPTIONED : MAX_TEXT_COVER;
      if (prose.length >= 2 || cover > limit) continue;
    } else if (prose.length >= 3 && prose.length >= 0.5 * inside.length) {
      // Text set over an image (a background or a scan with a text layer) stays text.
      continue;
    }
    const labels = inside.filter((l) => !isProse(l, box));
    for (const l of labels) taken.add(l);
    for (let pass = 0; pass < 2; pass++) {
      const extra = nearbyLabels(box, lines, taken);
      if (extra.length === 0) break;
      for (const l of extra) {
        taken.add(l);
        labels.push(l);
        box = union(box, l.bbox);
      }
    }
    for (const l of labels) box = union(box, l.bbox);
    figures.push({ kind: 'figure', bbox: [round2(box[0]), round2(box[1]), round2(box[2]), round2(box[3])], source, lines: labels });
  }
  return mergeFigures(figures, lines).filter((f) => !tables.some((t) => boxesOverlap(t, f.bbox, 4)));
}

/**
 * True when lines form rows of cells: most rows split into two or more pieces (a table, not a
 * chart); on shaded cells three such rows are enough (the others hold wrapped cell text).
 */
function tabularText(lines: readonly PdfLine[], shaded = false): boolean {
  const rows = groupRows(lines);
  if (rows.length < 3) return false;
  const multi = rows.filter((r) => r.frags.length >= 2).length;
  if (multi < 3) return false;
  if (multi >= 0.5 * rows.length) return true;
  return shaded && rows.filter((r) => r.frags.some((f) => wordCount(f.text) >= PROSE_WORDS)).length < 0.3 * rows.length;
}

/** Panels of one figure may sit this far apart (points). */
const PANEL_GAP = 36;

/**
 * True when two figure boxes are panels of one figure: they overlap, or sit side by side (or one
 * above the other) within {@link PANEL_GAP} and share most of their height (width).
 */
function panels(a: BBox, b: BBox): boolean {
  if (boxesOverlap(a, b, 2)) return true;
  const dx = Math.max(a[0], b[0]) - Math.min(a[2], b[2]);
  const dy = Math.max(a[1], b[1]) - Math.min(a[3], b[3]);
  const shareY = -dy / Math.min(a[3] - a[1], b[3] - b[1]);
  const shareX = -dx / Math.min(a[2] - a[0], b[2] - b[0]);
  return (dx <= PANEL_GAP && dy < 0 && shareY >= 0.3) || (dy <= PANEL_GAP && dx < 0 && shareX >= 0.3);
}

/**
 * Merges figures that overlap (a raster image with vector labels drawn over it) or are panels of
 * one figure with nothing but their own labels between them (no caption, no running text).
 */
function mergeFigures(figures: PdfFigureRegion[], lines: readonly PdfLine[]): PdfFigureRegion[] {
  const out = [...figures];
  const owned = new Set(figures.flatMap((f) => f.lines));
  const free = lines.filter((l) => !owned.has(l));
  let changed = true;
  while (changed) {
    changed = false;
    outer: for (let i = 0; i < out.length; i++) {
      for (let j = i + 1; j < out.length; j++) {
        const a = out[i]!;
        const b = out[j]!;
        if (!panels(a.bbox, b.bbox)) continue;
        const bbox = union(a.bbox, b.bbox);
        if (!boxesOverlap(a.bbox, b.bbox, 2) && free.some((l) => centreIn(l.bbox, bbox))) continue;
        out[i] = { kind: 'figure', bbox, source: a.source === 'xobject' || b.source === 'xobject' ? 'xobject' : 'vector', lines: [...a.lines, ...b.lines] };
        out.splice(j, 1);
        changed = true;
        break outer;
      }
    }
  }
  return out;
}

/** A box clipped to the page; undefined when nothing is left. */
function clip(box: BBox, pageSize: { width: number; height: number }): BBox | undefined {
  const b: BBox = [Math.max(0, box[0]), Math.max(0, box[1]), Math.min(pageSize.width, box[2]), Math.min(pageSize.height, box[3])];
  return b[2] > b[0] && b[3] > b[1] ? b : b[2] >= b[0] && b[3] >= b[1] && (b[2] - b[0] > 0 || b[3] - b[1] > 0) ? b : undefined;
}
