import { DocTreeError } from '@doctree/schema';
import type { Embedder, EmbedOptions } from '@doctree/schema';

import { normalizeInPlace } from './vector-math.js';

/** Options shared by every {@link BaseEmbedder} subclass. */
export interface BaseEmbedderOptions {
  /** Texts handed to the backend per call of the `_embedDocuments` hook; `onProgress` is called after each batch. Default 64. */
  batchSize?: number;
}

/** Defaults of {@link BaseEmbedderOptions}. */
export const BASE_EMBEDDER_DEFAULTS = {
  batchSize: 64,
} as const satisfies Required<BaseEmbedderOptions>;

/** Largest accepted batch size (guards against a swapped argument). */
const MAX_BATCH_SIZE = 100_000;

/**
 * Abstract base of the DocTree embedders (the LangChain `Embeddings` pattern): the public methods validate the
 * input (an array of strings; empty strings are allowed and give an all-zero vector), split it into batches,
 * report progress, honour an `AbortSignal` between batches, make sure the backend is initialised, and
 * L2-normalise what the protected hooks `_embedDocuments` / `_embedQuery` return.
 *
 * Subclasses implement `id`, `dimension`, `_embedDocuments` and optionally `_embedQuery` (asymmetric models)
 * and `_initialize` (lazy loading of a model or client).
 *
 * @example
 * ```ts
 * class ConstantEmbedder extends BaseEmbedder {
 *   readonly id = 'constant-v1:d2';
 *   readonly dimension = 2;
 *   protected async _embedDocuments(texts: readonly string[]) {
 *     return texts.map(() => new Float32Array([1, 1]));
 *   }
 * }
 * ```
 */
export abstract class BaseEmbedder implements Embedder {
  /** Stable identifier recorded in every vector file; changes whenever the vectors would change. */
  abstract readonly id: string;
  /** Output dimension. */
  abstract readonly dimension: number;
  /** Texts per backend call. */
  readonly batchSize: number;

  #ready: Promise<void> | undefined;

  constructor(options: BaseEmbedderOptions = {}) {
    const batchSize = options.batchSize ?? BASE_EMBEDDER_DEFAULTS.batchSize;
    if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > MAX_BATCH_SIZE) {
      throw new DocTreeError('CONFIG_INVALID', `Embedder batch size must be an integer in 1..${MAX_BATCH_SIZE}, got ${String(batchSize)}`);
    }
    this.batchSize = batchSize;
  }

  /**
   * Prepares the backend (loads word vectors, creates the HTTP client…). Called implicitly by the embed methods;
   * call it up front to fail early. Idempotent; a failed initialisation is retried by the next call.
   */
  initialize(): Promise<void> {
    return this.ensureReady();
  }

  /** Embeds documents (passages) in batches of {@link batchSize}; vectors are L2-normalised (all zeros for empty texts). */
  async embedDocuments(texts: readonly string[], options: EmbedOptions = {}): Promise<Float32Array[]> {
    if (!Array.isArray(texts)) {
      throw new DocTreeError('USAGE', `embedDocuments expects an array of strings, got ${describe(texts)}`, { hint: 'Pass string[]; wrap a single text in an array or use embedQuery.' });
    }
    const bad = texts.findIndex((text) => typeof text !== 'string');
    if (bad >= 0) {
      throw new DocTreeError('USAGE', `embedDocuments expects an array of strings; item ${bad} is ${describe(texts[bad])}`, { hint: 'Pass string[].' });
    }
    const { signal, onProgress } = options;
    throwIfAborted(signal);
    if (texts.length === 0) return [];
    await this.ensureReady();
    const out: Float32Array[] = [];
    for (let start = 0; start < texts.length; start += this.batchSize) {
      throwIfAborted(signal);
      const batch = texts.slice(start, start + this.batchSize);
      const vectors = await this._embedDocuments(batch, signal);
      throwIfAborted(signal);
      if (!Array.isArray(vectors) || vectors.length !== batch.length) {
        throw new DocTreeError('INTERNAL', `${this.id} returned ${Array.isArray(vectors) ? vectors.length : 'no'} vectors for ${batch.length} texts`);
      }
      for (const vector of vectors) out.push(this.finish(vector));
      onProgress?.(out.length, texts.length);
      // Let timers and I/O run between CPU-bound batches, so that an abort requested meanwhile is seen.
      if (out.length < texts.length) await yieldToEventLoop();
    }
    return out;
  }

  /** Embeds one query; L2-normalised (all zeros for an empty text). */
  async embedQuery(text: string, options: EmbedOptions = {}): Promise<Float32Array> {
    if (typeof text !== 'string') {
      throw new DocTreeError('USAGE', `embedQuery expects a string, got ${describe(text)}`, { hint: 'Pass the query text as a string.' });
    }
    throwIfAborted(options.signal);
    await this.ensureReady();
    const vector = await this._embedQuery(text, options.signal);
    throwIfAborted(options.signal);
    const done = this.finish(vector);
    options.onProgress?.(1, 1);
    return done;
  }

  /** Embeds one batch (at most {@link batchSize} texts, possibly empty strings); vectors need not be normalised. */
  protected abstract _embedDocuments(texts: readonly string[], signal?: AbortSignal): Promise<Float32Array[]>;

  /** Embeds one query; defaults to the document embedding (symmetric models). */
  protected async _embedQuery(text: string, signal?: AbortSignal): Promise<Float32Array> {
    const [vector] = await this._embedDocuments([text], signal);
    if (vector === undefined) throw new DocTreeError('INTERNAL', `${this.id} returned no vector for the query`);
    return vector;
  }

  /** Loads whatever the backend needs; runs once (again after a failure). */
  protected async _initialize(): Promise<void> {
    // Nothing to prepare by default.
  }

  private ensureReady(): Promise<void> {
    this.#ready ??= this._initialize().catch((error: unknown) => {
      this.#ready = undefined;
      throw error;
    });
    return this.#ready;
  }

  private finish(vector: Float32Array): Float32Array {
    if (!(vector instanceof Float32Array) || vector.length !== this.dimension) {
      throw new DocTreeError('INTERNAL', `${this.id} returned a vector of dimension ${vector instanceof Float32Array ? vector.length : 'n/a'}, expected ${this.dimension}`);
    }
    const norm = normalizeInPlace(vector);
    if (!Number.isFinite(norm)) throw new DocTreeError('INTERNAL', `${this.id} returned a vector with non-finite values`);
    return vector;
  }
}

/** Throws `CANCELLED` when the signal is aborted. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw cancelled(signal);
}

/** The `CANCELLED` error of an aborted signal. */
export function cancelled(signal: AbortSignal): DocTreeError {
  return new DocTreeError('CANCELLED', 'Embedding was cancelled', { cause: signal.reason });
}

function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value;
}
