/**
 * Reading numbers as written in documents: thousands separators, currency signs, accounting negatives `(1,577)`,
 * percents and scale words (`1.2 billion`). Shared by the table reader, `extract.column` and `compute.eval`.
 */

/** Scale words and their multipliers. */
export const SCALE_MULTIPLIERS = {
  thousands: 1e3,
  millions: 1e6,
  billions: 1e9,
  trillions: 1e12,
} as const;

/** A scale a number or a table is stated in. */
export type Scale = keyof typeof SCALE_MULTIPLIERS;

const SCALE_WORDS: ReadonlyMap<string, Scale> = new Map([
  ['thousand', 'thousands'],
  ['thousands', 'thousands'],
  ['k', 'thousands'],
  ['million', 'millions'],
  ['millions', 'millions'],
  ['mn', 'millions'],
  ['billion', 'billions'],
  ['billions', 'billions'],
  ['bn', 'billions'],
  ['trillion', 'trillions'],
  ['trillions', 'trillions'],
  ['tn', 'trillions'],
]);

/** Scale named by a word (`million`, `bn`, `thousands`), or undefined. */
export function scaleFromWord(word: string): Scale | undefined {
  return SCALE_WORDS.get(word.toLowerCase());
}

/** Currency signs and codes, normalised to one symbol. */
const CURRENCIES: ReadonlyMap<string, string> = new Map([
  ['$', '$'],
  ['us$', '$'],
  ['usd', '$'],
  ['€', '€'],
  ['eur', '€'],
  ['£', '£'],
  ['gbp', '£'],
  ['¥', '¥'],
  ['jpy', '¥'],
]);

/** A number read from text. `value` is as written (`12.5` for `12.5%`, `1.2` for `1.2 billion`), sign applied. */
export interface ParsedNumber {
  /** The number as written, with its sign (accounting parentheses make it negative). */
  value: number;
  /** Written with `%`. */
  percent: boolean;
  /** Currency symbol (`$`, `€`, `£`, `¥`) when written. */
  currency?: string;
  /** Scale word written after the number (`million`, `bn`). */
  scale?: Scale;
  /** Written in accounting parentheses, `(1,577)`. */
  parenthesized: boolean;
}

const NUMBER_RE = /^(?:[0-9]{1,3}(?:,[0-9]{3})+|[0-9]+)(?:\.[0-9]+)?|^\.[0-9]+/;
const DASHES = /^[-−–—‒]$/;

/**
 * Reads one number as written in a cell or a sentence fragment: `1,577`, `(1,577)`, `-3.5`, `$ 6,439`, `12.5%`,
 * `$1.2 billion`, `€(40)`, `+4.2 %`. Footnote markers (`*`, `†`, `(a)`, superscript digits) after the number are ignored.
 * Returns undefined for anything else, including empty cells and dashes (`—` means "none", not 0).
 *
 * @example
 * ```ts
 * parseNumberText('(1,577)'); // { value: -1577, percent: false, parenthesized: true }
 * parseNumberText('$1.2 billion'); // { value: 1.2, currency: '$', scale: 'billions', percent: false, parenthesized: false }
 * ```
 */
export function parseNumberText(raw: string): ParsedNumber | undefined {
  let s = raw.normalize('NFKC').replace(/\s+/g, ' ').trim();
  if (s.length === 0 || s.length > 64 || DASHES.test(s)) return undefined;
  s = s.replace(/(?:\s*(?:\*+|†|‡|\([a-z]\)|[¹²³⁴⁵⁶⁷⁸⁹⁰]+))+$/u, '').trim();
  let negative = false;
  let parenthesized = false;
  let currency: string | undefined;
  const takeCurrency = (): void => {
    const m = /^(us\$|\$|€|£|¥|usd|eur|gbp|jpy)\s?/i.exec(s);
    if (m && currency === undefined) {
      currency = CURRENCIES.get(m[1]!.toLowerCase());
      s = s.slice(m[0].length).trim();
    }
  };
  const takeSign = (): void => {
    if (/^[-−–]/.test(s)) {
      negative = !negative;
      s = s.slice(1).trim();
    } else if (s.startsWith('+')) s = s.slice(1).trim();
  };
  const takeParens = (): void => {
    if (s.startsWith('(') && s.endsWith(')')) {
      parenthesized = true;
      negative = !negative;
      s = s.slice(1, -1).trim();
    }
  };
  takeSign();
  takeCurrency();
  takeParens();
  takeCurrency();
  if (!parenthesized) takeSign();
  const m = NUMBER_RE.exec(s);
  if (!m) return undefined;
  const value = Number(m[0].replace(/,/g, ''));
  if (!Number.isFinite(value)) return undefined;
  let rest = s.slice(m[0].length).trim();
  let percent = false;
  let scale: Scale | undefined;
  if (rest.startsWith('%')) {
    percent = true;
    rest = rest.slice(1).trim();
  } else {
    const word = /^([A-Za-z]+)\.?/.exec(rest);
    const found = word ? scaleFromWord(word[1]!) : undefined;
    if (found && word) {
      scale = found;
      rest = rest.slice(word[0].length).trim();
    }
  }
  if (currency === undefined) {
    const code = /^(usd|eur|gbp|jpy|dollars?|euros?)$/i.exec(rest);
    if (code) {
      currency = code[1]!.toLowerCase().startsWith('dollar') ? '$' : code[1]!.toLowerCase().startsWith('euro') ? '€' : CURRENCIES.get(code[1]!.toLowerCase());
      rest = '';
    }
  }
  if (rest.length > 0) return undefined;
  return {
    value: negative ? -value : value,
    percent,
    parenthesized,
    ...(currency !== undefined ? { currency } : {}),
    ...(scale !== undefined ? { scale } : {}),
  };
}

/** Scale stated in a caption, header or first cell: `(Millions)`, `in thousands`, `$ in billions`, `(€m)`; else undefined. */
export function findScale(text: string): Scale | undefined {
  const m = /\b(thousands?|millions?|billions?|trillions?)\b/i.exec(text);
  if (m) return scaleFromWord(m[1]!);
  const short = /\(\s*(?:[$€£]\s*)?(k|m|mn|bn)\s*\)|[$€£](m|mn|bn|k)\b/i.exec(text);
  const word = short?.[1] ?? short?.[2];
  if (!word) return undefined;
  return word.toLowerCase() === 'm' ? 'millions' : scaleFromWord(word);
}

/** Currency named in text (`$`, `USD`, `dollars`, `€`…), or undefined. */
export function findCurrency(text: string): string | undefined {
  if (/\$|\bUSD\b|\bdollars?\b/i.test(text)) return '$';
  if (/€|\bEUR\b|\beuros?\b/i.test(text)) return '€';
  if (/£|\bGBP\b/.test(text)) return '£';
  if (/¥|\bJPY\b/.test(text)) return '¥';
  return undefined;
}
