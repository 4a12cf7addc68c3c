import fc from 'fast-check';
import type { ContentBlock } from '@doctree/schema';
import { BlockFactory, contentList } from '../__fixtures__/content-blocks.js';
import { enhanceContentList } from './enhance-content-list.js';
import { repairSplitWords, WordCounts } from './split-word-repair.js';
import { repairWhitespace } from './text-repair.js';
import { findTocPages, inlinePageReferences, isTocLine } from './toc-pages.js';

// Linear, not quadratic: each bound is a multiple of a linear reference pass over a million characters, measured in
// the same run (so a loaded machine slows both), with a floor of 5 s. Before the fix a 400k-letter word took 77 s in the
// enhancer, thousands of times the reference; a linear path stays within a few dozen.
const REFERENCE_MS = ((): number => {
  const text = 'ab '.repeat(333_334);
  const start = Date.now();
  for (let i = 0; i < 3; i++) text.replace(/\s+/g, ' ').split(' ').join('-').toUpperCase();
  return Date.now() - start;
})();
const FAST_MS = Math.max(5000, 200 * REFERENCE_MS);

const timed = <T>(run: () => T): { result: T; ms: number } => {
  const start = Date.now();
  const result = run();
  return { result, ms: Date.now() - start };
};

/** The line-end regexes the linear scans replaced: the reference for their results on short lines. */
const OLD_TOC_LINE = /(?:\.{3,}|\s{2,}|\t)\s*([0-9]+|[ivxlc]+)\s*$|\s([0-9]{1,4})\s*$/i;
const OLD_DATE_END = /(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2},?\s+\d{4}\s*$|,\s*\d{4}\s*$/i;
const OLD_INLINE_REFERENCE = /(\p{L}+|\))\s+(\d{1,4})(?=\s+[\p{Lu}]|\s*$)/gu;
const OLD_LABEL_WORDS = new Set(['item', 'part', 'note', 'chapter', 'section', 'article', 'schedule', 'exhibit', 'appendix', 'page', 'pages']);

function oldIsTocLine(line: string, pageCount: number): boolean {
  const match = OLD_TOC_LINE.exec(line);
  if (!match || OLD_DATE_END.test(line)) return false;
  const number = match[1] ?? match[2]!;
  return !/^\d+$/.test(number) || Number(number) <= Math.max(2 * pageCount, pageCount + 100);
}

function oldInlinePageReferences(text: string, pageCount: number): number[] {
  if (OLD_DATE_END.test(text)) return [];
  return [...text.matchAll(OLD_INLINE_REFERENCE)]
    .filter((m) => !OLD_LABEL_WORDS.has(m[1]!.toLowerCase()))
    .map((m) => Number(m[2]))
    .filter((n) => n >= 1 && n <= Math.max(2 * pageCount, pageCount + 100));
}

/** Short lines built from the pieces contents lines and dates are made of, so the oracle comparison hits both outcomes. */
const tocish = fc
  .array(
    fc.constantFrom(' ', '  ', '\t', '.', '...', ',', '7', '12', '2023', '123456', 'iv', 'XII', 'civic', 'Aug', 'August', 'aug.', 'Dec', 'Sales', 'Notes', ')', 'é', '\u00a0', 'a1'),
    { maxLength: 12 },
  )
  .map((parts) => parts.join(''));

/** Strings with long runs, RTL text, combining marks and Object.prototype names mixed in. */
const hostile = fc.oneof(
  fc.string({ maxLength: 200 }),
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.tuple(fc.constantFrom('a', 'I', '1', ' ', '.', '-', '\t', '\n', 'ب', 'ש', '\u0301', 'janmar'), fc.integer({ min: 1, max: 20_000 })).map(([c, n]) => c.repeat(n)),
  fc.array(fc.constantFrom('constructor', '__proto__', 'toString', 'hasOwnProperty', 'مرحبا', 'שלום', 'e\u0301', 'PART', 'II', 'I', '7', '...', '  '), { maxLength: 40 }).map((w) => w.join(' ')),
);

describe('enhancer text paths on long runs', () => {
  it('runs a 1,000,000-letter word through the whole enhancer in linear time', () => {
    const f = new BlockFactory();
    const word = 'a'.repeat(1_000_000);
    const blocks: ContentBlock[] = [f.title('Contents', 1, 0), f.text(word, 0), f.text(`Sales ${word} 7`, 1), f.text('Notes 12', 1)];
    const { result, ms } = timed(() => enhanceContentList(contentList(blocks, 2)));
    expect(result.list.blocks).toHaveLength(4);
    expect(result.list.blocks.some((b) => 'text' in b && b.text === word)).toBe(true);
    expect(ms).toBeLessThan(FAST_MS);
  });

  it('keeps each text function linear on a million characters of letters, spaces, dots, digits or roman numerals', () => {
    const counts = new WordCounts();
    for (const run of ['a'.repeat(1_000_000), `x${' '.repeat(1_000_000)}y`, '.'.repeat(1_000_000), '1'.repeat(1_000_000), 'iv'.repeat(500_000), 'mar'.repeat(333_333), 'I '.repeat(500_000)]) {
      const { ms } = timed(() => {
        expect(isTocLine(run, 10)).toEqual(expect.any(Boolean));
        expect(inlinePageReferences(run, 10)).toEqual(expect.any(Array));
        counts.add(run);
        expect(typeof repairSplitWords(run, counts)).toBe('string');
        expect(typeof repairWhitespace(run)).toBe('string');
      });
      expect(ms).toBeLessThan(FAST_MS);
    }
  });

  it('joins a roman division number as before (`PART II I` → `PART III`) without scanning the whole prefix', () => {
    const counts = new WordCounts();
    expect(repairSplitWords('PART II I', counts)).toBe('PART III');
    expect(repairSplitWords('See Part\t II I here', counts)).toBe('See Part\t III here');
    expect(repairSplitWords('Schedule II I', counts)).toBe('Schedule III');
    expect(repairSplitWords('Table II I', counts)).toBe('Table II I');
    expect(repairSplitWords('apart II I', counts)).toBe('apart II I');
  });

  it('finds the same contents lines and page numbers as the regexes it replaced', () => {
    fc.assert(
      fc.property(tocish, fc.integer({ min: 0, max: 300 }), (line, pages) => {
        expect(isTocLine(line, pages)).toBe(oldIsTocLine(line, pages));
        expect(inlinePageReferences(line, pages)).toEqual(oldInlinePageReferences(line, pages));
      }),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), fc.integer({ min: 0, max: 300 }), (line, pages) => {
        expect(isTocLine(line, pages)).toBe(oldIsTocLine(line, pages));
        expect(inlinePageReferences(line, pages)).toEqual(oldInlinePageReferences(line, pages));
      }),
      { numRuns: 500 },
    );
  });

  it('never throws and stays fast on hostile text (random, long runs, RTL, combining marks, prototype names)', () => {
    fc.assert(
      fc.property(hostile, (text) => {
        const { ms } = timed(() => {
          const counts = new WordCounts();
          counts.add(text);
          repairSplitWords(text, counts);
          repairWhitespace(text);
          isTocLine(text, 5);
          inlinePageReferences(text, 5);
          const f = new BlockFactory();
          findTocPages([f.title('Contents', 1, 0), f.text(text, 0)], 1);
        });
        expect(ms).toBeLessThan(FAST_MS);
      }),
      { numRuns: 200 },
    );
  });
});
