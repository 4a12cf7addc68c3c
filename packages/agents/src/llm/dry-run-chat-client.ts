import { estimateTokens } from '@doctree/index';
import { DocTreeError } from '@doctree/schema';
import type { ChatModelClient, ChatReply, ChatRequest } from '@doctree/schema';

import { chatCostUsd } from './openai-chat-client.js';
import type { ChatPrice, ChatPurpose } from './openai-chat-client.js';

/** One request the dry run counted. */
export interface DryRunCall {
  purpose: ChatPurpose;
  model: string;
  /** Estimated prompt tokens (messages, per-message overhead and images). */
  promptTokens: number;
  messages: number;
  images: number;
}

/** Options of {@link DryRunChatClient}. */
export interface DryRunChatClientOptions {
  /** Model name reported (what the real client would use). Default `dry-run`. */
  model?: string;
  /** Tokens added per message for the chat format's role markers. Default 4. */
  tokensPerMessage?: number;
  /** Tokens counted per image (OpenAI's cost of a 512×512 tile plus base at high detail is 255; a page region ~765). Default 765. */
  tokensPerImage?: number;
  /** Prices, to report what the calls would cost. */
  price?: ChatPrice;
}

/** Defaults of {@link DryRunChatClientOptions}. */
export const DRY_RUN_CHAT_CLIENT_DEFAULTS = {
  model: 'dry-run',
  tokensPerMessage: 4,
  tokensPerImage: 765,
} as const satisfies DryRunChatClientOptions;

/** Totals of a dry run. */
export interface DryRunStats {
  calls: number;
  promptTokens: number;
  /** Median prompt tokens per call (0 without calls). */
  medianPromptTokens: number;
  /** What the prompts would cost at the configured price (completions not counted), or `null` without a price. */
  costUsd: number | null;
}

/**
 * A {@link ChatModelClient} that sends nothing: it counts the prompt tokens the LLM path would send (a
 * tokenizer-free estimate, ≈ 4 characters per token, see `estimateTokens`) and answers with an empty text, so every
 * LLM step takes its offline fallback. Used by `--dry-run` and the benches to report prompt tokens per question.
 *
 * @example
 * ```ts
 * const dry = new DryRunChatClient();
 * await new LlmRouter({ client: dry }).route('What was revenue in 2023?');
 * console.log(dry.stats().medianPromptTokens);
 * ```
 */
export class DryRunChatClient implements ChatModelClient {
  readonly model: string;
  readonly #options: DryRunChatClientOptions & Required<Pick<DryRunChatClientOptions, keyof typeof DRY_RUN_CHAT_CLIENT_DEFAULTS>>;
  readonly #calls: DryRunCall[] = [];

  constructor(options: DryRunChatClientOptions = {}) {
    this.#options = { ...DRY_RUN_CHAT_CLIENT_DEFAULTS, ...options };
    this.model = this.#options.model;
  }

  /** Counts the request's prompt tokens and returns an empty reply. */
  async chat(request: ChatRequest): Promise<ChatReply> {
    if (request.signal?.aborted) throw new DocTreeError('CANCELLED', 'The chat request was cancelled', { cause: request.signal.reason });
    if (!Array.isArray(request.messages) || request.messages.length === 0) throw new DocTreeError('USAGE', 'chat expects { messages: [...] } with at least one message');
    const images = request.images?.length ?? 0;
    const promptTokens =
      request.messages.reduce((sum, m) => sum + estimateTokens(m.content) + this.#options.tokensPerMessage, 0) + images * this.#options.tokensPerImage;
    this.#calls.push({ purpose: request.purpose ?? 'chat', model: this.model, promptTokens, messages: request.messages.length, images });
    const usage = { prompt: promptTokens, completion: 0 };
    return { text: '', usage, model: this.model, latencyMs: 0, costUsd: chatCostUsd(usage, this.#options.price) };
  }

  /** Every counted call, in order. */
  get calls(): readonly DryRunCall[] {
    return this.#calls;
  }

  /** Totals so far. */
  stats(): DryRunStats {
    const tokens = this.#calls.map((c) => c.promptTokens).sort((a, b) => a - b);
    const total = tokens.reduce((a, b) => a + b, 0);
    return {
      calls: tokens.length,
      promptTokens: total,
      medianPromptTokens: median(tokens),
      costUsd: chatCostUsd({ prompt: total, completion: 0 }, this.#options.price),
    };
  }

  /** Forgets the counted calls (e.g. between questions). */
  reset(): void {
    this.#calls.length = 0;
  }
}

/** Median of sorted numbers (0 for none). */
export function median(sorted: readonly number[]): number {
  if (sorted.length === 0) return 0;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
