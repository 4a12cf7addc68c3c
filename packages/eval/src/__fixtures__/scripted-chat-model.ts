import { DocTreeError } from '@doctree/schema';
import type { ChatModelClient, ChatReply, ChatRequest } from '@doctree/schema';

/** A reply of the scripted model: text, or an error to throw, or a function of the request. */
export type ScriptedReply = string | DocTreeError | ((request: ChatRequest) => string);

/**
 * A ChatModelClient that answers from a script, in order (the last entry repeats), and records every request.
 * Token usage is the character count / 4 of the messages and of the reply.
 */
export class ScriptedChatModel implements ChatModelClient {
  readonly requests: ChatRequest[] = [];
  #next = 0;
  constructor(
    private readonly script: readonly ScriptedReply[],
    readonly model = 'scripted-judge-1',
  ) {}

  async chat(request: ChatRequest): Promise<ChatReply> {
    this.requests.push(request);
    if (request.signal?.aborted) throw new DocTreeError('CANCELLED', 'chat cancelled');
    const entry = this.script[Math.min(this.#next++, this.script.length - 1)]!;
    if (DocTreeError.isInstance(entry)) throw entry;
    const text = typeof entry === 'function' ? entry(request) : entry;
    const prompt = Math.ceil(request.messages.reduce((n, m) => n + m.content.length, 0) / 4);
    return { text, usage: { prompt, completion: Math.ceil(text.length / 4) }, model: this.model, latencyMs: 1, costUsd: null };
  }
}
