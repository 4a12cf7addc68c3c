import { mapOpenAIError, PLACEHOLDER_API_KEY } from '@doctree/index';
import type { OpenAIErrorContext } from '@doctree/index';
import { DocTreeError, redactSecrets } from '@doctree/schema';
import type { ChatMessage, ChatModelClient, ChatReply, ChatRequest, DocTreeErrorCode, LlmConfig, TokenUsage } from '@doctree/schema';
import type { BaseMessage } from '@langchain/core/messages';
import type { ChatOpenAI } from '@langchain/openai';

import { isRetryable, retryDelayMs, sleep } from './chat-retry.js';

/** Purposes a request can name; each maps to a configured model. */
export type ChatPurpose = NonNullable<ChatRequest['purpose']>;

/** USD per million prompt / completion tokens. */
export interface ChatPrice {
  prompt: number;
  completion: number;
}

/** One finished chat call, as reported to {@link OpenAIChatClientOptions.onCall}. Never holds prompts or secrets. */
export interface ChatCallRecord {
  purpose: ChatPurpose;
  model: string;
  status: 'ok' | 'error';
  /** Attempts made (1 + retries). */
  attempts: number;
  /** Waits before each retry, ms (backoff, or what a 429's `Retry-After` asked for). */
  retryDelaysMs: number[];
  latencyMs: number;
  usage: TokenUsage;
  costUsd: number | null;
  /** Error code and redacted message of a failed call. */
  error?: { code: DocTreeErrorCode; message: string };
}

/** Options of {@link OpenAIChatClient}. */
export interface OpenAIChatClientOptions {
  /** Chat model (routing, reading). Default `gpt-4o-mini`. */
  model?: string;
  /** Vision model for `purpose: 'vlm'`; defaults to `model`. */
  vlmModel?: string;
  /** Model for `purpose: 'summary'`; defaults to `model`. */
  summaryModel?: string;
  /** Model for `purpose: 'judge'`; defaults to `model`. */
  judgeModel?: string;
  /** Base URL of an OpenAI-compatible endpoint, e.g. `http://127.0.0.1:11434/v1`; absent means api.openai.com. */
  baseURL?: string;
  /**
   * API key (secret: never logged, redacted from every error and record). Required for api.openai.com; may be
   * absent when `baseURL` is set (local servers), then a placeholder is sent.
   */
  apiKey?: string;
  /** Timeout of one HTTP attempt, ms. Default 60000. */
  timeoutMs?: number;
  /** Retries after a failed attempt (429, 5xx, timeouts, connection errors). Default 3. */
  maxRetries?: number;
  /** First backoff delay, ms; doubles per retry. A 429's `Retry-After` raises it. Default 500. */
  retryBaseDelayMs?: number;
  /** Longest wait between attempts, ms; a `Retry-After` beyond it fails at once with `LLM_RATE_LIMITED`. Default 60000. */
  maxRetryDelayMs?: number;
  /** Sampling temperature. Default 0. */
  temperature?: number;
  /** Prices for cost accounting; `costUsd` is `null` without them. */
  price?: ChatPrice;
  /** Called after every call, successful or not (tracing, metrics). Must not throw. */
  onCall?: (record: ChatCallRecord) => void;
}

/** Defaults of {@link OpenAIChatClientOptions}. */
export const OPENAI_CHAT_CLIENT_DEFAULTS = {
  model: 'gpt-4o-mini',
  timeoutMs: 60_000,
  maxRetries: 3,
  retryBaseDelayMs: 500,
  maxRetryDelayMs: 60_000,
  temperature: 0,
} as const satisfies OpenAIChatClientOptions;

type ResolvedOptions = OpenAIChatClientOptions & Required<Pick<OpenAIChatClientOptions, keyof typeof OPENAI_CHAT_CLIENT_DEFAULTS>>;

const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** Cost in USD of `usage` at `price`, or `null` without a price. */
export function chatCostUsd(usage: TokenUsage, price: ChatPrice | undefined): number | null {
  if (price === undefined) return null;
  return (usage.prompt * price.prompt + usage.completion * price.completion) / 1_000_000;
}

