import { findYears, type YearOptions } from '@doctree/schema';

/**
 * What a document lacks of a question: the names, years and pages the question asks about that the document never
 * mentions. A question about a company, person, model or year the document does not contain cannot be answered from
 * it, whatever the reader finds; the calibrator declines such questions and says which word is missing.
 */

/** What a document lacks of one question. */
export interface DocumentLacks {
  /** Names the question mentions (lower case): capitalised words past a sentence's first word, product codes, acronyms. */
  names: string[];
  /** Those names the document never contains (also not within one typo of a document word, for names of 5+ letters). */
  missingNames: string[];
  /** Years the question asks about (examples inside quotes or brackets, as in format instructions, left out). */
  years: number[];
  /** Those years the document never writes. */
  missingYears: number[];
  /** 1-based pages the question names that the document does not have. */
  pagesOutOfRange: number[];
}

/** Options of {@link documentLacks}. */
export interface DocumentLacksOptions {
  /** 1-based pages the question names (the question analysis' page references). Default none. */
  pages?: readonly number[];
  /** Pages of the document. Pages are not checked when unknown. */
  pageCount?: number;
  /**
   * Words that are vocabulary, not names (lower case): the domain pack's abbreviations (`EBITDA`, `PP&E`), unit and
   * currency codes. They are looked up with their written-out forms elsewhere, so their absence means nothing.
   */
  notNames?: Iterable<string>;
}

/** Words that start a question or join its parts: capitalised, they are not names. */
const FUNCTION_WORDS = new Set(
  'what which who whom whose when where why how is are was were do does did can could should would will shall may might must according in on for of the a an and or to by from with as at if among between please list give name tell state provide describe explain compare calculate find identify select choose consider assume based answer using about into than that this these those there their its it they we you i not no yes true false directly write return format'.split(
    ' ',
  ),
);

/** Words that name parts of any document: capitalised in questions ("in Table 2"), never a name. */
const DOCUMENT_WORDS = new Set('table figure fig chart graph appendix section chapter page pages slide slides note notes equation exhibit part item step'.split(' '));

/** Currency and unit codes written in capitals: a unit, not a name. */
const UNIT_CODES = new Set('usd eur gbp jpy rmb cny inr chf cad aud hkd sgd krw km kg mb gb tb mhz ghz kw kwh mw'.split(' '));

