import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, type BaseMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';
import { FakeListChatModel } from '@langchain/core/utils/testing';
import { LlmJudger, type ChatCallRecord } from '@doctree/agents';
import { runJudgerConformance } from '@doctree/agents/testing';
import { DocTreeError, type ChatRequest } from '@doctree/schema';
import { ChatModelClientFromLangChain, JSON_REPLY_INSTRUCTION } from './chat-model-client.js';

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);

/** A LangChain chat model that records the messages and call options it gets and replies with a script. */
class ScriptedChatModel extends BaseChatModel {
  readonly received: BaseMessage[][] = [];
  readonly options: Record<string, unknown>[] = [];
  constructor(private readonly script: Array<(messages: BaseMessage[]) => AIMessage | Error | Promise<AIMessage>>) {
    super({ maxRetries: 0 });
  }
  _llmType(): string {
    return 'scripted';
  }
  async _generate(messages: BaseMessage[], options: this['ParsedCallOptions']): Promise<ChatResult> {
    this.received.push(messages);
    this.options.push({ ...options });
    const step = this.script[Math.min(this.received.length - 1, this.script.length - 1)]!;
    const out = await step(messages);
    if (out instanceof Error) throw out;
    return { generations: [{ text: String(out.content), message: out }] };
  }
}

const ok = (text: string, usage?: { input_tokens: number; output_tokens: number }) => () =>
  new AIMessage({ content: text, ...(usage ? { usage_metadata: { ...usage, total_tokens: usage.input_tokens + usage.output_tokens } } : {}), response_metadata: { model_name: 'served-model-v2' } });
const httpError = (status: number, headers: Record<string, string> = {}) => () => Object.assign(new Error(`HTTP ${status}`), { status, headers });

