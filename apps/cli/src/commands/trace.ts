import { readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { buildTraceView, type HitView, type TraceView } from '@doctree/eval';
import { writeTraceViewer } from '@doctree/pipeline';
import { DocTreeError, TraceSchema, formatIssues, type Trace } from '@doctree/schema';
import { replayToolCalls, type ReplayedToolCall } from '@doctree/toolhub';
import { assertOutputTarget, escapeControlChars } from '@doctree/pipeline/command';
import { parseCommandArgs } from '../cli-args.js';
import { loadCliConfig, type CliIo } from '../cli-context.js';
import { TRACE_USAGE } from '../usage.js';

/** What `doctree trace` replays. */
export interface TraceReplay {
  trace: Trace;
  calls: ReplayedToolCall[];
  /** The HTML viewer written by `--html`, and the pages rendered into it. */
  html?: { path: string; pages: number[]; note?: string };
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

/** Characters of hit text shown per line. */
const TEXT_CHARS = 110;
/** Hits shown per tool call. */
const HITS_PER_CALL = 5;
/** Characters of a call's arguments shown. */
const ARGS_CHARS = 160;

const quote = (text: string | null): string => (text === null ? '' : ` "${text.length > TEXT_CHARS ? `${text.slice(0, TEXT_CHARS - 1)}…` : text}"`);
const hitLine = (h: HitView, arrow = '→'): string => `${arrow} ${h.nodeId} p.${h.page} (${h.score.toFixed(3)})${quote(h.text)}`;
const att = (attempt: number): string => (attempt > 0 ? ` [attempt ${attempt}]` : '');
const two = (x: number | null): string => (x === null ? '?' : x.toFixed(2));

/**
 * The whole path of a trace for people: the question and final answer with its support, the route (type, signals,
 * analysis), the plan as stages and steps, every step in order with the tool calls' arguments and hits (with their
 * text), the evidence pack, the reader, the judger and the replans.
 */
export function formatTraceView(view: TraceView): string {
  const llm = view.mode === 'offline' ? 'offline' : `llm ${view.llm.calls} call(s), ${view.llm.prompt_tokens} + ${view.llm.completion_tokens} tokens`;
  const calls = view.path.filter((s) => s.call).length;
  const out: string[] = [`Question: ${view.question}`, `Document: ${view.docId} · ${view.startedAt} · ${llm} · ${view.replans} replan(s) · ${calls} tool call(s)`, ''];
  const f = view.final;
  if (f.source === 'none') out.push('Answer: (the trace ends before an answer)');
  else {
    out.push(`Answer: ${f.answer}${f.format ? `  (${f.format})` : ''}${f.display && f.display !== f.answer ? ` — ${f.display}` : ''}`);
    out.push(`Confidence: ${two(f.confidence)}${f.format === 'None' ? ' (that the document does not answer this)' : ' (probability the answer is right)'} · pages ${f.pages.join(', ') || '-'}${f.source === 'events' ? ' (from the finalize and judge events)' : ''}`);
    if (f.abstentionReason) out.push(`Declined: ${f.abstentionReason}`);
    for (const s of f.support) out.push(`  ${hitLine(s, 'support')}`);
  }
  const r = view.route;
  if (r) {
    out.push('', `Route: ${r.queryType} (${r.source}${r.confidence !== null ? `, confidence ${two(r.confidence)}` : ''})${r.domainPack ? ` · domain pack ${r.domainPack}` : ''}`);
    if (r.signals.length) out.push(`  signals: ${r.signals.map(([k, v]) => `${k} ${v}`).join(' · ')}`);
    if (r.analysis.length) out.push(`  analysis: ${r.analysis.map(([k, v]) => `${k} ${v}`).join(' · ')}`);
    if (r.risk) out.push(`  risk: ${r.risk}`);
  }
  for (const p of view.plans) {
    out.push('', `Plan${att(p.attempt)}: ${p.template} (${p.planner})`);
    p.stages.forEach((s, i) => out.push(`  stage ${i + 1}. ${s}`));
    p.steps.forEach((s, i) => out.push(`  step  ${i + 1}. ${s}`));
  }
  out.push('', 'Path:');
  for (const step of view.path) {
    if (step.call) {
      const c = step.call;
      let args = JSON.stringify(c.args);
      if (args.length > ARGS_CHARS) args = `${args.slice(0, ARGS_CHARS - 1)}…`;
      out.push(`${c.index}. ${c.toolId} ${c.status} ${c.nHits} hits ${c.latencyMs.toFixed(1)} ms${att(step.attempt)} ${args}`);
      if (c.error) out.push(`   ! ${c.error}`);
      for (const h of c.hits.slice(0, HITS_PER_CALL)) out.push(`   ${hitLine(h)}`);
      if (c.nHits > HITS_PER_CALL) out.push(`   … ${c.nHits - HITS_PER_CALL} more`);
    } else if (step.kind !== 'route' && step.kind !== 'llm_call') {
      out.push(`   ${step.kind.padEnd(8)} ${step.title}${att(step.attempt)}`);
    }
  }
  const ev = view.evidence;
  if (ev) {
    out.push('', `Evidence${att(ev.attempt)}: ${ev.items.length} item(s), ${ev.totalTokens ?? '?'} of ${ev.budgetTokens ?? '?'} tokens, coverage ${two(ev.coverage)}${ev.needsMissing.length ? `, missing ${ev.needsMissing.join(', ')}` : ''}`);
    for (const item of ev.items) out.push(`  ${hitLine(item, '•')}`);
  }
  if (view.reads.length) {
    out.push('', 'Reader:');
    for (const read of view.reads) {
      out.push(`  ${read.message}${att(read.attempt)}`);
      for (const note of read.notes) out.push(`    - ${note}`);
    }
  }
  if (view.verdicts.length) {
    out.push('', 'Judger:');
    for (const v of view.verdicts) out.push(`  ${v.message}${att(v.attempt)}`);
  }
  out.push('', view.replanSteps.length ? 'Replans:' : 'Replans: none');
  for (const x of view.replanSteps) out.push(`  ${x.message}${x.reason ? ` (${x.reason})` : ''}${att(x.attempt)}`);
  if (view.warnings.length) out.push('', 'Warnings:', ...view.warnings.map((w) => `  ${w}`));
  // Document text, ids and messages may hold control characters: escaped so they cannot drive the terminal.
  return `${escapeControlChars(out.join('\n'), { keepLayout: true })}\n`;
}

/** Human-readable replay of a trace: the whole path (see {@link formatTraceView}). */
export function formatTraceReplay(replay: TraceReplay): string {
  return formatTraceView(buildTraceView(replay.trace));
}

/** The document folder `doctree ask` prepared for the trace's document, when it exists (`<data_dir>/default/<doc_id>`). */
async function defaultDocumentDir(dataDir: string, docId: string): Promise<string | undefined> {
  const dir = join(dataDir, 'default', docId);
  return (await stat(join(dir, 'doctree.mm.json')).then((s) => s.isFile(), () => false)) ? dir : undefined;
}

/** Parses the arguments of `doctree trace`, prints the path and writes the HTML viewer with `--html`. */
export async function traceCli(io: CliIo, args: readonly string[]): Promise<TraceReplay> {
  const { values, positionals } = parseCommandArgs(args, { json: { type: 'boolean' }, html: { type: 'string' }, doc: { type: 'string' }, config: { type: 'string' } }, TRACE_USAGE);
  if (positionals.length !== 1) throw new DocTreeError('USAGE', 'trace takes exactly one trace file', { hint: `Usage:\n${TRACE_USAGE}` });
  if (values['doc'] !== undefined && values['html'] === undefined) throw new DocTreeError('USAGE', '--doc goes with --html (it names the document whose pages the viewer shows)', { hint: 'e.g. doctree trace trace.json --html trace.html --doc report.pdf' });
  const tracePath = resolve(io.cwd, positionals[0]!);
  const trace = await readTraceFile(tracePath);
  const replay: TraceReplay = { trace, calls: replayToolCalls(trace) };
  const html = values['html'] as string | undefined;
  if (html !== undefined) {
    const out = resolve(io.cwd, html);
    assertOutputTarget({ option: '--html', target: out, inputs: [tracePath], documentDirs: [], example: '--html trace.html' });
    let doc = values['doc'] !== undefined ? resolve(io.cwd, values['doc'] as string) : undefined;
    if (doc === undefined) {
      const config = loadCliConfig(io, values['config'] as string | undefined);
      doc = await defaultDocumentDir(resolve(io.cwd, config.config.data_dir), trace.doc_id);
    }
    const built = await writeTraceViewer(trace, out, doc !== undefined ? { doc } : {});
    replay.html = { path: out, pages: built.pages, ...(built.note !== undefined ? { note: built.note } : {}) };
    io.stderr(`doctree: wrote ${escapeControlChars(out)} (${built.pages.length ? `pages ${built.pages.join(', ')} rendered` : 'no page rendered'}${built.note ? `; ${escapeControlChars(built.note)}` : ''})\n`);
  }
  if (values['json']) io.stdout(`${JSON.stringify(replay.calls, null, 2)}\n`);
  else if (html === undefined) io.stdout(formatTraceReplay(replay));
  return replay;
}
