/**
 * Numbers as documents write them: `(1,482)` negatives, `$ 4,918`, `4.2%`, `$1.5 billion`, `12.3x`, `−0.8`,
 * spelled-out small counts. Shared by the table observer (units per column), the readers and the judger.
 */

import { cellYear, numberWordSource, numberWordValue } from '@doctree/schema';
import { SCALE_MULTIPLIERS, currencyFromWord as currencySymbol, parseNumberText, scaleFromWord as toolhubScale, type Scale as PluralScale } from '@doctree/toolhub';

/** Multipliers of the scales documents state (`in millions`, `$1.5 billion`, `(000s)`): ToolHub's, by singular name. */
export const SCALE_FACTORS = {
  thousand: SCALE_MULTIPLIERS.thousands,
  million: SCALE_MULTIPLIERS.millions,
  billion: SCALE_MULTIPLIERS.billions,
  trillion: SCALE_MULTIPLIERS.trillions,
} as const;

/** A scale word, normalised (singular: `million`). */
export type Scale = keyof typeof SCALE_FACTORS;

const SINGULAR: Readonly<Record<PluralScale, Scale>> = { thousands: 'thousand', millions: 'million', billions: 'billion', trillions: 'trillion' };

/** A number read from text. */
export interface ParsedNumber {
  /** The value as written, sign applied, scale NOT applied (`$1.5 billion` → 1.5). */
  value: number;
  /** The exact text matched. */
  raw: string;
  /** Written as a percentage (`4.2%`, `4.2 percent`). */
  percent: boolean;
  /** Currency symbol or code written with it (`$`, `€`, `£`, `¥`, `USD`…), normalised to a symbol when known. */
  currency?: string;
  /** Scale written right after it (`million`, `bn`, `k`). */
  scale?: Scale;
  /** Written with a multiplier suffix (`1.2x`). */
  times?: boolean;
  /** Digits after the decimal point as written. */
  decimals: number;
}

/** A number found in running text, with its offsets. */
export interface NumberMention extends ParsedNumber {
  /** Offset of the first character of `raw` in the searched text. */
  start: number;
  /** Offset after the last character of `raw`. */
  end: number;
}

/** Normalises a scale word (`millions`, `bn`, `000s`, `m`) to a {@link Scale}, or undefined (ToolHub's scale words). */
export function scaleFromWord(word: string): Scale | undefined {
  const scale = toolhubScale(word, { shortScales: true });
  return scale ? SINGULAR[scale] : undefined;
}

/** Normalises a currency symbol or code (`USD`, `US$`, `€`) to a symbol, or undefined (ToolHub's currency words). */
export function currencyFromWord(word: string): string | undefined {
  return currencySymbol(word);
}

/**
 * Parses one table cell or short value with ToolHub's cell reader (`parseNumberText`, short scales allowed):
 * `(1,482)` → -1482, `$ 4,918` → 4918 ($), `4.2%` → 4.2 (percent), `1.2x` → 1.2 (times), `€1.5 billion` → 1.5
 * (€, billion), `—` / `n/a` / text → null. Footnote markers (`1,234(a)`, `1,234*`) are ignored.
 */
export function parseNumberCell(cell: string): ParsedNumber | null {
  const parsed = parseNumberText(cell, { shortScales: true });
  if (!parsed) return null;
  const out: ParsedNumber = { value: parsed.value, raw: cell.trim(), percent: parsed.percent, decimals: parsed.decimals };
  if (parsed.currency) out.currency = parsed.currency;
  if (parsed.scale) out.scale = SINGULAR[parsed.scale];
  if (parsed.times) out.times = true;
  return out;
}

const MENTION_RE = new RegExp(
  [
    '(?:(?<cur>US\\$|C\\$|A\\$|[$€£¥₹]|\\b(?:USD|EUR|GBP|JPY|RMB|CHF)\\b)\\s?)?',
    '(?<neg>\\()?(?<sign>[-−–]|\\+)?',
    '(?<num>(?<![\\d.,])(?:\\d{1,3}(?:,\\d{3})+|\\d+)(?:\\.\\d+)?(?![\\d]))',
    '(?<close>\\))?',
    '(?:\\s?(?<pct>%|percent\\b|per cent\\b|pct\\b|bps\\b|basis points\\b|x\\b|times\\b))?',
    '(?:\\s?(?<scale>thousands?\\b|millions?\\b|billions?\\b|trillions?\\b|bn\\b|mn\\b|k\\b|m\\b|b\\b))?',
  ].join(''),
  'gi',
);
const WORD_MENTION_RE = new RegExp(`\\b(${numberWordSource(0, 100)})\\b`, 'gi');

/**
 * Every number in running text with its offsets: currency before it, `%`/`percent`, scale words after it
 * (`$28,436 million`, `1.5 bn`), parentheses negatives. Spelled-out numbers (`three`) are included when
 * `words` is true. Dates' day numbers and years are included (callers decide what to skip).
 */
