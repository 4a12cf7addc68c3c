import type { ChatModelClient, ChatReply, ChatRequest } from '@doctree/schema';

/** A scripted reply: text to return, or an error to throw. */
export type FakeChatStep = { text: string } | { error: Error };

/** A ChatModelClient that records requests and answers from a script or a function of the request. */
export class FakeChatModel implements ChatModelClient {
  readonly requests: ChatRequest[] = [];

  constructor(
    readonly model: string,
    private readonly answer: (request: ChatRequest, call: number) => FakeChatStep,
  ) {}

  get calls(): number {
    return this.requests.length;
  }

  async chat(request: ChatRequest): Promise<ChatReply> {
    this.requests.push(request);
    const step = this.answer(request, this.requests.length);
    await new Promise((resolve) => setImmediate(resolve));
    if ('error' in step) throw step.error;
    return { text: step.text, usage: { prompt: 100, completion: 40 }, model: this.model, latencyMs: 1, costUsd: 0.0001 };
  }
}

/** A well-behaved fake: a JSON summary that names the section it was given (from the `Section:` line). */
export function summarizingChatModel(model = 'fake-summary-model'): FakeChatModel {
  return new FakeChatModel(model, (request) => {
    const user = request.messages.find((m) => m.role === 'user')?.content ?? '';
    const section = /^Section: (.*)$/m.exec(user)?.[1];
    const summary = section
      ? `This section (${section}) reports the key figures and explains what drove them, for readers looking for these numbers.`
      : 'An annual report on Form 10-K describing the business, its results of operations and its financial statements.';
    return { text: JSON.stringify({ summary }) };
  });
}
