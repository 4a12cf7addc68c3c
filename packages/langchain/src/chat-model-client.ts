import { AIMessage, HumanMessage, SystemMessage, type BaseMessage } from '@langchain/core/messages';
import { isRetryable, retryDelayMs, sleep, type ChatCallRecord, type ChatPrice, type ChatPurpose } from '@doctree/agents';
import { mapOpenAIError } from '@doctree/index';
import { DocTreeError, redactSecrets, type ChatModelClient, type ChatReply, type ChatRequest, type TokenUsage } from '@doctree/schema';

/**
 * A LangChain chat model as this adapter calls it: any `BaseChatModel` (typed structurally, so a model from another
 * copy of `@langchain/core` — CommonJS or ESM — fits too).
 */
export interface LangChainChatModel {
  /** `BaseChatModel.invoke(messages, callOptions)`, resolving to an `AIMessage` (`never`: any model's input type fits). */
  invoke(input: never, options?: object): Promise<unknown>;
  /** `Runnable.getName()`. */
  getName?(suffix?: string): string;
}

/** Options of {@link ChatModelClientFromLangChain}. */
export interface ChatModelClientFromLangChainOptions {
  /**
   * The name DocTree records for this model (traces, `ChatReply.model` when the reply names none). Default: the
   * model's `model` / `modelName` field, else its LangChain class name.
   */
  model?: string;
  /**
   * Models per purpose (`vlm` for vision requests, `summary` for index gists, `judge` for the LLM judger); a purpose
   * not listed uses the main model.
   */
  models?: Partial<Record<ChatPurpose, LangChainChatModel>>;
  /**
   * Call options added to the model's `invoke` when DocTree asks for a JSON reply, e.g. `{ response_format: { type:
   * 'json_object' } }` for `ChatOpenAI` or `{ format: 'json' }` for `ChatOllama`. Default none: the JSON instruction
   * in DocTree's prompts (and a system line this adapter adds) asks for it.
   */
  jsonCallOptions?: Record<string, unknown>;
  /** Time limit of one attempt, ms (a model that does not answer in time fails with `LLM_TIMEOUT`). Default 120000. */
  timeoutMs?: number;
  /**
   * Retries of a transient failure (HTTP 408/409/429/5xx, timeouts, connection errors), with exponential backoff that
   * honours `Retry-After`. The LangChain model's own retries (its `maxRetries`) run inside each attempt. Default 1.
   */
  maxRetries?: number;
  /** First backoff delay, ms (doubles per retry). Default 500. */
  retryBaseDelayMs?: number;
  /** Longest wait accepted between attempts, ms. Default 30000. */
  maxRetryDelayMs?: number;
  /** USD per million tokens, for `ChatReply.costUsd`. Default none (`costUsd: null`). */
  price?: ChatPrice;
  /** Strings never written to error messages or call records (API keys). Default none. */
  secrets?: readonly string[];
  /** Called after every call (status, attempts, tokens; never a prompt). Must not throw (exceptions are ignored). */
  onCall?: (record: ChatCallRecord) => void;
}

/** Defaults of {@link ChatModelClientFromLangChainOptions}. */
export const CHAT_MODEL_CLIENT_FROM_LANGCHAIN_DEFAULTS = {
  timeoutMs: 120_000,
  maxRetries: 1,
  retryBaseDelayMs: 500,
  maxRetryDelayMs: 30_000,
} as const satisfies ChatModelClientFromLangChainOptions;

const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const PURPOSES: readonly ChatPurpose[] = ['chat', 'vlm', 'summary', 'judge'];
/** Added to the system prompt of a JSON request, for models without a JSON mode call option. */
export const JSON_REPLY_INSTRUCTION = 'Reply with one JSON object only: no prose, no Markdown.';

type Resolved = ChatModelClientFromLangChainOptions & Required<Pick<ChatModelClientFromLangChainOptions, keyof typeof CHAT_MODEL_CLIENT_FROM_LANGCHAIN_DEFAULTS>>;

