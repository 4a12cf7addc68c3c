import type { ContentBlock, ContentList } from '@doctree/schema';
import { blockText, withFlag, type EnhancerRule } from './enhancer-rule.js';

/** Options of {@link repeatedFurnitureRule}. */
export interface RepeatedFurnitureOptions {
  /** Share of pages a template must appear on to be furniture. Default 0.6. */
  minPageShare?: number;
  /** Height of the top and bottom bands, as a share of the page height. Default 0.12. */
  band?: number;
  /** Documents with fewer pages are left alone. Default 3. */
  minPages?: number;
}

const DEFAULTS: Required<RepeatedFurnitureOptions> = { minPageShare: 0.6, band: 0.12, minPages: 3 };

/** Template of a line: digits and roman page numbers folded so `Page 3 of 40` and `Page 4 of 40` match. */
export function furnitureTemplate(text: string): string {
  return text
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/\b[ivxlc]+\b(?=\s*$)/g, '#')
    .replace(/[0-9]+/g, '#')
    .trim();
}

/**
 * Repeated header/footer removal: a line template seen in the top (or bottom) band of at least 60 % of
 * the pages is page furniture (running headers, "Table of Contents" links, page numbers, confidentiality
 * footers). Such blocks are flagged `repeated_header` / `repeated_footer`; the tree builder drops them.
 */
export function repeatedFurnitureRule(options: RepeatedFurnitureOptions = {}): EnhancerRule {
  const opts = { ...DEFAULTS, ...options };
  return {
    name: 'repeated-furniture',
    apply(blocks: ContentBlock[], list: ContentList) {
      const pageCount = list.pages.length;
      if (pageCount < opts.minPages) return { blocks, outcome: { changed: 0 } };
      const position = (b: ContentBlock): 'top' | 'bottom' | null => {
        if (b.bbox[3] <= b.page_size.height * opts.band) return 'top';
        if (b.bbox[1] >= b.page_size.height * (1 - opts.band)) return 'bottom';
        return null;
      };
      const pagesByKey = new Map<string, Set<number>>();
      for (const b of blocks) {
        const where = position(b);
        const text = blockText(b);
        if (!where || !text || text.length > 200) continue;
        const key = `${where}|${furnitureTemplate(text)}`;
        if (!pagesByKey.has(key)) pagesByKey.set(key, new Set());
        pagesByKey.get(key)!.add(b.page_idx);
      }
      const textPages = list.pages.filter((p) => p.has_text_layer).length || pageCount;
      const repeated = new Set([...pagesByKey].filter(([, pages]) => pages.size >= Math.max(2, opts.minPageShare * textPages)).map(([k]) => k));
      let changed = 0;
      const out = blocks.map((b) => {
        const where = position(b);
        const text = blockText(b);
        if (!where || !text || !repeated.has(`${where}|${furnitureTemplate(text)}`)) return b;
        changed++;
        return withFlag(b, where === 'top' ? 'repeated_header' : 'repeated_footer');
      });
      return { blocks: out, outcome: { changed } };
    },
  };
}
