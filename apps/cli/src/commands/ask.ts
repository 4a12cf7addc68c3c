import { statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { docIdFromFilename } from '@doctree/ingest';
import { writeFileAtomic } from '@doctree/index';
import { assertOutputTarget, escapeControlChars, explainCacheFailure } from '@doctree/pipeline/command';
import { askQuestion, type AskedQuestion } from '@doctree/pipeline';
import { AnswerSchema, DocTreeError, formatIssues, traceWithAnswer, type Answer, type DocTreeConfigInput, type TraceEvent } from '@doctree/schema';
import { formatToolCallReplay, replayToolCalls } from '@doctree/toolhub';
import { parseCommandArgs } from '../cli-args.js';
import { loadCliConfig, type CliConfig, type CliIo } from '../cli-context.js';
import { createProgress } from '../progress.js';
import { progressText } from './index-command.js';
import { ASK_USAGE } from '../usage.js';


/** Options of the `doctree ask` command. */
export interface AskCommandOptions {
  /** A PDF / content_list.json / Markdown file, or a prepared document folder. */
  input: string;
  question: string;
  /** Dataset folder for a file input (`<outDir>/<doc_id>/`). */
  outDir: string;
  /** Cache folder of LLM summaries and `openai` embeddings. */
  cacheDir: string;
  /** Print exactly the `Answer` schema. */
  json: boolean;
  /** Write the trace here (atomically). */
  tracePath?: string;
  /** REPLAN passes, overriding `agent.max_replans`. */
  maxReplans?: number;
  /** Count the prompt tokens the LLM path would send; answer offline. */
  dryRun: boolean;
  /** Password of an encrypted PDF input. */
  password?: string;
}

/** Characters of a support snippet shown per line. */
const SNIPPET_CHARS = 110;

const oneLine = (text: string, max: number): string => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

const answerText = (answer: Answer): string => (Array.isArray(answer.answer) ? answer.answer.join('; ') : String(answer.answer));

/** The route, plan, evidence and verdict lines of a trace (what the replay of tool calls does not show). */
function pathLines(events: readonly TraceEvent[]): string[] {
  const lines: string[] = [];
  for (const e of events) {
    const attempt = e.attempt > 0 ? ` [attempt ${e.attempt}]` : '';
    if (e.type === 'route') lines.push(`  route    ${e.message ?? ''}`);
    else if (e.type === 'plan' && e.message) lines.push(`  plan     ${oneLine(e.message, 200)}${attempt}`);
    else if (e.type === 'pack' && e.data) lines.push(`  evidence ${e.n_hits ?? 0} item(s), ${String(e.data['total_tokens'])} tokens, coverage ${Number(e.data['coverage']).toFixed(2)}${attempt}`);
    else if (e.type === 'read' || e.type === 'judge' || e.type === 'replan') lines.push(`  ${e.type.padEnd(8)} ${oneLine(e.message ?? '', 200)}${attempt}`);
  }
  return lines;
}

/** Human-readable report of an answered question. */
export function formatAskReport(run: AskedQuestion, options: { dryRun: boolean } = { dryRun: false }): string {
  const { answer } = run;
  const out: string[] = [];
  const stated = answer.display !== undefined && answer.display !== answerText(answer) ? ` — ${answer.display}` : '';
  out.push(`Answer: ${answerText(answer)}${answer.answer_format === 'None' ? '' : `  (${answer.answer_format})`}${stated}`);
  out.push(`Confidence: ${answer.confidence.toFixed(2)}${answer.answer_format === 'None' ? ' (that the document does not answer this)' : ' (probability the answer is right)'}`);
  const abstention = answer.abstention;
  if (abstention) {
    out.push(`Declined: ${abstention.reason}`);
    if (abstention.withheld) out.push(`  best answer found: ${Array.isArray(abstention.withheld.answer) ? abstention.withheld.answer.join('; ') : String(abstention.withheld.answer)} (probability right ${abstention.withheld.confidence.toFixed(2)})`);
    if (abstention.evidence.length > 0) {
      out.push(`  best evidence: pages ${[...new Set(abstention.evidence.map((s) => s.page))].join(', ')}`);
      for (const s of abstention.evidence) out.push(`  p.${s.page}  ${escapeControlChars(s.node_id)}  "${oneLine(s.snippet, SNIPPET_CHARS)}"`);
    }
  }
  if (answer.support.length === 0) out.push('Supporting pages: none');
  else {
    out.push(`Supporting pages: ${answer.pages.join(', ')}`);
    for (const s of answer.support) out.push(`  p.${s.page}  ${escapeControlChars(s.node_id)}  "${oneLine(s.snippet, SNIPPET_CHARS)}"`);
  }
  // Only the last pass's evidence lines are kept short: the whole path stays in --trace.
  const path = pathLines(answer.trace.events);
  out.push('', 'Path taken (plan → tools → evidence):', ...path);
  const calls = replayToolCalls(answer.trace);
  out.push('', `Tool calls (${calls.length}):`, formatToolCallReplay(calls, { hitsPerCall: 3, argsChars: 120 }).replace(/^/gm, '  '));
  const u = run.usage;
  const llm =
    answer.trace.mode === 'offline'
      ? 'llm: none (offline)'
      : `llm: ${u.llmCalls} call(s), ${u.promptTokens} prompt + ${u.completionTokens} completion tokens${u.costUsd !== null ? `, $${u.costUsd.toFixed(4)}` : ''}${options.dryRun ? ' (dry run: counted, not sent)' : ''}`;
  out.push('', `${u.replans} replan(s) · ${u.toolCalls} tool calls · ${Math.round(u.latencyMs)} ms · ${llm} · document ${escapeControlChars(run.document.docDir)}`);
  // Document text, ids and file names may hold control characters: escaped so they cannot drive the terminal.
  return `${escapeControlChars(out.join('\n'), { keepLayout: true })}\n`;
}

/**
 * Runs `doctree ask`: prepares the document on first use (progress on a terminal), answers the question and prints
 * the answer, confidence, supporting pages with snippets and the path taken — or exactly the `Answer` with `--json`.
 * `--trace` writes the trace atomically. Failed LLM calls answered by a fallback are reported in one warning line.
 */
export async function askCommand(io: CliIo, config: CliConfig, options: AskCommandOptions): Promise<AskedQuestion> {
  const checkTraceTarget = (documentDirs: string[]): void => {
    if (options.tracePath) assertOutputTarget({ option: '--trace', target: options.tracePath, inputs: [options.input], documentDirs, example: '--trace trace.json' });
  };
  checkTraceTarget([expectedDocumentDir(options.input, options.outDir)]);
  const progress = createProgress(io);
  let run: AskedQuestion;
  try {
    run = await askQuestion(options.input, options.question, {
      config: config.config,
      outDir: options.outDir,
      cacheDir: options.cacheDir,
      dryRun: options.dryRun,
      ...(options.password !== undefined ? { password: options.password } : {}),
      ...(options.maxReplans !== undefined ? { maxReplans: options.maxReplans } : {}),
      onProgress: (event) => progress.update(progressText(event)),
      onEvent: (event) => progress.update(`[ask] ${event.type}: ${oneLine(event.message, 70)}`),
      // A summary cache that cannot be read or written is said like the command's other notes.
      onWarning: (message) => {
        progress.done();
        io.stderr(`doctree: warning: ${escapeControlChars(message)}\n`);
      },
    });
  } catch (error) {
    throw explainCacheFailure(error, options.cacheDir);
  } finally {
    progress.done();
  }
  const answer = config.redact(run.answer);
  const checked = AnswerSchema.safeParse(answer);
  if (!checked.success) throw new DocTreeError('INTERNAL', `the answer does not match its schema: ${formatIssues(checked.error)}`);
  checkTraceTarget([run.document.docDir]);
  if (options.tracePath) await writeFileAtomic(options.tracePath, `${JSON.stringify(traceWithAnswer(checked.data), null, 2)}\n`);
  if (run.usage.llmErrors.length > 0) {
    const codes = [...new Set(run.usage.llmErrors)].join(', ');
    io.stderr(`doctree: warning: ${run.usage.llmErrors.length} LLM call(s) failed (${codes}); their steps were answered offline (see the trace)\n`);
  }
  io.stdout(options.json ? `${JSON.stringify(checked.data, null, 2)}\n` : formatAskReport({ ...run, answer: checked.data }, { dryRun: options.dryRun }));
  return run;
}

/** The document folder `input` is (a folder) or will be ingested into (a file): `--trace` must stay out of it. */
function expectedDocumentDir(input: string, outDir: string): string {
  let folder = false;
  try {
    folder = statSync(input).isDirectory();
  } catch {
    // A missing input is reported by askQuestion.
  }
  return folder ? input : join(outDir, docIdFromFilename(basename(input)));
}

/** Parses the arguments of `doctree ask` and runs it. */
export async function askCli(io: CliIo, args: readonly string[]): Promise<AskedQuestion> {
  const { values, positionals } = parseCommandArgs(
    args,
    {
      json: { type: 'boolean' },
      trace: { type: 'string' },
      llm: { type: 'string' },
      'max-replans': { type: 'string' },
      'dry-run': { type: 'boolean' },
      out: { type: 'string' },
      password: { type: 'string' },
      config: { type: 'string' },
    },
    ASK_USAGE,
  );
  if (positionals.length !== 2) {
    throw new DocTreeError('USAGE', `ask takes a document and a question (got ${positionals.length} argument${positionals.length === 1 ? '' : 's'})`, {
      hint: 'e.g. doctree ask report.pdf "What was revenue in 2023?" (quote the question)',
    });
  }
  const llm = values['llm'] as string | undefined;
  if (llm !== undefined && !['none', 'openai'].includes(llm)) throw new DocTreeError('USAGE', `--llm must be none or openai, not "${llm}"`);
  const replansText = values['max-replans'] as string | undefined;
  let maxReplans: number | undefined;
  if (replansText !== undefined) {
    maxReplans = Number(replansText);
    if (!/^\d+$/.test(replansText) || maxReplans > 10) throw new DocTreeError('USAGE', `--max-replans must be an integer from 0 to 10, not "${replansText}"`);
  }
  const overrides: DocTreeConfigInput = llm ? { llm: { provider: llm as 'none' | 'openai' } } : {};
  const config = loadCliConfig(io, values['config'] as string | undefined, overrides);
  const out = values['out'] as string | undefined;
  const trace = values['trace'] as string | undefined;
  return askCommand(io, config, {
    input: resolve(io.cwd, positionals[0]!),
    question: positionals[1]!,
    outDir: resolve(io.cwd, out ?? join(config.config.data_dir, 'default')),
    cacheDir: resolve(io.cwd, config.config.data_dir, '.cache'),
    json: Boolean(values['json']),
    dryRun: Boolean(values['dry-run']),
    ...(trace ? { tracePath: resolve(io.cwd, trace) } : {}),
    ...(values['password'] ? { password: values['password'] as string } : {}),
    ...(maxReplans !== undefined ? { maxReplans } : {}),
  });
}
