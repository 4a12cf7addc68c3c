import { randomUUID } from 'node:crypto';
import { DocTreeError, TraceEventSchema, TraceSchema, formatIssues, redactSecrets } from '@doctree/schema';
import type { Hit, Trace, TraceEvent, TokenUsage } from '@doctree/schema';
import { hitScore } from '../hits/node-hit.js';

/** Options of the {@link TraceRecorder} constructor. */
export interface TraceRecorderOptions {
  /** Strings scrubbed from every recorded event (API keys, tokens); see `redactSecrets`. Default none. */
  secrets?: readonly string[];
  /** Most hits kept on one `tool_call` event (best first). Default 100. */
  maxHitsPerEvent?: number;
  /** Millisecond clock; default `performance.now`. Tests may inject a fake one. */
  now?: () => number;
  /**
   * Validate each event against `TraceEventSchema` when recorded (finds a caller's bad event where it is made).
   * Default false: `toTrace` validates the whole trace once, which is what every answer pays for.
   */
  validate?: boolean;
  /**
   * Called with each event as it is recorded (secrets scrubbed, as stored): the run's tool calls, LLM calls, fusion,
   * packing… live, while the question runs. Must not throw (exceptions are ignored). Default none.
   */
  onRecord?: (event: TraceEvent) => void;
}

/** Defaults of {@link TraceRecorderOptions}. */
export const TRACE_RECORDER_DEFAULTS = {
  secrets: [] as readonly string[],
  maxHitsPerEvent: 100,
  now: (): number => performance.now(),
  validate: false,
} as const satisfies Required<Omit<TraceRecorderOptions, 'onRecord'>>;

/** An event to record: `t_ms` and `attempt` default to now and the recorder's current attempt. */
export type TraceEventInput = Omit<TraceEvent, 't_ms' | 'attempt'> & Partial<Pick<TraceEvent, 't_ms' | 'attempt'>>;

/** What {@link TraceRecorder.toTrace} needs besides the events. */
export interface TraceMeta {
  doc_id: string;
  question: string;
  mode: Trace['mode'];
  /** Default: a random UUID. */
  trace_id?: string;
  /** Default: the recorder's creation time. */
  started_at?: string;
  /** Default: summed from `llm_call` events and `tool_call` events that report tokens (`data.cost_usd` adds up cost). */
  llm?: Trace['llm'];
  /** Default: the number of `replan` events. */
  replans?: number;
}

/**
 * How much hit text a trace keeps: the first `hits` hits of an event carry the first `chars` characters of their
 * snippet (whitespace collapsed) and their box, so a trace shows what each tool found while staying small (at most
 * about 2 KB of text per event).
 */
export const TRACE_HIT_TEXT = { hits: 8, chars: 200 } as const;