/**
 * Any LangChain chat model (`ChatAnthropic`, `ChatOllama`, `ChatBedrockConverse`, `ChatOpenAI`, a fake model…) as
 * DocTree's LLM and VLM: implements the `ChatModelClient` of `@doctree/schema`, so it plugs into `openAgent` /
 * `askQuestion` (`chat`, `vlm`), `DocTreeAgent` (`chat`, `vision.client`) and the LLM summarizer.
 *
 * - Messages become `SystemMessage` / `HumanMessage` / `AIMessage`; PNG images join the last user message as
 *   `image_url` content parts (base64 data URLs), which LangChain's providers translate for their APIs.
 * - `json: true` adds {@link JSON_REPLY_INSTRUCTION} to the system prompt and `jsonCallOptions` to the call.
 * - Token usage comes from the reply's `usage_metadata` (0 when the provider reports none), latency is measured, cost
 *   is computed from `price`.
 * - Failures become `DocTreeError`s the agent's fallbacks understand: `LLM_AUTH` (401/403), `LLM_RATE_LIMITED` (429),
 *   `LLM_TIMEOUT`, `LLM_UNAVAILABLE` (other HTTP or connection errors), `LLM_BAD_OUTPUT` (no text in the reply),
 *   `CANCELLED` (the request's signal), `USAGE` (a malformed request). Transient ones are retried first.
 *
 * @example
 * ```ts
 * import { ChatAnthropic } from '@langchain/anthropic';
 * const chat = new ChatModelClientFromLangChain(new ChatAnthropic({ model: 'claude-sonnet-4-5' }));
 * const run = await askQuestion('report.pdf', 'What was revenue in 2023?', { chat });
 * ```
 */
export class ChatModelClientFromLangChain implements ChatModelClient {
  /** The name recorded for the main model. */
  readonly model: string;
  readonly #main: LangChainChatModel;
  readonly #options: Resolved;

  /**
   * @throws DocTreeError `USAGE` when `chatModel` has no `invoke` method, `CONFIG_INVALID` for an option out of range.
   */
  constructor(chatModel: LangChainChatModel, options: ChatModelClientFromLangChainOptions = {}) {
    if (typeof chatModel?.invoke !== 'function') {
      throw new DocTreeError('USAGE', 'ChatModelClientFromLangChain needs a LangChain chat model (an object with invoke(messages))', { hint: 'Pass e.g. new ChatAnthropic({ model }) or new ChatOllama({ model }).' });
    }
    const o: Resolved = { ...CHAT_MODEL_CLIENT_FROM_LANGCHAIN_DEFAULTS, ...definedOnly(options) };
    if (!(Number.isFinite(o.timeoutMs) && o.timeoutMs > 0)) throw new DocTreeError('CONFIG_INVALID', `ChatModelClientFromLangChain: timeoutMs must be a positive number, got ${String(o.timeoutMs)}`);
    for (const key of ['maxRetries', 'retryBaseDelayMs', 'maxRetryDelayMs'] as const) {
      if (!Number.isInteger(o[key]) || o[key] < 0) throw new DocTreeError('CONFIG_INVALID', `ChatModelClientFromLangChain: ${key} must be an integer >= 0, got ${String(o[key])}`);
    }
    if (o.price !== undefined && !(o.price.prompt >= 0 && o.price.completion >= 0)) throw new DocTreeError('CONFIG_INVALID', 'ChatModelClientFromLangChain: prices must be non-negative numbers');
    for (const [purpose, model] of Object.entries(o.models ?? {})) {
      if (!PURPOSES.includes(purpose as ChatPurpose)) throw new DocTreeError('CONFIG_INVALID', `ChatModelClientFromLangChain: unknown purpose "${purpose}" in models; use chat, vlm, summary or judge`);
      if (typeof model?.invoke !== 'function') throw new DocTreeError('CONFIG_INVALID', `ChatModelClientFromLangChain: models.${purpose} is not a LangChain chat model`);
    }
    this.#main = chatModel;
    this.#options = o;
    this.model = o.model ?? modelNameOf(chatModel);
  }

  /** The LangChain model a purpose uses. */
  modelFor(purpose: ChatPurpose = 'chat'): LangChainChatModel {
    const models = this.#options.models;
    return (models && Object.hasOwn(models, purpose) ? models[purpose] : undefined) ?? this.#main;
  }

