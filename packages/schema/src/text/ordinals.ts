/**
 * English ordinals (`first` … `twentieth`, `1st`, `22nd`): the one table DocTree reads "the second page", "the third
 * quarter" with. A `Map`, so a word of untrusted text never finds a property of `Object.prototype`.
 */

/** Ordinal words and their values, in value order: `first` … `twentieth`. */
export const ORDINAL_WORDS: ReadonlyMap<string, number> = new Map(
  [
    'first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth', 'tenth',
    'eleventh', 'twelfth', 'thirteenth', 'fourteenth', 'fifteenth', 'sixteenth', 'seventeenth', 'eighteenth', 'nineteenth', 'twentieth',
  ].map((w, i) => [w, i + 1] as const),
);

/** What {@link ordinalValue} accepts. */
export interface OrdinalOptions {
  /** Largest ordinal word read (`tenth` with 10); default 20. */
  maxWord?: number;
  /**
   * Digit ordinals: `any` — digits with any of `st`/`nd`/`rd`/`th` (`3rd`, `3th`, `41st`), the default; `strict` —
   * only the right suffix (`1st`, `2nd`, `3rd`, `11th`); `none` — words only.
   */
  digits?: 'any' | 'strict' | 'none';
}

function digitSuffix(n: number): string {
  if (n % 100 >= 11 && n % 100 <= 13) return 'th';
  return n % 10 === 1 ? 'st' : n % 10 === 2 ? 'nd' : n % 10 === 3 ? 'rd' : 'th';
}

/**
 * The value of an ordinal (`second` → 2, `3rd` → 3; any case), else undefined.
 *
 * @example
 * ```ts
 * ordinalValue('Third'); // 3
 * ordinalValue('12th'); // 12
 * ordinalValue('twelfth', { maxWord: 10 }); // undefined
 * ```
 */
export function ordinalValue(token: string, options: OrdinalOptions = {}): number | undefined {
  const lower = token.toLowerCase();
  const word = ORDINAL_WORDS.get(lower);
  if (word !== undefined) return word <= (options.maxWord ?? 20) ? word : undefined;
  const digits = options.digits ?? 'any';
  const m = /^([0-9]+)(st|nd|rd|th)$/.exec(lower);
  if (!m || digits === 'none') return undefined;
  const n = Number(m[1]);
  return digits === 'any' || digitSuffix(n) === m[2] ? n : undefined;
}

/**
 * Regex source (an alternation without a group) of the ordinal words up to `maxWord` (default 20), in value order.
 *
 * @example
 * ```ts
 * new RegExp(`\\b(?:${ordinalWordSource(4)})\\s+quarter\\b`, 'i').test('third quarter'); // true
 * ```
 */
export function ordinalWordSource(maxWord = 20): string {
  return [...ORDINAL_WORDS].filter(([, v]) => v <= maxWord).map(([w]) => w).join('|');
}
