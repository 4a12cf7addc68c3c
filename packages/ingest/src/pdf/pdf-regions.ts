import { parseCaptionLabel } from '../builder/labels.js';
import type { PdfRawBlock } from './pdf-blocks.js';
import { joinBlockLines } from './pdf-classify.js';
import { findFigures, findShadedRegions } from './pdf-figures.js';
import type { PdfGraphics } from './pdf-graphics.js';
import { detectGutter, dominantSize, furnitureBand } from './pdf-layout.js';
import type { PdfLine } from './pdf-lines.js';
import { regionLine } from './pdf-region-line.js';
import type { PdfRegion } from './pdf-region-line.js';
import { groupRows } from './pdf-table-grid.js';
import { boxesOverlap } from './pdf-geometry.js';
import { type BorderlessTableMemo, findTables, peelTitleRows, tableFromLines } from './pdf-tables.js';

/**
 * Tables and figures of one page, put together: which pages need their graphics read (the
 * operator list is the costly part), the regions found and the lines they leave for the text
 * flow, and captions joined from the text blocks next to them. Pure functions.
 */

/** Regions of a page and the lines left for the text flow. */
export interface PageRegions {
  regions: PdfRegion[];
  /** Lines not covered by a region, plus one placeholder line per region (see `regionLine`). */
  lines: PdfLine[];
}

/** A caption-like line start: `Figure 2`, `Fig. 3`, `Table 1`, `TABLE IV`, `Chart 4`, `Exhibit 5`. */
const CAPTION_START = /^(?:figure|fig\.?|table|tab\.|chart|exhibit|graph)\s*[\dIVXA-Z]/i;
/** A text-derived table covering this share of a shaded region's lines stays as it is. */
const SHADED_KEEP_SHARE = 0.8;
/** A page with fewer characters of body text than this may be a chart or picture page. */
const SPARSE_PAGE_CHARS = 400;
/** A vertical gap in the body text this large (share of the page height) may hold a figure. */
const FIGURE_GAP_SHARE = 0.12;

/** Lines that take part in region detection: horizontal, outside the running header / footer bands. */
function candidateLines(lines: readonly PdfLine[], pageHeight: number): PdfLine[] {
  const horizontal = lines.filter((l) => !l.vertical);
  const bodySize = dominantSize(horizontal);
  return horizontal.filter((l) => furnitureBand(l, pageHeight, bodySize) === undefined);
}

/** The columns of a two-column page as separate line groups (lines crossing the gutter left out); all lines otherwise. */
function partitions(lines: readonly PdfLine[]): PdfLine[][] {
  const gutter = detectGutter(lines);
  if (!gutter) return [[...lines]];
  const [g0, g1] = gutter;
  const middle = (g0 + g1) / 2;
  const left: PdfLine[] = [];
  const right: PdfLine[] = [];
  for (const line of lines) {
    if (line.bbox[0] < g0 - 1 && line.bbox[2] > g1 + 1) continue;
    if ((line.bbox[0] + line.bbox[2]) / 2 < middle) left.push(line);
    else right.push(line);
  }
  return [left, right];
}

/** Options of {@link findRegions}. */
export interface FindRegionsOptions {
  /** Borderless tables already found on this page by an earlier read of the same lines; none by default. */
  memo?: BorderlessTableMemo;
}

/**
 * Finds the tables and (with graphics) the figures of a page. Without graphics only borderless
 * tables can be found. Returns the regions and the page's lines with covered lines replaced by one
 * placeholder line per region.
 */
export function findRegions(
  lines: readonly PdfLine[],
  graphics: PdfGraphics | undefined,
  pageSize: { width: number; height: number },
  options: FindRegionsOptions = {},
): PageRegions {
  // Tables may run into the footer band of a dense page; figures keep out of the bands.
  const horizontal = lines.filter((l) => !l.vertical);
  const candidates = candidateLines(lines, pageSize.height);
  const tables = findTables(horizontal, graphics?.rules ?? [], { partitions: partitions(horizontal), ...(options.memo ? { memo: options.memo } : {}) });
  if (graphics) {
    // Shaded tables (cell backgrounds) replace text-derived tables that only caught pieces of them.
    for (const region of findShadedRegions(horizontal, graphics, pageSize)) {
      const inside = new Set(region.lines);
      const overlapping = tables.filter((t) => t.lines.some((l) => inside.has(l)) || boxesOverlap(t.bbox, region.bbox, 2));
      const caught = overlapping.reduce((n, t) => n + t.lines.filter((l) => inside.has(l)).length, 0);
      if (overlapping.length > 0 && caught >= SHADED_KEEP_SHARE * region.lines.length) continue;
      const others = new Set(overlapping.flatMap((t) => t.lines));
      const table = tableFromLines([...new Set([...region.lines, ...others])], region.bbox);
      if (!table) continue;
      for (const t of overlapping) tables.splice(tables.indexOf(t), 1);
      tables.push(table);
    }
  }
  // Statement titles caught inside a table (a shaded box drawn around title and amounts) go back to the text.
  for (let i = 0; i < tables.length; i++) tables[i] = peelTitleRows(tables[i]!);
  const covered = new Set<PdfLine>(tables.flatMap((t) => t.lines));
  const figures = graphics
    ? findFigures(
        candidates.filter((l) => !covered.has(l)),
        graphics,
        { pageSize, tables: tables.map((t) => t.bbox) },
      )
    : [];
  for (const figure of figures) for (const line of figure.lines) covered.add(line);
  const regions: PdfRegion[] = [...tables, ...figures];
  if (regions.length === 0) return { regions, lines: [...lines] };
  return { regions, lines: [...lines.filter((l) => !covered.has(l)), ...regions.map(regionLine)] };
}

