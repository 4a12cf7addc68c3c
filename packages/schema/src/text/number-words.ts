/**
 * English number words (`zero` … `twenty`, the tens, `hundred`): the one table DocTree reads spelled-out numbers with
 * (page numbers, item counts, answers). A `Map`, so a word of untrusted text never finds a property of
 * `Object.prototype`.
 */

/** Number words and their values, in value order: `zero` … `twenty`, `thirty` … `ninety`, `hundred`. */
export const NUMBER_WORDS: ReadonlyMap<string, number> = new Map([
  ...['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen', 'twenty'].map(
    (w, i) => [w, i] as const,
  ),
  ...['thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'].map((w, i) => [w, 30 + 10 * i] as const),
  ['hundred', 100],
]);

/**
 * The value of a number word (any case), else undefined.
 *
 * @example
 * ```ts
 * numberWordValue('Seven'); // 7
 * numberWordValue('constructor'); // undefined
 * ```
 */
export function numberWordValue(word: string): number | undefined {
  return NUMBER_WORDS.get(word.toLowerCase());
}

/**
 * The number words whose value lies in `[min, max]`, in value order.
 *
 * @example
 * ```ts
 * numberWordsBetween(2, 4); // ['two', 'three', 'four']
 * ```
 */
export function numberWordsBetween(min: number, max: number): string[] {
  return [...NUMBER_WORDS].filter(([, v]) => v >= min && v <= max).map(([w]) => w);
}

/**
 * Regex source (an alternation without a group) of the number words valued in `[min, max]`, in value order, for a
 * pattern that bounds it with `\b`.
 *
 * @example
 * ```ts
 * new RegExp(`\\b(?:${numberWordSource(1, 20)})\\b`, 'i').test('page five'); // true
 * ```
 */
export function numberWordSource(min: number, max: number): string {
  return numberWordsBetween(min, max).join('|');
}
