import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DocTreeError } from '@doctree/schema';
import { writeSimplePdf } from '../pdf/simple-pdf-writer.js';
import { DOC_FILES, ingestFile } from './ingest-file.js';
import { errorFromJson, expandIngestInputs, fileConcurrency, ingestFiles, MAX_CONCURRENT_FILES } from './ingest-files.js';
import type { IngestFilesOutcome } from './ingest-files.js';

// From TypeScript sources there is no compiled worker script, so these runs read every file in this thread; the
// worker-thread path (files side by side) is checked on the built CLI in tools/workspace (ingest-files.spec.ts).

let work: string;
beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), 'doctree-ingest-files-'));
  writeFileSync(join(work, 'report.pdf'), writeSimplePdf([{ runs: [{ text: '1 Overview', x: 72, y: 90, size: 16, bold: true }, { text: 'Revenue rose in every region.', x: 72, y: 120 }] }]));
  writeFileSync(join(work, 'notes.md'), '# Notes\n\n## Sensors\n\nThe sensor line grew 12% in 2023.\n');
  writeFileSync(join(work, 'empty.pdf'), '%PDF-1.4\n%%EOF\n');
});
afterEach(() => rmSync(work, { recursive: true, force: true }));

async function collect(source: AsyncIterable<IngestFilesOutcome>): Promise<IngestFilesOutcome[]> {
  const out: IngestFilesOutcome[] = [];
  for await (const outcome of source) out.push(outcome);
  return out;
}

describe('ingestFiles', () => {
  it('yields one outcome per input in input order, a failing file among them, and writes what ingestFile writes', async () => {
    const inputs = ['report.pdf', 'empty.pdf', 'notes.md'].map((name) => join(work, name));
    const progress: number[] = [];
    const outcomes = await collect(ingestFiles(inputs, { outDir: join(work, 'out'), onProgress: (index) => progress.push(index) }));
    expect(outcomes.map((o) => [o.index, o.error?.code ?? o.result?.docId])).toEqual([
      [0, 'report'],
      [1, 'PDF_CORRUPT'],
      [2, 'notes'],
    ]);
    expect(outcomes[1]!.error!.file).toContain('empty.pdf');
    expect(new Set(progress)).toEqual(new Set([0, 1, 2]));
    expect(readdirSync(join(work, 'out')).sort()).toEqual(['notes', 'report']);
    // The same files as ingestFile on its own.
    await ingestFile(inputs[0]!, { outDir: join(work, 'single') });
    for (const name of [DOC_FILES.adapted, DOC_FILES.enhanced, DOC_FILES.tree]) {
      expect(readFileSync(join(work, 'out', 'report', name), 'utf8')).toBe(readFileSync(join(work, 'single', 'report', name), 'utf8'));
    }
  });

  it('refuses two inputs that would share a document folder before reading any', async () => {
    const error = await collect(ingestFiles([join(work, 'report.pdf'), join(work, 'sub', 'report.pdf')], { outDir: join(work, 'out') })).catch((e: unknown) => e);
    expect(DocTreeError.isInstance(error) && error.code).toBe('USAGE');
    expect(existsSync(join(work, 'out'))).toBe(false);
  });

  it('stops with CANCELLED when its signal is aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await collect(ingestFiles([join(work, 'notes.md')], { outDir: join(work, 'out'), signal: controller.signal })).catch((e: unknown) => e);
    expect(DocTreeError.isInstance(error) && error.code).toBe('CANCELLED');
  });

  it('reads at most one file per core, never more than there are files, and one at a time when one file is most of the set', () => {
    expect(fileConcurrency([100])).toBe(1);
    expect(fileConcurrency(Array(10).fill(100), 1)).toBe(1);
    expect(fileConcurrency([100, 100, 100], 8, () => undefined)).toBe(Math.min(3, availableParallelism()));
    expect(fileConcurrency(Array(100).fill(100))).toBe(Math.min(availableParallelism(), MAX_CONCURRENT_FILES));
    // A 500-page report with two short notes: on its own, with page workers.
    expect(fileConcurrency([9_000_000, 300_000, 200_000])).toBe(1);
    // Asked for explicitly, side by side all the same.
    expect(fileConcurrency([9_000_000, 300_000, 200_000], 2, () => undefined)).toBe(Math.min(2, availableParallelism()));
  });

  it('caps a requested concurrency at the cores with a warning (--jobs 1000 starts no 1 000 workers)', async () => {
    const cores = availableParallelism();
    const warnings: string[] = [];
    expect(fileConcurrency(Array(2000).fill(100), 1000, (m) => warnings.push(m))).toBe(cores);
    expect(warnings).toEqual([expect.stringMatching(new RegExp(`1000 files .*capped at ${cores}`))]);
    // Not lowered (as many files as cores or fewer): no warning.
    expect(fileConcurrency([100], 1000, (m) => warnings.push(m))).toBe(1);
    expect(warnings).toHaveLength(1);
    for (const bad of [0, -3, Number.NaN, Number.POSITIVE_INFINITY]) expect(() => fileConcurrency([100], bad)).toThrow(expect.objectContaining({ code: 'USAGE' }));
    // Through ingestFiles: the warning reaches onWarning when more files than cores are asked to run side by side.
    const inputs = Array.from({ length: cores + 1 }, (_, i) => {
      const path = join(work, `n${i}.md`);
      writeFileSync(path, `# Note ${i}\n\nText ${i}.\n`);
      return path;
    });
    const told: string[] = [];
    const outcomes = await collect(ingestFiles(inputs, { outDir: join(work, 'out'), concurrency: 1000, onWarning: (m) => told.push(m) }));
    expect(outcomes.every((o) => o.result)).toBe(true);
    expect(told).toEqual([expect.stringMatching(/capped at/)]);
  });

  it('rebuilds a DocTreeError sent by a worker thread from its JSON form', () => {
    const original = new DocTreeError('PDF_ENCRYPTED', 'a.pdf is encrypted', { file: 'a.pdf', page: 2, hint: 'Pass --password' });
    const rebuilt = errorFromJson(JSON.parse(JSON.stringify(original.toJSON())));
    expect(rebuilt.toOneLine()).toBe(original.toOneLine());
    expect(rebuilt.exitStatus).toBe(original.exitStatus);
  });
});

describe('expandIngestInputs', () => {
  it('keeps files and turns a folder into the PDFs, Markdown and content lists directly inside it, by name', () => {
    mkdirSync(join(work, 'nested'));
    writeFileSync(join(work, 'nested', 'deeper.pdf'), '%PDF-1.4\n');
    writeFileSync(join(work, 'a_content_list.json'), '[]');
    writeFileSync(join(work, 'readme.txt'), 'not ingestible');
    expect(expandIngestInputs([work]).map((path) => path.slice(work.length + 1))).toEqual(['a_content_list.json', 'empty.pdf', 'notes.md', 'report.pdf']);
    expect(expandIngestInputs([join(work, 'notes.md'), join(work, 'nested')])).toEqual([join(work, 'notes.md'), join(work, 'nested', 'deeper.pdf')]);
  });

  it('names a missing path and a folder with nothing to ingest', () => {
    mkdirSync(join(work, 'bare'));
    const missing = (() => { try { expandIngestInputs([join(work, 'nope.pdf')]); } catch (e) { return e; } return undefined; })();
    expect(DocTreeError.isInstance(missing) && [missing.code, missing.file]).toEqual(['INPUT_NOT_FOUND', join(work, 'nope.pdf')]);
    expect(() => expandIngestInputs([join(work, 'bare')])).toThrow(/no PDF, Markdown or content_list\.json/);
  });
});
