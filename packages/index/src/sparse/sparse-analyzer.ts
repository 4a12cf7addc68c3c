import { cellYear } from '@doctree/schema';
import { stemEnglish } from './english-stemmer.js';

/**
 * Version of the analyser below. It is persisted with every sparse index: terms indexed by one version do not match
 * queries analysed by another, so loaders reject an index written with a different analyser version.
 * Bump it whenever {@link analyzeText} changes its output for any input.
 */
export const SPARSE_ANALYZER_VERSION = 1;

/**
 * Stopwords dropped from documents and queries alike: English function words, question words (`what`, `which` …)
 * and `e.g.` / `i.e.` / `etc` / `vs` / `per`. Content words that matter in reports (`not` aside) such as `item`,
 * `note`, `table`, `us` (U.S.) are deliberately kept.
 */
export const SPARSE_STOPWORDS: ReadonlySet<string> = new Set(
  (
    'a about above after again against all am an and any are as at be because been before being below between both but by ' +
    'can could did do does doing down during each few for from further had has have having he her here hers herself him ' +
    'himself his how i if in into is it its itself just me more most my myself no nor not of off on once only or other our ' +
    'ours ourselves out over own same she should so some such than that the their theirs them themselves then there these ' +
    'they this those through to too under until up very was we were what when where which while who whom why will with ' +
    'would you your yours yourself yourselves also may might must shall upon via per eg ie etc vs'
  ).split(' '),
);

// Every table below is looked up with words of documents and questions: they are Maps, so that `constructor`,
// `toString` or `__proto__` are words like any other, never properties inherited from Object.prototype.

/** Symbols turned into word tokens, so that `$`, `USD` and `usd` all match (and `%`, `percent`). */
const SYMBOL_TOKENS: ReadonlyMap<string, string> = new Map([
  ['$', 'usd'],
  ['€', 'eur'],
  ['£', 'gbp'],
  ['%', 'percent'],
  ['§', 'section'],
]);

/** Abbreviations that always mean the same thing in documents (`Fig.`, `Eq.`): replaced before stemming. */
const CANONICAL_WORDS: ReadonlyMap<string, string> = new Map([
  ['fig', 'figure'],
  ['figs', 'figures'],
  ['eq', 'equation'],
  ['eqs', 'equations'],
  ['eqn', 'equation'],
  ['pct', 'percent'],
]);

/** Label kinds and the words that introduce them (`Fig. 3`, `Tables 2 and 3`, `Item 7A`, `§ 2.3`). */
const LABEL_WORDS = new Map<string, { kind: string; plural: boolean }>();
function labelWords(kind: string, singular: readonly string[], plural: readonly string[]): void {
  for (const word of singular) LABEL_WORDS.set(word, { kind, plural: false });
  for (const word of plural) LABEL_WORDS.set(word, { kind, plural: true });
}
labelWords('figure', ['figure', 'fig'], ['figures', 'figs']);
labelWords('table', ['table', 'tab', 'tbl'], ['tables', 'tabs']);
labelWords('equation', ['equation', 'eq', 'eqn'], ['equations', 'eqs']);
labelWords('section', ['section', 'sec', '§'], ['sections']);
labelWords('chapter', ['chapter'], ['chapters']);
labelWords('appendix', ['appendix'], ['appendices', 'appendixes']);
labelWords('algorithm', ['algorithm'], ['algorithms']);
labelWords('item', ['item'], ['items']);
labelWords('part', ['part'], ['parts']);
labelWords('note', ['note'], ['notes']);
labelWords('exhibit', ['exhibit'], ['exhibits']);

/** Kinds whose labels may be Roman numerals (`Table IV` = `Table 4`, `Part II` = `Part 2`). */
const ROMAN_KINDS = new Set(['figure', 'table', 'chapter', 'part']);
/** Kinds whose labels may be single letters (`Appendix B`, `Exhibit A`). */
const LETTER_KINDS = new Set(['appendix', 'exhibit']);
/** Kinds where a lettered sub-label also counts as its parent (`Figure 3a` is part of `Figure 3`; `Item 7A` is not `Item 7`). */
const SUBLABEL_KINDS = new Set(['figure', 'table']);
/** Words joining label values in lists and ranges (`Tables 2 and 3`, `Figures 4 to 6`). */
const LABEL_CONNECTORS = new Set(['and', 'or', 'to', 'through']);

type RawKind = 'word' | 'number' | 'symbol' | 'cjk';
interface RawToken {
  text: string;
  kind: RawKind;
}

