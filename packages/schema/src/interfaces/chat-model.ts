import type { TokenUsage } from '../agent.js';

/** A chat message as DocTree sends it. Document text only ever goes in `user` messages, fenced as data. */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** One chat request. */
export interface ChatRequest {
  messages: readonly ChatMessage[];
  /** Ask for a JSON object reply (structured output). */
  json?: boolean;
  /** Which configured model: chat (default), vlm, summary or judge. */
  purpose?: 'chat' | 'vlm' | 'summary' | 'judge';
  maxTokens?: number;
  signal?: AbortSignal;
  /** PNG images for vision requests. */
  images?: readonly Uint8Array[];
}

/** One chat reply with its accounting. */
export interface ChatReply {
  text: string;
  usage: TokenUsage;
  model: string;
  latencyMs: number;
  /** USD, when the price is configured. */
  costUsd: number | null;
}

/**
 * How DocTree uses a chat model. `@doctree/agents` implements it over LangChain's `ChatOpenAI`
 * (any OpenAI-compatible endpoint); tests use fakes or a scripted local HTTP server.
 */
export interface ChatModelClient {
  readonly model: string;
  chat(request: ChatRequest): Promise<ChatReply>;
}
