import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { appendFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { DocTreeError } from '@doctree/schema';

import { runEmbedderConformance } from '../testing/embedder-conformance.js';
import { startFakeOpenAIServer } from '../testing/fake-openai-server.js';
import type { FakeOpenAIServer, FakeOpenAIServerOptions } from '../testing/fake-openai-server.js';
import { HashingEmbedder } from './hashing-embedder.js';
import { OpenAIEmbedder, PLACEHOLDER_API_KEY } from './openai-embedder.js';
import type { OpenAIEmbedderOptions } from './openai-embedder.js';

const API_KEY = 'sk-test-SECRET-4f9a2c';

async function rejection(promise: Promise<unknown>): Promise<DocTreeError> {
  try {
    await promise;
  } catch (error) {
    if (DocTreeError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a rejection');
}

function expectNoSecret(error: DocTreeError): void {
  const rendered = [error.message, error.hint, error.toOneLine(), JSON.stringify(error.toJSON()), String(error.cause), String((error.cause as Error | undefined)?.message)].join('\n');
  expect(rendered).not.toContain(API_KEY);
}

const servers: FakeOpenAIServer[] = [];
async function server(options: FakeOpenAIServerOptions = {}): Promise<FakeOpenAIServer> {
  const started = await startFakeOpenAIServer(options);
  servers.push(started);
  return started;
}
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

function embedder(fake: FakeOpenAIServer, options: OpenAIEmbedderOptions = {}): OpenAIEmbedder {
  return new OpenAIEmbedder({ baseURL: fake.baseURL, apiKey: API_KEY, model: 'test-embed', maxRetries: 0, timeoutMs: 5000, ...options });
}

// The shared suite, through the real @langchain/openai client against a local OpenAI-compatible server.
let shared: FakeOpenAIServer;
beforeAll(async () => {
  shared = await server({ dimension: 48 });
});
runEmbedderConformance('openai (local OpenAI-compatible server)', async ({ batchSize }) => {
  const client = embedder(shared, { batchSize });
  await client.initialize(); // learns the dimension, so that id and dimension can be read
  return client;
});

describe('OpenAIEmbedder against a local server', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'doctree-openai-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('embeds in batches through POST /v1/embeddings and discovers the dimension', async () => {
    const fake = await server({ dimension: 32 });
    const client = embedder(fake, { batchSize: 2 });
    expect(() => client.dimension).toThrow(/not known/);
    const texts = ['first page about revenue', 'second page about cats', 'third page'];
    const vectors = await client.embedDocuments(texts);
    expect(client.dimension).toBe(32);
    expect(client.id).toBe('openai:test-embed:d32');
    expect(fake.requests.map((r) => r.input)).toEqual([texts.slice(0, 2), texts.slice(2)]);
    expect(fake.requests.every((r) => r.path === '/v1/embeddings' && r.model === 'test-embed' && r.authorization === `Bearer ${API_KEY}`)).toBe(true);
    const expected = await new HashingEmbedder({ dimension: 32 }).embedDocuments(texts);
    vectors.forEach((vector, i) => vector.forEach((value, d) => expect(value).toBeCloseTo(expected[i]![d]!, 6)));
  });

  it('initialize() learns the dimension with one short request', async () => {
    const fake = await server({ dimension: 24 });
    const client = embedder(fake);
    await client.initialize();
    expect(client.id).toBe('openai:test-embed:d24');
    expect(fake.requests).toHaveLength(1);
    await client.initialize();
    expect(fake.requests).toHaveLength(1);
  });

  it('sends a placeholder key to a local server when none is configured', async () => {
    const fake = await server();
    await new OpenAIEmbedder({ baseURL: fake.baseURL, maxRetries: 0 }).embedQuery('hello');
    expect(fake.requests[0]!.authorization).toBe(`Bearer ${PLACEHOLDER_API_KEY}`);
  });

  it('never requests the same text twice (memory cache), nor empty texts', async () => {
    const fake = await server();
    const client = embedder(fake);
    const first = await client.embedDocuments(['alpha', 'beta']);
    expect(fake.requests).toHaveLength(1);
    const again = await client.embedDocuments(['alpha', 'beta']);
    expect(fake.requests).toHaveLength(1);
    expect(Array.from(again[0]!)).toEqual(Array.from(first[0]!));
    expect(Array.from(await client.embedQuery('beta'))).toEqual(Array.from(first[1]!));
    await client.embedDocuments(['alpha', 'gamma', 'gamma', '', '  ']);
    expect(fake.requests).toHaveLength(2);
    expect(fake.requests[1]!.input).toEqual(['gamma']);
    expect(client.requests).toBe(2);
    // Callers may modify what they get without corrupting the cache.
    again[0]!.fill(0);
    expect(Array.from(await client.embedQuery('alpha'))).toEqual(Array.from(first[0]!));
  });

  it('persists the cache in a JSONL file so a rebuild pays nothing', async () => {
    const fake = await server();
    const cacheFile = join(dir, 'embeddings.jsonl');
    const vectors = await embedder(fake, { cacheFile }).embedDocuments(['page one', 'page two']);
    expect(fake.requests).toHaveLength(1);
    const lines = (await readFile(cacheFile, 'utf8')).trim().split('\n');
    expect(JSON.parse(lines[0]!)).toEqual({ format: 'doctree.embedding-cache', version: 1 });
    expect(lines).toHaveLength(3);
    expect(lines.join('\n')).not.toContain('page one');
    await appendFile(cacheFile, '{"key":"torn'); // a crash in the middle of an append
    const rebuilt = embedder(fake, { cacheFile });
    const again = await rebuilt.embedDocuments(['page one', 'page two']);
    expect(fake.requests).toHaveLength(1);
    expect(rebuilt.dimension).toBe(32);
    expect(Array.from(again[1]!)).toEqual(Array.from(vectors[1]!));
  });

  it('rejects a cache file of another format version', async () => {
    const fake = await server();
    const cacheFile = join(dir, 'old.jsonl');
    await appendFile(cacheFile, '{"format":"doctree.embedding-cache","version":99}\n');
    expect((await rejection(embedder(fake, { cacheFile }).embedQuery('x'))).code).toBe('FORMAT_VERSION_UNSUPPORTED');
  });

  it('retries a 429 with Retry-After: 0 and succeeds', async () => {
    const fake = await server({ script: [{ kind: 'status', status: 429, headers: { 'retry-after': '0' }, body: { error: { message: 'Rate limit reached', type: 'requests' } } }] });
    const vector = await embedder(fake, { maxRetries: 2 }).embedQuery('retry me');
    expect(vector).toHaveLength(32);
    expect(fake.requests).toHaveLength(2);
  }, 20_000);

  it('maps a 429 that outlasts the retries to LLM_RATE_LIMITED', async () => {
    const fake = await server({ fallback: { kind: 'status', status: 429, headers: { 'retry-after': '0' }, body: { error: { message: 'Rate limit reached' } } } });
    const error = await rejection(embedder(fake).embedQuery('x'));
    expect(error.code).toBe('LLM_RATE_LIMITED');
    expect(fake.requests).toHaveLength(1);
  });

  it('maps a 401 to LLM_AUTH without ever showing the key', async () => {
    const fake = await server({ fallback: { kind: 'status', status: 401, body: { error: { message: `Incorrect API key provided: ${API_KEY}.`, type: 'invalid_request_error', code: 'invalid_api_key' } } } });
    const error = await rejection(embedder(fake, { maxRetries: 3 }).embedQuery('x'));
    expect(error.code).toBe('LLM_AUTH');
    expect(error.message).toMatch(/401/);
    expect(error.message).toContain('[redacted]');
    expectNoSecret(error);
    expect(fake.requests).toHaveLength(1); // 401 is not retried
  });

  it('maps a server that never answers to LLM_TIMEOUT within the timeout', async () => {
    const fake = await server({ fallback: { kind: 'hang' } });
    const started = performance.now();
    const error = await rejection(embedder(fake, { timeoutMs: 300 }).embedQuery('x'));
    const elapsed = performance.now() - started;
    expect(error.code).toBe('LLM_TIMEOUT');
    expect(elapsed).toBeGreaterThanOrEqual(250);
    expect(elapsed).toBeLessThan(3000);
    expectNoSecret(error);
  });

  it('maps a refused connection to LLM_UNAVAILABLE', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const client = new OpenAIEmbedder({ baseURL: `http://127.0.0.1:${port}/v1`, apiKey: API_KEY, maxRetries: 0 });
    const error = await rejection(client.embedQuery('x'));
    expect(error.code).toBe('LLM_UNAVAILABLE');
    expect(error.message).toMatch(/ECONNREFUSED|connect/i);
    expectNoSecret(error);
  });

  it('maps a 500 to LLM_UNAVAILABLE', async () => {
    const fake = await server({ fallback: { kind: 'status', status: 500, body: { error: { message: 'boom' } } } });
    expect((await rejection(embedder(fake).embedQuery('x'))).code).toBe('LLM_UNAVAILABLE');
  });

  it('cancels a request in flight when the signal aborts', async () => {
    const fake = await server({ fallback: { kind: 'hang' } });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const started = performance.now();
    const error = await rejection(embedder(fake, { timeoutMs: 10_000 }).embedDocuments(['x'], { signal: controller.signal }));
    expect(error.code).toBe('CANCELLED');
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('checks the dimension of every response and can request a dimension', async () => {
    const fake = await server({ dimension: 32 });
    const error = await rejection(embedder(fake, { dimension: 16 }).embedQuery('x'));
    expect(error.code).toBe('LLM_BAD_OUTPUT');
    await embedder(fake, { dimension: 32, requestDimensions: true }).embedQuery('y');
    expect(fake.requests[1]!.dimensions).toBe(32);
    expect(fake.requests[0]!.dimensions).toBeUndefined();
  });

  it('needs a key for api.openai.com and validates its options', () => {
    expect(() => new OpenAIEmbedder({})).toThrow(expect.objectContaining({ code: 'CONFIG_MISSING_SECRET' }) as Error);
    expect(() => new OpenAIEmbedder({ apiKey: API_KEY, dimension: 0 })).toThrow(/dimension/);
    expect(() => new OpenAIEmbedder({ apiKey: API_KEY, requestDimensions: true })).toThrow(/requestDimensions/);
    expect(() => new OpenAIEmbedder({ apiKey: API_KEY, maxRetries: -1 })).toThrow(/maxRetries/);
    expect(new OpenAIEmbedder({ apiKey: API_KEY, dimension: 1536 }).id).toBe('openai:text-embedding-3-small:d1536');
  });
});
