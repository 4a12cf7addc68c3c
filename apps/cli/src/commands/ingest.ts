import { basename, join } from 'node:path';
import { docIdFromFilename, ingestFile, ingestFiles, ingestLimitsFromConfig, ingestOcrFromConfig, type IngestedFile, type IngestResult } from '@doctree/ingest';
import { assertOutputTarget, escapeControlChars, isInsideFolder, realPathOf, reportCommandFailure } from '@doctree/pipeline/command';
import { DocTreeError, type IngestLimitsConfig, type IngestOcrConfig } from '@doctree/schema';
import type { CliIo } from '../cli-context.js';
import { createProgress } from '../progress.js';

export { expandIngestInputs } from '@doctree/ingest';

/** Options of the `doctree ingest` command. */
export interface IngestCommandOptions {
  input: string;
  outDir: string;
  docId?: string;
  password?: string;
  middle?: string;
  report: boolean;
  json: boolean;
  /** Resource limits (`ingest.limits` of the configuration); default the built-in ones. */
  limits?: IngestLimitsConfig;
  /** OCR of pages without a text layer (`ingest.ocr` of the configuration); default the built-in settings. */
  ocr?: IngestOcrConfig;
}

/** Options of {@link ingestFilesCommand}: those of {@link IngestCommandOptions} for several inputs (no `docId`, `middle`). */
export interface IngestFilesCommandOptions extends Omit<IngestCommandOptions, 'input' | 'docId' | 'middle'> {
  inputs: string[];
  /** Files read at the same time (`ingestFiles`' `concurrency`); default `'auto'` (one per core). */
  jobs?: number | 'auto';
}

/**
 * Refuses an ingest that would write over what it reads: `--out` equal to an input or inside a document folder, or
 * an input (or `--middle`) inside the document folder it is ingested into (`<out>/<doc_id>/`).
 *
 * @throws DocTreeError `USAGE` naming the file, with a hint.
 */
export function assertIngestOutputs(outDir: string, inputs: readonly string[], options: { given?: readonly string[]; middle?: string; docId?: string } = {}): void {
  const middle = options.middle !== undefined ? [options.middle] : [];
  assertOutputTarget({ option: '--out', target: outDir, inputs: [...(options.given ?? []), ...inputs, ...middle], example: '--out data/default' });
  for (const input of inputs) {
    const docDir = join(outDir, (inputs.length === 1 ? options.docId : undefined) ?? docIdFromFilename(basename(input)));
    for (const read of [input, ...middle]) {
      if (isInsideFolder(realPathOf(read), realPathOf(docDir))) {
        throw new DocTreeError('USAGE', `${read} lies inside ${docDir}, the document folder ingest writes; it would be overwritten`, {
          file: read,
          hint: 'Copy the input out of the document folder first, or ingest into another --out folder (or with another --doc-id).',
        });
      }
    }
  }
}

/**
 * Runs `doctree ingest` on several files with `ingestFiles` (one process; with two cores or more, files are read side
 * by side, each by one thread). A file that fails is reported (one line on stderr, or an `{ input, error }` entry with
 * `--json`) and the others are still written; returns the exit status of the first failure, or 0.
 */
export async function ingestFilesCommand(io: CliIo, options: IngestFilesCommandOptions): Promise<number> {
  const { inputs } = options;
  const progress = createProgress(io);
  let finished = 0;
  const pages = new Map<number, string>();
  const outcomes = ingestFiles(inputs, {
    outDir: options.outDir,
    report: options.report,
    ...(options.limits ? ingestLimitsFromConfig(options.limits) : {}),
    ...(options.ocr ? ingestOcrFromConfig(options.ocr) : {}),
    concurrency: options.jobs ?? 'auto',
    ...(options.password ? { password: options.password } : {}),
    // A capped --jobs is said on stderr like the command's other notes (not as a Node process warning).
    onWarning: (message) => io.stderr(`warning: ${escapeControlChars(message)}\n`),
    onProgress: (index, event) => {
      if (event.stage === 'adapt') pages.set(index, `${escapeControlChars(basename(inputs[index]!))} p.${event.done}/${event.total}`);
      progress.update(`[ingest ${finished}/${inputs.length} done] ${[...pages.values()].join(', ')}`);
    },
  });
  let status = 0;
  let failed = 0;
  const entries: unknown[] = [];
  try {
    for await (const outcome of outcomes) {
      finished++;
      pages.delete(outcome.index);
      progress.done();
      if (outcome.error) {
        failed++;
        const exitStatus = reportCommandFailure(outcome.error, options.json ? { ...io, stdout: () => undefined } : io, { program: 'doctree', json: false });
        if (status === 0) status = exitStatus;
        entries.push({ input: outcome.input, error: outcome.error.toJSON() });
      } else if (options.json) {
        entries.push({ input: outcome.input, ...ingestJson(outcome.result) });
      } else {
        io.stdout(formatIngestSummary(outcome.input, outcome.result));
      }
    }
  } finally {
    progress.done();
  }
  if (options.json) io.stdout(`${JSON.stringify(entries, null, 2)}\n`);
  else io.stdout(`Ingested ${inputs.length - failed} of ${inputs.length} files${failed ? ` (${failed} failed, see above)` : ''}\n`);
  return status;
}

