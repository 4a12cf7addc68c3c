/**
 * Numbers in financial answers: `$1482.00`, `1,482 million`, `$1.482 billion`, `(1,482)`, `12.7%`, `$2,018mn`.
 * Used to score FinanceBench-style open answers, whose gold strings carry currency, scale words and rounding.
 */

/** A number found in a text, with its decorations. */
export interface NumberMention {
  /** The matched text, decorations included. */
  text: string;
  /** Offset of `text` in the source. */
  start: number;
  end: number;
  /** The number as written, signed (accounting parentheses and minus signs make it negative), without scale. */
  base: number;
  /** Multiplier of a scale word or suffix (`million` → 1e6); 1 when none. */
  scale: number;
  /** A scale word or suffix was written. */
  scaleExplicit: boolean;
  /** `base × scale`. */
  value: number;
  /** Followed by `%`, `percent` or `pct`. */
  percent: boolean;
  /** Written in accounting parentheses, `(1,482)`. */
  accountingNegative: boolean;
  /** Currency symbol or code, e.g. `$`, `USD`; null when none. */
  currency: string | null;
  /** A bare four-digit integer in 1900–2100 (a year rather than an amount). */
  yearLike: boolean;
}

const WORD_SCALES: ReadonlyMap<string, number> = new Map(Object.entries({
  thousand: 1e3,
  thousands: 1e3,
  million: 1e6,
  millions: 1e6,
  mn: 1e6,
  mln: 1e6,
  billion: 1e9,
  billions: 1e9,
  bn: 1e9,
  bln: 1e9,
  trillion: 1e12,
  trillions: 1e12,
}));
/** Short suffixes read as scales only next to a currency (`$2.1B`), since a bare `2M` or `5mm` is usually a name or a size, not an amount. */
const SHORT_SCALES: ReadonlyMap<string, number> = new Map(Object.entries({ k: 1e3, m: 1e6, mm: 1e6, b: 1e9, t: 1e12, tn: 1e12 }));

const NUMBER_CORE = /\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+/g;
const CURRENCY_BEFORE = /(US\$|A\$|C\$|\$|€|£|¥|₹|\b(?:USD|EUR|GBP|JPY|INR|CNY|RMB|Rs\.?))\s*$/i;

/**
 * Finds the numbers of a text with their sign, currency, percent and scale. Numbers glued to a preceding letter
 * (`FY2023`, `Q4`) or followed by an unknown letter suffix (`2M`, `2nd`, `10-K`) are not amounts and are skipped.
 *
 * @example
 * ```ts
 * extractNumberMentions('Capex was $1.482 billion in 2018')
 * // [{ base: 1.482, scale: 1e9, value: 1.482e9, currency: '$', … }, { base: 2018, yearLike: true, … }]
 * ```
 */
export function extractNumberMentions(text: string): NumberMention[] {
  const mentions: NumberMention[] = [];
  for (const match of text.matchAll(NUMBER_CORE)) {
    const coreStart = match.index;
    const coreEnd = coreStart + match[0].length;
    const before = text.slice(0, coreStart);
    if (/[\p{L}_]$/u.test(before) && !CURRENCY_BEFORE.test(before)) continue;
    if (/\d[.,]?$/.test(before)) continue;
    let start = coreStart;
    let currency: string | null = null;
    let negative = false;
    // A minus sign counts when it touches what follows and does not join two words or numbers (`2015-2016`, `non-5`).
    const signBefore = (pos: number): boolean => pos > 0 && /[-−–]/.test(text[pos - 1]!) && (pos === 1 || !/[\p{L}\p{Nd}]/u.test(text[pos - 2]!));
    if (signBefore(start)) {
      negative = true;
      start -= 1;
    }
    const cur = CURRENCY_BEFORE.exec(text.slice(0, start));
    if (cur) {
      currency = cur[1]!.toUpperCase() === 'US$' ? '$' : cur[1]!;
      start = cur.index;
      if (!negative && signBefore(start)) {
        negative = true;
        start -= 1;
      }
    }
    const left = text.slice(0, start);
    let open = false;
    const paren = /\(\s*$/.exec(left);
    let end = coreEnd;
    let after = text.slice(coreEnd);
    if (paren) {
      const close = /^\s*\)/.exec(after);
      if (close) {
        open = true;
        start = paren.index;
        end += close[0].length;
        after = after.slice(close[0].length);
      }
    }
    if (/^[-–]\p{L}/u.test(after)) continue;
    if (/^[.,]\d/.test(after)) continue;
    let percent = false;
    let scale = 1;
    let scaleExplicit = false;
    const pct = /^\s*(%|percent\b|per\s+cent\b|pct\b)/i.exec(after);
    if (pct) {
      percent = true;
      end += pct[0].length;
    } else {
      const word = /^\s*([a-z]+)\b/i.exec(after);
      const glued = /^([a-z]+)\b/i.exec(after);
      const wordScale = word ? WORD_SCALES.get(word[1]!.toLowerCase()) : undefined;
      const shortScale = currency !== null && word ? SHORT_SCALES.get(word[1]!.toLowerCase()) : undefined;
      if (wordScale !== undefined || shortScale !== undefined) {
        scale = (wordScale ?? shortScale)!;
        scaleExplicit = true;
        end += word![0].length;
      } else if (glued && !/^x$/i.test(glued[1]!)) {
        continue;
      }
    }
    const base = Number(match[0].replace(/,/g, '')) * (negative || open ? -1 : 1);
    if (!Number.isFinite(base)) continue;
    const yearLike =
      !percent && !scaleExplicit && currency === null && !open && !negative && /^\d{4}$/.test(match[0]) && base >= 1900 && base <= 2100;
    mentions.push({
      text: text.slice(start, end),
      start,
      end,
      base,
      scale,
      scaleExplicit,
      value: base * scale,
      percent,
      accountingNegative: open,
      currency,
      yearLike,
    });
  }
  return mentions;
}

