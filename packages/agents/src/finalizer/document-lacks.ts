import { escapeRegExp, findPageReferences, findYears, monthNumber, monthWordSource, type YearOptions } from '@doctree/schema';

import { DocumentParts, partsIn, withoutPartMentions, type PartLabel } from './document-parts.js';

/**
 * What a document lacks of a question: the names, multi-word names, years, numbers, labelled parts (`Figure 7`) and
 * pages the question asks about that the document never mentions. A question about a company, person, model, year or
 * figure the document does not contain cannot be answered from it, whatever the reader finds; the calibrator declines
 * such questions and says what is missing.
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
  /** Labelled parts the question names (`Figure 7`, `Table IV`, `Section 3.2`, `Appendix C`). */
  parts: string[];
  /** Those parts the document never labels, of kinds it does label (a document without any `Figure N` is not read as lacking Figure 7). */
  missingParts: string[];
  /** Names of two or more capitalised words the question mentions (`Northwind Trading Company`, lower case). */
  phrases: string[];
  /** Those the document never writes together, although it writes each of their words. */
  missingPhrases: string[];
  /** Dates of a month the question names (`May 2018`, `September 30, 2013`, `1 July 2022`), as `2018-05`. */
  dates: string[];
  /** Those months of those years the document never writes (in words or digits: `May 1, 2018`, `2018-05`, `05/2018`). */
  missingDates: string[];
  /** Numbers the question quotes (not years, page or part labels, small counts; lower case, commas dropped). */
  numbers: string[];
  /** Those numbers the document never writes (also not in thousands, millions or billions). */
  missingNumbers: string[];
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

/** Most names (and multi-word names, and numbers) of one question checked (a question is short; a hostile one stays bounded). */
const MAX_NAMES = 24;
/** Most words of one multi-word name (a longer run of capitalised words is a title, not a name). */
const MAX_PHRASE_WORDS = 8;
/**
 * What may stand between two words of a multi-word name in the document's text: punctuation and spaces, or — across a
 * table's cell boundary (`|`), where a wrapped header cell's next line follows the other cells of its row — up to
 * {@link TABLE_WRAP_CHARS} characters of other cells.
 */
