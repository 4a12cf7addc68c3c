import { AsyncLocalStorage } from 'node:async_hooks';
import { DocTreeError, redactSecrets } from '@doctree/schema';
import type { ChatModelClient, ChatReply, ChatRequest } from '@doctree/schema';
import type { TraceRecorder } from '@doctree/toolhub';

/** Where the LLM calls of the current question are recorded. */
interface LlmTraceScope {
  trace: TraceRecorder;
  secrets: readonly string[];
}

const scope = new AsyncLocalStorage<LlmTraceScope>();

/**
 * Runs `fn` so that every call through a {@link TracedChatClient} made inside it (however deep, across awaits) is
 * recorded as an `llm_call` event in `trace`. Concurrent questions each get their own trace.
 */
export function runWithLlmTrace<T>(trace: TraceRecorder, fn: () => Promise<T>, secrets: readonly string[] = []): Promise<T> {
  return scope.run({ trace, secrets }, fn);
}

/** Options of {@link TracedChatClient}. */
export interface TracedChatClientOptions {
  /** Strings never written to the trace (API keys). Default none. */
  secrets?: readonly string[];
}

/**
 * Wraps a chat client so its calls are traced: inside {@link runWithLlmTrace}, each call records one `llm_call` event
 * (purpose, model, status, prompt / completion tokens, latency, cost; the error code of a failed call) — never the
 * prompt, the reply or a secret. The agent loop builds its LLM router, reader, judger and VLM over one of these, so
 * the trace's `llm` totals count every model call of a question. Outside a traced run it is a plain pass-through.
 *
 * @example
 * ```ts
 * const chat = new TracedChatClient(createChatClient(config)!);
 * const router = new LlmRouter({ client: chat });
 * await runWithLlmTrace(trace, () => router.route('What was revenue in 2023?'));
 * trace.eventsOf('llm_call'); // [{ type: 'llm_call', tokens: { prompt: 412, completion: 96 }, … }]
 * ```
 */
export class TracedChatClient implements ChatModelClient {
  readonly #inner: ChatModelClient;
  readonly #secrets: readonly string[];

  /** @param inner the client that really answers; @param options secrets to scrub. */
  constructor(inner: ChatModelClient, options: TracedChatClientOptions = {}) {
    if (inner === undefined || typeof inner.chat !== 'function') throw new DocTreeError('USAGE', 'TracedChatClient needs a chat client to wrap');
    this.#inner = inner;
    this.#secrets = options.secrets ?? [];
  }

  /** The wrapped client's model. */
  get model(): string {
    return this.#inner.model;
  }

  /** The wrapped client. */
  get inner(): ChatModelClient {
    return this.#inner;
  }

  /** Forwards the request and records it in the current trace, if any. */
  async chat(request: ChatRequest): Promise<ChatReply> {
    const current = scope.getStore();
    const started = performance.now();
    const tStart = current?.trace.elapsedMs();
    const purpose = request?.purpose ?? 'chat';
    try {
      const reply = await this.#inner.chat(request);
      current?.trace.record({
        type: 'llm_call',
        ...(tStart !== undefined ? { t_ms: tStart } : {}),
        status: 'ok',
        latency_ms: round(reply.latencyMs > 0 ? reply.latencyMs : performance.now() - started),
        tokens: { prompt: reply.usage.prompt, completion: reply.usage.completion },
        message: `${purpose} ${reply.model}`,
        data: { purpose, model: reply.model, cost_usd: reply.costUsd, images: request.images?.length ?? 0 },
      });
      return reply;
    } catch (error) {
      const failure = DocTreeError.from(error, 'LLM_UNAVAILABLE');
      current?.trace.record({
        type: 'llm_call',
        ...(tStart !== undefined ? { t_ms: tStart } : {}),
        status: 'error',
        latency_ms: round(performance.now() - started),
        tokens: { prompt: 0, completion: 0 },
        message: redactSecrets(`${purpose} ${this.#inner.model}: [${failure.code}] ${failure.message}`, [...this.#secrets, ...(current?.secrets ?? [])]),
        data: { purpose, model: this.#inner.model, error_code: failure.code },
      });
      throw error;
    }
  }
}

const round = (ms: number): number => Math.round(ms * 1000) / 1000;