async function rejection(promise: Promise<unknown>): Promise<DocTreeError> {
  try {
    await promise;
  } catch (error) {
    if (DocTreeError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a rejection');
}

const request = (extra: Partial<ChatRequest> = {}): ChatRequest => ({
  messages: [
    { role: 'system', content: 'You are a careful reader.' },
    { role: 'user', content: 'first question' },
    { role: 'assistant', content: 'first answer' },
    { role: 'user', content: 'second question' },
  ],
  ...extra,
});

// The LLM judger over a LangChain fake model that approves every answer: only the rule checks can fail a verdict, as with
// the OpenAI client against the scripted server.
runJudgerConformance('LlmJudger over ChatModelClientFromLangChain(FakeListChatModel)', (options) => {
  const model = new FakeListChatModel({ responses: [JSON.stringify({ pass: true, score: 0.9, failures: [] })] });
  return new LlmJudger({ client: new ChatModelClientFromLangChain(model, { maxRetries: 0 }), ...options });
});

describe('ChatModelClientFromLangChain', () => {
  it('sends system, user and assistant messages as LangChain messages and returns the text, usage, served model and latency', async () => {
    const model = new ScriptedChatModel([ok('the reply', { input_tokens: 120, output_tokens: 7 })]);
    const records: ChatCallRecord[] = [];
    const client = new ChatModelClientFromLangChain(model, { model: 'my-model', price: { prompt: 1, completion: 2 }, onCall: (r) => records.push(r) });
    const reply = await client.chat(request());
    expect(model.received[0]!.map((m) => [m.getType(), m.content])).toEqual([
      ['system', 'You are a careful reader.'],
      ['human', 'first question'],
      ['ai', 'first answer'],
      ['human', 'second question'],
    ]);
    expect(reply).toMatchObject({ text: 'the reply', usage: { prompt: 120, completion: 7 }, model: 'served-model-v2' });
    expect(reply.costUsd).toBeCloseTo((120 * 1 + 7 * 2) / 1e6, 12);
    expect(reply.latencyMs).toBeGreaterThanOrEqual(0);
    expect(records).toEqual([expect.objectContaining({ purpose: 'chat', status: 'ok', attempts: 1, usage: { prompt: 120, completion: 7 } })]);
    expect(client.model).toBe('my-model');
  });

  it('names the model after its model field or class when no name is given; usage is 0 when the provider reports none', async () => {
    const client = new ChatModelClientFromLangChain(new FakeListChatModel({ responses: ['plain'] }));
    expect(client.model).toBe('FakeListChatModel');
    const reply = await client.chat(request());
    expect(reply).toMatchObject({ text: 'plain', usage: { prompt: 0, completion: 0 }, model: 'FakeListChatModel', costUsd: null });
  });

  it('json: asks for one JSON object in the system prompt and adds the configured JSON call options', async () => {
    const model = new ScriptedChatModel([ok('{"a":1}')]);
    await new ChatModelClientFromLangChain(model, { jsonCallOptions: { response_format: { type: 'json_object' } } }).chat(request({ json: true }));
    expect(model.received[0]![0]!.content).toBe(`You are a careful reader.\n\n${JSON_REPLY_INSTRUCTION}`);
    expect(model.options[0]!['response_format']).toEqual({ type: 'json_object' });
    const bare = new ScriptedChatModel([ok('{}')]);
    await new ChatModelClientFromLangChain(bare).chat({ messages: [{ role: 'user', content: 'q' }], json: true });
    expect(bare.received[0]!.map((m) => m.getType())).toEqual(['system', 'human']);
    expect(bare.options[0]!['response_format']).toBeUndefined();
  });

  it('vision: PNG images join the last user message as image_url data URLs, and purpose vlm goes to the vision model', async () => {
    const text = new ScriptedChatModel([ok('text model')]);
    const vision = new ScriptedChatModel([ok('three bars')]);
    const client = new ChatModelClientFromLangChain(text, { models: { vlm: vision } });
    const reply = await client.chat(request({ purpose: 'vlm', images: [PNG] }));
    expect(reply.text).toBe('three bars');
    expect(text.received).toHaveLength(0);
    const last = vision.received[0]![3]!;
    expect(last.content).toEqual([
      { type: 'text', text: 'second question' },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${Buffer.from(PNG).toString('base64')}` } },
    ]);
    expect(vision.received[0]![1]!.content).toBe('first question');
  });

  it('refuses malformed requests with USAGE (no message, bad role, non-PNG image, bad purpose) before calling the model', async () => {
    const model = new ScriptedChatModel([ok('x')]);
    const client = new ChatModelClientFromLangChain(model);
    expect((await rejection(client.chat({ messages: [] }))).code).toBe('USAGE');
    expect((await rejection(client.chat({ messages: [{ role: 'tool' as 'user', content: 'x' }] }))).code).toBe('USAGE');
    expect((await rejection(client.chat(request({ images: [new Uint8Array([1, 2, 3])] })))).message).toMatch(/not a PNG/);
    expect((await rejection(client.chat(request({ purpose: 'draw' as 'chat' })))).code).toBe('USAGE');
    expect(model.received).toHaveLength(0);
    expect(() => new ChatModelClientFromLangChain({} as BaseChatModel)).toThrow(DocTreeError);
    expect(() => new ChatModelClientFromLangChain(model, { timeoutMs: 0 })).toThrow(/timeoutMs/);
  });

  it('maps provider failures to the codes the agent falls back on: 401 LLM_AUTH, 5xx and other errors LLM_UNAVAILABLE', async () => {
    const records: ChatCallRecord[] = [];
    const auth = await rejection(new ChatModelClientFromLangChain(new ScriptedChatModel([httpError(401)]), { onCall: (r) => records.push(r), secrets: ['sk-secret'] }).chat(request()));
    expect(auth.code).toBe('LLM_AUTH');
    expect(records[0]).toMatchObject({ status: 'error', attempts: 1, error: { code: 'LLM_AUTH' } });
    const down = await rejection(new ChatModelClientFromLangChain(new ScriptedChatModel([httpError(503)]), { maxRetries: 0 }).chat(request()));
    expect(down.code).toBe('LLM_UNAVAILABLE');
    const fake = new FakeListChatModel({ responses: ['x'] });
    const failed = await rejection(new ChatModelClientFromLangChain(fake, { jsonCallOptions: { thrownErrorString: 'model exploded' } }).chat(request({ json: true })));
    expect(failed.code).toBe('LLM_UNAVAILABLE');
    expect(failed.message).toMatch(/FakeListChatModel/);
  });

  it('retries a 429 as its Retry-After asks, then answers; gives up with LLM_RATE_LIMITED after maxRetries', async () => {
    const records: ChatCallRecord[] = [];
    const model = new ScriptedChatModel([httpError(429, { 'retry-after-ms': '30' }), ok('after the wait')]);
    const reply = await new ChatModelClientFromLangChain(model, { maxRetries: 1, onCall: (r) => records.push(r) }).chat(request());
    expect(reply.text).toBe('after the wait');
    expect(records[0]).toMatchObject({ status: 'ok', attempts: 2 });
    expect(records[0]!.retryDelaysMs[0]).toBeGreaterThanOrEqual(30);
    const always = new ScriptedChatModel([httpError(429, { 'retry-after-ms': '5' })]);
    const error = await rejection(new ChatModelClientFromLangChain(always, { maxRetries: 2, retryBaseDelayMs: 1 }).chat(request()));
    expect(error.code).toBe('LLM_RATE_LIMITED');
    expect(always.received).toHaveLength(3);
  });

  it('a model slower than timeoutMs fails with LLM_TIMEOUT; the request signal cancels with CANCELLED', async () => {
    const slow = () => new Promise<AIMessage>((resolve) => setTimeout(() => resolve(new AIMessage('late')), 400));
    const timeout = await rejection(new ChatModelClientFromLangChain(new ScriptedChatModel([slow]), { timeoutMs: 40, maxRetries: 0 }).chat(request()));
    expect(timeout.code).toBe('LLM_TIMEOUT');
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    const cancelled = await rejection(new ChatModelClientFromLangChain(new ScriptedChatModel([slow])).chat(request({ signal: controller.signal })));
    expect(cancelled.code).toBe('CANCELLED');
  });
});
