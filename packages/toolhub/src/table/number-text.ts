/**
 * Reading numbers as written in documents: thousands separators, currency signs, accounting negatives `(1,482)`,
 * percents and scale words (`1.2 billion`). Shared by the table reader, `extract.column` and `compute.eval`.
 */

import { z } from 'zod';

/** Scale words and their multipliers. */
export const SCALE_MULTIPLIERS = {
  thousands: 1e3,
  millions: 1e6,
  billions: 1e9,
  trillions: 1e12,
} as const;

/** A scale a number or a table is stated in. */
export type Scale = keyof typeof SCALE_MULTIPLIERS;

/** Zod schema of a {@link Scale} (tool card outputs declare it). */
export const ScaleSchema = z.enum(Object.keys(SCALE_MULTIPLIERS) as [Scale, ...Scale[]]);

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

/** Abbreviations that are scales only where a scale is expected (`$1.2m`, `(000s)`): `m` may be metres elsewhere. */
const SHORT_SCALE_WORDS: ReadonlyMap<string, Scale> = new Map([
  ['m', 'millions'],
  ['mm', 'millions'],
  ['mio', 'millions'],
  ['b', 'billions'],
  ['000', 'thousands'],
  ["000's", 'thousands'],
  ['000s', 'thousands'],
]);

/** Options of {@link scaleFromWord} and {@link parseNumberText}. */
export interface NumberTextOptions {
  /** Also read the short scale abbreviations `m`, `mm`, `mio`, `b`, `000s` (in table cells and stated scales). Default false. */
  shortScales?: boolean;
}

/** Scale named by a word (`million`, `bn`, `thousands`; with `shortScales`, also `m`, `b`, `000s`), or undefined. */
export function scaleFromWord(word: string, options: NumberTextOptions = {}): Scale | undefined {
  const key = word.toLowerCase().replace(/[.\s]/g, '');
  return SCALE_WORDS.get(key) ?? (options.shortScales ? SHORT_SCALE_WORDS.get(key) : undefined);
}

/** Currency signs and codes, normalised to one symbol. */
const CURRENCIES: ReadonlyMap<string, string> = new Map([
  ['$', '$'],
  ['us$', '$'],
  ['usd', '$'],
  ['dollar', '$'],
  ['dollars', '$'],
  ['€', '€'],
  ['eur', '€'],
  ['euro', '€'],
  ['euros', '€'],
  ['£', '£'],
  ['gbp', '£'],
  ['¥', '¥'],
  ['jpy', '¥'],
  ['yen', '¥'],
  ['rmb', '¥'],
  ['cny', '¥'],
  ['₹', '₹'],
  ['inr', '₹'],
  ['chf', 'CHF'],
  ['c$', 'C$'],
  ['cad', 'C$'],
  ['a$', 'A$'],
  ['aud', 'A$'],
]);

/** Normalises a currency symbol or code (`USD`, `US$`, `€`, `dollars`) to a symbol, or undefined. */
export function currencyFromWord(word: string): string | undefined {
  return CURRENCIES.get(word.toLowerCase().replace(/\s/g, ''));
}

/** A number read from text. `value` is as written (`12.5` for `12.5%`, `1.2` for `1.2 billion`), sign applied. */
export interface ParsedNumber {
  /** The number as written, with its sign (accounting parentheses make it negative). */
  value: number;
  /** Written as a percentage (`%`, `percent`, `pct`). */
  percent: boolean;
  /** Currency symbol (`$`, `€`, `£`, `¥`, `₹`, `CHF`, `C$`, `A$`) when written. */
  currency?: string;
  /** Scale word written after the number (`million`, `bn`). */
  scale?: Scale;
  /** Written in accounting parentheses, `(1,482)`. */
  parenthesized: boolean;
  /** Written with a multiplier suffix (`1.2x`, `3 times`). */
  times?: boolean;
  /** Written in basis points (`25 bps`). */
  basisPoints?: boolean;
  /** Digits after the decimal point as written. */
  decimals: number;
}

