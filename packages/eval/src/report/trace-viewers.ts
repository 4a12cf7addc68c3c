import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';

import { TraceSchema, type Prediction, type Trace, type TraceAnswer } from '@doctree/schema';

import type { ScoredPrediction } from '../metrics/aggregate.js';
import { writeFileAtomic } from '@doctree/schema/node';
import { escapeHtml } from './html-escape.js';
import { renderTraceViewerHtml } from './trace-viewer-html.js';

/** A trace path as the runner writes it (`traces/<system>/<question>.json`, safe file names): nothing else is linked. */
const TRACE_PATH = /^traces\/[A-Za-z0-9._-]+\/[A-Za-z0-9._-]+\.json$/;

/**
 * The viewer page of a prediction's trace (`traces/<system>/<id>.html`, next to its `.json`), relative to the run
 * folder; undefined when the prediction has no trace (it failed) or its `trace_path` is not one the runner writes.
 */
export function traceViewerPath(prediction: Pick<Prediction, 'trace_path'>): string | undefined {
  const path = prediction.trace_path;
  if (path === undefined || !TRACE_PATH.test(path) || path.split('/').includes('..')) return undefined;
  return `${path.slice(0, -'.json'.length)}.html`;
}

/** The answer of a prediction as a trace viewer shows it. */
function predictionAnswer(p: Prediction): TraceAnswer {
  return {
    answer: p.answer,
    answer_format: p.answer_format,
    confidence: Math.min(1, Math.max(0, p.confidence)),
    pages: p.pages,
    support: p.support,
  };
}

/** Reads a trace file; undefined (with the reason) when it is missing or not a trace. */
async function readTrace(path: string): Promise<{ trace?: Trace; problem?: string }> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    return { problem: 'the trace file is missing' };
  }
  try {
    const parsed = TraceSchema.safeParse(JSON.parse(text));
    return parsed.success ? { trace: parsed.data } : { problem: 'the trace file is not a doctree.trace v1 document' };
  } catch {
    return { problem: 'the trace file is not JSON' };
  }
}

/** Whether a viewer page already shows its pages (drawn by `@doctree/pipeline`) and is newer than its trace: kept on resume. */
async function drawnAndCurrent(viewerPath: string, tracePath: string): Promise<boolean> {
  const [viewer, trace] = await Promise.all([stat(viewerPath).catch(() => undefined), stat(tracePath).catch(() => undefined)]);
  if (viewer === undefined || trace === undefined || viewer.mtimeMs < trace.mtimeMs) return false;
  return (await readFile(viewerPath, 'utf8').catch(() => '')).includes('data:image/');
}

/** A viewer page that says why there is no trace to show (so every link of the report opens a page). */
function missingTracePage(p: ScoredPrediction, problem: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'"><title>DocTree trace: ${escapeHtml(p.id)}</title><style>body{font:14px system-ui,sans-serif;margin:24px}</style></head><body><h1>${escapeHtml(p.question)}</h1><p>System ${escapeHtml(p.system)}, question ${escapeHtml(p.id)}: ${escapeHtml(problem)}.</p></body></html>\n`;
}

/**
 * Writes the trace viewer page of every prediction that has a trace (`traces/<system>/<id>.html` next to the
 * `.json`; see `renderTraceViewerHtml`), with the prediction's answer and supports, the gold answer and the score.
 * A trace that cannot be read gets a page saying so, so every link of the reports opens. Returns the pages written,
 * relative to `outDir`. Page images are not drawn here (that needs the PDFs: `drawEvalTraceViewers` of `@doctree/pipeline`
 * adds them); a page it drew that is newer than its trace is kept.
 *
 * @example
 * ```ts
 * const pages = await writeTraceViewers(predictions, 'out/eval');
 * ```
 */
export async function writeTraceViewers(predictions: readonly ScoredPrediction[], outDir: string): Promise<string[]> {
  const written: string[] = [];
  for (const p of predictions) {
    const viewer = traceViewerPath(p);
    if (viewer === undefined) continue;
    if (await drawnAndCurrent(join(outDir, viewer), join(outDir, p.trace_path!))) {
      written.push(viewer);
      continue;
    }
    const { trace, problem } = await readTrace(join(outDir, p.trace_path!));
    const facts: Array<[string, string]> = [
      ['system', p.system],
      ['question id', p.id],
      ['gold', `${Array.isArray(p.gold.answer) ? p.gold.answer.join('; ') : String(p.gold.answer)} (${p.gold.format_label}; evidence pages ${p.gold.evidence_pages.join(', ') || '-'})`],
      ['score', `${p.score.accuracy.toFixed(2)} (${p.score.rule})${p.score.judge ? ` · judge ${p.score.judge.correct ? 'correct' : 'wrong'}` : ''}`],
    ];
    const note = `No page drawn here: \`doctree trace ${p.trace_path!} --html out.html --doc <the PDF>\` draws the evidence on its pages.`;
    const html = trace ? renderTraceViewerHtml({ trace, answer: predictionAnswer(p), facts, note }) : missingTracePage(p, problem ?? 'no trace');
    await writeFileAtomic(join(outDir, viewer), html);
    written.push(viewer);
  }
  return written;
}