/** The start of a hit's text as a trace keeps it: whitespace collapsed, at most `max` characters. */
export function traceSnippet(text: string, max: number = TRACE_HIT_TEXT.chars): string {
  // Only the start of a long text can show: collapse a prefix; when it already holds more than `max` + 1 characters the
  // cut is decided (collapsing the rest only shortens what follows), else the whole text is collapsed.
  if (text.length > 4 * max + 8) {
    const head = text.slice(0, 4 * max + 8).replace(/\s+/g, ' ').trimStart();
    if (head.length >= max + 2) return `${head.slice(0, max - 1)}…`;
  }
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/**
 * Summary of a hit as stored on `tool_call` and `fuse` events: enough to replay which nodes a tool returned, and for the
 * first {@link TRACE_HIT_TEXT} hits the start of their text and their box.
 */
export function summarizeHits(hits: readonly Hit[], max = Number.POSITIVE_INFINITY): NonNullable<TraceEvent['hits']> {
  return hits.slice(0, max).map((h, i) => ({
    node_id: h.node_id,
    page_idx: h.page_idx,
    score: round(hitScore(h)),
    ...(i < TRACE_HIT_TEXT.hits && h.snippet ? { snippet: traceSnippet(h.snippet) } : {}),
    ...(i < TRACE_HIT_TEXT.hits && h.bbox ? { bbox: h.bbox } : {}),
  }));
}

const round = (x: number): number => (Number.isFinite(x) ? Math.round(x * 1e6) / 1e6 : 0);

/**
 * Collects the {@link TraceEvent}s of one question (route, plan, tool calls, fuse, expand, pack, read, judge…).
 * The ToolHub executor records one `tool_call` event per call; the agent loop records its own events into the same
 * recorder. Secrets are scrubbed on the way in; {@link toTrace} returns a validated `doctree.trace` v1 document.
 *
 * @example
 * ```ts
 * const trace = new TraceRecorder({ secrets: [apiKey] });
 * trace.record({ type: 'plan', message: 'table_number', data: { stages: 1 } });
 * const doc = trace.toTrace({ doc_id: 'acme', question: 'What was capex in 2018?', mode: 'offline' });
 * ```
 */
export class TraceRecorder {
  readonly #options: Required<Omit<TraceRecorderOptions, 'onRecord'>> & Pick<TraceRecorderOptions, 'onRecord'>;
  readonly #events: TraceEvent[] = [];
  readonly #t0: number;
  readonly #startedAt = new Date().toISOString();
  /** Attempt number stamped on new events (0 for the first pass, +1 per REPLAN). */
  attempt = 0;

  constructor(options: TraceRecorderOptions = {}) {
    this.#options = { ...TRACE_RECORDER_DEFAULTS, ...options };
    this.#t0 = this.#options.now();
  }

  /** Milliseconds since the recorder was created. */
  elapsedMs(): number {
    return Math.max(0, this.#options.now() - this.#t0);
  }

  /** Most hits kept per `tool_call` event. */
  get maxHitsPerEvent(): number {
    return this.#options.maxHitsPerEvent;
  }

  /**
   * Records an event (secrets scrubbed) and returns it as stored.
   *
   * @throws DocTreeError `INTERNAL` when the event does not match `TraceEventSchema` (a caller bug).
   */
  record(event: TraceEventInput): TraceEvent {
    const stamped = redactSecrets({ ...event, t_ms: round(event.t_ms ?? this.elapsedMs()), attempt: event.attempt ?? this.attempt }, this.#options.secrets) as TraceEvent;
    if (this.#options.validate) {
      const parsed = TraceEventSchema.safeParse(stamped);
      if (!parsed.success) throw new DocTreeError('INTERNAL', `invalid trace event ${event.type}: ${formatIssues(parsed.error)}`);
    }
    this.#events.push(stamped);
    try {
      this.#options.onRecord?.(stamped);
    } catch {
      // A listener must not break the question.
    }
    return stamped;
  }

  /** Recorded events, in recording order. */
  get events(): readonly TraceEvent[] {
    return this.#events;
  }

  /** Events of one type. */
  eventsOf(type: TraceEvent['type']): TraceEvent[] {
    return this.#events.filter((e) => e.type === type);
  }

  /**
   * The whole trace as a validated `doctree.trace` v1 document.
   *
   * @throws DocTreeError `INTERNAL` when the assembled trace does not match `TraceSchema`.
   */
  toTrace(meta: TraceMeta): Trace {
    const parsed = TraceSchema.safeParse({ ...this.#head(meta), events: [...this.#events] });
    if (!parsed.success) throw new DocTreeError('INTERNAL', `invalid trace: ${formatIssues(parsed.error)}`);
    return parsed.data;
  }

  /**
   * {@link toTrace} with `await pause()` between the events it validates (a cooperative checkpoint such as the agent's
   * `createPause`, which yields to the event loop every few ms and throws `CANCELLED` once the question's signal
   * aborts): the same trace, without validating a few hundred events in one blocking stretch.
   *
   * @throws DocTreeError `INTERNAL` naming the first invalid event (a caller bug), or the error of `pause`.
   */
  async toTraceInSlices(meta: TraceMeta, pause: () => Promise<void>): Promise<Trace> {
    const events: TraceEvent[] = [];
    for (const [i, event] of [...this.#events].entries()) {
      const parsed = TraceEventSchema.safeParse(event);
      if (!parsed.success) throw new DocTreeError('INTERNAL', `invalid trace: events.${i}: ${formatIssues(parsed.error)}`);
      events.push(parsed.data);
      await pause();
    }
    const head = TraceSchema.safeParse({ ...this.#head(meta), events: [] });
    if (!head.success) throw new DocTreeError('INTERNAL', `invalid trace: ${formatIssues(head.error)}`);
    return { ...head.data, events };
  }

  /** The trace's fields besides its events (the meta fields scrubbed: events were scrubbed when recorded). */
  #head(meta: TraceMeta): Omit<Trace, 'events'> {
    return redactSecrets(
      {
        format: 'doctree.trace' as const,
        version: 1 as const,
        trace_id: meta.trace_id ?? randomUUID(),
        doc_id: meta.doc_id,
        question: meta.question,
        started_at: meta.started_at ?? this.#startedAt,
        mode: meta.mode,
        llm: meta.llm ?? this.#llmTotals(),
        replans: meta.replans ?? this.eventsOf('replan').length,
      },
      this.#options.secrets,
    );
  }

  #llmTotals(): Trace['llm'] {
    let calls = 0;
    let prompt = 0;
    let completion = 0;
    let cost: number | null = null;
    for (const event of this.#events) {
      const tokens: TokenUsage | undefined = event.tokens;
      const isLlm = event.type === 'llm_call' || (event.type === 'tool_call' && tokens !== undefined && tokens.prompt + tokens.completion > 0);
      if (!isLlm) continue;
      calls++;
      prompt += tokens?.prompt ?? 0;
      completion += tokens?.completion ?? 0;
      const c = event.data?.['cost_usd'];
      if (typeof c === 'number' && Number.isFinite(c)) cost = (cost ?? 0) + c;
    }
    return { calls, prompt_tokens: prompt, completion_tokens: completion, cost_usd: cost };
  }
}