/**
 * One pass over normalised text. Alternatives, in order: CJK runs; dotted acronyms (`u.s.`, `e.g.`); numbers with
 * thousands separators (`1,482.5`); letter-dot-number labels (`a.1`); hyphenated compounds (`10-k`, `covid-19`);
 * plain and dotted numbers (`2018`, `3.5`, `2.3.1`); words with inner hyphens, apostrophes or `&` (`hyper-parameters`, `company's`, `r&d`, `7a`);
 * currency, percent and section symbols.
 */
function tokenPattern(letter: string, digit: string, cjk: string): RegExp {
  const L = `[${letter}]`;
  const LN = `[${letter}${digit}]`;
  return new RegExp(
    [
      `(${cjk})`,
      `((?<!${LN})${L}(?:\\.${L})+\\.?(?!${LN}))`,
      `((?<![${digit}])\\d{1,3}(?:,\\d{3})+(?:\\.\\d+)?(?![${digit}]|,\\d))`,
      `((?<!${LN})${L}\\.\\d+(?:\\.\\d+)*(?!${LN}))`,
      `(${LN}+(?:-${LN}+)+(?:'${L}+)?)`,
      `(\\d+(?:\\.\\d+)*(?!${LN}))`,
      `(${LN}+(?:['&-]${LN}+)*)`,
      '([$€£%§])',
    ].join('|'),
    'gu',
  );
}
const TOKEN_PATTERN = tokenPattern('\\p{L}', '\\p{N}', '[\\p{sc=Han}\\p{sc=Hiragana}\\p{sc=Katakana}\\p{sc=Hangul}]+');
/**
 * {@link TOKEN_PATTERN} for lower-cased ASCII text, where letters are `a-z`, digits `0-9` and no CJK occurs: the same
 * matches without Unicode property look-ups.
 */
const ASCII_TOKEN_PATTERN = tokenPattern('a-z', '0-9', '[^\\s\\S]');

/** The capture groups of {@link TOKEN_PATTERN}, in order (numbered groups: a match builds no `groups` object). */
const CJK = 1;
const ACRONYM = 2;
const THOUSANDS = 3;
const LETTERDOT = 4;
const COMPOUND = 5;
const NUMBER = 6;
const WORD = 7;
const SYMBOL = 8;

/** A character outside ASCII; text without one is left as it is by NFKD folding and mark removal. */
// eslint-disable-next-line no-control-regex -- the ASCII range starts at U+0000
const NOT_ASCII = /[^\u0000-\u007f]/;

/** Lower-cases, folds compatibility forms (NFKD: ligatures, full-width digits), strips accents, unifies hyphens and quotes. */
function normalize(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/[\u2018\u2019\u02bc`\u00b4]/g, "'")
    .replace(/[\u2010\u2011\u2212]/g, '-');
}

function rawTokens(text: string): RawToken[] {
  const out: RawToken[] = [];
  const ascii = !NOT_ASCII.test(text);
  const normalized = ascii ? text.toLowerCase().replace(/`/g, "'") : normalize(text);
  for (const match of normalized.matchAll(ascii ? ASCII_TOKEN_PATTERN : TOKEN_PATTERN)) {
    if (match[WORD] !== undefined) out.push({ text: match[WORD], kind: 'word' });
    else if (match[NUMBER] !== undefined) out.push({ text: match[NUMBER], kind: 'number' });
    else if (match[CJK] !== undefined) out.push({ text: match[CJK], kind: 'cjk' });
    else if (match[ACRONYM] !== undefined) out.push({ text: match[ACRONYM].replace(/\./g, ''), kind: 'word' });
    else if (match[THOUSANDS] !== undefined) out.push({ text: match[THOUSANDS].replace(/,/g, ''), kind: 'number' });
    else if (match[LETTERDOT] !== undefined) out.push({ text: match[LETTERDOT], kind: 'word' });
    else if (match[COMPOUND] !== undefined) out.push({ text: match[COMPOUND], kind: 'word' });
    else if (match[SYMBOL] !== undefined) out.push({ text: match[SYMBOL], kind: 'symbol' });
  }
  return out;
}

const ROMAN = /^(x{0,3})(ix|iv|v?i{0,3})$/;
const ROMAN_VALUES: ReadonlyMap<string, number> = new Map([
  ['i', 1],
  ['v', 5],
  ['x', 10],
]);

function romanToNumber(text: string): number | undefined {
  if (text.length === 0 || !ROMAN.test(text)) return undefined;
  let total = 0;
  for (let i = 0; i < text.length; i++) {
    const value = ROMAN_VALUES.get(text[i]!)!;
    const next = ROMAN_VALUES.get(text[i + 1] ?? '') ?? 0;
    total += value < next ? -value : value;
  }
  return total;
}

/** A label value: the label terms it stands for, and whether its own plain term is dropped (Roman numerals, letters). */
interface LabelValue {
  terms: string[];
  replacesToken: boolean;
}