const TABLE_WRAP_CHARS = 160;
const PHRASE_SEPARATOR = `(?:[^\\p{L}\\p{N}&'|]+|[^\\p{L}\\p{N}&']*\\|[^]{0,${TABLE_WRAP_CHARS}}?\\|[^\\p{L}\\p{N}&'|]*)`;
/** Lower-case particles inside names (`Department of Energy`, `Procter & Gamble`, `Banco de España`, `Ludwig van Beethoven`). */
const NAME_PARTICLES = new Set(['of', '&', 'de', 'da', 'di', 'del', 'della', 'der', 'den', 'du', 'la', 'le', 'van', 'von']);
/** Counts and sizes up to this are how a question shapes its answer (`top 3`, `2 decimal places`), not values it quotes. */
const SMALL_COUNT = 12;
/** Date and time format masks (`YYYY-MM-DD`, `hh:mm`): how an answer is written, not a name. */
const FORMAT_MASK = /^(?:y{2,4}|m{1,2}|d{1,2}|h{1,2}|s{1,2})(?:[-/:.](?:y{2,4}|m{1,2}|d{1,2}|h{1,2}|s{1,2}))+$/i;
/** Any month word (`March`, `Sept`), from the schema's month vocabulary. */
const MONTH_SOURCE = monthWordSource();
/** A day of a month: `30`, `1st`. */
const DAY = '\\d{1,2}(?:st|nd|rd|th)?';
/** A date a question names: `May 2018`, `May 1, 2018`, `March 2 - March 9 2021`, `1 July 2022`. */
const QUESTION_DATE = new RegExp(`(?<![\\p{L}])(?:(${MONTH_SOURCE})\\.?\\s+(?:${DAY},?\\s+)?|${DAY}\\s+(${MONTH_SOURCE})\\.?,?\\s+)((?:18|19|20)\\d{2})(?!\\d)`, 'giu');
/** Numbers as written: `1,577`, `10.6`, `700000` (commas of thousands dropped when read). */
const NUMBER = /(?<![\p{L}\p{N}.,]|\p{L}-)(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?/gu;
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
/** Characters of the previous slice read again with the next one for labels (`Figure` / `7` split between slices). */
const LABEL_OVERLAP = 48;

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
 * A document's words for absence checks, built once per document: its lower-case words (possessives dropped), which
 * of them it writes capitalised (names), the years and numbers it writes and the parts it labels.
 */
export class DocumentWords {
  readonly #words = new Set<string>();
  readonly #byLength = new Map<number, string[]>();
  readonly #years = new Set<number>();
  readonly #numbers = new Set<string>();
  /** Per word: times written capitalised past a sentence's first word minus times written in lower case. */
  readonly #capitals = new Map<string, number>();
  /** Words written in lower case at least once. */
  readonly #lower = new Set<string>();
  readonly #parts = new DocumentParts();
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
    let count = 0;
    let tail = '';
    for (const slice of wholeWordSlices(text)) {
      const lower = slice.toLowerCase().replace(/[’]/g, "'");
      normalised.push(lower.replace(/\s+/g, ' '));
      // Words are read from the slice as written (no word is split between slices), so capitals are counted too: a
      // capital counts past a sentence's or a line's first word only (`Being the first…` makes no name of `being`).
      // Lower-case mapping keeps the length of almost every text; when it does not, words are lower-cased one by one.
      const aligned = lower.length === slice.length;
      let end = 0;
      for (const m of slice.matchAll(WORD)) {
        const raw = aligned ? lower.slice(m.index, m.index + m[0].length) : m[0].toLowerCase().replace(/[’]/g, "'");
        const w = raw.endsWith("'s") ? raw.slice(0, -2) : raw;
        this.#words.add(w);
        if (/[.'&-]/.test(w)) for (const part of w.split(/[.'&-]/)) if (part) this.#words.add(part);
        const upper = capitalised(m[0], raw);
        if (upper === true) {
          if (end > 0 && !opensSentence(slice, end, m.index)) this.#capitals.set(w, (this.#capitals.get(w) ?? 0) + 1);
        } else if (upper === false) {
          this.#capitals.set(w, (this.#capitals.get(w) ?? 0) - 1);
          this.#lower.add(w);
        }
        end = m.index + m[0].length;
        if (++count % 4096 === 0) yield;
      }
      for (const m of slice.matchAll(NUMBER)) this.#numbers.add(numberKey(m[0]));
      this.#parts.add(tail + slice);
      tail = slice.slice(-LABEL_OVERLAP);
      yield;
    }
    normalised.push(' ');
    this.#text = normalised.join('');
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

  /**
   * True when the document writes the word (lower case), or, for words of 5+ letters, a word one edit away that the
   * document writes as a name (capitalised more often than not: `Nortwind` finds `Northwind`, `Beling` no `being`).
   */
  has(word: string): boolean {
    const w = word.toLowerCase().replace(/[’]/g, "'").replace(/'s$/, '');
    if (this.#words.has(w) || this.#text.includes(` ${w} `)) return true;
    // The singular or plural of a word the document writes (`Widgets` for `widget`).
    if (this.#words.has(`${w}s`) || (w.length > 3 && w.endsWith('s') && this.#words.has(w.slice(0, -1)))) return true;
    if (w.length < 5 || w.length > MAX_FUZZY_LENGTH) return false;
    for (const len of [w.length - 1, w.length, w.length + 1]) for (const candidate of this.#byLength.get(len) ?? []) if (this.#isName(candidate) && withinOneEdit(w, candidate)) return true;
    return false;
  }

  /** A name of the document: capitalised past a sentence's first word more often than written in lower case, or never in lower case. */
  #isName(w: string): boolean {
    return (this.#capitals.get(w) ?? 0) > 0 || (!this.#lower.has(w) && this.#words.has(w) && /\p{L}/u.test(w));
  }

  /** True when the document writes the word as it is (or its singular or plural), no typo allowed. */
  writes(word: string): boolean {
    const w = word.toLowerCase().replace(/[’]/g, "'").replace(/'s$/, '');
    return this.#words.has(w) || this.#words.has(`${w}s`) || (w.length > 3 && w.endsWith('s') && this.#words.has(w.slice(0, -1)));
  }

  /** True when the document writes the word (or its singular or plural) capitalised more often than in lower case: a name of the document. */
  writesAsName(word: string): boolean {
    const w = word.toLowerCase().replace(/[’]/g, "'").replace(/'s$/, '');
    const plural = w.length > 3 && w.endsWith('s') ? w.slice(0, -1) : `${w}s`;
    return this.#isName(w) || this.#isName(plural) || (this.#capitals.get(w) ?? 0) + (this.#capitals.get(plural) ?? 0) > 0;
  }

  /**
   * True when the document writes a date of this month of this year: `May 2018`, `May 1, 2018`, `1 May 2018`,
   * `March 2 – March 9, 2021`, `2018-05`, `05/2018`, `5/1/2018`.
   */
  hasDate(month: number, year: number): boolean {
    if (!Number.isInteger(month) || month < 1 || month > 12) return false;
    const names = monthWordSource(month);
    const mm = `0?${month}`;
    const source = [
      `(?<![\\p{L}])(?:${names})\\.?\\s*(?:${DAY}(?:\\s*[-–]\\s*(?:\\p{L}+\\.?\\s*)?${DAY})?,?\\s*)?${year}(?!\\d)`,
      `(?<!\\d)${year}[-/.]${mm}(?!\\d)`,
      `(?<![\\d/.-])${mm}[-/.](?:\\d{1,2}[-/.])?${year}(?!\\d)`,
    ].join('|');
    return new RegExp(source, 'u').test(this.#text);
  }

  /** True when the document writes the year. */
  hasYear(year: number): boolean {
    return this.#years.has(year);
  }

  /** True when the document writes the number (`1577` for `1,577`; `10.6` for `10.60`). */
  hasNumber(value: string): boolean {
    return this.#numbers.has(numberKey(value));
  }

  /** True when the document labels the part (`Fig. 7` for Figure 7, `Table IV` for Table 4, a `3.2 Results` heading for Section 3.2). */
  hasPart(part: Pick<PartLabel, 'kind' | 'label'>): boolean {
    return this.#parts.has(part);
  }

  /** True when the document labels any part of this kind. */
  labelsParts(kind: PartLabel['kind']): boolean {
    return this.#parts.labels(kind);
  }

  /**
   * True when the document writes the words of a name together, in order: case, line breaks, hyphens and other
   * punctuation between them, a plural `s` and a possessive `'s` do not matter; `&` also matches `and`.
   */
  hasPhrase(words: readonly string[]): boolean {
    const source = words.map(phraseWordSource).join(PHRASE_SEPARATOR);
    return new RegExp(`(?<![\\p{L}\\p{N}])${source}(?![\\p{L}\\p{N}])`, 'u').test(this.#text);
  }
}

/** Whether a word as written starts with a capital (true), a lower-case letter (false) or neither (a digit, a letter without case). */
function capitalised(written: string, lowered: string): boolean | undefined {
  const c = written.charCodeAt(0);
  if (c >= 65 && c <= 90) return true;
  if ((c >= 97 && c <= 122) || c < 128) return c >= 97 && c <= 122 ? false : undefined;
  if (written[0] !== lowered[0]) return true;
  return written[0]!.toUpperCase() !== written[0] ? false : undefined;
}

/** True when the text between two words (`from`..`to`) ends a sentence or a line: `.`, `!`, `?`, `:`, `;` or a line break. */
function opensSentence(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === 46 || c === 33 || c === 63 || c === 58 || c === 59 || c === 10) return true;
  }
  return false;
}

/** One word of a name as a pattern: plural and possessive endings optional (`principle` finds `Principles'`). */
function phraseWordSource(word: string): string {
  if (word === '&' || word === 'and') return '(?:&|and)';
  const base = word.length > 3 && /[^s]s$/.test(word) ? word.slice(0, -1) : word;
  return `${escapeRegExp(base)}(?:s|es)?(?:'s?)?`;
}

/** A number as a set key: commas of thousands dropped, trailing decimal zeros dropped, leading zeros dropped. */
function numberKey(written: string): string {
  let s = written.replace(/,/g, '');
  if (s.includes('.')) s = s.replace(/0+$/, '').replace(/\.$/, '');
  s = s.replace(/^0+(?=\d)/, '');
  return s;
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
 * True when a question is written in capitals (most of its letters, and enough of them to tell): its capitals say
 * nothing about names.
 */
function shouted(question: string): boolean {
  const letters = question.match(/\p{L}/gu) ?? [];
  const upper = letters.filter((c) => c !== c.toLowerCase()).length;
  return letters.length >= 12 && upper / letters.length > 0.7;
}

/** True for a capitalised word of a question that is no name: function and document words, codes, periods, vocabulary. */
function notAName(word: string, notNames: ReadonlySet<string>): boolean {
  const lower = word.toLowerCase();
  return FUNCTION_WORDS.has(lower) || DOCUMENT_WORDS.has(lower) || UNIT_CODES.has(lower) || notNames.has(lower) || /^\d+([.,]\d+)*$/.test(word) || PERIOD_CODE.test(word) || FORMAT_MASK.test(word);
}

/**
 * The names a question mentions (lower case, possessives dropped): capitalised words past the first word of a
 * sentence and tokens mixing letters and digits (model numbers, product codes), without function words, words naming
 * document parts (`Table`), periods (`FY2018`, `Q3`, `1st`), unit codes, format masks (`YYYY-MM-DD`) and the given
 * vocabulary. A question written in capitals names only its codes.
 */
export function namesIn(question: string, notNames: ReadonlySet<string> = new Set()): string[] {
  const names: string[] = [];
  const capitalsSayNothing = shouted(question);
  for (const sentence of withoutExamples(question).split(/[.?!;:]\s+|\n/)) {
    const words = sentence.match(WORD) ?? [];
    words.forEach((raw, i) => {
      const word = raw.replace(/['’]s$/, '');
      const lower = word.toLowerCase();
      if (notAName(word, notNames)) return;
      const capitalised = !capitalsSayNothing && i > 0 && /^\p{Lu}/u.test(word);
      const code = /\p{L}/u.test(word) && /\d/.test(word);
      if ((capitalised || code) && !names.includes(lower) && names.length < MAX_NAMES) names.push(lower);
    });
  }
  return names;
}

/** Words and the punctuation between them, in order (a name never runs across punctuation). */
const TOKEN = /[\p{L}\p{N}][\p{L}\p{N}&'’.-]*[\p{L}\p{N}&]|[\p{L}\p{N}]|&|[^\s\p{L}\p{N}]/gu;

/**
 * The names of two or more capitalised words a question mentions (`Northwind Trading Company`, `Department of Energy`,
 * `Procter & Gamble`), each a list of lower-case words: runs of capitalised words past a sentence's first word, with
 * lower-case particles (`of`, `&`, `de`, `van`) inside. A run ends at punctuation, at a possessive (`Pew's Internet
 * Project` is two things) and at a word that is no name (see {@link namesIn}). Hyphenated words are split.
 */
export function phrasesIn(question: string, notNames: ReadonlySet<string> = new Set()): string[][] {
  if (shouted(question)) return [];
  const phrases: string[][] = [];
  let run: string[] = [];
  let capitals = 0;
  let first = true;
  const flush = (): void => {
    while (run.length > 0 && NAME_PARTICLES.has(run[run.length - 1]!)) run.pop();
    if (capitals >= 2 && run.length <= MAX_PHRASE_WORDS && phrases.length < MAX_NAMES) {
      const words = run.flatMap((w) => w.split(/[-.]/)).filter(Boolean);
      if (!phrases.some((p) => p.join(' ') === words.join(' '))) phrases.push(words);
    }
    run = [];
    capitals = 0;
  };
  for (const m of withoutExamples(question).matchAll(TOKEN)) {
    const token = m[0];
    if (!/[\p{L}\p{N}&]/u.test(token)) {
      flush();
      if (/[.?!;:]/.test(token)) first = true;
      continue;
    }
    const possessive = /['’]s$/i.test(token);
    const word = token.replace(/['’]s$/i, '');
    const lower = word.toLowerCase();
    const capitalised = !first && /^\p{Lu}/u.test(word) && !notAName(word, notNames);
    first = false;
    if (capitalised) {
      run.push(lower);
      capitals++;
      if (possessive) flush();
    } else if (run.length > 0 && NAME_PARTICLES.has(word)) run.push(word);
    else flush();
  }
  flush();
  return phrases;
}

/** `Fabrikam (formerly known as Contoso)`, `X (now Y)`, `X (also called Y)`: a name and the other name given for it. */
const ALIAS = /([\p{Lu}][\p{L}\p{N}&'’.-]*(?:\s+[\p{Lu}][\p{L}\p{N}&'’.-]*){0,4})\s*\(\s*(?:formerly|previously|now|also|aka|a\.k\.a\.)(?:\s+(?:known|called|named))?(?:\s+as)?\s+([^()]{1,80})\)/gu;

/** Groups of names one question gives for one thing (lower case; see {@link ALIAS}). */
function aliasesIn(question: string): string[][] {
  const groups: string[][] = [];
  for (const m of question.matchAll(ALIAS)) {
    const group = `${m[1]} ${m[2]}`.match(WORD)?.map((w) => w.toLowerCase().replace(/['’]s$/, '')) ?? [];
    if (group.length > 1 && groups.length < MAX_NAMES) groups.push(group);
  }
  return groups;
}

/**
 * The numbers a question quotes (`error 515`, `a reach of 4.2`, `350,000 downloads`): not years, not page or part
 * labels, not ordinals, not examples of format instructions, not small counts (up to {@link SMALL_COUNT}: `top 3`).
 */
export function numbersIn(question: string): string[] {
  let text = withoutPartMentions(withoutExamples(question));
  for (const ref of findPageReferences(text, { nouns: 'pages-and-slides' })) text = text.split(ref.text).join(' ');
  const years = new Set(findYears(text, QUESTION_YEARS));
  const numbers: string[] = [];
  for (const m of text.matchAll(NUMBER)) {
    const after = text.slice(m.index + m[0].length, m.index + m[0].length + 3);
    if (/^(?:st|nd|rd|th)\b/i.test(after) || /^\p{L}/u.test(after)) continue;
    const key = numberKey(m[0]);
    const value = Number(key);
    if (!/\./.test(key) && !m[0].includes(',') && years.has(value)) continue;
    if (Number.isInteger(value) && value <= SMALL_COUNT) continue;
    if (!numbers.includes(key) && numbers.length < MAX_NAMES) numbers.push(key);
  }
  return numbers;
}

/** The months of years a question names (`May 2018` → `2018-05`), examples in quotes or brackets left out. */
export function datesIn(question: string): Array<{ month: number; year: number; text: string }> {
  const dates: Array<{ month: number; year: number; text: string }> = [];
  for (const m of withoutExamples(question).matchAll(QUESTION_DATE)) {
    const name = (m[1] ?? m[2] ?? '').toLowerCase();
    const month = monthNumber(name);
    const year = Number(m[3]);
    const text = `${year}-${String(month).padStart(2, '0')}`;
    if (month !== undefined && !dates.some((d) => d.text === text) && dates.length < MAX_NAMES) dates.push({ month, year, text });
  }
  return dates;
}

/** True when the document writes the number, or the number in thousands, millions or billions (`350,000` as `350K`). */
function documentHasNumber(words: DocumentWords, key: string): boolean {
  if (words.hasNumber(key)) return true;
  const value = Number(key);
  for (const scale of [1e3, 1e6, 1e9]) if (value >= scale && words.hasNumber(String(value / scale))) return true;
  return false;
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
 * // { names: ['contoso', 'x-200'], missingNames: ['contoso'], years: [2023], missingYears: [2023], pagesOutOfRange: [],
 * //   parts: [], missingParts: [], phrases: [], missingPhrases: [], dates: [], missingDates: [], numbers: [], missingNumbers: [] }
 * ```
 */
export function documentLacks(question: string, words: DocumentWords, options: DocumentLacksOptions = {}): DocumentLacks {
  const notNames = new Set([...(options.notNames ?? [])].map((w) => w.toLowerCase()));
  const names = namesIn(question, notNames);
  const years = yearsIn(question);
  const pageCount = options.pageCount;
  const parts = partsIn(question);
  // A multi-word name is checked as a phrase only when the document writes each of its words as it is (else
  // `missingNames` says it), and writes them as names: a title-cased term (`Interest Coverage Ratio`) the document
  // writes in lower case is no name of the document.
  const phrases = phrasesIn(question, notNames).filter((p) => p.every((w) => NAME_PARTICLES.has(w) || (words.writes(w) && words.writesAsName(w))));
  const numbers = numbersIn(question);
  const dates = datesIn(question);
  const aliases = aliasesIn(question);
  return {
    names,
    // A name given with another (`Fabrikam (formerly known as Contoso)`) is missing only when the document writes neither.
    missingNames: names.filter((n) => !words.has(n) && !aliases.some((group) => group.includes(n) && group.some((other) => other !== n && words.has(other)))),
    years,
    missingYears: years.filter((y) => !words.hasYear(y)),
    pagesOutOfRange: pageCount === undefined ? [] : [...new Set(options.pages ?? [])].filter((p) => p < 1 || p > pageCount),
    parts: parts.map((p) => p.text),
    missingParts: parts.filter((p) => words.labelsParts(p.kind) && !words.hasPart(p)).map((p) => p.text),
    phrases: phrases.map((p) => p.join(' ')),
    missingPhrases: phrases.filter((p) => !words.hasPhrase(p)).map((p) => p.join(' ')),
    dates: dates.map((d) => d.text),
    missingDates: dates.filter((d) => !words.hasDate(d.month, d.year)).map((d) => d.text),
    numbers,
    missingNumbers: numbers.filter((n) => !documentHasNumber(words, n)),
  };
}
