import { Embeddings, type EmbeddingsParams } from '@langchain/core/embeddings';
import { BaseEmbedder, mapEmbeddingError, type BaseEmbedderOptions } from '@doctree/index';
import { DocTreeError, type Embedder } from '@doctree/schema';

/** A LangChain embeddings model as this adapter calls it: `Embeddings` or anything with the same two methods. */
export type LangChainEmbeddings = Pick<Embeddings, 'embedDocuments' | 'embedQuery'>;

/** Options of {@link EmbedderFromLangChain}. */
export interface EmbedderFromLangChainOptions extends BaseEmbedderOptions {
  /**
   * Name of the model in the embedder id (`langchain:<name>:d<dimension>`), recorded in every vector file: an index
   * built with one model is never queried with another. Default the model's `model` / `modelName` field, else its class
   * name. Give one whenever the class name alone does not tell two models apart.
   */
  name?: string;
  /** Output dimension; when absent, {@link EmbedderFromLangChain.initialize} learns it with one short request. */
  dimension?: number;
  /** `embedQuery` uses the model's `embedQuery` (asymmetric models). Default true; false embeds queries as documents. */
  asymmetric?: boolean;
}

/** Defaults of {@link EmbedderFromLangChainOptions}. */
export const EMBEDDER_FROM_LANGCHAIN_DEFAULTS = {
  asymmetric: true,
} as const satisfies EmbedderFromLangChainOptions;

/** Text embedded by {@link EmbedderFromLangChain.initialize} to learn the dimension. */
const PROBE_TEXT = 'dimension probe';

/**
 * Any LangChain `Embeddings` (`OpenAIEmbeddings`, `OllamaEmbeddings`, `BedrockEmbeddings`, `CohereEmbeddings`, a fake…)
 * as DocTree's dense embedder: a `BaseEmbedder` of `@doctree/index`, so input is validated, batches are cut to
 * `batchSize`, progress is reported, the abort signal is honoured between batches and vectors are L2-normalised (empty
 * texts give all-zero vectors without a request). Passes `runEmbedderConformance` of `@doctree/index/testing` for a
 * model whose vectors carry meaning. Errors of the model become `DocTreeError`s (`LLM_AUTH`, `LLM_RATE_LIMITED`,
 * `LLM_TIMEOUT`, `LLM_UNAVAILABLE`, `INTERNAL` for vectors of the wrong size or non-numbers).
 *
 * @example
 * ```ts
 * import { OllamaEmbeddings } from '@langchain/ollama';
 * const embedder = new EmbedderFromLangChain(new OllamaEmbeddings({ model: 'nomic-embed-text' }), { name: 'ollama:nomic-embed-text' });
 * await embedder.initialize(); // learns the dimension
 * const { agent } = await openAgent('report.pdf', { embedder });
 * ```
 */
export class EmbedderFromLangChain extends BaseEmbedder {
  readonly #model: LangChainEmbeddings;
  readonly #name: string;
  readonly #asymmetric: boolean;
  #dimension: number | undefined;

  /** @throws DocTreeError `USAGE` when `embeddings` is not an embeddings model, `CONFIG_INVALID` for a bad option. */
  constructor(embeddings: LangChainEmbeddings, options: EmbedderFromLangChainOptions = {}) {
    super(options);
    if (typeof embeddings?.embedDocuments !== 'function' || typeof embeddings.embedQuery !== 'function') {
      throw new DocTreeError('USAGE', 'EmbedderFromLangChain needs a LangChain Embeddings (embedDocuments and embedQuery)', { hint: 'Pass e.g. new OpenAIEmbeddings() or new OllamaEmbeddings({ model }).' });
    }
    const o = { ...EMBEDDER_FROM_LANGCHAIN_DEFAULTS, ...definedOnly(options) };
    if (o.dimension !== undefined && (!Number.isInteger(o.dimension) || o.dimension < 1)) {
      throw new DocTreeError('CONFIG_INVALID', `EmbedderFromLangChain: dimension must be a positive integer, got ${String(o.dimension)}`);
    }
    if (o.name !== undefined && (typeof o.name !== 'string' || o.name.trim() === '')) throw new DocTreeError('CONFIG_INVALID', 'EmbedderFromLangChain: name must be a non-empty string');
    this.#model = embeddings;
    this.#name = o.name ?? nameOf(embeddings);
    this.#asymmetric = o.asymmetric;
    this.#dimension = o.dimension;
  }

  /** `langchain:<name>:d<dimension>`; needs the dimension (see {@link EmbedderFromLangChain.dimension}). */
  get id(): string {
    return `langchain:${this.#name}:d${this.dimension}`;
  }

  /** Output dimension: configured, or learned by {@link EmbedderFromLangChain.initialize}. */
  get dimension(): number {
    if (this.#dimension === undefined) {
      throw new DocTreeError('CONFIG_INVALID', `The dimension of ${this.#name} is not known before its first embedding`, {
        hint: 'Call `await embedder.initialize()` first (one short request), or pass the dimension.',
      });
    }
    return this.#dimension;
  }

