import type { ContentBlock, TitleBlock } from '@doctree/schema';
import { blockText, hasFlag, withFlag, type EnhancerRule } from './enhancer-rule.js';

/** Options of {@link headingCleanupRule}. */
export interface HeadingCleanupOptions {
  /** A title repeated on at least this many pages is a running title. Default 3. */
  runningTitleMinPages?: number;
  /** Share of a page's lines that end in a page number for the page to count as a table of contents. Default 0.4. */
  tocLineShare?: number;
  /** Fewest lines ending in a page number a table-of-contents page has (a contents list has several entries). Default 5. */
  tocMinLines?: number;
}

const DEFAULTS: Required<HeadingCleanupOptions> = { runningTitleMinPages: 3, tocLineShare: 0.4, tocMinLines: 5 };

/** Page furniture: never evidence for or against a table-of-contents page (a running `Table of Contents` link is not one). */
const FURNITURE_TYPES = new Set(['header', 'footer', 'page_number', 'aside_text']);
const isFurniture = (b: ContentBlock): boolean => FURNITURE_TYPES.has(b.type) || hasFlag(b, 'repeated_header') || hasFlag(b, 'repeated_footer');

const TOC_TITLE = /^\s*(table of contents|contents|index to (consolidated )?financial statements)\s*$/i;
const TOC_LINE = /(\.{3,}|\s{2,}|\t)\s*[0-9ivxlc]+\s*$|\s[0-9]{1,4}\s*$/i;
const DECIMAL_NUMBERING = /^\s*([0-9]+(?:\.[0-9]+)*)\.?\s+\S/;

/** Depth implied by decimal numbering: `2` → 1, `2.3` → 2, `2.3.1` → 3; undefined without numbering. */
export function numberingDepth(text: string): number | undefined {
  const m = DECIMAL_NUMBERING.exec(text);
  if (!m) return undefined;
  const parts = m[1]!.split('.');
  if (parts.some((p) => p.length > 3) || Number(parts[0]) > 99) return undefined; // years, amounts
  return parts.length;
}

/**
 * Heading clean-up: marks table-of-contents pages (their titles become `toc` text; a page needs several lines ending
 * in page numbers, not counting headers and footers), demotes running titles
 * (the same title text on many pages), and repairs levels: decimal numbering wins over font-size levels
 * (`2.3` is one level below `2`, at the offset most numbered titles share), and levels are compacted so the shallowest heading is level 1.
 */
export function headingCleanupRule(options: HeadingCleanupOptions = {}): EnhancerRule {
  const opts = { ...DEFAULTS, ...options };
  return {
    name: 'heading-cleanup',
    apply(blocks: ContentBlock[]) {
      let changed = 0;
      // 1. table-of-contents pages
      const tocPages = new Set<number>();
      const byPage = new Map<number, ContentBlock[]>();
      for (const b of blocks) byPage.set(b.page_idx, [...(byPage.get(b.page_idx) ?? []), b]);
      for (const [page, all] of byPage) {
        const pageBlocks = all.filter((b) => !isFurniture(b));
        const lines = pageBlocks.flatMap((b) => blockText(b).split('\n')).filter((l) => l.trim().length > 0);
        const tocLines = lines.filter((l) => TOC_LINE.test(l)).length;
        const hasTocTitle = pageBlocks.some((b) => TOC_TITLE.test(blockText(b)));
        const share = lines.length > 0 ? tocLines / lines.length : 0;
        if (tocLines >= opts.tocMinLines && (share >= opts.tocLineShare || (hasTocTitle && share >= opts.tocLineShare / 2))) {
          tocPages.add(page);
        }
      }
      // 2. running titles: the same title text on many pages
      const titlePages = new Map<string, Set<number>>();
      for (const b of blocks) {
        if (b.type !== 'title') continue;
        const key = b.text.trim().toLowerCase();
        titlePages.set(key, (titlePages.get(key) ?? new Set()).add(b.page_idx));
      }
      const seenRunning = new Set<string>();
      let out = blocks.map((b): ContentBlock => {
        if (tocPages.has(b.page_idx)) {
          changed++;
          const flagged = withFlag(b, 'toc');
          if (flagged.type !== 'title') return flagged;
          const { text_level: _l, numbering: _n, ...rest } = flagged;
          return withFlag({ ...rest, type: 'text' }, 'heading_demoted');
        }
        if (b.type === 'title') {
          const key = b.text.trim().toLowerCase();
          if ((titlePages.get(key)?.size ?? 0) >= opts.runningTitleMinPages) {
            // keep the first occurrence as a heading, the repeats are running titles
            if (seenRunning.has(key)) {
              changed++;
              return withFlag(b, 'running_title');
            }
            seenRunning.add(key);
          }
        }
        return b;
      });
      // 3. level repair from decimal numbering: `2.3` one level below `2`, at the offset most numbered titles
      //    already have (decimal sections inside an Item or chapter stay inside it).
      const offsets = new Map<number, number>();
      for (const b of out) {
        if (b.type !== 'title' || hasFlag(b, 'running_title')) continue;
        const depth = numberingDepth(b.text);
        if (depth !== undefined) offsets.set(b.text_level - depth, (offsets.get(b.text_level - depth) ?? 0) + 1);
      }
      const offset = [...offsets].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]?.[0] ?? 0;
      out = out.map((b): ContentBlock => {
        if (b.type !== 'title' || hasFlag(b, 'running_title')) return b;
        const depth = numberingDepth(b.text);
        if (depth === undefined) return b;
        const level = Math.max(1, Math.min(9, depth + offset));
        if (level === b.text_level) return b;
        changed++;
        return withFlag({ ...b, text_level: level } as TitleBlock, 'heading_level_repaired');
      });
      // 4. compact levels so the shallowest heading is 1 and no level is skipped globally
      const used = [...new Set(out.filter((b): b is TitleBlock => b.type === 'title' && !hasFlag(b, 'running_title')).map((b) => b.text_level))].sort((a, b) => a - b);
      const remap = new Map(used.map((level, i) => [level, i + 1]));
      out = out.map((b): ContentBlock => {
        if (b.type !== 'title') return b;
        const level = remap.get(b.text_level) ?? b.text_level;
        if (level === b.text_level) return b;
        changed++;
        return { ...b, text_level: level };
      });
      return { blocks: out, outcome: { changed } };
    },
  };
}