/**
 * A {@link ChatModelClient} over LangChain's `ChatOpenAI` (`@langchain/openai`), for any OpenAI-compatible endpoint
 * (OpenAI, OpenRouter, vLLM, Ollama…). One model per purpose (chat / vlm / summary / judge), JSON mode for structured
 * output, PNG images as base64 data URLs for vision requests, per-attempt timeout, retries with exponential backoff
 * that honour a 429's `Retry-After`, token usage from the response and cost when prices are configured.
 * Failures are `DocTreeError`s (`LLM_AUTH`, `LLM_RATE_LIMITED`, `LLM_TIMEOUT`, `LLM_UNAVAILABLE`, `LLM_BAD_OUTPUT`,
 * `CANCELLED`) whose messages never contain the API key.
 *
 * @example
 * ```ts
 * const client = new OpenAIChatClient({ baseURL: 'http://127.0.0.1:11434/v1', model: 'qwen2.5:7b' });
 * const reply = await client.chat({ messages: [{ role: 'user', content: 'Say hi' }] });
 * console.log(reply.text, reply.usage, reply.costUsd);
 * ```
 */
export class OpenAIChatClient implements ChatModelClient {
  /** The chat model (purpose `chat`). */
  readonly model: string;
  readonly #options: ResolvedOptions;
  readonly #clients = new Map<string, ChatOpenAI>();
  #modules: Promise<{ ChatOpenAI: typeof ChatOpenAI; messages: typeof import('@langchain/core/messages') }> | undefined;

  constructor(options: OpenAIChatClientOptions = {}) {
    const merged: ResolvedOptions = { ...OPENAI_CHAT_CLIENT_DEFAULTS, ...definedOnly(options) };
    for (const key of ['model', 'vlmModel', 'summaryModel', 'judgeModel'] as const) {
      const value = merged[key];
      if (value !== undefined && (typeof value !== 'string' || value.trim() === '')) {
        throw new DocTreeError('CONFIG_INVALID', `OpenAIChatClient: ${key} must be a non-empty string`);
      }
    }
    if (!(merged.timeoutMs > 0)) throw new DocTreeError('CONFIG_INVALID', `OpenAIChatClient: timeoutMs must be positive, got ${String(merged.timeoutMs)}`);
    for (const key of ['maxRetries', 'retryBaseDelayMs', 'maxRetryDelayMs'] as const) {
      if (!Number.isInteger(merged[key]) || merged[key] < 0) throw new DocTreeError('CONFIG_INVALID', `OpenAIChatClient: ${key} must be an integer >= 0, got ${String(merged[key])}`);
    }
    if (merged.price !== undefined && !(merged.price.prompt >= 0 && merged.price.completion >= 0)) {
      throw new DocTreeError('CONFIG_INVALID', 'OpenAIChatClient: prices must be non-negative numbers');
    }
    if ((merged.apiKey === undefined || merged.apiKey === '') && merged.baseURL === undefined) {
      throw new DocTreeError('CONFIG_MISSING_SECRET', 'The openai chat client needs an API key for api.openai.com', {
        hint: 'Set OPENAI_API_KEY (or llm.api_key), or point llm.base_url at a local OpenAI-compatible server.',
      });
    }
    this.#options = merged;
    this.model = merged.model;
  }

  /** A client for the `llm` section of the DocTree configuration (`overrides` win, e.g. `onCall`). */
  static fromConfig(llm: LlmConfig, overrides: OpenAIChatClientOptions = {}): OpenAIChatClient {
    return new OpenAIChatClient({
      model: llm.model,
      vlmModel: llm.vlm_model,
      summaryModel: llm.summary_model,
      judgeModel: llm.judge_model,
      baseURL: llm.base_url,
      apiKey: llm.api_key,
      timeoutMs: llm.timeout_ms,
      maxRetries: llm.max_retries,
      temperature: llm.temperature,
      price: llm.price_per_mtok,
      ...definedOnly(overrides),
    });
  }

  /** The model a purpose uses. */
  modelFor(purpose: ChatPurpose = 'chat'): string {
    const o = this.#options;
    const byPurpose: Record<ChatPurpose, string | undefined> = { chat: o.model, vlm: o.vlmModel, summary: o.summaryModel, judge: o.judgeModel };
    return byPurpose[purpose] ?? o.model;
  }