/** Periods and ordinals written with digits: `FY2018`, `Q3`, `H1`, `1st`, `10K` filings, `2020s`. */
const PERIOD_CODE = /^(?:fy|cy|q[1-4]|h[12]|fy'?)\W?\d*$|^(?:fy|cy|q[1-4]|h[12])\W?'?\d{2,4}$|^\d+(?:st|nd|rd|th|s|k)$/i;

/** Most names of one question checked (a question is short; a hostile one stays bounded). */
const MAX_NAMES = 24;
/** Longest name looked up within one typo (longer ones must match as written). */
const MAX_FUZZY_LENGTH = 40;

const WORD = /[\p{L}\p{N}][\p{L}\p{N}&'’.-]*[\p{L}\p{N}&]|[\p{L}\p{N}]/gu;
/**
 * Years a document writes: 18xx–20xx standing alone, not glued to letters or digits and not part of an amount
 * (`$2019`, `2,019`, `FY2019` are no year here).
 */
const DOCUMENT_YEARS: YearOptions = { since: 1800, boundary: 'number' };
/** Years a question asks about: the document's reading plus two-digit fiscal years (`FY18`, `CY'19`). */
const QUESTION_YEARS: YearOptions = { ...DOCUMENT_YEARS, twoDigit: 'period' };

/** Characters of one slice of a long document's text in {@link DocumentWords.create}. */
const SLICE_CHARS = 65_536;

/**
 * `text` cut into slices of about {@link SLICE_CHARS} characters, each cut where a whitespace run starts: no word, no
 * whitespace run and no surrogate pair is split, so per-slice case mapping and whitespace collapsing give the same text.
 */
function* wholeWordSlices(text: string): Generator<string> {
  for (let start = 0; start < text.length; ) {
    let end = Math.min(text.length, start + SLICE_CHARS);
    while (end < text.length && !(/\s/.test(text[end]!) && !/\s/.test(text[end - 1]!))) end++;
    yield text.slice(start, end);
    start = end;
  }
}

/**
 * A document's words for absence checks, built once per document: its lower-case words (possessives dropped) and the
 * years it writes.
 */
export class DocumentWords {
  readonly #words = new Set<string>();
  readonly #byLength = new Map<number, string[]>();
  readonly #years = new Set<number>();
  #text = '';

  constructor(text: string) {
    for (const _ of this.#build(text)) {
      // built in one go; see DocumentWords.create for a build in slices
    }
  }

  /**
   * Builds the words of a long document in slices: `await pause()` runs between slices of a few thousand words (see
   * `createPause` of the agent), so the event loop is not blocked for long.
   */
  static async create(text: string, pause: () => Promise<void>): Promise<DocumentWords> {
    const words = new DocumentWords('');
    for (const _ of words.#build(text)) await pause();
    return words;
  }

  /** Fills the tables; yields every few thousand words and between slices of a long text. */
  *#build(text: string): Generator<void> {
    // Lower case, straight apostrophes, whitespace runs collapsed — slice by slice (see wholeWordSlices): the same text.
    const normalised: string[] = [' '];
    for (const slice of wholeWordSlices(text)) {
      normalised.push(slice.toLowerCase().replace(/[’]/g, "'").replace(/\s+/g, ' '));
      yield;
    }
    normalised.push(' ');
    this.#text = normalised.join('');
    let count = 0;
    for (const m of this.#text.matchAll(WORD)) {
      const w = m[0].replace(/'s$/, '');
      this.#words.add(w);
      for (const part of w.split(/[.'&-]/)) if (part) this.#words.add(part);
      if (++count % 4096 === 0) yield;
    }
    for (const w of this.#words) {
      const list = this.#byLength.get(w.length);
      if (list) list.push(w);
      else this.#byLength.set(w.length, [w]);
      if (++count % 16_384 === 0) yield;
    }
    yield;
    // A year of the document's reading is four digits with one character of context on either side, never whitespace
    // inside: found slice by slice, the years are those of the whole text.
    for (const slice of wholeWordSlices(text)) {
      for (const year of findYears(slice, DOCUMENT_YEARS)) this.#years.add(year);
      yield;
    }
  }

  /** True when the document writes the word (lower case), or, for words of 5+ letters, a word one edit away. */
  has(word: string): boolean {
    const w = word.toLowerCase().replace(/[’]/g, "'").replace(/'s$/, '');
    if (this.#words.has(w) || this.#text.includes(` ${w} `)) return true;
    if (w.length < 5 || w.length > MAX_FUZZY_LENGTH) return false;
    for (const len of [w.length - 1, w.length, w.length + 1]) for (const candidate of this.#byLength.get(len) ?? []) if (withinOneEdit(w, candidate)) return true;
    return false;
  }

  /** True when the document writes the year. */
  hasYear(year: number): boolean {
    return this.#years.has(year);
  }
}

/** Levenshtein distance ≤ 1 (one insertion, deletion or substitution). */
function withinOneEdit(a: string, b: string): boolean {
  if (a === b) return true;
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  let j = 0;
  let edits = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      i++;
      j++;
      continue;
    }
    if (++edits > 1) return false;
    if (a.length > b.length) i++;
    else if (b.length > a.length) j++;
    else {
      i++;
      j++;
    }
  }
  return edits + (a.length - i) + (b.length - j) <= 1;
}

/** The question without quoted or bracketed examples (`Format the years like ['2006', '2007']`). */
function withoutExamples(question: string): string {
  return question.replace(/\[[^\]]{0,400}\]|"[^"]{0,200}"|“[^”]{0,200}”|(?<![\p{L}])'[^']{0,200}'(?![\p{L}])/gu, ' ');
}

/**
 * The names a question mentions (lower case, possessives dropped): capitalised words past the first word of a
 * sentence and tokens mixing letters and digits (model numbers, product codes), without function words, words naming
 * document parts (`Table`), periods (`FY2018`, `Q3`, `1st`), unit codes and the given vocabulary.
 */
export function namesIn(question: string, notNames: ReadonlySet<string> = new Set()): string[] {
  const names: string[] = [];
  for (const sentence of withoutExamples(question).split(/[.?!;:]\s+|\n/)) {
    const words = sentence.match(WORD) ?? [];
    words.forEach((raw, i) => {
      const word = raw.replace(/['’]s$/, '');
      const lower = word.toLowerCase();
      if (FUNCTION_WORDS.has(lower) || DOCUMENT_WORDS.has(lower) || UNIT_CODES.has(lower) || notNames.has(lower)) return;
      if (/^\d+([.,]\d+)*$/.test(word) || PERIOD_CODE.test(word)) return;
      const capitalised = i > 0 && /^\p{Lu}/u.test(word);
      const code = /\p{L}/u.test(word) && /\d/.test(word);
      if ((capitalised || code) && !names.includes(lower) && names.length < MAX_NAMES) names.push(lower);
    });
  }
  return names;
}

/**
 * The years a question asks about (18xx–20xx, `FY18`), examples in quotes or brackets left out. `FY2018` is read as
 * the document's words are (no year): both sides must agree for the absence check.
 */
export function yearsIn(question: string): number[] {
  return findYears(withoutExamples(question), QUESTION_YEARS);
}

/**
 * What the document lacks of the question: the names and years it asks about that the document never writes, and the
 * pages it names beyond the document's end.
 *
 * @example
 * ```ts
 * const words = new DocumentWords('Northwind opened the X-200 plant in 2021.');
 * documentLacks('What did Contoso report for the X-200 in 2023?', words);
 * // { names: ['contoso', 'x-200'], missingNames: ['contoso'], years: [2023], missingYears: [2023], pagesOutOfRange: [] }
 * ```
 */
export function documentLacks(question: string, words: DocumentWords, options: DocumentLacksOptions = {}): DocumentLacks {
  const notNames = new Set([...(options.notNames ?? [])].map((w) => w.toLowerCase()));
  const names = namesIn(question, notNames);
  const years = yearsIn(question);
  const pageCount = options.pageCount;
  return {
    names,
    missingNames: names.filter((n) => !words.has(n)),
    years,
    missingYears: years.filter((y) => !words.hasYear(y)),
    pagesOutOfRange: pageCount === undefined ? [] : [...new Set(options.pages ?? [])].filter((p) => p < 1 || p > pageCount),
  };
}
