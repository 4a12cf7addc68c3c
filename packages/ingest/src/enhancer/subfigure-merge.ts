import type { BBox, ContentBlock, ImageBlock } from '@doctree/schema';
import { withFlag, type EnhancerRule } from './enhancer-rule.js';

/** Options of {@link subfigureMergeRule}. */
export interface SubfigureMergeOptions {
  /** Largest gap in points between two image regions that still belong to one figure. Default 12. */
  maxGap?: number;
}

const gapBetween = (a: BBox, b: BBox): number => {
  const dx = Math.max(0, Math.max(a[0], b[0]) - Math.min(a[2], b[2]));
  const dy = Math.max(0, Math.max(a[1], b[1]) - Math.min(a[3], b[3]));
  return Math.max(dx, dy);
};

const union = (a: BBox, b: BBox): BBox => [Math.min(a[0], b[0]), Math.min(a[1], b[1]), Math.max(a[2], b[2]), Math.max(a[3], b[3])];

/**
 * Merges sub-figures that the layout step split apart: consecutive image blocks on the same page whose
 * regions touch (gap ≤ `maxGap`) and of which at most one carries a caption become one image with the union box,
 * flagged `merged_subfigure`, so "Figure 3 (a)(b)(c)" is one figure node with one caption.
 */
export function subfigureMergeRule(options: SubfigureMergeOptions = {}): EnhancerRule {
  const maxGap = options.maxGap ?? 12;
  return {
    name: 'subfigure-merge',
    apply(blocks: ContentBlock[]) {
      const out: ContentBlock[] = [];
      let changed = 0;
      for (const b of blocks) {
        const prev = out[out.length - 1];
        if (
          b.type === 'image' &&
          prev?.type === 'image' &&
          prev.page_idx === b.page_idx &&
          gapBetween(prev.bbox, b.bbox) <= maxGap &&
          (prev.image_caption.length === 0 || b.image_caption.length === 0)
        ) {
          const merged: ImageBlock = {
            ...prev,
            bbox: union(prev.bbox, b.bbox),
            image_caption: [...prev.image_caption, ...b.image_caption],
            image_footnote: [...prev.image_footnote, ...b.image_footnote],
            ...(prev.label ?? b.label ? { label: prev.label ?? b.label } : {}),
          };
          out[out.length - 1] = withFlag(merged, 'merged_subfigure');
          changed++;
          continue;
        }
        out.push(b);
      }
      return { blocks: out, outcome: { changed } };
    },
  };
}