/** Label values that may follow a label word of `kind`, or undefined. */
function labelValue(kind: string, token: RawToken | undefined): LabelValue | undefined {
  if (token === undefined) return undefined;
  const text = token.text;
  if (token.kind === 'number') return /^\d{1,3}(?:\.\d{1,3})*$/.test(text) ? { terms: [`${kind}_${text}`], replacesToken: false } : undefined;
  if (token.kind !== 'word') return undefined;
  const lettered = /^(\d{1,3})([a-z])$/.exec(text);
  if (lettered !== null) {
    return { terms: SUBLABEL_KINDS.has(kind) ? [`${kind}_${text}`, `${kind}_${lettered[1]!}`] : [`${kind}_${text}`], replacesToken: false };
  }
  if (/^[a-z]\.\d{1,3}(?:\.\d{1,3})*$/.test(text)) return { terms: [`${kind}_${text}`], replacesToken: false };
  if (ROMAN_KINDS.has(kind)) {
    const value = romanToNumber(text);
    if (value !== undefined) return { terms: [`${kind}_${value}`], replacesToken: true };
  }
  if (LETTER_KINDS.has(kind) && /^[a-z]$/.test(text)) return { terms: [`${kind}_${text}`], replacesToken: true };
  return undefined;
}

/**
 * Label terms introduced by the raw token at `i` (`figure_3` for `Fig. 3`; `table_2`, `table_3` for `Tables 2 and 3`),
 * appended to `out`. Singular label words take one value; plural ones, or values joined by `and` / `or` / `to`, take a
 * list. Positions of value tokens whose plain term is dropped (`ii` of `Table II`) are added to `replaced`.
 */
function labelTerms(tokens: readonly RawToken[], i: number, out: string[], replaced: Set<number>): void {
  const head = tokens[i]!;
  const label = head.kind === 'word' || head.kind === 'symbol' ? LABEL_WORDS.get(head.text) : undefined;
  if (label === undefined) return;
  let j = i + 1;
  let values = labelValue(label.kind, tokens[j]);
  while (values !== undefined) {
    out.push(...values.terms);
    if (values.replacesToken) replaced.add(j);
    const next = tokens[j + 1];
    if (next !== undefined && LABEL_CONNECTORS.has(next.text)) {
      j += 2;
    } else if (label.plural) {
      j += 1;
    } else {
      break;
    }
    values = labelValue(label.kind, tokens[j]);
  }
}

/** Terms of one plain word or number: stopwords dropped, abbreviations expanded, English words stemmed. */
function wordTerms(text: string, out: string[]): void {
  if (text.length === 0) return;
  if (/^[a-z]+$/.test(text)) {
    if (SPARSE_STOPWORDS.has(text)) return;
    out.push(stemEnglish(CANONICAL_WORDS.get(text) ?? text));
    return;
  }
  out.push(text);
  // Fiscal years: `fy2018` also counts as the year 2018.
  const fiscal = text.startsWith('fy') ? cellYear(text, { prefix: 'fy' }) : undefined;
  if (fiscal !== undefined) out.push(String(fiscal));
}

function cjkTerms(text: string, out: string[]): void {
  const chars = [...text];
  if (chars.length === 1) {
    out.push(chars[0]!);
    return;
  }
  for (let i = 0; i + 1 < chars.length; i++) out.push(`${chars[i]!}${chars[i + 1]!}`);
}

/**
 * Terms of word tokens already analysed (`revenues` → `revenu`): a document repeats its words many times, and stemming,
 * compound splitting and fiscal-year reading depend on the word alone. Cleared when it reaches {@link WORD_MEMO_LIMIT}
 * words, so that memory stays bounded on any input. A Map: words are never object keys.
 */
const wordMemo = new Map<string, readonly string[]>();
/** Most words kept in {@link wordMemo}. */
const WORD_MEMO_LIMIT = 100_000;
/** Words longer than this are analysed every time (rare, and not worth keeping). */
const WORD_MEMO_MAX_LENGTH = 64;

function tokenTerms(token: RawToken, out: string[]): void {
  if (token.kind === 'word' && token.text.length <= WORD_MEMO_MAX_LENGTH) {
    let terms = wordMemo.get(token.text);
    if (terms === undefined) {
      const fresh: string[] = [];
      wordTokenTerms(token.text, fresh);
      if (wordMemo.size >= WORD_MEMO_LIMIT) wordMemo.clear();
      wordMemo.set(token.text, fresh);
      terms = fresh;
    }
    for (const term of terms) out.push(term);
    return;
  }
  switch (token.kind) {
    case 'symbol':
      out.push(SYMBOL_TOKENS.get(token.text) ?? token.text);
      return;
    case 'number':
      out.push(token.text);
      return;
    case 'cjk':
      cjkTerms(token.text, out);
      return;
    case 'word':
      wordTokenTerms(token.text, out);
      return;
  }
}

