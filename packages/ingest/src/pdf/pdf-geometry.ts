import type { BBox } from '@doctree/schema';
import type { PdfRule } from './pdf-graphics.js';

/**
 * Box geometry of PDF pages (points, top-left origin), shared by the table and figure detectors and the region
 * finder: overlaps of intervals and boxes, containment, the box of a rule.
 */

/** Overlap of `[a0, a1]` and `[b0, b1]` (0 when apart). */
export const overlap1d = (a0: number, a1: number, b0: number, b1: number): number => Math.max(0, Math.min(a1, b1) - Math.max(a0, b0));

/** Box of a rule. */
export function ruleBox(rule: PdfRule): BBox {
  const half = rule.width / 2;
  return rule.orientation === 'h' ? [rule.from, rule.at - half, rule.to, rule.at + half] : [rule.at - half, rule.from, rule.at + half, rule.to];
}

/** True when `inner` lies inside `outer` (with a small tolerance). */
export function insideBox(inner: BBox, outer: BBox, pad = 2): boolean {
  return inner[0] >= outer[0] - pad && inner[1] >= outer[1] - pad && inner[2] <= outer[2] + pad && inner[3] <= outer[3] + pad;
}

/** True when two boxes overlap by more than a sliver. */
export function boxesOverlap(a: BBox, b: BBox, slack = 1): boolean {
  return Math.min(a[2], b[2]) - Math.max(a[0], b[0]) > slack && Math.min(a[3], b[3]) - Math.max(a[1], b[1]) > slack;
}
