import type { ContentBlock } from '@doctree/schema';
import { headingNumbering } from '../pdf/pdf-patterns.js';
import type { EnhancerRule } from './enhancer-rule.js';

/**
 * Split-word repair: some PDF producers draw a word in two runs with a space-wide gap between them
 * (`Busines s.`, `Balance Shee t`, `OVERVI EW`, `PART II I`). The geometry is that of a real space, so
 * pdf.js and pdftotext both print one; the document's own vocabulary tells the split apart: the joined
 * word is used elsewhere in the document while a piece is not a word of it.
 */

/** Options of {@link splitWordRepairRule}. */
export interface SplitWordRepairOptions {
  /** Times the joined word must occur whole elsewhere in the document. Default 2. */
  minJoinedCount?: number;
  /** A piece seen at most this many times on its own counts as a fragment, not a word. Default 2. */
  maxFragmentCount?: number;
}

const DEFAULTS: Required<SplitWordRepairOptions> = { minJoinedCount: 2, maxFragmentCount: 2 };

/** Short words that are words however rare they are in one document. */
const COMMON_WORDS = new Set(
  'a an as at be by do go he if in is it me my no of on or so to up us we am are was were has had have not but for and the our its his her all any can may new one two per via off out own you'.split(' '),
);

/** Words (letters with inner apostrophes: `Company’s` is one word) with their positions. */
const WORD = /[A-Za-z]+(?:['’][A-Za-z]+)*/g;

/** A valid roman numeral up to 39 (`III`, `IV`, `XII`). */
const ROMAN = /^X{0,3}(?:IX|IV|V?I{0,3})$/;
/** Words a roman division number follows: `PART II I` is `PART III`. */
const DIVISION_WORD = /(?:^|\s)(?:part|item|article|chapter|section|schedule|appendix|volume|book|title)$/i;
/** Longest division word plus the whitespace before it. */
const DIVISION_WORD_REACH = 9;

/**
 * True when a division word and whitespace come right before `index` (`PART ` before `II`). Looks only at the few
 * characters before the word, so a text with many roman pieces takes linear time (a `\s+$` regex over the whole
 * prefix at every piece is quadratic).
 */
function followsDivisionWord(text: string, index: number): boolean {
  let end = index;
  while (end > 0 && /\s/.test(text[end - 1]!)) end--;
  return end < index && DIVISION_WORD.test(text.slice(Math.max(0, end - DIVISION_WORD_REACH), end));
}

/** Word counts of a document (lower case, apostrophes kept). */
export class WordCounts {
  private readonly counts = new Map<string, number>();

  /** Counts the words of one text. */
  add(text: string): void {
    for (const match of text.matchAll(WORD)) {
      const word = normalise(match[0]);
      this.counts.set(word, (this.counts.get(word) ?? 0) + 1);
    }
  }

  /** Occurrences of a word (any case). */
  count(word: string): number {
    return this.counts.get(normalise(word)) ?? 0;
  }
}

/** Lower case with the typographic apostrophe read as `'` (most words have none: the replace is skipped). */
const normalise = (word: string): string => {
  const lower = word.toLowerCase();
  return lower.includes('’') ? lower.replace(/’/g, "'") : lower;
};

/**
 * Letter case of a piece of ASCII letters (what {@link WORD} matches, apostrophes aside): upper, lower or mixed
 * (`Busines`). The same as comparing the piece with its upper- and lower-case forms, without making them.
 */
function caseOf(piece: string): 'upper' | 'lower' | 'mixed' {
  let upper = false;
  let lower = false;
  for (let i = 0; i < piece.length; i++) {
    const c = piece.charCodeAt(i);
    if (c >= 65 && c <= 90) upper = true;
    else if (c >= 97 && c <= 122) lower = true;
  }
  return !lower ? 'upper' : !upper ? 'lower' : 'mixed';
}

/**
 * Joins words split by a spurious space in `text`, using document word counts: `left right` becomes
 * one word when the letter case continues across the gap (`Busines s`, `OVERVI EW`, not `the Re`),
 * the left piece is not a common short word (`a cross`, `in come` stay), the joined word occurs whole
 * at least `minJoinedCount` times, and one piece is a fragment: a single letter other than `a` / `I` /
 * `A` after a word, or a piece seen on its own at most `maxFragmentCount` times that is not a common
 * short word. Roman division numbers join after `PART`, `Item`, `Article`…
 * (`PART II I` → `PART III`), and a possessive split after its apostrophe closes up (`Registrant’ s`).
 */
export function repairSplitWords(text: string, counts: WordCounts, options: SplitWordRepairOptions = {}): string {
  const opts = { ...DEFAULTS, ...options };
  const words = [...text.matchAll(WORD)];
  const drop = new Set<number>();
  for (let i = 0; i + 1 < words.length; i++) {
    const current = words[i]!;
    const next = words[i + 1]!;
    const left = current[0];
    const right = next[0];
    const gap = current.index + left.length;
    // Exactly one space between the pieces, and nothing glued to either end (`4D`, `e-mail`, `2.5x`).
    if (next.index !== gap + 1 || text[gap] !== ' ') continue;
    const before = text[current.index - 1] ?? ' ';
    const after = text[next.index + right.length] ?? ' ';
    if (/[\p{N}_-]/u.test(before) || /[\p{N}_-]/u.test(after)) continue;
    if (!joins(left, right, text, current.index, counts, opts)) continue;
    drop.add(gap);
    i++; // one join per pair: `a b c` never becomes `abc`
  }
  let out = '';
  if (drop.size === 0) out = text;
  else for (let i = 0; i < text.length; i++) if (!drop.has(i)) out += text[i];
  // A possessive split after its apostrophe: `Registrant’ s Common Equity` (only a text with an apostrophe can hold one).
  if (!out.includes('’') && !out.includes("'")) return out;
  return out.replace(/(\p{L})([’'])\s(s)(?=[\s,.;:)]|$)/gu, '$1$2$3');
}

function joins(left: string, right: string, text: string, index: number, counts: WordCounts, opts: Required<SplitWordRepairOptions>): boolean {
  if (/['’]/.test(left) || /['’]/.test(right)) return false;
  const leftCase = caseOf(left);
  const rightCase = caseOf(right);
  // The case must run on: `Busines s`, `OVERVI EW`, `Informatio n`; never `word Word`. Checked before the roman
  // numerals below, which it never rejects (roman pieces are upper case both), since it turns most pairs away.
  const continues = leftCase === 'upper' ? rightCase === 'upper' : rightCase === 'lower';
  if (!continues) return false;
  // Roman numerals join only as a division number (`PART II I`), never by counts (`Schedule II I`).
  if (ROMAN.test(left) && ROMAN.test(right)) return ROMAN.test(left + right) && followsDivisionWord(text, index);
  if (COMMON_WORDS.has(left.toLowerCase())) return false;
  if (counts.count(left + right) < opts.minJoinedCount) return false;
  const fragment = (piece: string): boolean => piece.length >= 2 && !COMMON_WORDS.has(piece.toLowerCase()) && counts.count(piece) <= opts.maxFragmentCount;
  // A lone letter after a word (`Flow s`, `Director s`); `a` only after a fragment (`Dat a`).
  const single = right.length === 1 && (!['a', 'A', 'I'].includes(right) || fragment(left));
  return single || fragment(left) || fragment(right);
}

/** Texts of a block the rule reads and repairs. */
function textsOf(block: ContentBlock): string[] {
  if (block.type === 'list') return block.list_items;
  if ('text' in block && typeof block.text === 'string') return [block.text];
  if (block.type === 'table') return [block.markdown ?? '', ...block.table_caption];
  return [];
}

/**
 * The split-word repair rule (see {@link repairSplitWords}): counts the words of every text block, list and
 * table in the document, then repairs titles (and their numbering), text and list items.
 */
export function splitWordRepairRule(options: SplitWordRepairOptions = {}): EnhancerRule {
  return {
    name: 'split-word-repair',
    apply(blocks: ContentBlock[]) {
      const counts = new WordCounts();
      for (const block of blocks) for (const text of textsOf(block)) counts.add(text);
      let changed = 0;
      const out = blocks.map((block): ContentBlock => {
        if (block.type === 'list') {
          const items = block.list_items.map((item) => repairSplitWords(item, counts, options));
          if (items.every((item, i) => item === block.list_items[i])) return block;
          changed++;
          return { ...block, list_items: items };
        }
        if (block.type === 'table' || !('text' in block) || typeof block.text !== 'string') return block;
        const text = repairSplitWords(block.text, counts, options);
        if (text === block.text) return block;
        changed++;
        if (block.type === 'title' && block.numbering !== undefined) {
          // `PART II I` was numbered `PART II`; the repaired title is `PART III`.
          const numbering = headingNumbering(text)?.text ?? block.numbering;
          return { ...block, text, numbering };
        }
        return { ...block, text } as ContentBlock;
      });
      return { blocks: out, outcome: { changed } };
    },
  };
}
