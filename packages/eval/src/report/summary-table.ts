import type { MetricsFile } from '@doctree/schema';

import { count, milliseconds, percent, systemLabel } from './report-format.js';

/** One row per system of the terminal summary: the headline numbers of `metrics.json`. */
export function summaryRows(file: MetricsFile): { headers: string[]; rows: string[][] } {
  const headers = ['System', ...file.ks.map((k) => `R@${k}`), 'MRR', 'Accuracy', 'F1', 'p50', 'p95', 'Build', 'Errors'];
  const rows = file.systems.map((m) => {
    const retrieval = (m.overall.n_retrieval ?? m.overall.n) > 0;
    return [
      m.ablation_of !== undefined ? `  ${systemLabel(m)}` : systemLabel(m),
      ...file.ks.map((k) => (retrieval ? percent(m.overall.recall_at[String(k)]) : '–')),
      retrieval ? m.overall.mrr.toFixed(3) : '–',
      percent(m.overall.accuracy),
      percent(m.overall.f1),
      milliseconds(m.latency_ms.p50),
      milliseconds(m.latency_ms.p95),
      milliseconds(m.index_build_ms),
      count(m.errors ?? 0),
    ];
  });
  return { headers, rows };
}

/**
 * The summary of an evaluation as a plain-text table for a terminal (one line per system, ablations indented under
 * their base's label): recall@k, MRR, accuracy, F1, latency p50/p95, index build time and errors.
 *
 * @example
 * ```ts
 * process.stdout.write(formatSummaryTable(result.metrics));
 * ```
 */
export function formatSummaryTable(file: MetricsFile): string {
  const { headers, rows } = summaryRows(file);
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: readonly string[]): string => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ').trimEnd();
  const title = `${file.dataset}: ${file.n_questions} questions, ${file.systems.length} system${file.systems.length === 1 ? '' : 's'}`;
  return `${[title, line(headers), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n')}\n`;
}
