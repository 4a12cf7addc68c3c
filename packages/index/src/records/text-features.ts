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

/**
 * Term frequencies of content words (numbers left out), keys in order of first occurrence. The same terms as
 * {@link contentWords} without its number tokens, read in one pass over the lower-cased text without a regular
 * expression or an intermediate array: a term starts at a letter and runs over `[a-z0-9&'-]` up to its last letter or
 * digit (the pattern's `[a-z][a-z0-9&'-]*[a-z0-9]|[a-z]`). A number token consists of `[0-9.,]` only, so it never
 * holds a letter, and skipping it character by character finds the same terms.
 */
export function termFrequencies(text: string): Map<string, number> {
  const tf = new Map<string, number>();
  forEachTerm(text.toLowerCase(), (word) => tf.set(word, (tf.get(word) ?? 0) + 1));
  return tf;
}

/** Calls `visit` with every term of lower-cased text that is no stopword, in text order: the term, its start and end (exclusive). */
function forEachTerm(lower: string, visit: (word: string, start: number, end: number) => void): void {
  const length = lower.length;
  let i = 0;
  while (i < length) {
    if (!isLetterCode(lower.charCodeAt(i))) {
      i++;
      continue;
    }
    let last = i;
    let j = i + 1;
    for (; j < length; j++) {
      const code = lower.charCodeAt(j);
      if (isLetterCode(code) || isDigitCode(code)) last = j;
      else if (code !== AMPERSAND && code !== APOSTROPHE && code !== HYPHEN) break;
    }
    const word = lower.slice(i, last + 1);
    if (!STOPWORDS.has(word)) visit(word, i, last + 1);
    // The characters between the term's end and `j` are `&'-` and the one at `j` is no word character: none starts a term.
    i = j;
  }
}

/**
 * Term frequencies of many slices of one text (the subtrees of a document's sections, nested in one another): the
 * lower-cased text is read once, and a slice's counts are those of the terms inside it — the same map, in the same
 * order, as {@link termFrequencies} of the slice, without reading the slice again.
 *
 * That holds when lower-casing keeps every character's position (it does unless the text has `İ`, the one character
 * whose lower case is longer; checked in text-features.spec.ts over every code point) and the slice is cut where no
 * term can run across: at either end of the text, or next to a character that is no word character (`[a-z0-9&'-]`
 * after lower-casing). Any other slice is read on its own.
 */
export class SliceTermCounter {
  readonly #text: string;
  readonly #lower: string;
  readonly #positional: boolean;
  /** Start and end (exclusive) of every term that is no stopword, in text order, and its id. */
  readonly #starts: number[] = [];
  readonly #ends: number[] = [];
  readonly #ids: number[] = [];
  /** Term by id, and id by term. */
  readonly #terms: string[] = [];
  readonly #idOf = new Map<string, number>();
  #counts = new Int32Array(0);

  constructor(text: string) {
    this.#text = text;
    this.#lower = text.toLowerCase();
    this.#positional = this.#lower.length === text.length;
    if (!this.#positional) return;
    forEachTerm(this.#lower, (word, start, end) => {
      let id = this.#idOf.get(word);
      if (id === undefined) {
        id = this.#terms.length;
        this.#terms.push(word);
        this.#idOf.set(word, id);
      }
      this.#starts.push(start);
      this.#ends.push(end);
      this.#ids.push(id);
    });
    this.#counts = new Int32Array(this.#terms.length);
  }

  /** {@link termFrequencies} of `text.slice(start, end)`. */
  termFrequencies(start: number, end: number): Map<string, number> {
    const length = this.#text.length;
    const from = Math.min(Math.max(Math.trunc(start) || 0, 0), length);
    const to = Math.min(Math.max(Math.trunc(end) || 0, 0), length);
    // Anything unusual (negative or fractional bounds, a reversed slice) is read the plain way.
    if (!this.#positional || from !== start || to !== end || from >= to || !this.#cutsCleanly(from) || !this.#cutsCleanly(to)) {
      return termFrequencies(this.#text.slice(start, end));
    }
    const starts = this.#starts;
    // First term starting at or after `from` (binary search).
    let lo = 0;
    let hi = starts.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (starts[mid]! < from) lo = mid + 1;
      else hi = mid;
    }
    const counts = this.#counts;
    const seen: number[] = [];
    for (let t = lo; t < starts.length && this.#ends[t]! <= to; t++) {
      const id = this.#ids[t]!;
      if (counts[id] === 0) seen.push(id);
      counts[id]!++;
    }
    const tf = new Map<string, number>();
    for (const id of seen) {
      tf.set(this.#terms[id]!, counts[id]!);
      counts[id] = 0;
    }
    return tf;
  }

  /** True when no term can run across position `at` of the lower-cased text. */
  #cutsCleanly(at: number): boolean {
    return at === 0 || at === this.#lower.length || !isWordCode(this.#lower.charCodeAt(at - 1)) || !isWordCode(this.#lower.charCodeAt(at));
  }
}

