import { DocTreeError } from '@doctree/schema';
import type { OpenAIEmbeddings } from '@langchain/openai';

import { definedOnly } from '../vector/vector-options.js';
import { BaseEmbedder, cancelled } from './base-embedder.js';
import type { BaseEmbedderOptions } from './base-embedder.js';
import { EmbeddingCache } from './embedding-cache.js';
import { mapEmbeddingError } from './openai-errors.js';
import type { EmbeddingErrorContext } from './openai-errors.js';

/** Options of {@link OpenAIEmbedder}. */
export interface OpenAIEmbedderOptions extends BaseEmbedderOptions {
  /** Embedding model. Default `text-embedding-3-small`. */
  model?: string;
  /** Base URL of an OpenAI-compatible endpoint, e.g. `http://127.0.0.1:11434/v1`; absent means api.openai.com. */
  baseURL?: string;
  /**
   * API key (secret: never logged, redacted from every error). Required for api.openai.com; may be absent when
   * `baseURL` is set (local servers), then a placeholder is sent.
   */
  apiKey?: string;
  /** Expected output dimension; when absent it is discovered from the first response. Responses of another size fail. */
  dimension?: number;
  /** Also send `dimension` as the `dimensions` request parameter (text-embedding-3 shortening). Default false. */
  requestDimensions?: boolean;
  /** Retries of a failed request (429, 5xx, timeouts, connection errors), with backoff, by the LangChain client. Default 3. */
  maxRetries?: number;
  /** Timeout of one HTTP request, ms. Default 60000. */
  timeoutMs?: number;
  /** JSONL file caching vectors by content hash across runs, so a rebuild never pays twice; memory only when absent. */
  cacheFile?: string;
}

/** Defaults of {@link OpenAIEmbedderOptions}. */
export const OPENAI_EMBEDDER_DEFAULTS = {
  batchSize: 64,
  model: 'text-embedding-3-small',
  requestDimensions: false,
  maxRetries: 3,
  timeoutMs: 60_000,
} as const satisfies Partial<OpenAIEmbedderOptions>;

/** API key sent to local servers that need none (only when a base URL is set). */
export const PLACEHOLDER_API_KEY = 'not-needed';

/** Text embedded by {@link OpenAIEmbedder.initialize} to discover the dimension when it is not configured. */
const PROBE_TEXT = 'dimension probe';

/**
 * Embeddings from an OpenAI-compatible endpoint through LangChain's `OpenAIEmbeddings` (`@langchain/openai`):
 * OpenAI, OpenRouter, vLLM, Ollama, LM Studio… Vectors are cached by `sha256(model, dimensions, text)` in memory
 * and, with `cacheFile`, on disk, so repeated texts and rebuilds cost no request. Empty texts give the all-zero
 * vector without a request. Errors surface as `DocTreeError`s (see {@link mapEmbeddingError}) without the key.
 *
 * The id is `openai:<model>:d<dimension>`; when the dimension is not configured it is known after the first
 * response — call {@link OpenAIEmbedder.initialize} before reading `id` / `dimension`.
 *
 * @example
 * ```ts
 * const embedder = new OpenAIEmbedder({ baseURL: 'http://127.0.0.1:11434/v1', model: 'nomic-embed-text' });
 * await embedder.initialize();              // discovers the dimension
 * const vectors = await embedder.embedDocuments(['first page', 'second page']);
 * ```
 */
export class OpenAIEmbedder extends BaseEmbedder {
  /** Model name. */
  readonly model: string;
  private readonly options: OpenAIEmbedderOptions & Required<Pick<OpenAIEmbedderOptions, keyof typeof OPENAI_EMBEDDER_DEFAULTS>>;
  private readonly cache: EmbeddingCache;
  private readonly errorContext: EmbeddingErrorContext;
  private client: OpenAIEmbeddings | undefined;
  private discovered: number | undefined;
  /** Number of HTTP embedding calls made (one per batch of cache misses), for tests and cost reports. */
  requests = 0;

  constructor(options: OpenAIEmbedderOptions = {}) {
    const merged = { ...OPENAI_EMBEDDER_DEFAULTS, ...definedOnly(options) };
    super({ batchSize: merged.batchSize });
    if (typeof merged.model !== 'string' || merged.model.trim() === '') throw new DocTreeError('CONFIG_INVALID', 'OpenAIEmbedder: model must be a non-empty string');
    if (merged.dimension !== undefined && (!Number.isInteger(merged.dimension) || merged.dimension < 1)) {
      throw new DocTreeError('CONFIG_INVALID', `OpenAIEmbedder: dimension must be a positive integer, got ${String(merged.dimension)}`);
    }
    if (merged.requestDimensions && merged.dimension === undefined) throw new DocTreeError('CONFIG_INVALID', 'OpenAIEmbedder: requestDimensions needs a dimension');
    if (!Number.isInteger(merged.maxRetries) || merged.maxRetries < 0) throw new DocTreeError('CONFIG_INVALID', `OpenAIEmbedder: maxRetries must be an integer >= 0, got ${String(merged.maxRetries)}`);
    if (!(merged.timeoutMs > 0)) throw new DocTreeError('CONFIG_INVALID', `OpenAIEmbedder: timeoutMs must be positive, got ${String(merged.timeoutMs)}`);
    if ((merged.apiKey === undefined || merged.apiKey === '') && merged.baseURL === undefined) {
      throw new DocTreeError('CONFIG_MISSING_SECRET', 'The openai embedder needs an API key for api.openai.com', {
        hint: 'Set OPENAI_API_KEY (or llm.api_key), or point llm.base_url at a local OpenAI-compatible server.',
      });
    }
    this.options = merged;
    this.model = merged.model;
    this.cache = new EmbeddingCache(merged.cacheFile !== undefined ? { file: merged.cacheFile } : {});
    this.errorContext = {
      model: merged.model,
      ...(merged.baseURL !== undefined ? { baseURL: merged.baseURL } : {}),
      timeoutMs: merged.timeoutMs,
      maxRetries: merged.maxRetries,
      secrets: [merged.apiKey],
    };
  }