  /** Sends one chat request (retrying transient failures) and returns the reply with its usage and cost. */
  async chat(request: ChatRequest): Promise<ChatReply> {
    validateRequest(request);
    const purpose = request.purpose ?? 'chat';
    const model = this.modelFor(purpose);
    const started = performance.now();
    let attempts = 0;
    const retryDelaysMs: number[] = [];
    try {
      const messages = await this.#toMessages(request);
      const client = await this.#client(model, request.maxTokens);
      for (;;) {
        attempts++;
        const attemptStarted = performance.now();
        try {
          const result = await client.invoke(messages, {
            ...(request.json ? { response_format: { type: 'json_object' as const } } : {}),
            ...(request.signal !== undefined ? { signal: request.signal } : {}),
          });
          const reply = this.#toReply(result, model, performance.now() - started);
          this.#report({ purpose, model: reply.model, status: 'ok', attempts, retryDelaysMs, latencyMs: reply.latencyMs, usage: reply.usage, costUsd: reply.costUsd });
          return reply;
        } catch (error) {
          if (request.signal?.aborted) throw new DocTreeError('CANCELLED', 'The chat request was cancelled', { cause: request.signal.reason });
          const retry = attempts - 1;
          const delay = retry < this.#options.maxRetries && isRetryable(error) ? retryDelayMs(error, retry, this.#retryPolicy()) : undefined;
          if (delay === undefined) throw this.#mapError(error, model, performance.now() - attemptStarted, attempts);
          retryDelaysMs.push(delay);
          await sleep(delay, request.signal);
        }
      }
    } catch (error) {
      const mapped = DocTreeError.isInstance(error) ? error : this.#mapError(error, model, performance.now() - started, attempts);
      this.#report({
        purpose,
        model,
        status: 'error',
        attempts,
        retryDelaysMs,
        latencyMs: performance.now() - started,
        usage: { prompt: 0, completion: 0 },
        costUsd: null,
        error: { code: mapped.code, message: redactSecrets(mapped.message, [this.#options.apiKey]) },
      });
      throw mapped;
    }
  }

  #retryPolicy(): { maxRetries: number; baseDelayMs: number; maxDelayMs: number } {
    return { maxRetries: this.#options.maxRetries, baseDelayMs: this.#options.retryBaseDelayMs, maxDelayMs: this.#options.maxRetryDelayMs };
  }

  #report(record: ChatCallRecord): void {
    try {
      this.#options.onCall?.(record);
    } catch {
      // A tracing hook must not break the call.
    }
  }

