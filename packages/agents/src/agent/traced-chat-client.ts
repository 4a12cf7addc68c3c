import { AsyncLocalStorage } from 'node:async_hooks';
import { DocTreeError, redactSecrets } from '@doctree/schema';
import type { ChatModelClient, ChatReply, ChatRequest } from '@doctree/schema';
import type { TraceRecorder } from '@doctree/toolhub';

/** The overall LLM time budget of one question: once spent, calls fail fast with `LLM_TIMEOUT`. */
class LlmBudget {
  readonly budgetMs: number;
  readonly #controller = new AbortController();
  readonly #timer: ReturnType<typeof setTimeout>;
  #spent = false;

  constructor(budgetMs: number, trace: TraceRecorder) {
    this.budgetMs = budgetMs;
    this.#timer = setTimeout(() => {
      this.#spent = true;
      trace.record({
        type: 'warning',
        message: `LLM_TIMEOUT: the LLM budget of ${budgetMs} ms for this question is spent; calls in flight are aborted, further LLM calls fail at once and the offline components answer`,
        data: { llm_budget_ms: budgetMs, llm_budget_exhausted: true },
      });
      this.#controller.abort(this.error());
    }, budgetMs);
    // The budget must never keep the process alive on its own.
    this.#timer.unref?.();
  }

  /** True once the budget is spent. */
  get spent(): boolean {
    return this.#spent;
  }

  /** Aborts when the budget is spent (or the question ends). */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** The error of a call refused or aborted because the budget is spent. */
  error(cause?: unknown): DocTreeError {
    return new DocTreeError('LLM_TIMEOUT', `the LLM budget of ${this.budgetMs} ms for this question is spent`, {
      hint: 'Raise llm.question_budget_ms (or llmBudgetMs), lower llm.timeout_ms / llm.max_retries, or check the LLM endpoint.',
      ...(cause !== undefined ? { cause } : {}),
    });
  }

  /** Ends the budget: the timer is cleared and calls still in flight (left behind by timed-out tools) are aborted. */
  close(): void {
    clearTimeout(this.#timer);
    if (!this.#controller.signal.aborted) this.#controller.abort(new DocTreeError('CANCELLED', 'the question has finished'));
  }
}

/** Where the LLM calls of the current question are recorded. */
interface LlmTraceScope {
  trace: TraceRecorder;
  secrets: readonly string[];
  budget?: LlmBudget;
}

const scope = new AsyncLocalStorage<LlmTraceScope>();

/** Options of {@link runWithLlmTrace}. */
export interface LlmTraceOptions {
  /**
   * Overall time budget of every LLM call inside the run, ms (retries and waits included). Once spent, the calls in
   * flight are aborted and further calls fail at once with `LLM_TIMEOUT` (no network call), so LLM components fall back
   * to their offline counterparts; the trace records a `warning` when it happens. Absent: no budget.
   */
  budgetMs?: number;
}

/**
 * Runs `fn` so that every call through a {@link TracedChatClient} made inside it (however deep, across awaits) is
 * recorded as an `llm_call` event in `trace`. Concurrent questions each get their own trace (and budget). When `fn`
 * settles, LLM calls it left running are aborted.
 */
export async function runWithLlmTrace<T>(trace: TraceRecorder, fn: () => Promise<T>, secrets: readonly string[] = [], options: LlmTraceOptions = {}): Promise<T> {
  const budgetMs = options.budgetMs;
  if (budgetMs !== undefined && !(Number.isFinite(budgetMs) && budgetMs > 0)) throw new DocTreeError('USAGE', `the LLM budget must be a positive number of ms, got ${String(budgetMs)}`);
  const budget = budgetMs !== undefined ? new LlmBudget(budgetMs, trace) : undefined;
  try {
    return await scope.run({ trace, secrets, ...(budget ? { budget } : {}) }, fn);
  } finally {
    budget?.close();
  }
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
    const budget = current?.budget;
    try {
      if (budget?.spent) throw budget.error();
      const reply = budget ? await this.#withinBudget(request, budget) : await this.#inner.chat(request);
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

  /** The inner call, aborted (and rejected with `LLM_TIMEOUT`) when the budget runs out, even if the client ignores signals. */
  async #withinBudget(request: ChatRequest, budget: LlmBudget): Promise<ChatReply> {
    const signal = request.signal ? AbortSignal.any([request.signal, budget.signal]) : budget.signal;
    let onAbort: (() => void) | undefined;
    const stop = new Promise<never>((_, reject) => {
      onAbort = (): void => reject(budget.signal.reason);
      budget.signal.addEventListener('abort', onAbort, { once: true });
    });
    const running = this.#inner.chat({ ...request, signal });
    running.catch(() => undefined); // a call that fails after the budget must not surface as an unhandled rejection
    try {
      return await Promise.race([running, stop]);
    } catch (error) {
      if (budget.spent && !request.signal?.aborted) throw budget.error(error);
      throw error;
    } finally {
      if (onAbort) budget.signal.removeEventListener('abort', onAbort);
    }
  }
}

const round = (ms: number): number => Math.round(ms * 1000) / 1000;