  /** Output dimension: configured, or discovered by the first response. */
  get dimension(): number {
    const dimension = this.options.dimension ?? this.discovered;
    if (dimension === undefined) {
      throw new DocTreeError('CONFIG_INVALID', `The dimension of openai:${this.model} is not known before its first embedding`, {
        hint: 'Call `await embedder.initialize()` first (one short request), or configure the dimension.',
      });
    }
    return dimension;
  }

  /** `openai:<model>:d<dimension>`; needs the dimension (see {@link OpenAIEmbedder.dimension}). */
  get id(): string {
    return `openai:${this.model}:d${this.dimension}`;
  }

  /** Loads the client and the cache file; discovers the dimension with one short request when it is not configured. */
  override async initialize(): Promise<void> {
    await super.initialize();
    if (this.options.dimension === undefined && this.discovered === undefined) await this.embedQuery(PROBE_TEXT);
  }

  protected override async _initialize(): Promise<void> {
    let Client: typeof OpenAIEmbeddings;
    try {
      ({ OpenAIEmbeddings: Client } = await import('@langchain/openai'));
    } catch (error) {
      throw new DocTreeError('BACKEND_UNAVAILABLE', 'Cannot load @langchain/openai for the openai embedder', { cause: error, hint: 'Reinstall dependencies: npm install' });
    }
    const { model, baseURL, apiKey, maxRetries, timeoutMs, batchSize, dimension, requestDimensions } = this.options;
    this.client = new Client({
      model,
      apiKey: apiKey !== undefined && apiKey !== '' ? apiKey : PLACEHOLDER_API_KEY,
      batchSize,
      maxRetries,
      maxConcurrency: 1,
      timeout: timeoutMs,
      ...(requestDimensions && dimension !== undefined ? { dimensions: dimension } : {}),
      ...(baseURL !== undefined ? { configuration: { baseURL } } : {}),
    });
    await this.cache.load();
  }

  protected async _embedDocuments(texts: readonly string[], signal?: AbortSignal): Promise<Float32Array[]> {
    const namespace = `${this.model}\n${this.options.requestDimensions ? String(this.options.dimension) : ''}`;
    const keys = texts.map((text) => EmbeddingCache.key(namespace, text));
    const out: Array<Float32Array | undefined> = texts.map((text, i) => (text.trim() === '' ? undefined : this.cache.get(keys[i]!)));
    const missing = new Map<string, string>();
    texts.forEach((text, i) => {
      const cached = out[i];
      if (cached !== undefined && this.options.dimension === undefined) this.discovered ??= cached.length;
      if (text.trim() !== '' && cached === undefined) missing.set(keys[i]!, text);
    });
    // Only empty texts and the dimension still unknown: one probe request tells the size of the zero vectors.
    if (missing.size === 0 && this.options.dimension === undefined && this.discovered === undefined) missing.set(EmbeddingCache.key(namespace, PROBE_TEXT), PROBE_TEXT);
    if (missing.size > 0) {
      const missingKeys = [...missing.keys()];
      const raw = await this.request([...missing.values()], signal);
      const fresh = raw.map((values, i) => ({ key: missingKeys[i]!, vector: this.toVector(values) }));
      await this.cache.set(fresh);
    }
    return texts.map((text, i) => {
      if (text.trim() === '') return new Float32Array(this.dimension);
      const vector = out[i] ?? this.cache.get(keys[i]!);
      if (vector === undefined) throw new DocTreeError('INTERNAL', 'embedding cache lost a fresh vector');
      if (vector.length !== this.dimension) throw this.badOutput(`a cached vector has dimension ${vector.length}, expected ${this.dimension}`);
      return vector;
    });
  }

  private async request(texts: string[], signal?: AbortSignal): Promise<number[][]> {
    const client = this.client!;
    this.requests++;
    const started = performance.now();
    const call = client.embedDocuments(texts);
    let vectors: number[][];
    try {
      vectors = await raceAbort(call, signal);
    } catch (error) {
      if (signal?.aborted) {
        call.catch(() => undefined);
        throw cancelled(signal);
      }
      throw mapEmbeddingError(error, { ...this.errorContext, elapsedMs: performance.now() - started });
    }
    if (!Array.isArray(vectors) || vectors.length !== texts.length) {
      throw this.badOutput(`expected ${texts.length} embeddings, got ${Array.isArray(vectors) ? vectors.length : typeof vectors}`);
    }
    return vectors;
  }

  private toVector(values: unknown): Float32Array {
    if (!Array.isArray(values) || values.length === 0 || !values.every((v) => typeof v === 'number' && Number.isFinite(v))) {
      throw this.badOutput('an embedding is not a non-empty array of finite numbers');
    }
    const expected = this.options.dimension ?? this.discovered;
    if (expected === undefined) this.discovered = values.length;
    else if (values.length !== expected) throw this.badOutput(`an embedding has dimension ${values.length}, expected ${expected}`);
    return Float32Array.from(values as number[]);
  }

  private badOutput(why: string): DocTreeError {
    return new DocTreeError('LLM_BAD_OUTPUT', `Embedding response of model ${this.model}: ${why}`, {
      hint: 'Check that llm.embedding_model is an embedding model; set the embedder dimension to what the model returns.',
    });
  }
}

/** Settles with `promise`, or rejects as soon as `signal` aborts. */
function raceAbort<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  if (signal.aborted) return Promise.reject(cancelled(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(cancelled(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
