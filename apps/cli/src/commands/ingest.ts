import { ingestFile, type IngestResult } from '@doctree/ingest';
import type { CliIo } from '../cli-context.js';
import { createProgress } from '../progress.js';

/** Options of the `doctree ingest` command. */
export interface IngestCommandOptions {
  input: string;
  outDir: string;
  docId?: string;
  password?: string;
  middle?: string;
  report: boolean;
  json: boolean;
}

/** Runs `doctree ingest` and prints the summary; returns the result for composition. */
export async function ingestCommand(io: CliIo, options: IngestCommandOptions): Promise<IngestResult> {
  const progress = createProgress(io);
  const result = await ingestFile(options.input, {
    outDir: options.outDir,
    report: options.report,
    ...(options.docId ? { docId: options.docId } : {}),
    ...(options.password ? { password: options.password } : {}),
    ...(options.middle ? { middlePath: options.middle } : {}),
    onProgress: (event) => {
      if (event.stage === 'adapt') progress.update(`[ingest] page ${event.done}/${event.total}`);
      else progress.update(`[ingest] ${event.stage}`);
    },
  }).finally(() => progress.done());
  if (options.json) {
    io.stdout(`${JSON.stringify({ doc_dir: result.docDir, files: result.files, summary: result.summary }, null, 2)}\n`);
    return result;
  }
  const s = result.summary;
  const levels = Object.entries(s.sections_by_level)
    .map(([level, n]) => `L${level}: ${n}`)
    .join(', ');
  const lines = [
    `Ingested ${options.input} -> ${result.docDir}`,
    `  pages ${s.pages}${s.pages_without_text ? ` (${s.pages_without_text} without text)` : ''}, sections ${levels || 'none'}`,
    `  paragraphs ${s.paragraphs}, lists ${s.lists}, tables ${s.tables}, figures ${s.figures}, captions ${s.captions}, equations ${s.equations}, resolved references ${s.references_resolved}`,
    `  enhancer: ${s.enhancer.filter((r) => r.changed > 0).map((r) => `${r.name} ${r.changed}`).join(', ') || 'no changes'}`,
    `  time: adapt ${s.timings_ms.adapt} ms, enhance ${s.timings_ms.enhance} ms, build ${s.timings_ms.build} ms, write ${s.timings_ms.write} ms`,
  ];
  if (s.warnings.length > 0) {
    lines.push(`  warnings (${s.warnings.length}):`);
    for (const w of s.warnings.slice(0, 10)) lines.push(`    - [${w.code}]${w.page_idx !== undefined ? ` p.${w.page_idx + 1}` : ''} ${w.message}`);
    if (s.warnings.length > 10) lines.push(`    … ${s.warnings.length - 10} more (see --json)`);
  }
  if (result.files.report) lines.push(`  page report: ${result.files.report}`);
  io.stdout(`${lines.join('\n')}\n`);
  return result;
}
