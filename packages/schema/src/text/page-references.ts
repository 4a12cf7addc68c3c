import { numberWordSource, numberWordValue } from './number-words.js';
import { ordinalValue, ordinalWordSource } from './ordinals.js';

/**
 * Pages a question names: `page 5`, `p. 5`, `pages 3-5`, `pp. 3–4`, `pages 2 and 7`, `the 5th page`, `the second page`,
 * `the last page`, and with options `slide 4`, `page five`, `page iv`, `page F-3`, `the cover page`, `the penultimate
 * page`. The one page-reference reader of DocTree (the question analysis and the page-locator lane). Ranges expand
 * (at most 50 pages); pages are 1-based as people write them.
 */

/** One page reference found in a text. */
export interface PageReference {
  /** How the page was named: a number, an ordinal (`the second page`, `the cover page`), from the end, or a printed page label (`page iv`, `F-3`). */
  kind: 'number' | 'ordinal' | 'last' | 'label';
  /** 1-based page for `number` / `ordinal`; absent for `last` (the page count is needed) and `label`. */
  page?: number;
  /** For `last`: pages before the last one (0: the last page, 1: the second to last). */
  fromEnd?: number;
  /** Printed label for `label` (and for numbers, which may also be printed labels). */
  label?: string;
  /** Text that named it. */
  text: string;
}

/** What {@link findPageReferences} reads. */
export interface PageReferenceOptions {
  /**
   * Nouns that name a page: `pages` — `page(s)`, `p.`, `pp.` (default); `pages-and-slides` — also `pg.`, `slide(s)`,
   * `page no.` / `number` / `#`, and `slide` after ordinals and `last`.
   */
  nouns?: 'pages' | 'pages-and-slides';
  /** Spelled-out page numbers (`page five`, `pages two to four`); default false. */
  numberWords?: boolean;
  /** Printed page labels: Roman numerals (`page iv`) and lettered pages (`page F-3`); default false. */
  labels?: boolean;
  /** The cover (`cover` / `front` / `title page` → page 1), the back (`back page`, `back cover`) and the second to last page (`penultimate page`); default false. */
  coverAndBack?: boolean;
  /** Largest ordinal word read (`tenth` with 10); default 20. */
  maxOrdinalWord?: number;
  /** Digit ordinals: `any` suffix (`3th`) or only the right one (`3rd`), as {@link ordinalValue} reads them; default `any`. */
  ordinalDigits?: 'any' | 'strict';
}

/** Longest range expanded (`pages 3-53`); a longer one keeps its two ends. */
const MAX_RANGE = 50;
const RANGE_SEPARATORS = new Set(['-', '–', '—', 'to', 'through', 'thru']);

interface CompiledPagePatterns {
  list: RegExp;
  token: RegExp;
  ordinal: RegExp;
  penultimate?: RegExp;
  last: RegExp;
  cover?: RegExp;
}

const COMPILED = new Map<string, CompiledPagePatterns>();

function patternsFor(o: Required<PageReferenceOptions>): CompiledPagePatterns {
  const key = JSON.stringify(o);
  const cached = COMPILED.get(key);
  if (cached) return cached;
  const slides = o.nouns === 'pages-and-slides';
  const items = ['[0-9]{1,5}', ...(o.labels ? ['[A-Z]{1,3}-[0-9]+', '[ivxlc]+'] : []), ...(o.numberWords ? [numberWordSource(1, 20)] : [])].join('|');
  const separator = ',|and|&|or|to|through|thru|-|–|—';
  const noun = slides ? '(?:(?:pages?|pg\\.?|slides?)\\s*(?:no\\.?|number|#)?|pp?\\.)' : '(?:pages?|pp?\\.)';
  const single = slides ? '(?:page|slide)' : 'page';
  const compiled: CompiledPagePatterns = {
    list: new RegExp(`\\b${noun}\\s*((?:${items})\\b(?:\\s*(?:${separator})\\s*(?:${items})\\b)*)`, 'gi'),
    token: new RegExp(`(${items})\\b|(${separator})`, 'gi'),
    ordinal: new RegExp(`\\b(${ordinalWordSource(o.maxOrdinalWord)}|[0-9]+(?:st|nd|rd|th))\\s+${single}${slides ? 's?' : ''}\\b`, 'gi'),
    last: new RegExp(`\\b(?:last|final${o.coverAndBack ? '|back' : ''})\\s+${single}\\b${o.coverAndBack ? '|\\bback\\s+cover\\b' : ''}`, 'gi'),
    ...(o.coverAndBack
      ? {
          penultimate: new RegExp(`\\b(?:second|2nd)[\\s-]+(?:to[\\s-]+)?last\\s+${single}\\b|\\bpenultimate\\s+${single}\\b`, 'gi'),
          cover: new RegExp(`\\b(?:cover|front|title)\\s+${single}\\b`, 'gi'),
        }
      : {}),
  };
  COMPILED.set(key, compiled);
  return compiled;
}

