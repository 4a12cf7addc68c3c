import type { ContentBlock } from '@doctree/schema';
import { blockText, hasFlag } from './enhancer-rule.js';

/**
 * Finding table-of-contents pages: pages whose lines end in page numbers, or, under a `Contents` title, whose text
 * runs entry after entry each followed by its page number (a contents list set as one block of text). A page number
 * is a number the document could reach, never a year at the end of a date, so a signature page (`August 17, 2023`
 * after each name) is not a contents page. Pure functions.
 */

/** Options of {@link findTocPages}. */
export interface TocPageOptions {
  /** Share of a page's lines that end in a page number for the page to count as a table of contents. Default 0.4. */
  tocLineShare?: number;
  /** Fewest page references a table-of-contents page has (a contents list has several entries). Default 5. */
  tocMinLines?: number;
  /**
   * Without a contents title, page numbers after entries in running text make a contents page when there are twice
   * `tocMinLines` of them, mostly going up but not one by one (a numbered legend counts 1, 2, 3 …), and at least
   * this many per word. Default 0.05 (one per 20 words).
   */
  inlineReferenceDensity?: number;
}

const DEFAULTS: Required<TocPageOptions> = { tocLineShare: 0.4, tocMinLines: 5, inlineReferenceDensity: 0.05 };

/** Page furniture: never evidence for or against a table-of-contents page (a running `Table of Contents` link is not one). */
const FURNITURE_TYPES = new Set(['header', 'footer', 'page_number', 'aside_text']);
const isFurniture = (b: ContentBlock): boolean => FURNITURE_TYPES.has(b.type) || hasFlag(b, 'repeated_header') || hasFlag(b, 'repeated_footer');

/** A contents title: `Table of Contents`, `Contents`, `Index to Financial Statements`, `Index to the Form 10-K …`. */
const TOC_TITLE = /^\s*(?:table of contents|contents|index to\b[^.]{0,80})\s*$/i;
/** A month name inside a run of letters (`Aug`, `August`). */
const MONTH = /jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec/i;
/**
 * An entry followed by its page number, inside a run of text: `Balance Sheets 7 Condensed …`, `Exhibits 61`. A word
 * starts the match only at its first letter (the lookbehind), so a long run of letters is scanned once, not once per letter.
 */
const INLINE_REFERENCE = /((?<!\p{L})\p{L}+|\))\s+(\d{1,4})(?=\s+[\p{Lu}]|\s*$)/gu;

// The line-end tests below scan backwards from the end of the line, so they take time linear in the line whatever it
// holds (a regex scanning forwards for `(?:\.{3,}|\s{2,}|\t)\s*([0-9]+|[ivxlc]+)\s*$` is cubic in a run of spaces).

const isSpace = (ch: string | undefined): boolean => ch !== undefined && /\s/.test(ch);
const isDigit = (ch: string | undefined): boolean => ch !== undefined && ch >= '0' && ch <= '9';
const isRomanLetter = (ch: string | undefined): boolean => ch !== undefined && /[ivxlc]/i.test(ch);
const isAsciiLetter = (ch: string | undefined): boolean => ch !== undefined && /[a-z]/i.test(ch);

/** Index after the last non-whitespace character at or before `end`. */
function skipSpaceBack(text: string, end: number): number {
  let i = end;
  while (i > 0 && isSpace(text[i - 1])) i--;
  return i;
}

/** Index where the run of characters passing `test` that ends at `end` starts. */
function runStart(text: string, end: number, test: (ch: string | undefined) => boolean): number {
  let i = end;
  while (i > 0 && test(text[i - 1])) i--;
  return i;
}

/**
 * The page number a line ends in, when set off as a contents entry's: after dot leaders (`...`), two spaces or a tab
 * (digits or a roman numeral), or after one space (1–4 digits); trailing whitespace allowed. Same lines and numbers as
 * `/(?:\.{3,}|\s{2,}|\t)\s*([0-9]+|[ivxlc]+)\s*$|\s([0-9]{1,4})\s*$/i`.
 */
function tocLineNumber(line: string): string | undefined {
  const end = skipSpaceBack(line, line.length);
  const last = line[end - 1];
  const test = isDigit(last) ? isDigit : isRomanLetter(last) ? isRomanLetter : undefined;
  if (!test) return undefined;
  const start = runStart(line, end, test);
  const number = line.slice(start, end);
  const spaceStart = skipSpaceBack(line, start);
  const gap = line.slice(spaceStart, start);
  if (gap.length >= 2 || gap.includes('\t') || line.slice(Math.max(0, spaceStart - 3), spaceStart) === '...') return number;
  return gap.length === 1 && test === isDigit && number.length <= 4 ? number : undefined;
}

/**
 * True when the text ends in a date's year: `August 17, 2023`, `Aug. 17 2023` (a month name in the last word before
 * the day) or `…, 2023`; trailing whitespace allowed. Same texts as
 * `/(?:jan|feb|…|dec)[a-z]*\.?\s+\d{1,2},?\s+\d{4}\s*$|,\s*\d{4}\s*$/i`.
 */
