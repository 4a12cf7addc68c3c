import { DocTreeError, TraceEventSchema, TraceSchema, formatIssues, pageFromIndex } from '@doctree/schema';
import type { BBox, TokenUsage, Trace, TraceEvent } from '@doctree/schema';
import { z } from 'zod';

/** One tool call as replayed from a trace. */
export interface ReplayedToolCall {
  /** 1-based position among the trace's tool calls. */
  index: number;
  /** Call id given by the executor (`data.call_id`), when recorded. */
  call_id?: string;
  tool_id: string;
  args: Record<string, unknown>;
  status: 'ok' | 'error';
  /** Attempt (0 first pass, +1 per REPLAN). */
  attempt: number;
  /** Start of the call, ms since the trace started. */
  t_ms: number;
  latency_ms: number;
  n_hits: number;
  tokens?: TokenUsage;
  /** Hits as recorded (best first), each with its 1-based `page` added; the first ones carry the start of their text and their box. */
  hits: Array<{ node_id: string; page_idx: number; page: number; score: number; snippet?: string; bbox?: BBox | null }>;
  /** Error message of a failed call. */
  error?: string;
}

const EventsSchema = z.array(TraceEventSchema);

/**
 * Lists the tool calls of a trace in the order they were recorded, with their arguments, status, timing and hits.
 * Accepts a `doctree.trace` document (as parsed from a `--trace` file) or a bare array of events; validates it first.
 *
 * @throws DocTreeError `SCHEMA_INVALID` naming the bad field when the input is not a trace.
 *
 * @example
 * ```ts
 * const calls = replayToolCalls(JSON.parse(await readFile('trace.json', 'utf8')));
 * console.log(formatToolCallReplay(calls));
 * ```
 */
export function replayToolCalls(trace: Trace | readonly TraceEvent[] | unknown): ReplayedToolCall[] {
  let events: TraceEvent[];
  if (Array.isArray(trace)) {
    const parsed = EventsSchema.safeParse(trace);
    if (!parsed.success) throw new DocTreeError('SCHEMA_INVALID', `invalid trace events: ${formatIssues(parsed.error)}`);
    events = parsed.data;
  } else {
    const parsed = TraceSchema.safeParse(trace);
    if (!parsed.success) {
      throw new DocTreeError('SCHEMA_INVALID', `not a doctree.trace v1 document: ${formatIssues(parsed.error)}`, {
        hint: 'Pass the JSON written by `doctree ask --trace out.json`.',
      });
    }
    events = parsed.data.events;
  }
  const out: ReplayedToolCall[] = [];
  for (const event of events) {
    if (event.type !== 'tool_call' || !event.tool_id) continue;
    const callId = event.data?.['call_id'];
    out.push({
      index: out.length + 1,
      ...(typeof callId === 'string' ? { call_id: callId } : {}),
      tool_id: event.tool_id,
      args: event.args ?? {},
      status: event.status ?? 'ok',
      attempt: event.attempt,
      t_ms: event.t_ms,
      latency_ms: event.latency_ms ?? 0,
      n_hits: event.n_hits ?? event.hits?.length ?? 0,
      ...(event.tokens ? { tokens: event.tokens } : {}),
      hits: (event.hits ?? []).map((h) => ({ ...h, page: pageFromIndex(h.page_idx) })),
      ...(event.status === 'error' && event.message ? { error: event.message } : {}),
    });
  }
  return out;
}

/** Options of {@link formatToolCallReplay}. */
export interface FormatReplayOptions {
  /** Hits shown per call. Default 5. */
  hitsPerCall?: number;
  /** Longest rendering of the arguments. Default 160 characters. */
  argsChars?: number;
}

/** Defaults of {@link FormatReplayOptions}. */
export const FORMAT_REPLAY_DEFAULTS = { hitsPerCall: 5, argsChars: 160 } as const satisfies Required<FormatReplayOptions>;

/**
 * Renders replayed calls for people, one block per call:
 * `3. bm25_node.search ok 12 hits 4.1 ms {"query":"capex"}` then `   → tab_1 p.4 (0.83), t_3 p.4 (0.52)`.
 */
export function formatToolCallReplay(calls: readonly ReplayedToolCall[], options: FormatReplayOptions = {}): string {
  const { hitsPerCall, argsChars } = { ...FORMAT_REPLAY_DEFAULTS, ...options };
  const lines: string[] = [];
  for (const call of calls) {
    let args = JSON.stringify(call.args);
    if (args.length > argsChars) args = `${args.slice(0, argsChars - 1)}…`;
    const attempt = call.attempt > 0 ? ` [attempt ${call.attempt}]` : '';
    lines.push(`${call.index}. ${call.tool_id} ${call.status} ${call.n_hits} hits ${call.latency_ms.toFixed(1)} ms${attempt} ${args}`);
    if (call.error) lines.push(`   ! ${call.error}`);
    if (call.hits.length > 0) {
      const shown = call.hits.slice(0, hitsPerCall).map((h) => `${h.node_id} p.${h.page} (${h.score.toFixed(3)})`);
      const more = call.hits.length > hitsPerCall ? `, … ${call.hits.length - hitsPerCall} more` : '';
      lines.push(`   → ${shown.join(', ')}${more}`);
    }
  }
  return lines.join('\n');
}
