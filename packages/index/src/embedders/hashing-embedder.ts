import { DocTreeError } from '@doctree/schema';

import { definedOnly } from '../vector/vector-options.js';
import { BaseEmbedder } from './base-embedder.js';
import type { BaseEmbedderOptions } from './base-embedder.js';
import { FNV_OFFSET_BASIS, fnv1aChar, fnv1aUpdate, hashBucket, hashSign, shortDigest } from './feature-hash.js';
import { ENGLISH_STOPWORDS, isWordToken, tokenize } from './text-normalize.js';

/** Options of {@link HashingEmbedder}. Every field except `batchSize` changes the vectors and therefore the id. */
export interface HashingEmbedderOptions extends BaseEmbedderOptions {
  /** Output dimension (number of hash buckets). Default 512. */
  dimension?: number;
  /** Weight of the word-unigram feature family in the final vector. Default 1. */
  wordWeight?: number;
  /** Weight of the word-bigram family (adjacent tokens); 0 disables bigrams. Default 0.5. */
  bigramWeight?: number;
  /** Weight of the character n-gram family (within `<word>` boundaries); 0 disables it. Default 0.5. */
  charWeight?: number;
  /** Shortest character n-gram, counting the `<` `>` boundary markers. Default 3. */
  charNgramMin?: number;
  /** Longest character n-gram. Default 5. */
  charNgramMax?: number;
  /** Term frequency `1 + ln(tf)` when true, raw counts when false. Default true. */
  sublinearTf?: boolean;
  /**
   * Factor on English stopword features (their unigrams, and bigrams of two stopwords); stopwords never produce
   * character n-grams. 1 turns down-weighting off, 0 drops them. Default 0.25.
   */
  stopwordWeight?: number;
}

/** Defaults of {@link HashingEmbedderOptions}. */
export const HASHING_EMBEDDER_DEFAULTS = {
  batchSize: 64,
  dimension: 512,
  wordWeight: 1,
  bigramWeight: 0.5,
  charWeight: 0.5,
  charNgramMin: 3,
  charNgramMax: 5,
  sublinearTf: true,
  stopwordWeight: 0.25,
} as const satisfies Required<HashingEmbedderOptions>;

/** Algorithm version: bump when tokenisation, hashing or weighting change (the golden-vector spec catches it). */
const HASHING_VERSION = 'hashing-v1';
const MAX_DIMENSION = 65_536;

// Distinct FNV start states per feature family, so that the word `ab` and the n-gram `ab` land in different buckets.
const WORD_SEED = fnv1aUpdate(FNV_OFFSET_BASIS, 'w\u0000');
const BIGRAM_SEED = fnv1aUpdate(FNV_OFFSET_BASIS, 'b\u0000');
const CHAR_SEED = fnv1aUpdate(FNV_OFFSET_BASIS, 'c\u0000');
const SPACE = 0x20;
const OPEN = 0x3c; // <
const CLOSE = 0x3e; // >

type Counts = Map<number, number>;
// Bound once: looking `Math` up on the global object in hot loops is ~20x slower inside jest's vm context.
const { log, min: minimum, sqrt } = Math;

function count(map: Counts, hash: number): void {
  map.set(hash, (map.get(hash) ?? 0) + 1);
}

/**
 * Offline embedder by signed feature hashing: word unigrams, word bigrams and character 3–5-grams (within `<word>`
 * markers) of the normalised text ({@link tokenize}: lower case, accents stripped, numbers kept as tokens, `%`
 * and `$` kept) are hashed with FNV-1a + fmix32 into `dimension` buckets with a ±1 sign from an independent bit,
 * counted with sublinear tf `1 + ln(tf)`, each family L2-normalised and mixed with its weight, and the sum
 * L2-normalised. Deterministic across runs and machines, no model files, ~0.1–1 ms per page.
 *
 * The id, e.g. `hashing-v1:d512:w2c3-5:s1a2b3c4d`, names the version, the dimension, the word n-gram order and
 * the character n-gram range, and ends with a digest of every vector-changing setting.
 *
 * @example
 * ```ts
 * const embedder = new HashingEmbedder({ dimension: 512 });
 * const [page] = await embedder.embedDocuments(['Net sales rose 5% to $28.4 billion.']);
 * const query = await embedder.embedQuery('net sales growth');
 * ```
 */
export class HashingEmbedder extends BaseEmbedder {
  readonly id: string;
  readonly dimension: number;
  /** The resolved settings (defaults merged). */
  readonly settings: Readonly<Required<Omit<HashingEmbedderOptions, 'batchSize'>>>;

