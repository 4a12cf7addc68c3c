import { findYears, ownTable, splitSentences, withoutYears } from '@doctree/schema';
/**
 * Light text features shared by summaries and index records: sentences, word tokens, token estimates,
 * units, years, numbers and keywords. Deterministic and dependency-free.
 */

/** Rough token count (≈ 4 characters per token, the usual estimate for English BPE vocabularies). */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** Sentences and years come from the one vocabulary of `@doctree/schema` (re-exported here for index users). */
export { findYears, splitSentences };

const STOPWORDS = new Set(
  'a an and are as at be been being but by for from had has have he her his i if in into is it its of on or our she so such than that the their them then there these they this those to was we were what when where which while who will with within without would you your not no can may also more most other over under up down out only any each both all per vs'.split(
    ' ',
  ),
);

/** Lower-case word tokens without stopwords; numbers are kept. */
export function contentWords(text: string): string[] {
  return (text.toLowerCase().match(/[a-z][a-z0-9&'-]*[a-z0-9]|[a-z]|[0-9]+(?:[.,][0-9]+)*/g) ?? []).filter((w) => !STOPWORDS.has(w));
}

/**
 * Units recognised in text, with the aliases they add to sparse docs. A frozen table without a prototype: looking up
 * a word that is no unit (`constructor`, `toString`) gives undefined, never a property of Object.prototype.
 */
export const UNIT_ALIASES: Readonly<Record<string, string>> = ownTable<string>({
  '%': 'percent pct percentage',
  $: 'usd dollar dollars',
  '€': 'eur euro euros',
  '£': 'gbp pound pounds',
  ms: 'millisecond milliseconds latency',
  s: 'second seconds',
  kg: 'kilogram kilograms',
  km: 'kilometer kilometers',
  mm: 'millimeter millimeters',
  gb: 'gigabyte gigabytes',
  mb: 'megabyte megabytes',
  millions: 'million mn',
  billions: 'billion bn',
  thousands: 'thousand',
  bps: 'basis points',
});

/** Units found in text: `%`, currency symbols, scales (`in millions`), and common measurement units after numbers. */
export function findUnits(text: string): string[] {
  const units = new Set<string>();
  if (/[0-9]\s?%|\bpercent\b/i.test(text)) units.add('%');
  if (/\$|\bUSD\b|\bdollars?\b/i.test(text)) units.add('$');
  if (/€\s?[0-9]|\bEUR\b/.test(text)) units.add('€');
  if (/£\s?[0-9]|\bGBP\b/.test(text)) units.add('£');
  const scale = /\(?\b(?:in|amounts in|dollars in)\s+(millions|billions|thousands)\b/i.exec(text);
  if (scale) units.add(scale[1]!.toLowerCase());
  for (const m of text.matchAll(/[0-9]\s?(ms|kg|km|mm|gb|mb|bps)\b/gi)) units.add(m[1]!.toLowerCase());
  return [...units].sort();
}

/** True when text carries quantities (not just years or list numbering). */
export function hasNumbers(text: string): boolean {
  return /[0-9][0-9,]*\.[0-9]+|[0-9]{1,3}(,[0-9]{3})+|\$\s?[0-9]|[0-9]\s?%|\([0-9][0-9,.]*\)|\b[0-9]{2,}\b/.test(withoutYears(text));
}

/** Term frequencies of content words. */
export function termFrequencies(text: string): Map<string, number> {
  const tf = new Map<string, number>();
  for (const w of contentWords(text)) if (!/^[0-9.,]+$/.test(w)) tf.set(w, (tf.get(w) ?? 0) + 1);
  return tf;
}

/** Cosine similarity of two term-frequency maps. */
export function cosine(a: Map<string, number>, b: Map<string, number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (const [k, v] of a) {
    na += v * v;
    const w = b.get(k);
    if (w !== undefined) dot += v * w;
  }
  for (const v of b.values()) nb += v * v;
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/** Top-k keywords of a text by tf × idf against document frequencies (`df`, over `docs` documents). */
export function topKeywords(text: string, k: number, df?: Map<string, number>, docs = 1): string[] {
  const tf = termFrequencies(text);
  const scored = [...tf].map(([w, f]) => [w, (1 + Math.log(f)) * Math.log(1 + docs / (1 + (df?.get(w) ?? 0)))] as const);
  return scored
    .sort((x, y) => y[1] - x[1] || x[0].localeCompare(y[0]))
    .slice(0, k)
    .map(([w]) => w);
}