const AMPERSAND = 0x26;
const APOSTROPHE = 0x27;
const HYPHEN = 0x2d;
const isLetterCode = (code: number): boolean => code >= 0x61 && code <= 0x7a;
const isDigitCode = (code: number): boolean => code >= 0x30 && code <= 0x39;
const isWordCode = (code: number): boolean => isLetterCode(code) || isDigitCode(code) || code === AMPERSAND || code === APOSTROPHE || code === HYPHEN;

/** Sum of the squared term frequencies: the squared norm {@link cosine} computes for a map. */
export function squaredNorm(tf: ReadonlyMap<string, number>): number {
  let norm = 0;
  for (const v of tf.values()) norm += v * v;
  return norm;
}

/** Cosine similarity of two term-frequency maps. */
export function cosine(a: Map<string, number>, b: Map<string, number>): number {
  return cosineWithNorms(a, squaredNorm(a), b, squaredNorm(b));
}

/**
 * {@link cosine} with both squared norms ({@link squaredNorm}) known beforehand: the dot product runs over the entries
 * of `a` in order, as in {@link cosine}, so the result is the same number.
 */
export function cosineWithNorms(a: ReadonlyMap<string, number>, normA: number, b: ReadonlyMap<string, number>, normB: number): number {
  if (normA === 0 || normB === 0) return 0;
  let dot = 0;
  for (const [k, v] of a) {
    const w = b.get(k);
    if (w !== undefined) dot += v * w;
  }
  return dot / Math.sqrt(normA * normB);
}

/** Top-k keywords of a text by tf × idf against document frequencies (`df`, over `docs` documents). */
export function topKeywords(text: string, k: number, df?: Map<string, number>, docs = 1): string[] {
  return keywordsOfFrequencies(termFrequencies(text), k, df, docs);
}

/**
 * {@link topKeywords} of term frequencies already counted ({@link termFrequencies} of the text). Keywords rank by
 * score, then by `localeCompare`; for a whole-number `k` the best `k` are kept in one pass (a stable insertion into a
 * list of at most `k`: the order a stable sort of every term gives) instead of sorting the whole vocabulary.
 */
export function keywordsOfFrequencies(tf: ReadonlyMap<string, number>, k: number, df?: ReadonlyMap<string, number>, docs = 1): string[] {
  const score = (w: string, f: number): number => (1 + Math.log(f)) * Math.log(1 + docs / (1 + (df?.get(w) ?? 0)));
  const order = (x: readonly [string, number], y: readonly [string, number]): number => y[1] - x[1] || x[0].localeCompare(y[0]);
  if (!Number.isSafeInteger(k) || k < 0) {
    return Array.from(tf, ([w, f]) => [w, score(w, f)] as const)
      .sort(order)
      .slice(0, k)
      .map(([w]) => w);
  }
  const best: Array<readonly [string, number]> = [];
  for (const [w, f] of tf) {
    const s = score(w, f);
    // A full list keeps its place unless the term scores above its last (or ties and sorts before it).
    if (best.length === k && (k === 0 || s < best[k - 1]![1])) continue;
    const entry = [w, s] as const;
    if (best.length === k && order(best[k - 1]!, entry) <= 0) continue;
    // After every kept entry that ranks before it or equal (ties keep their first-seen order, as a stable sort does).
    let at = best.length;
    while (at > 0 && order(best[at - 1]!, entry) > 0) at--;
    best.splice(at, 0, entry);
    if (best.length > k) best.pop();
  }
  return best.map(([w]) => w);
}
