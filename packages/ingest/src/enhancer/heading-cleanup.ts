import type { ContentBlock, ContentList, TitleBlock } from '@doctree/schema';
import { hasFlag, withFlag, type EnhancerRule } from './enhancer-rule.js';
import { compactLevels } from './level-compaction.js';
import { findTocPages, type TocPageOptions } from './toc-pages.js';

/** Options of {@link headingCleanupRule}; the table-of-contents options are those of {@link findTocPages}. */
export interface HeadingCleanupOptions extends TocPageOptions {
  /** A title repeated on at least this many pages is a running title. Default 3. */
  runningTitleMinPages?: number;
}

const DEFAULTS: Pick<Required<HeadingCleanupOptions>, 'runningTitleMinPages'> = { runningTitleMinPages: 3 };

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
 * Heading clean-up: marks table-of-contents pages ({@link findTocPages}; from the contents title on, their blocks are
 * flagged `toc` and their titles become text, while a heading set above the contents list stays), demotes running
 * titles (the same title text on many pages), and repairs levels: decimal numbering wins over font-size levels
 * (`2.3` is one level below `2`, at the offset most numbered titles share), and levels are compacted
 * ({@link compactLevels}) so the shallowest heading is level 1.
 */
export function headingCleanupRule(options: HeadingCleanupOptions = {}): EnhancerRule {
  const opts = { ...DEFAULTS, ...options };
  return {
    name: 'heading-cleanup',
    apply(blocks: ContentBlock[], list: ContentList) {
      let changed = 0;
      // 1. table-of-contents pages
      const tocPages = findTocPages(blocks, list.pages.length, opts);
      // 2. running titles: the same title text on many pages
      const titlePages = new Map<string, Set<number>>();
      for (const b of blocks) {
        if (b.type !== 'title') continue;
        const key = b.text.trim().toLowerCase();
        titlePages.set(key, (titlePages.get(key) ?? new Set()).add(b.page_idx));
      }
      const seenRunning = new Set<string>();
      let out = blocks.map((b, i): ContentBlock => {
        if (i >= (tocPages.get(b.page_idx) ?? Infinity)) {
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
      const headings = out.filter((b): b is TitleBlock => b.type === 'title' && !hasFlag(b, 'running_title'));
      const levels = compactLevels(headings.map((h) => h.text_level));
      const compacted = new Map(headings.map((b, i) => [b, levels[i]!]));
      out = out.map((b): ContentBlock => {
        if (b.type !== 'title') return b;
        const level = compacted.get(b) ?? b.text_level;
        if (level === b.text_level) return b;
        changed++;
        return { ...b, text_level: level };
      });
      return { blocks: out, outcome: { changed } };
    },
  };
}
