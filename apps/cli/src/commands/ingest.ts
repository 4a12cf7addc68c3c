import { basename } from 'node:path';
import { docIdFromFilename, ingestFile, type IngestResult } from '@doctree/ingest';
import { DocTreeError } from '@doctree/schema';
import { reportCommandFailure } from '@doctree/pipeline';
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

/** Options of {@link ingestFilesCommand}: those of {@link IngestCommandOptions} for several inputs (no `docId`, `middle`). */
export interface IngestFilesCommandOptions extends Omit<IngestCommandOptions, 'input' | 'docId' | 'middle'> {
  inputs: string[];
}

/**
 * Runs `doctree ingest` on several files, one after the other in this process (pdf.js and the JIT stay warm, so a set
 * of PDFs ingests faster than one process per file). A file that fails is reported (one line on stderr, or an
 * `{ input, error }` entry with `--json`) and the others still run; returns the exit status of the first failure, or 0.
 */
export async function ingestFilesCommand(io: CliIo, options: IngestFilesCommandOptions): Promise<number> {
  const { inputs, ...rest } = options;
  const seen = new Map<string, string>();
  for (const input of inputs) {
    const docId = docIdFromFilename(input);
    const other = seen.get(docId);
    if (other !== undefined) {
      throw new DocTreeError('USAGE', `${other} and ${input} would both be written to the document folder ${docId}`, {
        file: input,
        hint: 'Ingest one of them on its own with --doc-id, or give it another file name.',
      });
    }
    seen.set(docId, input);
  }
  let status = 0;
  const entries: unknown[] = [];
  for (const [i, input] of inputs.entries()) {
    try {
      const result = await ingestCommand(io, { ...rest, input, json: false, quiet: options.json, label: `${i + 1}/${inputs.length} ${basename(input)}` });
      entries.push({ input, doc_dir: result.docDir, files: result.files, summary: result.summary });
    } catch (error) {
      const exitStatus = reportCommandFailure(error, options.json ? { ...io, stdout: () => undefined } : io, { program: 'doctree', json: false });
      entries.push({ input, error: (error as { toJSON?: () => unknown }).toJSON?.() ?? String(error) });
      if (status === 0) status = exitStatus;
    }
  }
  if (options.json) io.stdout(`${JSON.stringify(entries, null, 2)}\n`);
  else if (inputs.length > 1) {
    const failed = entries.filter((entry) => (entry as { error?: unknown }).error !== undefined).length;
    io.stdout(`Ingested ${inputs.length - failed} of ${inputs.length} files${failed ? ` (${failed} failed, see above)` : ''}\n`);
  }
  return status;
}

/** Runs `doctree ingest` and prints the summary; returns the result for composition. */
export async function ingestCommand(io: CliIo, options: IngestCommandOptions & { quiet?: boolean; label?: string }): Promise<IngestResult> {
  const progress = createProgress(io);
  const tag = options.label ? `[ingest ${options.label}]` : '[ingest]';
  const result = await ingestFile(options.input, {
    outDir: options.outDir,
    report: options.report,
    ...(options.docId ? { docId: options.docId } : {}),
    ...(options.password ? { password: options.password } : {}),
    ...(options.middle ? { middlePath: options.middle } : {}),
    onProgress: (event) => {
      if (event.stage === 'adapt') progress.update(`${tag} page ${event.done}/${event.total}`);
      else progress.update(`${tag} ${event.stage}`);
    },
  }).finally(() => progress.done());
  if (options.quiet) return result;
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
