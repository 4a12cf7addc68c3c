import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';

import { DocTreeError, DocTreeConfigSchema } from '@doctree/schema';
import type { ChatModelClient } from '@doctree/schema';

import { startScriptedOpenAIServer } from '../testing/scripted-openai-server.js';
import type { ScriptedOpenAIServer, ScriptedOpenAIServerOptions } from '../testing/scripted-openai-server.js';
import { isRetryable, retryAfterMs, retryDelayMs } from './chat-retry.js';
import { createChatClient } from './create-chat-client.js';
import { DryRunChatClient } from './dry-run-chat-client.js';
import { OpenAIChatClient } from './openai-chat-client.js';
import type { ChatCallRecord, OpenAIChatClientOptions } from './openai-chat-client.js';

const API_KEY = 'sk-test-SECRET-7c1e55';
const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);

async function rejection(promise: Promise<unknown>): Promise<DocTreeError> {
  try {
    await promise;
  } catch (error) {
    if (DocTreeError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a rejection');
}

function expectNoSecret(error: DocTreeError, records: readonly ChatCallRecord[] = []): void {
  const rendered = [error.message, error.hint, error.toOneLine(), JSON.stringify(error.toJSON()), String(error.cause), JSON.stringify(records)].join('\n');
  expect(rendered).not.toContain(API_KEY);
}

const servers: ScriptedOpenAIServer[] = [];
async function server(options: ScriptedOpenAIServerOptions = {}): Promise<ScriptedOpenAIServer> {
  const started = await startScriptedOpenAIServer(options);
  servers.push(started);
  return started;
}
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

function client(fake: ScriptedOpenAIServer, options: OpenAIChatClientOptions = {}): OpenAIChatClient {
  return new OpenAIChatClient({ baseURL: fake.baseURL, apiKey: API_KEY, model: 'chat-model', maxRetries: 0, timeoutMs: 5000, retryBaseDelayMs: 1, ...options });
}

const ask = (c: ChatModelClient, extra: Partial<Parameters<ChatModelClient['chat']>[0]> = {}) =>
  c.chat({ messages: [{ role: 'system', content: 'You are terse.' }, { role: 'user', content: 'Say hello.' }], ...extra });

describe('OpenAIChatClient through ChatOpenAI against the scripted server', () => {
  it('sends the messages to POST /v1/chat/completions and returns text, usage and cost', async () => {
    const fake = await server({ chat: [{ kind: 'text', text: 'Hello there', usage: { prompt: 1200, completion: 300 }, model: 'chat-model-2025' }] });
    const records: ChatCallRecord[] = [];
    const c = client(fake, { price: { prompt: 0.15, completion: 0.6 }, onCall: (r) => records.push(r) });
    const reply = await ask(c);
    expect(reply.text).toBe('Hello there');
    expect(reply.usage).toEqual({ prompt: 1200, completion: 300 });
    expect(reply.model).toBe('chat-model-2025');
    expect(reply.costUsd).toBeCloseTo((1200 * 0.15 + 300 * 0.6) / 1e6, 12);
    const [request] = fake.chatRequests;
    expect(request!.model).toBe('chat-model');
    expect(request!.authorization).toBe(`Bearer ${API_KEY}`);
    expect(request!.messages.map((m) => [m.role, m.text])).toEqual([
      ['system', 'You are terse.'],
      ['user', 'Say hello.'],
    ]);
    expect(request!.temperature).toBe(0);
    expect(request!.responseFormat).toBeUndefined();
    expect(records).toEqual([expect.objectContaining({ purpose: 'chat', status: 'ok', attempts: 1, usage: { prompt: 1200, completion: 300 } })]);
  });

  it('has no cost without prices, asks for JSON mode and honours maxTokens', async () => {
    const fake = await server({ chat: [{ kind: 'json', value: { answer: 7 } }] });
    const reply = await ask(client(fake), { json: true, maxTokens: 64 });
    expect(JSON.parse(reply.text)).toEqual({ answer: 7 });
    expect(reply.costUsd).toBeNull();
    expect(fake.chatRequests[0]!.responseFormat).toBe('json_object');
    expect(fake.chatRequests[0]!.maxTokens).toBe(64);
  });

  it('uses the model of each purpose and sends PNG images as base64 data URLs to the vision model', async () => {
    const fake = await server({ chat: [{ kind: 'text', text: 'a bar chart' }, { kind: 'text', text: 'ok' }, { kind: 'text', text: 'ok' }] });
    const c = client(fake, { vlmModel: 'vision-model', judgeModel: 'judge-model' });
    await ask(c, { purpose: 'vlm', images: [PNG] });
    await ask(c, { purpose: 'judge' });
    await ask(c, { purpose: 'summary' });
    expect(fake.chatRequests.map((r) => r.model)).toEqual(['vision-model', 'judge-model', 'chat-model']);
    expect(fake.chatRequests[0]!.images).toEqual([`data:image/png;base64,${Buffer.from(PNG).toString('base64')}`]);
    expect(fake.chatRequests[0]!.messages[1]).toEqual({ role: 'user', text: 'Say hello.', images: 1 });
    await expect(ask(c, { purpose: 'vlm', images: [Uint8Array.from([1, 2, 3])] })).rejects.toMatchObject({ code: 'USAGE', message: expect.stringMatching(/not a PNG/) });
  });

  it('retries a 429, waiting what Retry-After asks, then succeeds', async () => {
    const fake = await server({
      chat: [
        { kind: 'status', status: 429, headers: { 'retry-after': '1' }, body: { error: { message: 'Rate limit reached', type: 'requests' } } },
        { kind: 'text', text: 'after the wait' },
      ],
    });
    const records: ChatCallRecord[] = [];
    const c = client(fake, { maxRetries: 2, onCall: (r) => records.push(r) });
    const reply = await ask(c);
    expect(reply.text).toBe('after the wait');
    expect(fake.chatRequests).toHaveLength(2);
    expect(records[0]!.attempts).toBe(2);
    // The wait followed Retry-After (1 s), not the 1 ms backoff.
    expect(records[0]!.retryDelaysMs).toEqual([1000]);
  });

  it('gives up with LLM_RATE_LIMITED when 429s outlast the retries, or Retry-After exceeds the longest accepted wait', async () => {
    const limited = { kind: 'status' as const, status: 429, headers: { 'retry-after': '0' } };
    const fake = await server({ chat: [limited, limited, limited] });
    const error = await rejection(ask(client(fake, { maxRetries: 2 })));
    expect(error.code).toBe('LLM_RATE_LIMITED');
    expect(error.hint).toMatch(/3 attempt/);
    expect(fake.chatRequests).toHaveLength(3);

    const slow = await server({ chat: [{ kind: 'status', status: 429, headers: { 'retry-after': '3600' } }] });
    const tooLong = await rejection(ask(client(slow, { maxRetries: 3, maxRetryDelayMs: 5000 })));
    expect(tooLong.code).toBe('LLM_RATE_LIMITED');
    expect(slow.chatRequests).toHaveLength(1);
  });

  it('maps a server that never answers to a clear LLM_TIMEOUT', async () => {
    const fake = await server({ chat: [{ kind: 'hang' }, { kind: 'hang' }] });
    const error = await rejection(ask(client(fake, { timeoutMs: 300, maxRetries: 1 })));
    expect(error.code).toBe('LLM_TIMEOUT');
    expect(error.message).toMatch(/Chat request to http:\/\/127\.0\.0\.1:\d+\/v1 \(model chat-model\) failed: the endpoint did not answer in time/);
    expect(error.hint).toMatch(/300 ms \(2 attempt/);
    expect(fake.chatRequests).toHaveLength(2);
    expect(error.exitStatus).toBe(9);
  });

  it('maps 401 to LLM_AUTH without retrying and never shows the key, even when the server echoes it', async () => {
    const fake = await server({ requireApiKey: 'another-key' });
    const records: ChatCallRecord[] = [];
    const error = await rejection(ask(client(fake, { maxRetries: 3, onCall: (r) => records.push(r) })));
    expect(error.code).toBe('LLM_AUTH');
    expect(fake.chatRequests).toHaveLength(1);
    expect(records).toEqual([expect.objectContaining({ status: 'error', error: expect.objectContaining({ code: 'LLM_AUTH' }) })]);
    expectNoSecret(error, records);
  });

  it('retries a 500 and maps one that persists to LLM_UNAVAILABLE; a closed port too', async () => {
    const fake = await server({ chat: [{ kind: 'status', status: 500 }, { kind: 'text', text: 'recovered' }] });
    expect((await ask(client(fake, { maxRetries: 1 }))).text).toBe('recovered');
    const failing = await server({ chat: [{ kind: 'status', status: 503 }] });
    expect((await rejection(ask(client(failing)))).code).toBe('LLM_UNAVAILABLE');

    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const closed = new OpenAIChatClient({ baseURL: `http://127.0.0.1:${port}/v1`, apiKey: API_KEY, maxRetries: 0, timeoutMs: 2000 });
    const error = await rejection(ask(closed));
    expect(error.code).toBe('LLM_UNAVAILABLE');
    expectNoSecret(error);
  });

  it('returns an injection attempt as plain text: the client never acts on reply content', async () => {
    const fake = await server({ chat: [{ kind: 'inject' }] });
    const reply = await ask(client(fake));
    expect(reply.text).toMatch(/IGNORE ALL PREVIOUS INSTRUCTIONS/);
    expect(fake.chatRequests).toHaveLength(1);
  });

  it('cancels a request in flight when the signal aborts', async () => {
    const fake = await server({ chat: [{ kind: 'hang' }] });
    const controller = new AbortController();
    const pending = ask(client(fake, { timeoutMs: 10_000 }), { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    expect((await rejection(pending)).code).toBe('CANCELLED');
  });

  it('validates its options and requests', async () => {
    expect(() => new OpenAIChatClient({ model: 'x' })).toThrow(expect.objectContaining({ code: 'CONFIG_MISSING_SECRET' }));
    expect(() => new OpenAIChatClient({ baseURL: 'http://127.0.0.1:1/v1', timeoutMs: 0 })).toThrow(/timeoutMs/);
    expect(() => new OpenAIChatClient({ baseURL: 'http://127.0.0.1:1/v1', maxRetries: -1 })).toThrow(/maxRetries/);
    const c = new OpenAIChatClient({ baseURL: 'http://127.0.0.1:1/v1' });
    await expect(c.chat({ messages: [] })).rejects.toMatchObject({ code: 'USAGE' });
    await expect(c.chat({ messages: [{ role: 'tool' as 'user', content: 'x' }] })).rejects.toMatchObject({ code: 'USAGE' });
  });
});

describe('retry policy', () => {
  const policy = { maxRetries: 3, baseDelayMs: 100, maxDelayMs: 10_000 };
  const rateLimited = (headers: Record<string, string>) => Object.assign(new Error('429'), { status: 429, headers: new Headers(headers) });

  it('reads Retry-After as seconds, as an HTTP date, and retry-after-ms', () => {
    expect(retryAfterMs(rateLimited({ 'retry-after': '2' }))).toBe(2000);
    expect(retryAfterMs(rateLimited({ 'retry-after-ms': '250' }))).toBe(250);
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs(rateLimited({ 'retry-after': 'Thu, 01 Jan 2026 00:00:05 GMT' }), now)).toBe(5000);
    expect(retryAfterMs(new Error('x'))).toBeUndefined();
  });

  it('backs off exponentially, honours Retry-After and refuses waits beyond the maximum', () => {
    const plain = Object.assign(new Error('503'), { status: 503 });
    expect(retryDelayMs(plain, 0, policy, () => 0.5)).toBe(100);
    expect(retryDelayMs(plain, 2, policy, () => 0.5)).toBe(400);
    expect(retryDelayMs(rateLimited({ 'retry-after': '3' }), 0, policy, () => 0.5)).toBe(3000);
    expect(retryDelayMs(rateLimited({ 'retry-after': '60' }), 0, policy, () => 0.5)).toBeUndefined();
  });

  it('retries transient failures only', () => {
    expect(isRetryable(Object.assign(new Error(), { status: 429 }))).toBe(true);
    expect(isRetryable(Object.assign(new Error(), { status: 429, code: 'insufficient_quota' }))).toBe(false);
    expect(isRetryable(Object.assign(new Error(), { status: 500 }))).toBe(true);
    expect(isRetryable(Object.assign(new Error(), { status: 400 }))).toBe(false);
    expect(isRetryable(Object.assign(new Error(), { status: 401 }))).toBe(false);
    expect(isRetryable(Object.assign(new Error('timed out'), { name: 'TimeoutError' }))).toBe(true);
    expect(isRetryable(new DocTreeError('LLM_BAD_OUTPUT', 'x'))).toBe(false);
  });
});

describe('createChatClient and DryRunChatClient', () => {
  it('is offline (undefined) without an endpoint, an OpenAI client with one, a dry run on request', () => {
    const offline = DocTreeConfigSchema.parse({});
    expect(createChatClient(offline)).toBeUndefined();
    const online = DocTreeConfigSchema.parse({ llm: { provider: 'openai', base_url: 'http://127.0.0.1:9/v1', model: 'm1', vlm_model: 'v1' } });
    const c = createChatClient(online);
    expect(c).toBeInstanceOf(OpenAIChatClient);
    expect((c as OpenAIChatClient).modelFor('vlm')).toBe('v1');
    expect(createChatClient(offline, { dryRun: true })).toBeInstanceOf(DryRunChatClient);
    const keyless = DocTreeConfigSchema.parse({ llm: { provider: 'openai' } });
    expect(() => createChatClient(keyless)).toThrow(expect.objectContaining({ code: 'CONFIG_MISSING_SECRET' }));
  });

  it('counts the prompt tokens it would send and answers nothing', async () => {
    const dry = new DryRunChatClient({ price: { prompt: 1, completion: 2 } });
    const long = 'x'.repeat(400);
    const first = await dry.chat({ messages: [{ role: 'system', content: long }, { role: 'user', content: long }] });
    expect(first.text).toBe('');
    expect(first.usage).toEqual({ prompt: 2 * (100 + 4), completion: 0 });
    await dry.chat({ messages: [{ role: 'user', content: 'abcd' }], images: [PNG], purpose: 'vlm' });
    await dry.chat({ messages: [{ role: 'user', content: 'x'.repeat(4000) }] });
    expect(dry.calls.map((c) => c.promptTokens)).toEqual([208, 1 + 4 + 765, 1004]);
    expect(dry.stats()).toEqual({ calls: 3, promptTokens: 208 + 770 + 1004, medianPromptTokens: 770, costUsd: (208 + 770 + 1004) / 1e6 });
    dry.reset();
    expect(dry.stats().calls).toBe(0);
  });
});