export function findNumbers(text: string, options: { words?: boolean } = {}): NumberMention[] {
  const out: NumberMention[] = [];
  for (const m of text.matchAll(MENTION_RE)) {
    const g = m.groups!;
    const num = g['num'];
    if (!num) continue;
    // Leading letters glued to digits (`Q4`, `FY2018`, `H1`) are labels, not quantities; keep FY years as years.
    const before = text[m.index - 1];
    if (!g['cur'] && before !== undefined && /[A-Za-z]/.test(before) && cellYear(num) === undefined) continue;
    let start = m.index;
    let raw = m[0];
    // Balanced parentheses only count as a negative sign.
    const negative = Boolean(g['neg'] && g['close']);
    if (g['neg'] && !g['close']) {
      const cut = raw.indexOf('(');
      start += cut + 1;
      raw = raw.slice(cut + 1);
    }
    if (!g['neg'] && g['close']) raw = raw.slice(0, raw.lastIndexOf(')')) + raw.slice(raw.lastIndexOf(')') + 1);
    const trimmed = raw.trimEnd();
    const leading = trimmed.length - trimmed.trimStart().length;
    start += leading;
    raw = trimmed.trimStart();
    const value = Number(num.replace(/,/g, ''));
    const pct = g['pct']?.toLowerCase();
    const scaleWord = g['scale'];
    // `m`/`b`/`k` count as scales only right after currency amounts (`$1.2m`), not in `5 m` (metres).
    let scale = scaleWord ? scaleFromWord(scaleWord) : undefined;
    if (scaleWord && scaleWord.length === 1 && !g['cur']) {
      scale = undefined;
      raw = raw.slice(0, raw.length - scaleWord.length).trimEnd();
    }
    const mention: NumberMention = {
      value: negative || g['sign'] === '-' || g['sign'] === '−' || g['sign'] === '–' ? -value : value,
      raw,
      start,
      end: start + raw.length,
      percent: pct === '%' || pct === 'percent' || pct === 'per cent' || pct === 'pct',
      decimals: num.includes('.') ? num.split('.')[1]!.length : 0,
    };
    if (g['cur']) mention.currency = currencyFromWord(g['cur']) ?? g['cur'];
    if (scale) mention.scale = scale;
    if (pct === 'x' || pct === 'times') mention.times = true;
    out.push(mention);
  }
  if (options.words) {
    for (const m of text.matchAll(WORD_MENTION_RE)) {
      out.push({ value: numberWordValue(m[1]!)!, raw: m[0], start: m.index, end: m.index + m[0].length, percent: false, decimals: 0 });
    }
    out.sort((a, b) => a.start - b.start);
  }
  return out;
}

/** True for a plausible calendar year (1900–2099) written as four bare digits. */
export function isYearLike(mention: Pick<ParsedNumber, 'value' | 'raw' | 'percent' | 'currency' | 'decimals'>): boolean {
  return (
    mention.decimals === 0 &&
    !mention.percent &&
    mention.currency === undefined &&
    Number.isInteger(mention.value) &&
    cellYear(mention.raw.trim(), { prefix: 'fy' }) === mention.value
  );
}

/** Finds a scale stated for a table or passage: `(Millions)`, `in thousands`, `($ in millions)`, `(000s)`, `€m`. */
export function findStatedScale(text: string): Scale | undefined {
  const patterns = [
    /\(\s*(?:in\s+)?(?:[$€£¥]|US\$|USD|EUR|GBP|dollars|euros)?\s*(?:in\s+)?(thousands|millions|billions)\b[^)]*\)/i,
    /\b(?:in|amounts in|dollars in|expressed in|figures in|stated in|presented in)\s+(?:[$€£¥]|US\$|USD|EUR|GBP)?\s*(thousands|millions|billions)\b/i,
    /\b(?:in|of)\s+(?:[$€£¥]|US\$|USD|EUR|GBP)?\s*(thousands|millions|billions)\s+of\s+(?:U\.?S\.?\s+)?(?:dollars|euros|pounds|yen)\b/i,
    /\b(?:USD|EUR|GBP|US\$|\$|€|£)\s?(thousands|millions|billions|mn|bn|m|k)\b(?![a-z])/i,
    /\(\s*(?:[$€£]\s?)?(000s?|000's)\s*\)/i,
    /^\s*\(?\s*(thousands|millions|billions)\s*\)?\s*$/i,
  ];
  for (const re of patterns) {
    const m = re.exec(text);
    if (m) {
      const scale = scaleFromWord(m[1]!);
      if (scale) return scale;
    }
  }
  return undefined;
}

/** Formats a number for an answer: integers without decimals, others rounded to `maxDecimals` (trailing zeros dropped). */
export function formatNumber(value: number, maxDecimals = 4): number {
  if (Number.isInteger(value)) return value;
  const factor = 10 ** maxDecimals;
  return Math.round(value * factor) / factor;
}

/**
 * `en-US` digits with up to 4 decimals (`1,234.5`), the form of {@link describeQuantity}: one formatter made when the
 * module loads (`toLocaleString` built one per call, and the first one loads the locale data in the middle of an ask).
 */
const QUANTITY_DIGITS = new Intl.NumberFormat('en-US', { maximumFractionDigits: 4 });

/** Renders a value with its unit and scale for people: `$1,482 million`, `4.2%`, `1.3x`. */
export function describeQuantity(value: number, unit: { currency?: string; percent?: boolean; scale?: Scale; times?: boolean }): string {
  const abs = Math.abs(value);
  const digits = QUANTITY_DIGITS.format(abs);
  const sign = value < 0 ? '-' : '';
  if (unit.percent) return `${sign}${digits}%`;
  if (unit.times) return `${sign}${digits}x`;
  return `${sign}${unit.currency ?? ''}${digits}${unit.scale ? ` ${unit.scale}` : ''}`;
}
