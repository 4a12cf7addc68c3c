import { join, resolve } from 'node:path';

import type { MetricsFile } from '@doctree/schema';

import { writeFileAtomic } from '@doctree/schema/node';
import { escapeHtml } from './html-escape.js';
import { REPORT_STYLE, tableHtml } from './html-report.js';
import { markdownFence, markdownTableLines } from './markdown-report.js';
import { count, headlineK, milliseconds, percent, systemLabel } from './report-format.js';
import { reportTables } from './report-tables.js';
import type { ReportTable } from './report-tables.js';
import { accuracyBySourceSvg, recallChartSvg } from './svg-charts.js';

/** One evaluated combination of a comparison: a dataset under a configuration, with its metrics. */
export interface ComparisonRun {
  /** Dataset name. */
  dataset: string;
  /** Configuration name (e.g. `sif`, `hashing`). */
  config: string;
  /** `metrics.json` of the run. */
  metrics: MetricsFile;
  /** Folder of the run's own report, relative to the comparison report (linked from the overview). */
  reportDir?: string;
}

/** What a comparison report shows. */
export interface ComparisonReport {
  /** Title (e.g. the experiment name). */
  title: string;
  /** The exact command that produced the runs, shown verbatim. */
  command?: string;
  /** ISO time of the report. Default now. */
  generatedAt?: string;
  /** Sentences shown under the title (what the configurations are, caveats). */
  notes?: readonly string[];
  /** The runs, in the order of the experiment (datasets × configurations). */
  runs: readonly ComparisonRun[];
}

/** File names {@link writeComparisonReports} writes. */
export const COMPARISON_FILES = { json: 'comparison.json', markdown: 'comparison.md', html: 'comparison.html' } as const;

/** A dataset's runs merged into one metrics file whose systems are `<config>/<system>` (labels `<config> · <label>`). */
export interface MergedComparison {
  dataset: string;
  file: MetricsFile;
}

/**
 * Merges the runs of each dataset into one `MetricsFile` so that the run report's tables and charts compare every
 * configuration's systems side by side. With a single configuration the ids and labels are kept as they are.
 * Ablations stay grouped under their base of the same configuration.
 */
export function mergeComparisonRuns(report: ComparisonReport): MergedComparison[] {
  const configs = new Set(report.runs.map((r) => r.config));
  const prefix = configs.size > 1;
  const datasets = [...new Set(report.runs.map((r) => r.dataset))];
  return datasets.map((dataset) => {
    const runs = report.runs.filter((r) => r.dataset === dataset);
    const first = runs[0]!.metrics;
    const ks = first.ks.filter((k) => runs.every((r) => r.metrics.ks.includes(k)));
    const systems = runs.flatMap((run) =>
      run.metrics.systems.map((m) =>
        prefix
          ? { ...m, system: `${run.config}/${m.system}`, label: `${run.config} · ${systemLabel(m)}`, ...(m.ablation_of !== undefined ? { ablation_of: `${run.config}/${m.ablation_of}` } : {}) }
          : m,
      ),
    );
    return {
      dataset,
      file: {
        ...first,
        dataset,
        ks: ks.length > 0 ? ks : first.ks,
        n_questions: Math.max(...runs.map((r) => r.metrics.n_questions)),
        generated_at: report.generatedAt ?? first.generated_at,
        systems,
        judge: runs.find((r) => r.metrics.judge !== null)?.metrics.judge ?? null,
      },
    };
  });
}

/** The overview table: one row per dataset × configuration × system with the headline numbers. */
export function comparisonOverviewTable(report: ComparisonReport): ReportTable {
  const ks = [...new Set(report.runs.flatMap((r) => r.metrics.ks))].sort((a, b) => a - b);
  const links = report.runs.some((r) => r.reportDir !== undefined);
  return {
    id: 'overview',
    title: 'Overview',
    headers: ['Dataset', 'Configuration', 'System', 'Questions', ...ks.map((k) => `Recall@${k}`), 'MRR', 'Accuracy', 'F1', 'Latency p50', 'Latency p95', 'Index build', ...(links ? ['Run'] : [])],
    rows: report.runs.flatMap((run) =>
      run.metrics.systems.map((m) => {
        const retrieval = (m.overall.n_retrieval ?? m.overall.n) > 0;
        return [
          run.dataset,
          run.config,
          m.ablation_of !== undefined ? `${systemLabel(m)} (ablates ${m.ablation_of})` : systemLabel(m),
          count(m.overall.n),
          ...ks.map((k) => (retrieval && m.overall.recall_at[String(k)] !== undefined ? percent(m.overall.recall_at[String(k)]) : '–')),
          retrieval ? m.overall.mrr.toFixed(3) : '–',
          percent(m.overall.accuracy),
          percent(m.overall.f1),
          milliseconds(m.latency_ms.p50),
          milliseconds(m.latency_ms.p95),
          milliseconds(m.index_build_ms),
          ...(links ? [run.reportDir ?? ''] : []),
        ];
      }),
    ),
    note: 'Recall@k: share of gold evidence pages among the first k distinct ranked pages (questions with gold pages). Accuracy and F1: MMLongBench-Doc rules per answer format. Index build: the sum over the documents of the run.',
  };
}

