import type { ContentBlock } from '@doctree/schema';
import { withFlag, type EnhancerRule } from './enhancer-rule.js';

const REFERENCE_HEADING = /^\s*([0-9]+(\.[0-9]+)*\.?\s+)?(references|bibliography|works cited|literature cited|reference list)\s*$/i;

/**
 * Reference-list marking: blocks after a "References" / "Bibliography" heading, up to the next heading of the
 * same or a higher level, are flagged `reference_list` (so retrieval can down-weight them and the tree marks
 * them `reference`).
 */
export function referenceMarkingRule(): EnhancerRule {
  return {
    name: 'reference-marking',
    apply(blocks: ContentBlock[]) {
      let changed = 0;
      let inside: number | null = null;
      const out = blocks.map((b): ContentBlock => {
        if (b.type === 'title') {
          if (REFERENCE_HEADING.test(b.text)) {
            inside = b.text_level;
            return b;
          }
          if (inside !== null && b.text_level <= inside) inside = null;
          return b;
        }
        if (inside !== null && (b.type === 'text' || b.type === 'list')) {
          changed++;
          return withFlag(b, 'reference_list');
        }
        return b;
      });
      return { blocks: out, outcome: { changed } };
    },
  };
}
