import { join, resolve } from 'node:path';

import type { MetricsFile, Prediction } from '@doctree/schema';

import { assertScored } from '../metrics/aggregate.js';
import { writeFileAtomic } from '../runner/atomic-file.js';
import { renderHtmlReport } from './html-report.js';
import { renderMarkdownReport } from './markdown-report.js';

/** Paths written by {@link writeReports}. */
export interface WrittenReports {
  markdown: string;
  html: string;
}

/**
 * Writes `report.md` and the self-contained `report.html` of a run into `outDir` (atomically). The predictions must
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
  await writeFileAtomic(markdown, renderMarkdownReport(metrics, predictions));
  await writeFileAtomic(html, renderHtmlReport(metrics, predictions));
  return { markdown, html };
}
