/** Turns text into dense vectors. Implementations: feature hashing, SIF word vectors, OpenAI-compatible endpoints. */
export interface Embedder {
  /** Stable identifier recorded in every vector file, e.g. `hashing-v1:d512` or `openai:text-embedding-3-small`. */
  readonly id: string;
  /** Output dimension. */
  readonly dimension: number;
  /** Embeds documents (passages); vectors are L2-normalised. */
  embedDocuments(texts: readonly string[], options?: EmbedOptions): Promise<Float32Array[]>;
  /** Embeds one query; may differ from document embedding for asymmetric models. */
  embedQuery(text: string, options?: EmbedOptions): Promise<Float32Array>;
}

/** Per-call options of an {@link Embedder}. */
export interface EmbedOptions {
  /** Cancels a long batch. */
  signal?: AbortSignal;
  /** Called after each batch with the number of texts done so far. */
  onProgress?: (done: number, total: number) => void;
}