  /** Sends one request to the LangChain model of its purpose (retrying transient failures) and returns the reply. */
  async chat(request: ChatRequest): Promise<ChatReply> {
    validateRequest(request);
    const purpose = request.purpose ?? 'chat';
    const lc = this.modelFor(purpose);
    const name = lc === this.#main ? this.model : modelNameOf(lc);
    const started = performance.now();
    const retryDelaysMs: number[] = [];
    let attempts = 0;
    try {
      const messages = toMessages(request);
      for (;;) {
        attempts++;
        const attemptStarted = performance.now();
        const timeout = AbortSignal.timeout(this.#options.timeoutMs);
        const signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;
        try {
          const options: Record<string, unknown> = { ...(request.json ? (this.#options.jsonCallOptions ?? {}) : {}), signal };
          if (request.maxTokens !== undefined) options['maxTokens'] = request.maxTokens;
          // Raced with the signal too: a model that ignores its signal still stops being waited for.
          const result = (await raceWithSignal(lc.invoke(messages as never, options), signal)) as BaseMessage;
          const reply = this.#toReply(result, name, performance.now() - started);
          this.#report({ purpose, model: reply.model, status: 'ok', attempts, retryDelaysMs, latencyMs: reply.latencyMs, usage: reply.usage, costUsd: reply.costUsd });
          return reply;
        } catch (error) {
          if (request.signal?.aborted) throw new DocTreeError('CANCELLED', 'The chat request was cancelled', { cause: request.signal.reason });
          if (DocTreeError.isInstance(error) && error.code === 'LLM_BAD_OUTPUT') throw error;
          const timedOut = timeout.aborted;
          const retry = attempts - 1;
          const delay = retry < this.#options.maxRetries && (timedOut || isRetryable(error)) ? retryDelayMs(error, retry, this.#retryPolicy()) : undefined;
          if (delay === undefined) throw this.#mapError(error, name, performance.now() - attemptStarted, attempts, timedOut);
          retryDelaysMs.push(delay);
          await sleep(delay, request.signal);
        }
      }
    } catch (error) {
      const mapped = DocTreeError.isInstance(error) ? error : this.#mapError(error, name, performance.now() - started, attempts, false);
      this.#report({
        purpose,
        model: name,
        status: 'error',
        attempts,
        retryDelaysMs,
        latencyMs: performance.now() - started,
        usage: { prompt: 0, completion: 0 },
        costUsd: null,
        error: { code: mapped.code, message: redactSecrets(mapped.message, this.#options.secrets ?? []) },
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

  #mapError(error: unknown, model: string, elapsedMs: number, attempts: number, timedOut: boolean): DocTreeError {
    const o = this.#options;
    if (timedOut) {
      return new DocTreeError('LLM_TIMEOUT', `Chat request to ${model} did not answer within ${o.timeoutMs} ms (${attempts} attempt(s))`, {
        cause: error,
        hint: 'Raise timeoutMs of ChatModelClientFromLangChain (and the model’s own timeout) or check the model server.',
      });
    }
    return mapOpenAIError(error, {
      operation: `Chat request to ${model}`,
      model,
      timeoutMs: o.timeoutMs,
      maxRetries: o.maxRetries,
      secrets: o.secrets ?? [],
      elapsedMs,
      hints: {
        LLM_AUTH: 'Check the API key the LangChain model was created with.',
        LLM_RATE_LIMITED: `Still rate limited after ${attempts} attempt(s); raise maxRetries, lower concurrency or retry later.`,
        LLM_TIMEOUT: `No answer in time (${attempts} attempt(s)); raise timeoutMs or check the model server.`,
        LLM_UNAVAILABLE: 'Check that the model server is reachable and the model name exists.',
      },
    });
  }

  #toReply(result: BaseMessage, model: string, latencyMs: number): ChatReply {
    const text = contentText(result?.content);
    if (text === undefined) throw new DocTreeError('LLM_BAD_OUTPUT', `The chat reply of model ${model} has no text content`);
    const usage = usageOf(result);
    const meta = (result.response_metadata ?? {}) as Record<string, unknown>;
    const served = meta['model_name'] ?? meta['model'];
    const price = this.#options.price;
    return {
      text,
      usage,
      model: typeof served === 'string' && served !== '' ? served : model,
      latencyMs,
      costUsd: price ? (usage.prompt * price.prompt + usage.completion * price.completion) / 1_000_000 : null,
    };
  }
}

/** The name of a LangChain model: its `model` / `modelName` field, else its class name. */
function modelNameOf(model: LangChainChatModel): string {
  const fields = model as unknown as Record<string, unknown>;
  for (const key of ['model', 'modelName', 'modelId']) {
    const value = fields[key];
    if (typeof value === 'string' && value.trim() !== '') return value;
  }
  try {
    const name = model.getName?.();
    if (typeof name === 'string' && name !== '') return name;
  } catch {
    // Fall through to the constructor name.
  }
  return model.constructor?.name || 'langchain-chat-model';
}

function toMessages(request: ChatRequest): BaseMessage[] {
  const images = request.images ?? [];
  const lastUser = request.messages.map((m) => m.role).lastIndexOf('user');
  if (images.length > 0 && lastUser < 0) throw new DocTreeError('USAGE', 'A chat request with images needs a user message to attach them to');
  const messages: BaseMessage[] = request.messages.map((message, i) => {
    if (message.role === 'system') return new SystemMessage(message.content);
    if (message.role === 'assistant') return new AIMessage(message.content);
    if (i !== lastUser || images.length === 0) return new HumanMessage(message.content);
    return new HumanMessage({
      content: [
        { type: 'text', text: message.content },
        ...images.map((png) => ({ type: 'image_url' as const, image_url: { url: `data:image/png;base64,${Buffer.from(png).toString('base64')}` } })),
      ],
    });
  });
  if (!request.json) return messages;
  const first = request.messages[0];
  if (first?.role === 'system') return [new SystemMessage(`${first.content}\n\n${JSON_REPLY_INSTRUCTION}`), ...messages.slice(1)];
  return [new SystemMessage(JSON_REPLY_INSTRUCTION), ...messages];
}

/** Token usage of a LangChain reply: `usage_metadata`, else the older `response_metadata.tokenUsage`; 0 when absent. */
function usageOf(result: BaseMessage): TokenUsage {
  const meta = (result as { usage_metadata?: { input_tokens?: unknown; output_tokens?: unknown } }).usage_metadata;
  if (meta) return { prompt: count(meta.input_tokens), completion: count(meta.output_tokens) };
  const legacy = ((result.response_metadata ?? {}) as { tokenUsage?: { promptTokens?: unknown; completionTokens?: unknown } }).tokenUsage;
  return { prompt: count(legacy?.promptTokens), completion: count(legacy?.completionTokens) };
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.round(value) : 0;
}

/** The text of a LangChain message content: a string, or the text parts of a content array. */
function contentText(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  return content
    .map((part) => (typeof part === 'string' ? part : typeof part === 'object' && part !== null && (part as { type?: unknown }).type === 'text' ? String((part as { text?: unknown }).text ?? '') : ''))
    .join('');
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
  if (request.purpose !== undefined && !PURPOSES.includes(request.purpose)) throw new DocTreeError('USAGE', `unknown chat purpose ${String(request.purpose)}; use chat, vlm, summary or judge`);
  if (request.maxTokens !== undefined && (!Number.isInteger(request.maxTokens) || request.maxTokens < 1)) throw new DocTreeError('USAGE', `maxTokens must be a positive integer, got ${String(request.maxTokens)}`);
  for (const [i, image] of (request.images ?? []).entries()) {
    if (!(image instanceof Uint8Array) || image.length < PNG_MAGIC.length || PNG_MAGIC.some((byte, k) => image[k] !== byte)) {
      throw new DocTreeError('USAGE', `chat image ${i} is not a PNG`, { hint: 'Render page regions to PNG before sending them to the vision model.' });
    }
  }
}

/** Settles like `promise`, or rejects with the signal's reason as soon as it aborts. */
function raceWithSignal<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** Drops keys whose value is `undefined`, so they do not override defaults when spread. */
function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
