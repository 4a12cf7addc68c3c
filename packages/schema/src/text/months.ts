/**
 * English month names: one vocabulary for every package that reads dates (absence checks, metadata, readers). The
 * words are lower case; match them case-insensitively.
 */

/** The month names, January first. */
export const MONTH_NAMES = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'] as const;

/** Every word that names a month — the full name, its three-letter abbreviation and `sept` — to its number (1–12). */
export const MONTH_WORDS: ReadonlyMap<string, number> = new Map(
  MONTH_NAMES.flatMap((name, i): Array<[string, number]> => [[name, i + 1], [name.slice(0, 3), i + 1], ...(name === 'september' ? [['sept', 9] as [string, number]] : [])]),
);

/** The number (1–12) of a month word (`March`, `mar`, `Sept`), or undefined. */
export function monthNumber(word: string): number | undefined {
  return MONTH_WORDS.get(word.toLowerCase());
}

/**
 * A regular-expression alternation (no group) of the words of one month (`month` 1–12), or of every month when
 * omitted; longer words first, so `september` is tried before `sep`.
 */
export function monthWordSource(month?: number): string {
  return [...MONTH_WORDS]
    .filter(([, m]) => month === undefined || m === month)
    .map(([word]) => word)
    .sort((a, b) => b.length - a.length)
    .join('|');
}
