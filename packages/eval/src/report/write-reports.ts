import { join, resolve } from 'node:path';

import type { MetricsFile, Prediction } from '@doctree/schema';

import { assertScored } from '../metrics/aggregate.js';
import { writeFileAtomic } from '@doctree/schema/node';
import { renderHtmlReport } from './html-report.js';
import { renderMarkdownReport } from './markdown-report.js';
import { writeTraceViewers } from './trace-viewers.js';

/** Paths written by {@link writeReports}. */
export interface WrittenReports {
  markdown: string;
  html: string;
  /** Trace viewer pages written (`traces/<system>/<id>.html`, relative to the run folder), one per traced answer. */
  traceViewers: string[];
}

/**
 * Writes `report.md`, the self-contained `report.html` and a trace viewer page per traced answer
 * (`traces/<system>/<id>.html`, linked from both reports) of a run into `outDir` (atomically). The predictions must
 * carry gold answers and scores, as `runEvaluation` writes them to `predictions.jsonl`.
 *
 * @example
 * ```ts
 * await writeReports(metrics, predictions, 'out/eval');
 * ```
 */
export async function writeReports(metrics: MetricsFile, predictions: readonly Prediction[], outDir: string): Promise<WrittenReports> {
  assertScored(predictions);
  const dir = resolve(outDir);
  const markdown = join(dir, 'report.md');
  const html = join(dir, 'report.html');
  // The viewers first: the reports link every traced answer to its page.
  const traceViewers = await writeTraceViewers(predictions, dir);
  await writeFileAtomic(markdown, renderMarkdownReport(metrics, predictions));
  await writeFileAtomic(html, renderHtmlReport(metrics, predictions));
  return { markdown, html, traceViewers };
}