/** Runs `doctree ingest` and prints the summary; returns the result for composition. */
export async function ingestCommand(io: CliIo, options: IngestCommandOptions): Promise<IngestResult> {
  const progress = createProgress(io);
  const result = await ingestFile(options.input, {
    outDir: options.outDir,
    report: options.report,
    ...(options.limits ? ingestLimitsFromConfig(options.limits) : {}),
    ...(options.ocr ? ingestOcrFromConfig(options.ocr) : {}),
    ...(options.docId ? { docId: options.docId } : {}),
    ...(options.password ? { password: options.password } : {}),
    ...(options.middle ? { middlePath: options.middle } : {}),
    onProgress: (event) => {
      if (event.stage === 'adapt') progress.update(`[ingest] page ${event.done}/${event.total}`);
      else progress.update(`[ingest] ${event.stage}`);
    },
  }).finally(() => progress.done());
  if (options.json) {
    io.stdout(`${JSON.stringify(ingestJson(result), null, 2)}\n`);
    return result;
  }
  io.stdout(formatIngestSummary(options.input, result));
  return result;
}

/** What `doctree ingest --json` prints for one file. */
function ingestJson(result: IngestedFile): { doc_dir: string; files: IngestedFile['files']; summary: IngestedFile['summary'] } {
  return { doc_dir: result.docDir, files: result.files, summary: result.summary };
}

/** Warnings listed first in the summary: resource limits that were hit, and a document folder that was replaced. */
const FIRST_WARNINGS: ReadonlySet<string> = new Set(['DOC_REPLACED', 'OCR_CAPPED', 'IMAGE_TOO_LARGE']);

/** The summary `doctree ingest` prints for one file. */
export function formatIngestSummary(input: string, result: IngestedFile): string {
  const s = result.summary;
  const levels = Object.entries(s.sections_by_level)
    .map(([level, n]) => `L${level}: ${n}`)
    .join(', ');
  const lines = [
    `Ingested ${escapeControlChars(input)} -> ${escapeControlChars(result.docDir)}`,
    `  pages ${s.pages}${s.pages_without_text ? ` (${s.pages_without_text} without text)` : ''}, sections ${levels || 'none'}`,
    `  paragraphs ${s.paragraphs}, lists ${s.lists}, tables ${s.tables}, figures ${s.figures}, captions ${s.captions}, equations ${s.equations}, resolved references ${s.references_resolved}`,
    `  enhancer: ${s.enhancer.filter((r) => r.changed > 0).map((r) => `${r.name} ${r.changed}`).join(', ') || 'no changes'}`,
    `  time: adapt ${s.timings_ms.adapt} ms${s.ocr ? ` (OCR of ${s.ocr.pages} page(s): ${s.ocr.ms} ms, ${s.ocr.read} read${s.ocr.failed ? `, ${s.ocr.failed} failed` : ''})` : ''}, enhance ${s.timings_ms.enhance} ms, build ${s.timings_ms.build} ms, write ${s.timings_ms.write} ms`,
  ];
  if (s.warnings.length > 0) {
    lines.push(`  warnings (${s.warnings.length}):`);
    // A limit that was hit or a document replaced is always shown, ahead of the per-page notes.
    const shown = [...s.warnings.filter((w) => FIRST_WARNINGS.has(w.code)), ...s.warnings.filter((w) => !FIRST_WARNINGS.has(w.code))];
    for (const w of shown.slice(0, 10)) lines.push(`    - [${w.code}]${w.page_idx !== undefined ? ` p.${w.page_idx + 1}` : ''} ${w.message}`);
    if (s.warnings.length > 10) lines.push(`    … ${s.warnings.length - 10} more (see --json)`);
  }
  if (result.files.report) lines.push(`  page report: ${escapeControlChars(result.files.report)}`);
  // Warnings quote document text: control characters are escaped so they cannot drive the terminal.
  return `${escapeControlChars(lines.join('\n'), { keepLayout: true })}\n`;
}
