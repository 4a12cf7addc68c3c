import { DocTreeError, HitSchema, formatIssues } from '@doctree/schema';
import type { Hit, TokenUsage, ToolOutput, ToolResult } from '@doctree/schema';
import type { z } from 'zod';
import type { ToolRegistry } from '../registry/tool-registry.js';
import { summarizeHits, type TraceEventInput, type TraceRecorder } from '../trace/trace-recorder.js';

/** A call to make: the tool id and its (unvalidated) arguments; `call_id` is generated when absent. */
export interface ToolCallRequest {
  tool_id: string;
  args?: Record<string, unknown>;
  call_id?: string;
}

/** Per-call options of {@link ToolExecutor.call} and {@link ToolExecutor.callMany}. */
export interface ToolCallOptions {
  /** Cancels the call(s): a cancelled call resolves to an error result with code `CANCELLED`. */
  signal?: AbortSignal;
  /** Time limit of each call in ms, overriding the executor's; 0 disables it. */
  timeoutMs?: number;
  /**
   * A cooperative checkpoint (the agent's `pause`: yields to the event loop, throws `CANCELLED` once the question's
   * signal aborts). With it, {@link ToolExecutor.callMany} lets the event loop run between the start of two
   * concurrent lanes (each lane's synchronous scoring is then its own stretch) and calls it once the lanes are done;
   * an error it throws rejects `callMany`.
   */
  pause?: () => Promise<void>;
}

/** Options of the {@link ToolExecutor} constructor. */
export interface ToolExecutorOptions<Context> {
  /** The cards that may be called. */
  registry: ToolRegistry<Context>;
  /** Context passed to every card (a `ToolContext` for the built-in cards). */
  context: Context;
  /** Receives one `tool_call` event per call. Default: no trace. */
  trace?: TraceRecorder;
  /** Time limit of each call in ms; 0 disables it. Default 30 000. */
  timeoutMs?: number;
  /** Check every hit a card returns against `HitSchema` (a bad hit becomes an error result). Default true. */
  validateHits?: boolean;
  /** Millisecond clock used for latencies; default `performance.now`. */
  now?: () => number;
}

/** Defaults of {@link ToolExecutorOptions}. */
export const TOOL_EXECUTOR_DEFAULTS = {
  timeoutMs: 30_000,
  validateHits: true,
  now: (): number => performance.now(),
} as const;

const NO_TOKENS: TokenUsage = { prompt: 0, completion: 0 };

/** Longest string kept in traced arguments. */
const TRACE_STRING_CHARS = 2000;
/** Longest array of hit-like objects kept in traced arguments. */
const TRACE_ARRAY_ITEMS = 50;

/**
 * Arguments as written to the trace: arrays of hits / candidates (objects with a `node_id`) shrink to
 * `{node_id, page_idx, score}`, long strings and arrays are cut, so a `pack` call does not copy the evidence twice.
 */
export function compactArgs(args: Record<string, unknown>): Record<string, unknown> {
  const walk = (value: unknown, depth: number): unknown => {
    if (typeof value === 'string') return value.length > TRACE_STRING_CHARS ? `${value.slice(0, TRACE_STRING_CHARS)}…` : value;
    if (Array.isArray(value)) {
      const hitLike = value.length > 0 && value.every((v) => typeof v === 'object' && v !== null && typeof (v as { node_id?: unknown }).node_id === 'string');
      const items = value.slice(0, TRACE_ARRAY_ITEMS).map((v) => {
        if (!hitLike) return walk(v, depth + 1);
        const h = v as { node_id: string; page_idx?: unknown; score?: unknown; score_raw?: unknown };
        const score = typeof h.score === 'number' ? h.score : typeof h.score_raw === 'number' ? h.score_raw : undefined;
        return { node_id: h.node_id, ...(typeof h.page_idx === 'number' ? { page_idx: h.page_idx } : {}), ...(score !== undefined ? { score } : {}) };
      });
      return value.length > TRACE_ARRAY_ITEMS ? [...items, `… ${value.length - TRACE_ARRAY_ITEMS} more`] : items;
    }
    if (typeof value === 'object' && value !== null) {
      if (depth > 8) return '[nested]';
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, depth + 1)]));
    }
    return value;
  };
  return walk(args, 0) as Record<string, unknown>;
}