function endsInDate(text: string): boolean {
  const end = skipSpaceBack(text, text.length);
  const yearStart = end - 4;
  if (yearStart < 0 || runStart(text, end, isDigit) > yearStart) return false;
  // `…, 2023` (no space needed after the comma)
  const beforeYear = skipSpaceBack(text, yearStart);
  if (text[beforeYear - 1] === ',') return true;
  if (beforeYear === yearStart) return false;
  // `Month[.] D[D][,] 2023`
  const dayEnd = beforeYear;
  const dayStart = runStart(text, dayEnd, isDigit);
  if (dayEnd - dayStart < 1 || dayEnd - dayStart > 2) return false;
  if (runStart(text, dayEnd, isDigit) !== dayStart || dayStart === 0) return false;
  const monthEnd0 = skipSpaceBack(text, dayStart);
  if (monthEnd0 === dayStart) return false;
  const monthEnd = text[monthEnd0 - 1] === '.' ? monthEnd0 - 1 : monthEnd0;
  return MONTH.test(text.slice(runStart(text, monthEnd, isAsciiLetter), monthEnd));
}
/** Words whose number is a label, not a page (`ITEM 1 Business`, `Note 5 Debt`). */
const LABEL_WORDS = new Set(['item', 'part', 'note', 'chapter', 'section', 'article', 'schedule', 'exhibit', 'appendix', 'page', 'pages']);

/** Highest printed page number a document of `pageCount` pages plausibly shows (an excerpt keeps its print numbers). */
function maxPageNumber(pageCount: number): number {
  return Math.max(2 * pageCount, pageCount + 100);
}

/** True when the line ends in a page number of a document of `pageCount` pages (dot leaders, a gap, or a space before it). */
export function isTocLine(line: string, pageCount: number): boolean {
  const number = tocLineNumber(line);
  if (number === undefined || endsInDate(line)) return false;
  return !/^\d+$/.test(number) || Number(number) <= maxPageNumber(pageCount);
}

/**
 * Page numbers that follow entries inside running text, in order (`… Balance Sheets 7 Condensed Consolidated
 * Statements of Equity 8 …` → `[7, 8]`); numbers past the document's reach and numbers of labels (`ITEM 1 Business`)
 * are left out.
 */
export function inlinePageReferences(text: string, pageCount: number): number[] {
  // A reference needs a digit; most lines of a page have none (no regex run over them).
  if (!/\d/.test(text) || endsInDate(text)) return [];
  return [...text.matchAll(INLINE_REFERENCE)]
    .filter((m) => !LABEL_WORDS.has(m[1]!.toLowerCase()))
    .map((m) => Number(m[2]))
    .filter((n) => n >= 1 && n <= maxPageNumber(pageCount));
}

/** True when most steps of the sequence go up or stay (page numbers of a contents list). */
function mostlyAscending(numbers: readonly number[]): boolean {
  let up = 0;
  for (let i = 1; i < numbers.length; i++) if (numbers[i]! >= numbers[i - 1]!) up++;
  return numbers.length > 1 && up >= 0.8 * (numbers.length - 1);
}

/** True when (almost) every step adds one: a counter such as a numbered legend, not page numbers. */
function countsOneByOne(numbers: readonly number[]): boolean {
  let ones = 0;
  for (let i = 1; i < numbers.length; i++) if (numbers[i]! === numbers[i - 1]! + 1) ones++;
  return numbers.length > 1 && ones >= 0.9 * (numbers.length - 1);
}

/** True for a contents title (`Table of Contents`, `Index to the Form 10-K …`) that is not itself an entry with a page number. */
function isContentsTitle(text: string, pageCount: number): boolean {
  return TOC_TITLE.test(text) && !isTocLine(text, pageCount);
}

/**
 * Tables of contents: page (0-based) → index in `blocks` where the contents list starts (its `Contents` title, else
 * the page's first block), so a heading set above the list on the same page (`Item 8. Financial Statements` over an
 * index of the statements) stays a heading. A page is a contents page with at least `tocMinLines` lines ending in page
 * numbers making up `tocLineShare` of its lines (half that share under a `Contents` title), or, under a `Contents`
 * title, at least `tocMinLines` page numbers after entries in running text that mostly go up (without a title: see
 * `inlineReferenceDensity`). Headers and footers never count.
 */
export function findTocPages(blocks: readonly ContentBlock[], pageCount: number, options: TocPageOptions = {}): Map<number, number> {
  const opts = { ...DEFAULTS, ...options };
  const tocPages = new Map<number, number>();
  const byPage = new Map<number, number[]>();
  blocks.forEach((b, i) => {
    if (isFurniture(b)) return;
    const list = byPage.get(b.page_idx);
    if (list) list.push(i);
    else byPage.set(b.page_idx, [i]);
  });
  for (const [page, indices] of byPage) {
    const pageBlocks = indices.map((i) => blocks[i]!);
    const lines = pageBlocks.flatMap((b) => blockText(b).split('\n')).filter((l) => l.trim().length > 0);
    const tocLines = lines.filter((l) => isTocLine(l, pageCount)).length;
    const titleAt = pageBlocks.findIndex((b) => isContentsTitle(blockText(b), pageCount));
    const start = indices[Math.max(0, titleAt)]!;
    const share = lines.length > 0 ? tocLines / lines.length : 0;
    if (tocLines >= opts.tocMinLines && (share >= opts.tocLineShare || (titleAt >= 0 && share >= opts.tocLineShare / 2))) {
      tocPages.set(page, start);
      continue;
    }
    const references = lines.flatMap((l) => inlinePageReferences(l, pageCount));
    if (references.length < opts.tocMinLines || !mostlyAscending(references)) continue;
    const words = lines.reduce((n, l) => n + l.split(/\s+/).length, 0);
    const dense = references.length >= 2 * opts.tocMinLines && references.length >= opts.inlineReferenceDensity * words && !countsOneByOne(references);
    if (titleAt >= 0 || dense) tocPages.set(page, start);
  }
  return tocPages;
}
