import type { ContentBlock, TitleBlock } from '@doctree/schema';
import { blockText, hasFlag, withFlag, type EnhancerRule } from './enhancer-rule.js';

/** Options of {@link headingCleanupRule}. */
export interface HeadingCleanupOptions {
  /** A title repeated on at least this many pages is a running title. Default 3. */
  runningTitleMinPages?: number;
  /** Share of a page's lines that end in a page number for the page to count as a table of contents. Default 0.4. */
  tocLineShare?: number;
}

const DEFAULTS: Required<HeadingCleanupOptions> = { runningTitleMinPages: 3, tocLineShare: 0.4 };

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
 * Heading clean-up: marks table-of-contents pages (their titles become `toc` text), demotes running titles
 * (the same title text on many pages), and repairs levels: decimal numbering wins over font-size levels
 * (`2.3` is one level below `2`), and levels are compacted so the shallowest heading is level 1.
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
      for (const [page, pageBlocks] of byPage) {
        const lines = pageBlocks.flatMap((b) => blockText(b).split('\n')).filter((l) => l.trim().length > 0);
        const tocLines = lines.filter((l) => TOC_LINE.test(l)).length;
        const hasTocTitle = pageBlocks.some((b) => TOC_TITLE.test(blockText(b)));
        if (lines.length >= 5 && (tocLines / lines.length >= opts.tocLineShare || (hasTocTitle && tocLines / lines.length >= opts.tocLineShare / 2))) {
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
      // 3. level repair from decimal numbering
      out = out.map((b): ContentBlock => {
        if (b.type !== 'title' || hasFlag(b, 'running_title')) return b;
        const depth = numberingDepth(b.text);
        if (depth === undefined || depth === b.text_level) return b;
        changed++;
        return withFlag({ ...b, text_level: Math.min(9, depth) } as TitleBlock, 'heading_level_repaired');
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