/**
 * Decides from the text alone whether a page's graphics are worth reading: it has a caption line,
 * little text, a tall blank stretch between text rows (room for a figure), or rows of table cells
 * that the text-only detectors left alone (a ruled table).
 */
export function wantsGraphics(lines: readonly PdfLine[], pageSize: { width: number; height: number }, textRegions: PageRegions): boolean {
  const candidates = candidateLines(lines, pageSize.height);
  if (candidates.length === 0) return false;
  if (candidates.some((l) => CAPTION_START.test(l.text))) return true;
  const chars = candidates.reduce((n, l) => n + l.text.length, 0);
  if (chars < SPARSE_PAGE_CHARS) return true;
  const sorted = [...candidates].sort((a, b) => a.bbox[1] - b.bbox[1]);
  let bottom = sorted[0]!.bbox[3];
  for (const line of sorted) {
    if (line.bbox[1] - bottom >= FIGURE_GAP_SHARE * pageSize.height) return true;
    bottom = Math.max(bottom, line.bbox[3]);
  }
  const covered = new Set(textRegions.regions.flatMap((r) => r.lines));
  for (const part of partitions(candidates)) {
    const rows = groupRows(part.filter((l) => !covered.has(l)));
    if (rows.filter((r) => r.lines.length >= 2).length >= 3) return true;
  }
  return false;
}

/** Largest gap (points, or font sizes of the caption) between a region and its caption. */
const CAPTION_MAX_GAP = 30;
const CAPTION_MAX_GAP_EM = 3;

/** Caption kind a region takes. */
const captionKind = (block: PdfRawBlock): 'table' | 'figure' | undefined =>
  block.region?.kind === 'table' ? 'table' : block.region?.kind === 'figure' ? 'figure' : undefined;

/** Text of a raw block (rows joined, line-break hyphens repaired). */
const blockText = (block: PdfRawBlock): string => joinBlockLines(block.lines.map((l) => l.text));

/**
 * Joins captions to the tables and figures of one page: a body text block starting with a label
 * of the right kind (`Table 1:` for tables; `Figure 2`, `Fig. 3.`, `Chart 4`, `Exhibit 5` for
 * figures) directly below or above a region, overlapping it horizontally, becomes the region's
 * caption and leaves the block list. A caption block holding only the label (`Figure 2.` set in
 * bold) takes the paragraph right after it along. Nearest pairs are joined first.
 */
export function attachCaptions(blocks: readonly PdfRawBlock[]): PdfRawBlock[] {
  const regions = blocks.filter((b) => b.region !== undefined);
  if (regions.length === 0) return [...blocks];
  const candidates: Array<{ region: PdfRawBlock; caption: PdfRawBlock; distance: number }> = [];
  blocks.forEach((block) => {
    if (block.region || block.zone !== 'body') return;
    const text = blockText(block);
    const label = parseCaptionLabel(text);
    if (!label) return;
    for (const region of regions) {
      if (captionKind(region) !== label.kind) continue;
      const r = region.bbox;
      const c = block.bbox;
      if (Math.min(r[2], c[2]) - Math.max(r[0], c[0]) <= 0) continue;
      const below = c[1] - r[3];
      const above = r[1] - c[3];
      const gap = Math.max(below, above);
      const limit = Math.max(CAPTION_MAX_GAP, CAPTION_MAX_GAP_EM * block.size);
      if (gap > limit || gap < -0.5 * block.size) continue;
      // Figures are captioned below, tables above, more often than not.
      const preferred = label.kind === 'figure' ? below >= above : above >= below;
      candidates.push({ region, caption: block, distance: Math.max(0, gap) + (preferred ? 0 : 2) });
    }
  });
  candidates.sort((a, b) => a.distance - b.distance);
  const removed = new Set<PdfRawBlock>();
  const captioned = new Set<PdfRawBlock>();
  for (const { region, caption } of candidates) {
    if (captioned.has(region) || removed.has(caption)) continue;
    let text = blockText(caption);
    const label = parseCaptionLabel(text)!;
    removed.add(caption);
    captioned.add(region);
    // `Figure 2.` alone (a bold run-in label split from its text): the next paragraph is the caption.
    if (text.length <= 16) {
      const next = blocks[blocks.indexOf(caption) + 1];
      if (next && !next.region && next.zone === 'body' && next.column === caption.column && next.bbox[1] - caption.bbox[3] <= caption.size) {
        text = `${text} ${blockText(next)}`;
        removed.add(next);
      }
    }
    region.caption = { text, label: label.label };
  }
  return blocks.filter((b) => !removed.has(b));
}