  #mapError(error: unknown, model: string, elapsedMs: number, attempts: number): DocTreeError {
    const o = this.#options;
    const endpoint = o.baseURL !== undefined ? redactSecrets(o.baseURL, [o.apiKey]) : 'api.openai.com';
    const context: OpenAIErrorContext = {
      operation: 'Chat request',
      model,
      timeoutMs: o.timeoutMs,
      maxRetries: o.maxRetries,
      secrets: [o.apiKey],
      elapsedMs,
      ...(o.baseURL !== undefined ? { baseURL: o.baseURL } : {}),
      hints: {
        LLM_RATE_LIMITED: `Still rate limited after ${attempts} attempt(s); raise llm.max_retries, lower concurrency or retry later.`,
        LLM_TIMEOUT: `No answer within ${o.timeoutMs} ms (${attempts} attempt(s)); raise llm.timeout_ms or check the server at ${endpoint}.`,
      },
    };
    return mapOpenAIError(error, context);
  }

  async #modulesLoaded(): Promise<{ ChatOpenAI: typeof ChatOpenAI; messages: typeof import('@langchain/core/messages') }> {
    this.#modules ??= (async () => {
      try {
        const [openai, messages] = await Promise.all([import('@langchain/openai'), import('@langchain/core/messages')]);
        return { ChatOpenAI: openai.ChatOpenAI, messages };
      } catch (error) {
        this.#modules = undefined;
        throw new DocTreeError('BACKEND_UNAVAILABLE', 'Cannot load @langchain/openai for the chat client', { cause: error, hint: 'Reinstall dependencies: npm install' });
      }
    })();
    return this.#modules;
  }

  async #client(model: string, maxTokens: number | undefined): Promise<ChatOpenAI> {
    const key = `${model}\u0000${maxTokens ?? ''}`;
    const existing = this.#clients.get(key);
    if (existing !== undefined) return existing;
    const { ChatOpenAI: Client } = await this.#modulesLoaded();
    const o = this.#options;
    const client = new Client({
      model,
      apiKey: o.apiKey !== undefined && o.apiKey !== '' ? o.apiKey : PLACEHOLDER_API_KEY,
      temperature: o.temperature,
      timeout: o.timeoutMs,
      // Retries are ours (backoff honouring Retry-After, attempts counted); LangChain makes one attempt.
      maxRetries: 0,
      ...(maxTokens !== undefined ? { maxTokens } : {}),
      ...(o.baseURL !== undefined ? { configuration: { baseURL: o.baseURL } } : {}),
    });
    this.#clients.set(key, client);
    return client;
  }

  async #toMessages(request: ChatRequest): Promise<BaseMessage[]> {
    const { messages: lc } = await this.#modulesLoaded();
    const images = request.images ?? [];
    const lastUser = request.messages.map((m) => m.role).lastIndexOf('user');
    if (images.length > 0 && lastUser < 0) throw new DocTreeError('USAGE', 'A chat request with images needs a user message to attach them to');
    return request.messages.map((message: ChatMessage, i) => {
      if (message.role === 'system') return new lc.SystemMessage(message.content);
      if (message.role === 'assistant') return new lc.AIMessage(message.content);
      if (i !== lastUser || images.length === 0) return new lc.HumanMessage(message.content);
      return new lc.HumanMessage({
        content: [
          { type: 'text', text: message.content },
          ...images.map((png) => ({ type: 'image_url' as const, image_url: { url: `data:image/png;base64,${Buffer.from(png).toString('base64')}` } })),
        ],
      });
    });
  }

  #toReply(result: BaseMessage, model: string, latencyMs: number): ChatReply {
    const text = contentText(result.content);
    if (text === undefined) throw new DocTreeError('LLM_BAD_OUTPUT', `The chat reply of model ${model} has no text content`);
    const meta = (result as { usage_metadata?: { input_tokens?: number; output_tokens?: number } }).usage_metadata;
    const usage: TokenUsage = { prompt: nonNegativeInt(meta?.input_tokens), completion: nonNegativeInt(meta?.output_tokens) };
    const served = (result.response_metadata as Record<string, unknown> | undefined)?.['model_name'];
    return {
      text,
      usage,
      model: typeof served === 'string' && served !== '' ? served : model,
      latencyMs,
      costUsd: chatCostUsd(usage, this.#options.price),
    };
  }
}

function nonNegativeInt(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.round(value) : 0;
}

/** The text of a LangChain message content: a string, or the text parts of a content array. */
function contentText(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  const parts = content.map((part) => (typeof part === 'string' ? part : typeof part === 'object' && part !== null && (part as { type?: unknown }).type === 'text' ? String((part as { text?: unknown }).text ?? '') : ''));
  return parts.join('');
}

function validateRequest(request: ChatRequest): void {
  if (typeof request !== 'object' || request === null || !Array.isArray(request.messages) || request.messages.length === 0) {
    throw new DocTreeError('USAGE', 'chat expects { messages: [...] } with at least one message');
  }
  for (const [i, message] of request.messages.entries()) {
    if (!['system', 'user', 'assistant'].includes(message?.role) || typeof message.content !== 'string') {
      throw new DocTreeError('USAGE', `chat message ${i} needs a role (system, user or assistant) and string content`);
    }
  }
  if (request.purpose !== undefined && !['chat', 'vlm', 'summary', 'judge'].includes(request.purpose)) {
    throw new DocTreeError('USAGE', `unknown chat purpose ${String(request.purpose)}; use chat, vlm, summary or judge`);
  }
  if (request.maxTokens !== undefined && (!Number.isInteger(request.maxTokens) || request.maxTokens < 1)) {
    throw new DocTreeError('USAGE', `maxTokens must be a positive integer, got ${String(request.maxTokens)}`);
  }
  for (const [i, image] of (request.images ?? []).entries()) {
    if (!(image instanceof Uint8Array) || image.length < PNG_MAGIC.length || PNG_MAGIC.some((byte, k) => image[k] !== byte)) {
      throw new DocTreeError('USAGE', `chat image ${i} is not a PNG`, { hint: 'Render page regions to PNG before sending them to the vision model.' });
    }
  }
}

/** Drops keys whose value is `undefined`, so they do not override defaults when spread. */
function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
