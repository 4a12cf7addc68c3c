import type { MetricsFile } from '@doctree/schema';

import type { ScoredPrediction } from '../metrics/aggregate.js';
import { reportTables } from './report-tables.js';
import { traceViewerPath } from './trace-viewers.js';
import type { ReportTable } from './report-tables.js';

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

function fence(text: string): string {
  return markdownFence(text);
}

/**
 * A report table as Markdown lines: a `## title` heading (at `level`), the table (numeric columns right-aligned), a
 * blank line and the note under it.
 */
export function markdownTableLines(table: ReportTable, level = 2): string[] {
  const out: string[] = [`${'#'.repeat(level)} ${table.title}`, ''];
  out.push(`| ${table.headers.map(cell).join(' | ')} |`);
  const numeric = table.headers.map((_, i) => i > 0 && table.rows.every((row) => /^(?:[-+−–]?[\d.]|–$|$)/.test(row[i] ?? '')));
  out.push(`|${numeric.map((right) => (right ? ' ---: ' : ' --- ')).join('|')}|`);
  for (const row of table.rows) out.push(`| ${row.map(cell).join(' | ')} |`);
  out.push('');
  if (table.note) out.push(table.note, '');
  return out;
}

/** Text in a fenced Markdown code block (the fence is longer than any backtick run inside). */
export function markdownFence(text: string, language = 'text'): string {
  const longest = Math.max(0, ...Array.from(text.matchAll(/`+/g), (m) => m[0].length));
  const f = '`'.repeat(Math.max(3, longest + 1));
  return `${f}${language}\n${text}\n${f}`;
}

/** `## Traces`: one line per question linking each system's trace viewer page (a failed answer has none). */
function traceLinkLines(predictions: readonly ScoredPrediction[]): string[] {
  const byQuestion = new Map<string, ScoredPrediction[]>();
  for (const p of predictions) byQuestion.set(p.id, [...(byQuestion.get(p.id) ?? []), p]);
  if (![...byQuestion.values()].some((ps) => ps.some((p) => traceViewerPath(p) !== undefined))) return [];
  const out = ['## Traces', '', 'The path each system took for each question (route, plan, tool calls with hits, evidence, reader, judger):', ''];
  for (const [id, ps] of byQuestion) {
    const links = ps.map((p) => {
      const viewer = traceViewerPath(p);
      return viewer !== undefined ? `[${cell(p.system)}](${viewer})` : `${cell(p.system)} (no trace: ${p.error ? cell(p.error.code) : 'none'})`;
    });
    out.push(`- ${cell(id)}: ${links.join(' · ')}`);
  }
  out.push('');
  return out;
}

/**
 * The Markdown report of a run: retrieval (recall@k, hit@k, MRR), answers (accuracy, F1, LLM-judged accuracy),
 * latency and cost, breakdowns by evidence source and answer format, ablations, and the judge prompt verbatim.
 */
export function renderMarkdownReport(file: MetricsFile, predictions: readonly ScoredPrediction[] = []): string {
  const out: string[] = [];
  out.push(`# Evaluation: ${file.dataset}`, '');
  out.push(`Generated ${file.generated_at} · ${file.n_questions} questions · ${file.systems.length} systems · ${predictions.length} predictions`, '');
  for (const table of reportTables(file)) out.push(...markdownTableLines(table));
  const failed = predictions.filter((p) => p.error !== undefined);
  if (failed.length > 0) {
    out.push('## Errors', '');
    for (const p of failed.slice(0, 20)) out.push(`- ${cell(p.system)} · ${cell(p.id)}: [${p.error!.code}] ${cell(p.error!.message)}`);
    if (failed.length > 20) out.push(`- … and ${failed.length - 20} more (see predictions.jsonl)`);
    out.push('');
  }
  out.push(...traceLinkLines(predictions));
  if (file.judge !== null) {
    out.push('## LLM judge', '');
    out.push(`Model: \`${file.judge.model}\`. Replies are validated as \`{correct, score, reason}\`; an unusable reply falls back to the rule score (counted as a fallback).`, '');
    out.push('System prompt:', '', fence(file.judge.system_prompt), '', 'User message template (each placeholder except `{format}` is a fenced block):', '', fence(file.judge.user_template), '');
  }
  return `${out.join('\n').trimEnd()}\n`;
}
