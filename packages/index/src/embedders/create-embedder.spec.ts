import { DocTreeError, EmbedderConfigSchema, LlmConfigSchema } from '@doctree/schema';

import { createEmbedder } from './create-embedder.js';
import { HashingEmbedder } from './hashing-embedder.js';
import { OpenAIEmbedder } from './openai-embedder.js';
import { SifEmbedder } from './sif-embedder.js';

function caught(fn: () => unknown): DocTreeError {
  try {
    fn();
  } catch (error) {
    if (DocTreeError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected an error');
}

describe('createEmbedder', () => {
  const offline = LlmConfigSchema.parse({});

  it('builds the SIF embedder by default (the offline default, see docs/results.md)', () => {
    const embedder = createEmbedder(EmbedderConfigSchema.parse({}), offline, { sifCacheDir: '/tmp/x', sifPackageDir: '/nowhere' });
    expect(embedder).toBeInstanceOf(SifEmbedder);
  });

  it('builds the hashing embedder with the configured dimension and batch size', () => {
    const embedder = createEmbedder(EmbedderConfigSchema.parse({ kind: 'hashing' }), offline);
    expect(embedder).toBeInstanceOf(HashingEmbedder);
    expect(embedder.dimension).toBe(512);
    expect(embedder.batchSize).toBe(64);
    const small = createEmbedder(EmbedderConfigSchema.parse({ kind: 'hashing', dimension: 256, batch_size: 8 }), offline);
    expect(small.id).toMatch(/^hashing-v1:d256:/);
    expect(small.batchSize).toBe(8);
  });

  it('builds the SIF embedder (100-d whatever the dimension setting)', () => {
    const embedder = createEmbedder(EmbedderConfigSchema.parse({ kind: 'sif' }), offline, { sifCacheDir: '/tmp/x', sifPackageDir: '/nowhere' });
    expect(embedder).toBeInstanceOf(SifEmbedder);
    expect(embedder.dimension).toBe(100);
    expect(embedder.id).toBe('sif-glove-wink-sg100d-v1:d100');
  });

  it('builds the OpenAI embedder from the LLM settings', () => {
    const llm = LlmConfigSchema.parse({ provider: 'openai', base_url: 'http://127.0.0.1:9/v1', embedding_model: 'nomic-embed-text', timeout_ms: 1000, max_retries: 1 });
    const embedder = createEmbedder(EmbedderConfigSchema.parse({ kind: 'openai', batch_size: 16 }), llm, { openaiDimension: 768 });
    expect(embedder).toBeInstanceOf(OpenAIEmbedder);
    expect(embedder.id).toBe('openai:nomic-embed-text:d768');
    expect(embedder.batchSize).toBe(16);
  });

  it('refuses openai offline or without a key for api.openai.com', () => {
    const config = EmbedderConfigSchema.parse({ kind: 'openai' });
    expect(caught(() => createEmbedder(config, offline)).code).toBe('CONFIG_INVALID');
    expect(caught(() => createEmbedder(config, LlmConfigSchema.parse({ provider: 'openai' }))).code).toBe('CONFIG_MISSING_SECRET');
    expect(caught(() => createEmbedder({ kind: 'other' } as never, offline)).code).toBe('CONFIG_INVALID');
  });
});
