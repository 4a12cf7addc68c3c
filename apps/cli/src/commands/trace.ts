import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { DocTreeError, TraceSchema, formatIssues, type Trace } from '@doctree/schema';
import { formatToolCallReplay, replayToolCalls, type ReplayedToolCall } from '@doctree/toolhub';
import { escapeControlChars } from '@doctree/pipeline/command';
import { parseCommandArgs } from '../cli-args.js';
import type { CliIo } from '../cli-context.js';
import { TRACE_USAGE } from '../usage.js';


/** What `doctree trace` replays. */
export interface TraceReplay {
  trace: Trace;
  calls: ReplayedToolCall[];
}

/** Reads and validates a `doctree.trace` file. */
export async function readTraceFile(path: string): Promise<Trace> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (cause) {
    throw new DocTreeError('INPUT_NOT_FOUND', 'cannot read the trace file', { file: path, cause });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    throw new DocTreeError('SCHEMA_INVALID', `the trace file is not JSON: ${(cause as Error).message.replace(/\s+/g, ' ').slice(0, 160)}`, { file: path, cause, hint: 'Pass the file written by `doctree ask --trace out.json`.' });
  }
  const parsed = TraceSchema.safeParse(value);
  if (!parsed.success) throw new DocTreeError('SCHEMA_INVALID', `not a doctree.trace v1 document: ${formatIssues(parsed.error)}`, { file: path, hint: 'Pass the file written by `doctree ask --trace out.json`.' });
  return parsed.data;
}

/** Human-readable replay: the question, the totals, then the tool calls in order with their hits. */
export function formatTraceReplay(replay: TraceReplay): string {
  const { trace, calls } = replay;
  const llm = trace.mode === 'offline' ? 'offline' : `llm ${trace.llm.calls} call(s), ${trace.llm.prompt_tokens} + ${trace.llm.completion_tokens} tokens`;
  const head = [
    `Question: ${escapeControlChars(trace.question)}`,
    `Document: ${escapeControlChars(trace.doc_id)} · ${trace.started_at} · ${llm} · ${trace.replans} replan(s) · ${calls.length} tool call(s)`,
    '',
  ];
  // Hits quote document text: control characters are escaped so they cannot drive the terminal.
  return `${head.join('\n')}${escapeControlChars(formatToolCallReplay(calls, { hitsPerCall: 5 }), { keepLayout: true })}\n`;
}

/** Parses the arguments of `doctree trace` and replays the file. */
export async function traceCli(io: CliIo, args: readonly string[]): Promise<TraceReplay> {
  const { values, positionals } = parseCommandArgs(args, { json: { type: 'boolean' } }, TRACE_USAGE);
  if (positionals.length !== 1) throw new DocTreeError('USAGE', 'trace takes exactly one trace file', { hint: `Usage:\n${TRACE_USAGE}` });
  const trace = await readTraceFile(resolve(io.cwd, positionals[0]!));
  const replay = { trace, calls: replayToolCalls(trace) };
  io.stdout(values['json'] ? `${JSON.stringify(replay.calls, null, 2)}\n` : formatTraceReplay(replay));
  return replay;
}