const CURRENCY_TOKEN = "(us\\$|c\\$|a\\$|[$€£¥₹]|usd|eur|gbp|jpy|rmb|cny|inr|chf|cad|aud)";
const CELL_RE = new RegExp(
  [
    `^([-+]?)\\s*${CURRENCY_TOKEN}?\\s*([-+]?)\\s*(\\()?\\s*([-+]?)\\s*${CURRENCY_TOKEN}?\\s*([-+]?)\\s*`,
    '((?:\\d{1,3}(?:[, ]\\d{3})+|\\d+)(?:\\.\\d+)?|\\.\\d+)',
    '\\s*(%|percent|pct|x|times|bps)?',
    "\\s*(thousands?|millions?|billions?|trillions?|bn|mn|mm|mio|tn|k|m|b|000'?s?)?\\.?",
    '\\s*(\\))?\\s*(%)?\\s*(usd|eur|gbp|jpy|dollars?|euros?)?$',
  ].join(''),
  'i',
);

/**
 * Reads one number as written in a cell or a sentence fragment: `1,482`, `(1,482)`, `-3.5`, `−3.5`, `$ 6,214`,
 * `12.5%`, `(4.2)%`, `$1.2 billion`, `€(40)`, `+4.2 %`, `1 234`, `1.2x`, `25 bps`, `40 euros`. Footnote markers (`*`,
 * `†`, `(a)`, superscript digits) after the number are ignored. Returns undefined for anything else, including empty
 * cells and dashes (`—` means "none", not 0). Short scale abbreviations (`$6.1m`, `2 b`) are read with `shortScales`.
 *
 * @example
 * ```ts
 * parseNumberText('(1,482)'); // { value: -1482, percent: false, parenthesized: true, decimals: 0 }
 * parseNumberText('$1.2 billion'); // { value: 1.2, currency: '$', scale: 'billions', percent: false, parenthesized: false, decimals: 1 }
 * ```
 */
export function parseNumberText(raw: string, options: NumberTextOptions = {}): ParsedNumber | undefined {
  let s = raw.normalize('NFKC').replace(/[−–—‒]/g, '-').replace(/\s+/g, ' ').trim();
  if (s.length === 0 || s.length > 64 || /^-+$/.test(s)) return undefined;
  s = s.replace(/(?:\s*(?:\*+|†|‡|\([a-z]\)|[¹²³⁴⁵⁶⁷⁸⁹⁰]+))+$/iu, '').trim();
  const m = CELL_RE.exec(s);
  if (!m) return undefined;
  const [, sign0, currency0, sign1, open, sign2, currency1, sign3, digits, suffix, word, close, trailingPercent, currencyAfter] = m;
  if (Boolean(open) !== Boolean(close)) return undefined;
  let scale: Scale | undefined;
  if (word !== undefined) {
    scale = scaleFromWord(word, options);
    if (scale === undefined) return undefined;
  }
  const value = Number(digits!.replace(/[, ]/g, ''));
  if (!Number.isFinite(value)) return undefined;
  const signs = [sign0, sign1, sign2, sign3].filter((x) => x === '-').length;
  const negative = (signs + (open ? 1 : 0)) % 2 === 1;
  const suffixLower = suffix?.toLowerCase();
  const currencyWord = currency0 ?? currency1 ?? currencyAfter;
  const currency = currencyWord ? currencyFromWord(currencyWord) : undefined;
  return {
    value: negative ? -value : value,
    percent: suffixLower === '%' || suffixLower === 'percent' || suffixLower === 'pct' || trailingPercent === '%',
    parenthesized: Boolean(open),
    decimals: digits!.includes('.') ? digits!.split('.')[1]!.length : 0,
    ...(currency !== undefined ? { currency } : {}),
    ...(scale !== undefined ? { scale } : {}),
    ...(suffixLower === 'x' || suffixLower === 'times' ? { times: true } : {}),
    ...(suffixLower === 'bps' ? { basisPoints: true } : {}),
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
