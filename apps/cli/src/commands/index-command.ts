import { describeIndex, prepareDocument, type IndexReport, type PrepareProgress } from '@doctree/pipeline';
import { escapeControlChars, explainCacheFailure } from '@doctree/pipeline/command';
import type { CliConfig, CliIo } from '../cli-context.js';
import { createProgress } from '../progress.js';

/** Options of the `doctree index` command. */
export interface IndexCommandOptions {
  /** A document folder (holding `doctree.mm.json`) or a PDF / content_list.json / Markdown file. */
  input: string;
  /** Dataset folder for a file input (`<outDir>/<doc_id>/`). */
  outDir: string;
  /** Cache folder of LLM summaries and `openai` embeddings (`<data_dir>/.cache`). */
  cacheDir: string;
  /** Rebuild even when the manifest matches (and ingest a file input again). */
  force: boolean;
  json: boolean;
  /** Password of an encrypted PDF input. */
  password?: string;
}

const kb = (bytes: number): string => (bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${(bytes / 1024).toFixed(1)} KB`);

/** One progress line of preparing a document (ingest, index, load), shared by `doctree index` and `doctree ask`. */
export function progressText(event: PrepareProgress): string {
  switch (event.stage) {
    case 'ingest':
      return event.event.stage === 'adapt' ? `[ingest] page ${event.event.done}/${event.event.total}` : `[ingest] ${event.event.stage}`;
    case 'ingest-cached':
      return '[ingest] up to date';
    case 'index': {
      const e = event.event;
      if (e.stage === 'summaries') return `[index] summaries ${e.done}/${e.total}`;
      if (e.stage === 'embed') return `[index] embed ${e.view} ${e.done}/${e.total}`;
      return `[index] ${e.stage}`;
    }
    case 'index-repair':
      return '[index] damaged, rebuilding';
    case 'load':
      return '[index] loading';
  }
}

/** Human-readable summary of an index report. */
export function formatIndexReport(report: IndexReport): string {
  const build = report.timingsMs.build;
  const lines = [
    report.rebuilt
      ? `Indexed ${escapeControlChars(report.docDir)}${report.repaired ? ' (the previous index was damaged and has been rebuilt)' : ''}`
      : `Index of ${escapeControlChars(report.docDir)} is up to date: nothing rebuilt (built ${report.builtAt})`,
    `  ${report.pages} pages, ${report.ingested ? 'ingested now' : 'tree reused'}; embedder ${report.embedder.id} (d=${report.embedder.dimension}), vector backend ${report.vectorBackend}`,
    `  records: ${Object.entries(report.records)
      .map(([file, n]) => `${file} ${n}`)
      .join(', ')}`,
    `  vectors: ${Object.entries(report.vectors)
      .map(([view, n]) => `${view} ${n}`)
      .join(', ')}`,
    `  bytes: ${kb(report.bytes.total)} in ${Object.keys(report.bytes.files).length} files (${kb(report.bytes.perPage)} per page)`,
    `  summaries: ${report.summaries.method}${report.summaries.requests !== undefined ? ` (${report.summaries.requests} requests, ${report.summaries.cacheHits} cached, ${report.summaries.fallbacks} fell back to extractive)` : ''}`,
    `  time: ingest ${report.timingsMs.ingest} ms, index ${report.timingsMs.index} ms, load ${report.timingsMs.load} ms, total ${report.timingsMs.total} ms`,
  ];
  if (report.rebuilt) lines.push(`  build steps: ${Object.entries(build).map(([step, ms]) => `${step} ${ms} ms`).join(', ')}`);
  if ((report.summaries.fallbacks ?? 0) > 0) lines.push('  some gists are extractive after model errors; run again with --force to retry them (answered gists are cached)');
  return `${escapeControlChars(lines.join('\n'), { keepLayout: true })}\n`;
}

/** Runs `doctree index`: prepares the document (ingest when needed, incremental build, load) and prints the summary. */
export async function indexCommand(io: CliIo, config: CliConfig, options: IndexCommandOptions): Promise<IndexReport> {
  const progress = createProgress(io);
  const prepared = await prepareDocument(options.input, {
    config: config.config,
    outDir: options.outDir,
    cacheDir: options.cacheDir,
    force: options.force,
    ...(options.password !== undefined ? { password: options.password } : {}),
    onProgress: (event) => progress.update(progressText(event)),
    onWarning: (message) => {
      progress.done();
      io.stderr(`warning: ${escapeControlChars(message)}\n`);
    },
  })
    .catch((error: unknown) => {
      throw explainCacheFailure(error, options.cacheDir);
    })
    .finally(() => progress.done());
  const report = await describeIndex(prepared);
  io.stdout(options.json ? `${JSON.stringify(config.redact(report), null, 2)}\n` : formatIndexReport(report));
  return report;
}