/**
 * Runs tool cards by id: validates the arguments with the card's zod schema, applies a time limit and the caller's
 * abort signal, turns every failure (bad arguments, unknown tool, a throwing card, a timeout, a malformed hit) into a
 * `ToolResult` with `status: "error"` — it never throws — and records one `tool_call` trace event per call
 * (`tool_id, args, status, n_hits, latency_ms, tokens, hits`). {@link callMany} runs `retrieval` cards concurrently.
 *
 * @example
 * ```ts
 * const executor = new ToolExecutor({ registry, context: createToolContext({ index }), trace });
 * const result = await executor.call({ tool_id: 'bm25_node.search', args: { query: 'capital expenditures', k: 10 } });
 * if (result.status === 'error') console.warn(result.error?.message);
 * ```
 */
export class ToolExecutor<Context> {
  readonly #options: Required<Omit<ToolExecutorOptions<Context>, 'trace'>> & Pick<ToolExecutorOptions<Context>, 'trace'>;
  #counter = 0;

  constructor(options: ToolExecutorOptions<Context>) {
    this.#options = { ...TOOL_EXECUTOR_DEFAULTS, ...options };
  }

  /** The registry calls are resolved in. */
  get registry(): ToolRegistry<Context> {
    return this.#options.registry;
  }

  /** The context handed to cards. */
  get context(): Context {
    return this.#options.context;
  }

  /** The trace recorder, when one was given. */
  get trace(): TraceRecorder | undefined {
    return this.#options.trace;
  }

  /** Runs one call; always resolves (failures are `status: "error"` results). */
  async call(request: ToolCallRequest, options: ToolCallOptions = {}): Promise<ToolResult> {
    const { result, event } = await this.#execute(request, options);
    if (event) this.#record(event);
    return result;
  }