function sectionTables(merged: MergedComparison, index: number): ReportTable[] {
  return reportTables(merged.file).map((t) => ({ ...t, id: `d${index}-${t.id}` }));
}

/** The comparison as Markdown: the command, the overview, then per dataset every table of the run report. */
export function renderComparisonMarkdown(report: ComparisonReport): string {
  const generatedAt = report.generatedAt ?? new Date().toISOString();
  const out: string[] = [`# ${report.title}`, ''];
  out.push(`Generated ${generatedAt} · ${new Set(report.runs.map((r) => r.dataset)).size} dataset(s) × ${new Set(report.runs.map((r) => r.config)).size} configuration(s) · ${report.runs.length} runs`, '');
  for (const note of report.notes ?? []) out.push(note, '');
  if (report.command !== undefined) out.push('Command:', '', markdownFence(report.command, 'sh'), '');
  out.push(...markdownTableLines(comparisonOverviewTable(report)));
  mergeComparisonRuns(report).forEach((merged, i) => {
    out.push(`## ${merged.dataset}`, '');
    for (const table of sectionTables(merged, i)) out.push(...markdownTableLines(table, 3));
  });
  return `${out.join('\n').trimEnd()}\n`;
}

/**
 * The comparison as one self-contained HTML page (inline CSS and SVG, no scripts, no external resources): the
 * command, the overview table, and per dataset the recall@k curves, accuracy by evidence source and the run report's
 * tables over every configuration's systems.
 */
export function renderComparisonHtml(report: ComparisonReport): string {
  const generatedAt = report.generatedAt ?? new Date().toISOString();
  const sections = mergeComparisonRuns(report).map((merged, i) => {
    const k = headlineK(merged.file);
    return [
      `<section data-dataset="${escapeHtml(merged.dataset)}"><h2>${escapeHtml(merged.dataset)}</h2>`,
      '<div class="charts">',
      `<figure class="chart"><figcaption>Evidence-page recall@k (recall@${k} in the tables)</figcaption>${recallChartSvg(merged.file)}</figure>`,
      `<figure class="chart"><figcaption>Answer accuracy by evidence source</figcaption>${accuracyBySourceSvg(merged.file)}</figure>`,
      '</div>',
      ...sectionTables(merged, i).map(tableHtml),
      '</section>',
    ].join('\n');
  });
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(report.title)}</title><style>${REPORT_STYLE}</style></head><body>`,
    `<h1>${escapeHtml(report.title)}</h1>`,
    `<p class="meta">Generated ${escapeHtml(generatedAt)} · ${report.runs.length} runs</p>`,
    ...(report.notes ?? []).map((note) => `<p class="note">${escapeHtml(note)}</p>`),
    report.command !== undefined ? `<p>Command:</p><pre data-command>${escapeHtml(report.command)}</pre>` : '',
    tableHtml(comparisonOverviewTable(report)),
    ...sections,
    '</body></html>',
    '',
  ].join('\n');
}

/** Paths written by {@link writeComparisonReports}. */
export interface WrittenComparison {
  json: string;
  markdown: string;
  html: string;
}

/**
 * Writes `comparison.json` (format `doctree.eval-comparison` v1: title, command, runs with their metrics),
 * `comparison.md` and `comparison.html` into `outDir`, each atomically.
 *
 * @example
 * ```ts
 * await writeComparisonReports({ title: 'dev', command: 'doctree-eval-runner dev.json', runs }, 'out/experiment');
 * ```
 */
export async function writeComparisonReports(report: ComparisonReport, outDir: string): Promise<WrittenComparison> {
  const dir = resolve(outDir);
  const withTime: ComparisonReport = { ...report, generatedAt: report.generatedAt ?? new Date().toISOString() };
  const files = { json: join(dir, COMPARISON_FILES.json), markdown: join(dir, COMPARISON_FILES.markdown), html: join(dir, COMPARISON_FILES.html) };
  const json = {
    format: 'doctree.eval-comparison',
    version: 1,
    title: withTime.title,
    generated_at: withTime.generatedAt,
    ...(withTime.command !== undefined ? { command: withTime.command } : {}),
    notes: withTime.notes ?? [],
    runs: withTime.runs.map((r) => ({ dataset: r.dataset, config: r.config, ...(r.reportDir !== undefined ? { report_dir: r.reportDir } : {}), metrics: r.metrics })),
  };
  await writeFileAtomic(files.json, `${JSON.stringify(json, null, 2)}\n`);
  await writeFileAtomic(files.markdown, renderComparisonMarkdown(withTime));
  await writeFileAtomic(files.html, renderComparisonHtml(withTime));
  return files;
}
