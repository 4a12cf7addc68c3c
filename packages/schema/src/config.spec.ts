import { REDACTED, configSecrets, redactSecrets, resolveConfig, OPENROUTER_BASE_URL } from './config.js';
import { DocTreeError } from './errors.js';

describe('resolveConfig', () => {
  it('refuses an unknown key by its path, with the closest known key as a hint', () => {
    expect(() => resolveConfig({ file: { agnet: { max_replans: 1 } }, filePath: 'doctree.config.json', env: {} })).toThrow(
      expect.objectContaining({ code: 'CONFIG_INVALID', message: 'unknown configuration key "agnet"', hint: 'Did you mean "agent"?', file: 'doctree.config.json' }),
    );
    expect(() => resolveConfig({ file: { agent: { max_replan: 1 } }, env: {} })).toThrow(expect.objectContaining({ hint: 'Did you mean "agent.max_replans"?' }));
    expect(() => resolveConfig({ file: { zzzzzz: 1 }, env: {} })).toThrow(expect.objectContaining({ hint: expect.stringMatching(/^Known keys here: data_dir, llm, /) }));
  });


  it('is offline with defaults when nothing is configured', () => {
    const { config, sources } = resolveConfig({ env: {} });
    expect(config.llm.provider).toBe('none');
    expect(config.embedder.kind).toBe('sif');
    expect(config.index.backend).toBe('auto');
    expect(sources.api_key).toBe('unset');
  });

  it('switches to the OpenAI-compatible path when a key is set in the environment', () => {
    const { config, sources } = resolveConfig({ env: { OPENAI_API_KEY: 'sk-test-123456', DOCTREE_LLM_MODEL: 'qwen2.5' } });
    expect(config.llm.provider).toBe('openai');
    expect(config.llm.model).toBe('qwen2.5');
    expect(sources).toMatchObject({ llm_provider: 'env', api_key: 'env' });
  });

  it('uses OpenRouter when only OPENROUTER_API_KEY is set', () => {
    const { config } = resolveConfig({ env: { OPENROUTER_API_KEY: 'or-key-abcdef' } });
    expect(config.llm).toMatchObject({ provider: 'openai', base_url: OPENROUTER_BASE_URL, api_key: 'or-key-abcdef' });
  });

  it('accepts a keyless local server (Ollama, vLLM) from OPENAI_BASE_URL', () => {
    const { config } = resolveConfig({ env: { OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1' } });
    expect(config.llm.provider).toBe('openai');
    expect(config.llm.api_key).toBeUndefined();
  });

  it('layers defaults < file < env < overrides', () => {
    const { config } = resolveConfig({
      file: { llm: { model: 'from-file', timeout_ms: 5000 }, embedder: { kind: 'hashing' } },
      env: { DOCTREE_LLM_MODEL: 'from-env' },
      overrides: { llm: { temperature: 0.5 } },
    });
    expect(config.llm.model).toBe('from-env');
    expect(config.llm.timeout_ms).toBe(5000);
    expect(config.llm.temperature).toBe(0.5);
    expect(config.embedder.kind).toBe('hashing');
  });

  it('names the bad field and the file', () => {
    let caught: unknown;
    try {
      resolveConfig({ file: { index: { backend: 'annoy' } }, filePath: 'doctree.config.json' });
    } catch (error) {
      caught = error;
    }
    expect(DocTreeError.isInstance(caught)).toBe(true);
    expect((caught as DocTreeError).code).toBe('CONFIG_INVALID');
    expect((caught as DocTreeError).file).toBe('doctree.config.json');
    expect((caught as DocTreeError).message).toMatch(/index\.backend/);
  });

  it('rejects an --llm override that is not a provider', () => {
    expect(() => resolveConfig({ overrides: { llm: { provider: 'claude' as never } } })).toThrow(/llm\.provider/);
  });
});

describe('redactSecrets', () => {
  it('removes secret-looking keys and every occurrence of known secrets', () => {
    const secret = 'sk-live-SECRET-value-42';
    const { config } = resolveConfig({ env: { OPENAI_API_KEY: secret } });
    const trace = {
      config,
      headers: { Authorization: `Bearer ${secret}` },
      note: `request to https://x/v1?key=${secret} failed`,
      nested: [{ message: `echo ${secret}` }],
    };
    const redacted = redactSecrets(trace, configSecrets(config));
    const text = JSON.stringify(redacted);
    expect(text).not.toContain(secret);
    expect(redacted.config.llm.api_key).toBe(REDACTED);
    expect(redacted.headers.Authorization).toBe(REDACTED);
    expect(redacted.note).toContain(REDACTED);
    expect(redacted.config.llm.model).toBe('gpt-4o-mini');
    // usage counters and status fields whose names merely contain a secret word stay readable
    expect(redactSecrets({ prompt_tokens: 12, tokens: { prompt: 3 }, api_key_status: 'set (env)' })).toEqual({
      prompt_tokens: 12,
      tokens: { prompt: 3 },
      api_key_status: 'set (env)',
    });
    // the input is not modified
    expect(trace.config.llm.api_key).toBe(secret);
  });
});

describe('domain pack setting', () => {
  it('defaults to auto and is set by the file or DOCTREE_DOMAIN_PACK', () => {
    expect(resolveConfig({}).config.domain.pack).toBe('auto');
    expect(resolveConfig({ file: { domain: { pack: 'packs/clinical.json' } } }).config.domain.pack).toBe('packs/clinical.json');
    expect(resolveConfig({ env: { DOCTREE_DOMAIN_PACK: 'finance' } }).config.domain.pack).toBe('finance');
  });
});

describe('OCR settings (ingest.ocr)', () => {
  it('defaults to English at 200 dpi, turned on, and takes other languages and resolutions from the file', () => {
    expect(resolveConfig({ env: {} }).config.ingest.ocr).toEqual({ enabled: true, language: 'eng', dpi: 200 });
    const { config } = resolveConfig({ file: { ingest: { ocr: { language: 'deu+eng', dpi: 300 } } }, env: {} });
    expect(config.ingest.ocr).toEqual({ enabled: true, language: 'deu+eng', dpi: 300 });
    expect(config.ingest.limits.max_ocr_pages).toBe(500);
  });

  it('refuses a language that is not tesseract language names and a resolution out of range, naming the key', () => {
    for (const ocr of [{ language: '../tessdata/x' }, { language: 'eng --oem 0' }, { language: '' }, { dpi: 30 }, { dpi: 1200 }, { dpi: 150.5 }]) {
      expect(() => resolveConfig({ file: { ingest: { ocr } }, filePath: 'doctree.config.json', env: {} })).toThrow(
        expect.objectContaining({ code: 'CONFIG_INVALID', message: expect.stringMatching(/ingest\.ocr\.(language|dpi)/) }),
      );
    }
  });
});