  constructor(options: HashingEmbedderOptions = {}) {
    const merged = { ...HASHING_EMBEDDER_DEFAULTS, ...definedOnly(options) };
    super({ batchSize: merged.batchSize });
    const { batchSize: _batchSize, ...settings } = merged;
    validate(settings);
    this.settings = Object.freeze(settings);
    this.dimension = settings.dimension;
    const order = settings.bigramWeight > 0 ? 2 : 1;
    const chars = settings.charWeight > 0 ? `c${settings.charNgramMin}-${settings.charNgramMax}` : 'c0';
    const digest = shortDigest(JSON.stringify([HASHING_VERSION, ...Object.entries(settings).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))]));
    this.id = `${HASHING_VERSION}:d${settings.dimension}:w${order}${chars}:s${digest}`;
  }

  protected async _embedDocuments(texts: readonly string[]): Promise<Float32Array[]> {
    return texts.map((text) => this.embedOne(text));
  }

  private embedOne(text: string): Float32Array {
    const { dimension, wordWeight, bigramWeight, charWeight, charNgramMin, charNgramMax, stopwordWeight } = this.settings;
    const tokens = tokenize(text);
    const words: Counts = new Map();
    const stopWords: Counts = new Map();
    const bigrams: Counts = new Map();
    const stopBigrams: Counts = new Map();
    const chars: Counts = new Map();
    const stop = tokens.map((token) => ENGLISH_STOPWORDS.has(token));
    tokens.forEach((token, i) => {
      const wordHash = fnv1aUpdate(WORD_SEED, token);
      count(stop[i] ? stopWords : words, wordHash);
      if (bigramWeight > 0 && i > 0) {
        const previous = tokens[i - 1]!;
        const hash = fnv1aUpdate(fnv1aChar(fnv1aUpdate(BIGRAM_SEED, previous), SPACE), token);
        count(stop[i] && stop[i - 1] ? stopBigrams : bigrams, hash);
      }
      if (charWeight > 0 && !stop[i] && isWordToken(token)) addCharNgrams(chars, token, charNgramMin, charNgramMax);
    });
    const out = new Float32Array(dimension);
    const family = new Float64Array(dimension);
    const mix = (weight: number, parts: Array<[Counts, number]>): void => {
      if (weight <= 0) return;
      family.fill(0);
      let any = false;
      for (const [counts, factor] of parts) {
        if (factor <= 0) continue;
        for (const [hash, tf] of counts) {
          const value = factor * (this.settings.sublinearTf ? 1 + log(tf) : tf);
          family[hashBucket(hash, dimension)]! += hashSign(hash) * value;
          any = true;
        }
      }
      if (!any) return;
      let norm = 0;
      for (let i = 0; i < dimension; i++) norm += family[i]! * family[i]!;
      norm = sqrt(norm);
      if (norm === 0) return;
      for (let i = 0; i < dimension; i++) out[i] = out[i]! + (weight * family[i]!) / norm;
    };
    mix(wordWeight, [
      [words, 1],
      [stopWords, stopwordWeight],
    ]);
    mix(bigramWeight, [
      [bigrams, 1],
      [stopBigrams, stopwordWeight],
    ]);
    mix(charWeight, [[chars, 1]]);
    let norm = 0;
    for (let i = 0; i < dimension; i++) norm += out[i]! * out[i]!;
    norm = sqrt(norm);
    if (norm > 0) for (let i = 0; i < dimension; i++) out[i] = out[i]! / norm;
    return out;
  }
}

/** Counts the character n-grams of `<token>` with lengths `min..max`, hashing each prefix run incrementally. */
function addCharNgrams(chars: Counts, token: string, min: number, max: number): void {
  const length = token.length + 2;
  const codeAt = (i: number): number => (i === 0 ? OPEN : i === length - 1 ? CLOSE : token.charCodeAt(i - 1));
  if (length < min) {
    // Very short words (`<a>` with min 4) still get one feature: the whole marked word.
    let hash = CHAR_SEED;
    for (let i = 0; i < length; i++) hash = fnv1aChar(hash, codeAt(i));
    count(chars, hash);
    return;
  }
  for (let start = 0; start + min <= length; start++) {
    let hash = CHAR_SEED;
    const stopAt = minimum(length, start + max);
    for (let end = start; end < stopAt; end++) {
      hash = fnv1aChar(hash, codeAt(end));
      if (end - start + 1 >= min) count(chars, hash);
    }
  }
}

function validate(settings: Required<Omit<HashingEmbedderOptions, 'batchSize'>>): void {
  const fail = (message: string): never => {
    throw new DocTreeError('CONFIG_INVALID', `HashingEmbedder: ${message}`);
  };
  const { dimension, wordWeight, bigramWeight, charWeight, charNgramMin, charNgramMax, stopwordWeight, sublinearTf } = settings;
  if (!Number.isInteger(dimension) || dimension < 1 || dimension > MAX_DIMENSION) fail(`dimension must be an integer in 1..${MAX_DIMENSION}, got ${String(dimension)}`);
  for (const [name, value] of Object.entries({ wordWeight, bigramWeight, charWeight, stopwordWeight })) {
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) fail(`${name} must be a finite number >= 0, got ${String(value)}`);
  }
  if (wordWeight + bigramWeight + charWeight <= 0) fail('at least one of wordWeight, bigramWeight, charWeight must be positive');
  if (!Number.isInteger(charNgramMin) || !Number.isInteger(charNgramMax) || charNgramMin < 1 || charNgramMax < charNgramMin || charNgramMax > 16) {
    fail(`character n-gram range must satisfy 1 <= charNgramMin <= charNgramMax <= 16, got ${String(charNgramMin)}-${String(charNgramMax)}`);
  }
  if (typeof sublinearTf !== 'boolean') fail('sublinearTf must be a boolean');
}
