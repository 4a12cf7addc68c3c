import type { ChatModelClient, ChatReply, ChatRequest } from '@doctree/schema';

/** A scripted reply: text, a function of the request, or an error to throw. */
export type FakeReply = string | Error | ((request: ChatRequest) => string);

/** A ChatModelClient for unit tests: replies from a script (the last one repeats) and records every request. */
export class FakeChatClient implements ChatModelClient {
  readonly model = 'fake-model';
  readonly requests: ChatRequest[] = [];

  constructor(private readonly script: FakeReply[]) {}

  async chat(request: ChatRequest): Promise<ChatReply> {
    this.requests.push(request);
    const next = this.script[Math.min(this.requests.length - 1, this.script.length - 1)];
    if (next === undefined) throw new Error('FakeChatClient has no scripted reply');
    if (next instanceof Error) throw next;
    const text = typeof next === 'function' ? next(request) : next;
    return { text, usage: { prompt: 100, completion: 20 }, model: this.model, latencyMs: 1, costUsd: null };
  }
}
