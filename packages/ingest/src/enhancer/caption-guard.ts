import type { ContentBlock } from '@doctree/schema';
import { parseCaptionLabel } from '../builder/labels.js';
import { withFlag, type EnhancerRule } from './enhancer-rule.js';

/**
 * Caption guard: a `Figure 3: …` / `Table 2 …` line is a caption, not a section title. Titles and text blocks
 * that start with a figure/table label become text blocks flagged `caption` (titles also `heading_demoted`).
 * Cross-references inside sentences ("Table 2 shows…") are left alone: the label must be followed by a
 * separator or the block must be short.
 */
export function captionGuardRule(): EnhancerRule {
  return {
    name: 'caption-guard',
    apply(blocks: ContentBlock[]) {
      let changed = 0;
      const out = blocks.map((b): ContentBlock => {
        if (b.type !== 'title' && b.type !== 'text') return b;
        const label = parseCaptionLabel(b.text);
        if (!label) return b;
        const afterLabel = b.text.slice(b.text.search(/\S/)).replace(/^\S+\s*\S+/, '');
        const looksLikeCaption = /^\s*[:.\-–—|]/.test(afterLabel) || b.type === 'title' || b.text.length < 160;
        if (!looksLikeCaption || (b.type === 'text' && /^\s*(shows|presents|lists|summari[sz]es|illustrates|reports|gives)\b/i.test(afterLabel))) return b;
        changed++;
        if (b.type === 'title') {
          const { text_level: _level, numbering: _numbering, ...rest } = b;
          return withFlag(withFlag({ ...rest, type: 'text' }, 'caption'), 'heading_demoted');
        }
        return withFlag(b, 'caption');
      });
      return { blocks: out, outcome: { changed } };
    },
  };
}