const FILLER_WORDS = new Set([
  'usd',
  'us',
  'dollar',
  'dollars',
  'eur',
  'euro',
  'euros',
  'gbp',
  'in',
  'of',
  'approximately',
  'approx',
  'about',
  'around',
  'roughly',
  'nearly',
  'almost',
  'per',
  'share',
  'shares',
  'x',
  'times',
]);

/**
 * Reads an answer that is a single number with decorations only (`$1482.00`, `1.482 billion USD`, `(1,482)`,
 * `approximately 12.7%`); `undefined` when the answer says more than one number.
 */
export function parseNumericAnswer(text: string): NumberMention | undefined {
  const mentions = extractNumberMentions(text);
  if (mentions.length !== 1) return undefined;
  const mention = mentions[0]!;
  const rest = (text.slice(0, mention.start) + ' ' + text.slice(mention.end)).toLowerCase();
  const words = rest.split(/[^\p{L}]+/u).filter((w) => w !== '');
  if (!words.every((w) => FILLER_WORDS.has(w))) return undefined;
  if (/[\p{N}]/u.test(rest)) return undefined;
  return mention;
}

/** Options of {@link numbersMatch}. */
export interface NumberMatchOptions {
  /** Largest accepted relative difference. Default 0.01 (MMLongBench-Doc's `isclose(rel_tol=0.01)`). */
  relativeTolerance?: number;
  /** When only one side states a scale, let the other be in thousands/millions/billions/trillions. Default true. */
  implicitScale?: boolean;
  /** Accept a percent against its fraction (`12.7%` = `0.127`) and a percent written without `%`. Default true. */
  percentAsFraction?: boolean;
}

/** Defaults of {@link NumberMatchOptions}. */
export const NUMBER_MATCH_DEFAULTS = {
  relativeTolerance: 0.01,
  implicitScale: true,
  percentAsFraction: true,
} as const satisfies Required<NumberMatchOptions>;

function close(a: number, b: number, tolerance: number): boolean {
  if (a === b) return true;
  return Math.abs(a - b) <= tolerance * Math.max(Math.abs(a), Math.abs(b));
}

const IMPLICIT_MULTIPLIERS = [1, 1e3, 1e6, 1e9, 1e12, 1e-3, 1e-6, 1e-9, 1e-12];

/**
 * Whether a predicted number matches a gold number: equal within `relativeTolerance` after scale words
 * (`1,482 million` = `1.482 billion`), with an implicit scale on the side that states none (`$1482.00` in a question
 * "in USD millions" = `1.482 billion`), percent vs fraction, and accounting parentheses compared by magnitude
 * (`(1,482)` = `1482`; an explicit minus sign must agree).
 */
export function numbersMatch(gold: NumberMention, prediction: NumberMention, options: NumberMatchOptions = {}): boolean {
  const { relativeTolerance, implicitScale, percentAsFraction } = { ...NUMBER_MATCH_DEFAULTS, ...options };
  const magnitude = gold.accountingNegative || prediction.accountingNegative;
  const g = magnitude ? Math.abs(gold.value) : gold.value;
  const p = magnitude ? Math.abs(prediction.value) : prediction.value;
  const pairs: Array<[number, number]> = [[g, p]];
  if (percentAsFraction && gold.percent !== prediction.percent) {
    pairs.push([gold.percent ? g / 100 : g, prediction.percent ? p / 100 : p]);
  }
  const oneImplicit = implicitScale && gold.scaleExplicit !== prediction.scaleExplicit;
  const multipliers = oneImplicit ? IMPLICIT_MULTIPLIERS : [1];
  for (const [a, b] of pairs) {
    for (const m of multipliers) {
      // Scale the side without a scale word.
      const [x, y] = gold.scaleExplicit ? [a, b * m] : [a * m, b];
      if (close(x, y, relativeTolerance)) return true;
    }
  }
  return false;
}