/** Terms of one word token (a word, compound, acronym or letter-dot label). */
function wordTokenTerms(text: string, out: string[]): void {
  if (text.includes('&')) {
    // `r&d`, `s&p`, `at&t`: one term, as written.
    out.push(text.replace(/'/g, ''));
    return;
  }
  const word = text.replace(/'s$/, '').replace(/'/g, '');
  if (!word.includes('-')) {
    wordTerms(word, out);
    return;
  }
  // Hyphenated compounds: each part, plus the parts joined when one of them has letters
  // (`hyper-parameters` → hyper, paramet, hyperparamet; `10-k` → 10, k, 10k; not `2017-2019`).
  const parts = word.split('-').filter((part) => part.length > 0);
  for (const part of parts) wordTerms(part, out);
  if (parts.length > 1 && parts.some((part) => /\p{L}/u.test(part))) {
    const joined = parts.join('');
    if (/^[a-z]+$/.test(joined)) out.push(stemEnglish(joined));
    else out.push(joined);
  }
}

/**
 * The document-aware analyser shared by sparse indexing and querying: text → terms, in reading order (repeated terms
 * are kept, so that term frequencies count). Rules:
 *
 * - Case and accents: lower-cased, NFKD-folded, combining marks removed (`Café` → `cafe`, `ﬁ` → `fi`).
 * - Numbers: thousands separators are dropped — one normalisation, `1,482` and `1482` both give `1482`;
 *   decimals and dotted numbers are kept whole (`3.5`, `2.3.1`); years are plain number terms (`2018`), and
 *   `FY2018` gives `fy2018` plus `2018`. Signs and parentheses are dropped (`(1,234)` → `1234`).
 * - Symbols become words: `$` → `usd`, `€` → `eur`, `£` → `gbp`, `%` → `percent` (so `12%` → `12`, `percent`, and
 *   the query `percent` or `%` matches either), `§` → `section`; `pct` → `percent`.
 * - Labels: a label word followed by a label value also emits one label term `<kind>_<value>`, so that `Figure 3`,
 *   `Fig. 3`, `fig 3` all give `figure_3`; `Table IV` gives `table_4`; `Tables 2 and 3` gives `table_2` and `table_3`;
 *   `Figure 3a` gives `figure_3a` and `figure_3`; `Item 7A` gives `item_7a` (not `item_7`); `§ 2.3` and `Section 2.3`
 *   give `section_2.3`. The label word and a numeric value stay plain terms too (`Table 2` → `tabl`, `2`, `table_2`);
 *   Roman and letter values do not (`Part II` → `part`, `part_2`; `Appendix B` → `appendix`, `appendix_b`). Kinds: figure, table, equation, section, chapter, appendix, algorithm, item, part, note,
 *   exhibit. Values with four digits are taken for years, not labels (`table 2018` gives no label term).
 * - Words: stopwords ({@link SPARSE_STOPWORDS}) dropped; `fig`, `eq` expanded; then a light Porter stemmer
 *   (plurals, `-ed`, `-ing`, `-y`, final `-e`: `revenues`, `revenue` → `revenu`). Hyphenated compounds give their parts
 *   and the joined word (`hyper-parameters` → `hyper`, `paramet`, `hyperparamet`); possessive `'s` is dropped; dotted
 *   acronyms are joined (`U.S.` → `us`); words with `&` stay whole (`R&D` → `r&d`).
 * - CJK runs become overlapping character bigrams (a single character stays a unigram).
 *
 * Changing any of this changes {@link SPARSE_ANALYZER_VERSION}.
 *
 * @example
 * ```ts
 * analyzeText('Fig. 3: Revenues rose 12.5% to $1,482 million in FY2018');
 * // ['figur', 'figure_3', '3', 'revenu', 'rose', '12.5', 'percent', 'usd', '1482', 'million', 'fy2018', '2018']
 * ```
 */
export function analyzeText(text: string): string[] {
  const tokens = rawTokens(text);
  const out: string[] = [];
  const replaced = new Set<number>();
  for (let i = 0; i < tokens.length; i++) {
    if (!replaced.has(i)) tokenTerms(tokens[i]!, out);
    labelTerms(tokens, i, out, replaced);
  }
  return out;
}

/**
 * Analyses a query: {@link analyzeText}, each term once, in first-seen order.
 *
 * @example
 * ```ts
 * analyzeQuery('Table 2 revenues and revenue'); // ['tabl', '2', 'table_2', 'revenu']
 * ```
 */
export function analyzeQuery(text: string): string[] {
  return [...new Set(analyzeText(text))];
}