  /** Records a call event; an event the trace refuses is replaced by a bare one, so tracing never fails a call. */
  #record(event: TraceEventInput): void {
    const trace = this.#options.trace;
    if (!trace) return;
    try {
      trace.record(event);
    } catch (error) {
      const { args: _args, hits: _hits, ...bare } = event;
      trace.record({ ...bare, message: `${event.message ? `${event.message}; ` : ''}event not fully traceable: ${error instanceof Error ? error.message : String(error)}` });
    }
  }

  /** Runs a call and builds its trace event without recording it. */
  async #execute(request: ToolCallRequest, options: ToolCallOptions): Promise<{ result: ToolResult; event?: TraceEventInput }> {
    const callId = typeof request?.call_id === 'string' && request.call_id.length > 0 ? request.call_id : `call_${++this.#counter}`;
    const toolId = typeof request?.tool_id === 'string' && request.tool_id.length > 0 ? request.tool_id : `(${typeof request?.tool_id})`;
    const args: Record<string, unknown> = request?.args ?? {};
    const now = this.#options.now;
    const trace = this.#options.trace;
    const tStart = trace?.elapsedMs();
    const started = now();
    let output: ToolOutput | undefined;
    let failure: DocTreeError | undefined;
    try {
      output = await this.#run(toolId, args, options);
    } catch (error) {
      failure = DocTreeError.from(error, 'TOOL_FAILED');
    }
    const latency = Math.max(0, now() - started);
    const hits = output?.hits ?? [];
    const tokens = output?.tokens ?? NO_TOKENS;
    const result: ToolResult = failure
      ? { call_id: callId, tool_id: toolId, status: 'error', hits: [], metrics: { latency_ms: latency, n_hits: 0, tokens }, error: { code: failure.code, message: failure.message } }
      : {
          call_id: callId,
          tool_id: toolId,
          status: 'ok',
          hits,
          ...(output?.data !== undefined ? { data: output.data } : {}),
          metrics: { latency_ms: latency, n_hits: hits.length, tokens },
        };
    if (!trace) return { result };
    const event: TraceEventInput = {
      type: 'tool_call',
      ...(tStart !== undefined ? { t_ms: tStart } : {}),
      tool_id: toolId,
      args: typeof args === 'object' && args !== null && !Array.isArray(args) ? compactArgs(args) : { invalid: String(args) },
      status: result.status,
      n_hits: result.metrics.n_hits,
      latency_ms: Math.round(latency * 1000) / 1000,
      tokens,
      hits: summarizeHits(hits, trace.maxHitsPerEvent),
      ...(failure ? { message: `[${failure.code}] ${failure.message}` } : {}),
      data: { call_id: callId },
    };
    return { result, event };
  }

  /**
   * Runs several calls and returns their results in input order: every `retrieval` card starts at once
   * (`Promise.all`), then the other cards run one after another in input order (they may depend on each other's
   * effects). Unknown tools and bad arguments give error results like in {@link call}. The concurrent calls are traced
   * in input order once all of them are done (each event with its own start time and latency).
   */
  async callMany(requests: readonly ToolCallRequest[], options: ToolCallOptions = {}): Promise<ToolResult[]> {
    const results: ToolResult[] = new Array(requests.length);
    const registry = this.#options.registry;
    const concurrent: number[] = [];
    const sequential: number[] = [];
    requests.forEach((r, i) => (typeof r?.tool_id === 'string' && registry.has(r.tool_id) && registry.get(r.tool_id).kind === 'retrieval' ? concurrent : sequential).push(i));
    const events: Array<TraceEventInput | undefined> = new Array(requests.length);
    const pause = options.pause;
    const running: Promise<void>[] = [];
    for (const i of concurrent) {
      running.push(
        this.#execute(requests[i]!, options).then(({ result, event }) => {
          results[i] = result;
          events[i] = event;
        }),
      );
      if (pause) {
        // the lane just started runs its synchronous part before the next macrotask; the next lane starts after it
        await Promise.race([running[running.length - 1], nextMacrotask()]);
        try {
          await pause();
        } catch (error) {
          await Promise.allSettled(running);
          throw error;
        }
      }
    }
    await Promise.all(running);
    await pause?.();
    // concurrent calls are traced in input order (each event keeps its own start time), so replays are stable
    for (const i of concurrent) if (events[i]) this.#record(events[i]!);
    for (const i of sequential) results[i] = await this.call(requests[i]!, options);
    return results;
  }

  async #run(toolId: string, args: Record<string, unknown>, options: ToolCallOptions): Promise<ToolOutput> {
    const card = this.#options.registry.get(toolId);
    const parsed = card.args.safeParse(args);
    if (!parsed.success) {
      throw new DocTreeError('TOOL_ARGS_INVALID', `${toolId}: invalid arguments: ${formatIssues(parsed.error)}`, {
        details: { issues: parsed.error.issues.map((i) => ({ path: i.path.map(String), message: i.message })) },
      });
    }
    const outer = options.signal;
    if (outer?.aborted) throw new DocTreeError('CANCELLED', `${toolId} was cancelled before it started`, { cause: outer.reason });
    const timeoutMs = options.timeoutMs ?? this.#options.timeoutMs;
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let onAbort: (() => void) | undefined;
    const stop = new Promise<never>((_, reject) => {
      onAbort = (): void => {
        controller.abort(outer?.reason);
        reject(new DocTreeError('CANCELLED', `${toolId} was cancelled`, { cause: outer?.reason }));
      };
      outer?.addEventListener('abort', onAbort, { once: true });
      if (timeoutMs > 0) {
        timer = setTimeout(() => {
          const error = new DocTreeError('TOOL_TIMEOUT', `${toolId} did not finish within ${timeoutMs} ms`);
          controller.abort(error);
          reject(error);
        }, timeoutMs);
      }
    });
    const running = Promise.resolve().then(() => card.run(parsed.data, this.#options.context, controller.signal));
    running.catch(() => undefined); // a card that fails after a timeout must not surface as an unhandled rejection
    try {
      const output = (await Promise.race([running, stop])) as ToolOutput | undefined;
      return this.#checkOutput(toolId, output, card.output);
    } finally {
      if (timer !== undefined) clearTimeout(timer);
      if (onAbort) outer?.removeEventListener('abort', onAbort);
    }
  }

  #checkOutput(toolId: string, output: ToolOutput | undefined, dataSchema: z.ZodType | undefined): ToolOutput {
    if (output === undefined || output === null || typeof output !== 'object') {
      throw new DocTreeError('INTERNAL', `${toolId} returned ${output === null ? 'null' : typeof output} instead of { hits?, data?, tokens? }`);
    }
    if (output.hits !== undefined && !Array.isArray(output.hits)) throw new DocTreeError('INTERNAL', `${toolId} returned hits that are not an array`);
    if (dataSchema !== undefined && output.data !== undefined) {
      // Plans reference a card's data by the schema it declares (checked when the plan is built): hold the card to it.
      const parsed = dataSchema.safeParse(output.data);
      if (!parsed.success) throw new DocTreeError('INTERNAL', `${toolId} returned data that does not match its declared output schema: ${formatIssues(parsed.error)}`, { hint: 'Fix the card, or its `output` schema.' });
    }
    if (this.#options.validateHits && output.hits) {
      const checked: Hit[] = [];
      for (const [i, hit] of output.hits.entries()) {
        const parsed = HitSchema.safeParse(hit);
        if (!parsed.success) throw new DocTreeError('INTERNAL', `${toolId} returned an invalid hit #${i}: ${formatIssues(parsed.error)}`);
        checked.push(parsed.data);
      }
      return { ...output, hits: checked };
    }
    return output;
  }
}

/**
 * Resolves in the event loop's next check phase: after every pending microtask (the synchronous part of a lane just
 * started), with timers and I/O of other requests given their turn.
 */
function nextMacrotask(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