/**
 * Page references in a text (a question), each once, in the order of the kinds above. Numbers below 1 are left out.
 *
 * @example
 * ```ts
 * findPageReferences('Compare pages 3-5 with the last page').map((r) => r.page ?? r.kind); // [3, 4, 5, 'last']
 * findPageReferences('What does slide five show?', { nouns: 'pages-and-slides', numberWords: true }); // [{ kind: 'number', page: 5, … }]
 * ```
 */
export function findPageReferences(text: string, options: PageReferenceOptions = {}): PageReference[] {
  const o: Required<PageReferenceOptions> = { nouns: 'pages', numberWords: false, labels: false, coverAndBack: false, maxOrdinalWord: 20, ordinalDigits: 'any', ...options };
  const patterns = patternsFor(o);
  const out: PageReference[] = [];
  const push = (ref: PageReference): void => {
    if (!out.some((r) => r.kind === ref.kind && r.page === ref.page && r.label === ref.label && r.fromEnd === ref.fromEnd)) out.push(ref);
  };
  for (const m of text.matchAll(patterns.list)) {
    let previous: number | undefined;
    let rangeFrom: number | undefined;
    for (const t of m[1]!.matchAll(patterns.token)) {
      if (t[2] !== undefined) {
        if (RANGE_SEPARATORS.has(t[2].toLowerCase())) rangeFrom = previous;
        continue;
      }
      const item = t[1]!;
      const n = /^[0-9]+$/.test(item) ? Number(item) : numberWordValue(item);
      if (n === undefined) {
        // A printed label: a Roman numeral or a lettered page.
        if (/^[ivxlc]+$/i.test(item) ? romanValue(item) !== undefined : /^[A-Z]{1,3}-[0-9]+$/i.test(item)) push({ kind: 'label', label: item, text: m[0] });
        previous = rangeFrom = undefined;
        continue;
      }
      const from = rangeFrom !== undefined && n > rangeFrom && n - rangeFrom <= MAX_RANGE ? rangeFrom + 1 : n;
      for (let p = from; p <= n; p++) if (p >= 1) push({ kind: 'number', page: p, label: String(p), text: m[0] });
      previous = n;
      rangeFrom = undefined;
    }
  }
  for (const m of text.matchAll(patterns.ordinal)) {
    const page = ordinalValue(m[1]!, { maxWord: o.maxOrdinalWord, digits: o.ordinalDigits });
    if (page !== undefined && page >= 1) push({ kind: 'ordinal', page, text: m[0] });
  }
  if (patterns.cover) for (const m of text.matchAll(patterns.cover)) push({ kind: 'ordinal', page: 1, text: m[0] });
  const penultimate = patterns.penultimate ? [...text.matchAll(patterns.penultimate)] : [];
  for (const m of penultimate) push({ kind: 'last', fromEnd: 1, text: m[0] });
  // "The second to last page" names one page, not also the last one.
  if (penultimate.length === 0) for (const m of text.matchAll(patterns.last)) push({ kind: 'last', fromEnd: 0, text: m[0] });
  return out;
}

const ROMAN: ReadonlyMap<string, number> = new Map([
  ['i', 1],
  ['v', 5],
  ['x', 10],
  ['l', 50],
  ['c', 100],
]);

/**
 * Value of a Roman numeral (`iv` → 4, any case), or undefined when it is not one (up to 399).
 *
 * @example
 * ```ts
 * romanValue('XIV'); // 14
 * romanValue('civil'); // undefined
 * ```
 */
export function romanValue(text: string): number | undefined {
  const s = text.toLowerCase();
  if (!/^(c{0,3})(xc|xl|l?x{0,3})(ix|iv|v?i{0,3})$/.test(s) || s.length === 0) return undefined;
  let total = 0;
  for (let i = 0; i < s.length; i++) {
    const v = ROMAN.get(s[i]!)!;
    const next = ROMAN.get(s[i + 1] ?? '') ?? 0;
    total += v < next ? -v : v;
  }
  return total;
}