  protected override async _initialize(): Promise<void> {
    if (this.#dimension !== undefined) return;
    const [probe] = await this.#call(() => this.#model.embedDocuments([PROBE_TEXT]));
    if (!Array.isArray(probe) || probe.length === 0) throw new DocTreeError('INTERNAL', `${this.#name} returned no vector for a probe text`);
    this.#dimension = probe.length;
  }

  protected async _embedDocuments(texts: readonly string[], signal?: AbortSignal): Promise<Float32Array[]> {
    const out: Float32Array[] = texts.map(() => new Float32Array(this.dimension));
    const asked = texts.map((text, i) => [text, i] as const).filter(([text]) => text.trim() !== '');
    if (asked.length === 0) return out;
    const vectors = await this.#call(() => this.#model.embedDocuments(asked.map(([text]) => text)), signal);
    if (!Array.isArray(vectors) || vectors.length !== asked.length) {
      throw new DocTreeError('INTERNAL', `${this.#name} returned ${Array.isArray(vectors) ? vectors.length : 'no'} vectors for ${asked.length} texts`);
    }
    asked.forEach(([, i], k) => {
      out[i] = this.#vector(vectors[k]);
    });
    return out;
  }

  protected override async _embedQuery(text: string, signal?: AbortSignal): Promise<Float32Array> {
    if (text.trim() === '') return new Float32Array(this.dimension);
    if (!this.#asymmetric) return (await this._embedDocuments([text], signal))[0]!;
    return this.#vector(await this.#call(() => this.#model.embedQuery(text), signal));
  }

  #vector(values: unknown): Float32Array {
    if (!Array.isArray(values) || values.length !== this.dimension || !values.every((v) => typeof v === 'number' && Number.isFinite(v))) {
      throw new DocTreeError('INTERNAL', `${this.#name} returned a vector that is not ${this.dimension} finite numbers`, { hint: 'Use one embeddings model per index; rebuild the index after changing it.' });
    }
    return Float32Array.from(values);
  }

  async #call<T>(run: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const started = performance.now();
    try {
      if (!signal) return await run();
      if (signal.aborted) throw new DocTreeError('CANCELLED', 'Embedding was cancelled', { cause: signal.reason });
      // LangChain's Embeddings take no signal: stop waiting when it aborts (the request itself runs out).
      return await new Promise<T>((resolve, reject) => {
        const onAbort = (): void => reject(new DocTreeError('CANCELLED', 'Embedding was cancelled', { cause: signal.reason }));
        signal.addEventListener('abort', onAbort, { once: true });
        run().then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
      });
    } catch (error) {
      if (DocTreeError.isInstance(error)) throw error;
      throw mapEmbeddingError(error, { model: this.#name, timeoutMs: Number.POSITIVE_INFINITY, maxRetries: 0, secrets: [], elapsedMs: performance.now() - started });
    }
  }
}

/** Options of {@link LangChainEmbeddingsFromDocTree}. */
export type LangChainEmbeddingsFromDocTreeOptions = EmbeddingsParams;

/**
 * The other way round: a DocTree {@link Embedder} (`HashingEmbedder`, `SifEmbedder`, `OpenAIEmbedder`, your own) as a
 * LangChain `Embeddings`, e.g. for a LangChain vector store next to a DocTree index. Vectors come back as `number[]`.
 *
 * @example
 * ```ts
 * const embeddings = new LangChainEmbeddingsFromDocTree(new HashingEmbedder());
 * const store = await MemoryVectorStore.fromTexts(texts, metadatas, embeddings);
 * ```
 */
export class LangChainEmbeddingsFromDocTree extends Embeddings {
  readonly embedder: Embedder;

  constructor(embedder: Embedder, options: LangChainEmbeddingsFromDocTreeOptions = {}) {
    super(options);
    if (typeof embedder?.embedDocuments !== 'function' || typeof embedder.embedQuery !== 'function') {
      throw new DocTreeError('USAGE', 'LangChainEmbeddingsFromDocTree needs a DocTree Embedder (embedDocuments and embedQuery)');
    }
    this.embedder = embedder;
  }

  async embedDocuments(documents: string[]): Promise<number[][]> {
    return (await this.embedder.embedDocuments(documents)).map((vector) => Array.from(vector));
  }

  async embedQuery(document: string): Promise<number[]> {
    return Array.from(await this.embedder.embedQuery(document));
  }
}

function nameOf(embeddings: LangChainEmbeddings): string {
  const fields = embeddings as unknown as Record<string, unknown>;
  for (const key of ['model', 'modelName', 'modelId']) {
    const value = fields[key];
    if (typeof value === 'string' && value.trim() !== '') return value;
  }
  return embeddings.constructor?.name || 'embeddings';
}

/** Drops keys whose value is `undefined`, so they do not override defaults when spread. */
function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
