import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run } from '../main.js';
import { captureIo } from '../__fixtures__/capture-io.js';

const SAMPLE_PDF = join(__dirname, '../../../../data/samples/northwind-annual-report-2023.pdf');
const OUTPUTS = ['content_list.adapted.json', 'content_list.enhanced.json', 'doctree.mm.json'];

describe('doctree ingest', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'doctree-cli-ingest-'));
    copyFileSync(SAMPLE_PDF, join(dir, 'northwind.pdf'));
    writeFileSync(join(dir, 'notes.md'), '# Field notes\n\n## Sensors\n\nThe sensor line grew 12% in 2023.\n');
    writeFileSync(join(dir, 'broken.pdf'), '%PDF-1.7\nthis is not really a PDF\n');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('ingests several files in one run, reports the one that fails by name and still writes the others', async () => {
    const io = captureIo(dir);
    const status = await run(['ingest', 'northwind.pdf', 'broken.pdf', 'notes.md', '--out', 'out'], io);
    expect(status).not.toBe(0);
    expect(readdirSync(join(dir, 'out')).sort()).toEqual(['northwind', 'notes']);
    for (const doc of ['northwind', 'notes']) for (const name of OUTPUTS) expect(existsSync(join(dir, 'out', doc, name))).toBe(true);
    expect(io.out).toMatch(/Ingested \S*northwind\.pdf -> /);
    expect(io.out).toMatch(/Ingested \S*notes\.md -> /);
    expect(io.out).toMatch(/Ingested 2 of 3 files \(1 failed, see above\)/);
    expect(io.err).toMatch(/^doctree: \[PDF_CORRUPT\] .*broken\.pdf/m);
    expect(io.err).not.toMatch(/\n\s+at /);
  });

  it('prints one JSON entry per input with --json, errors included', async () => {
    const io = captureIo(dir);
    expect(await run(['ingest', 'notes.md', 'broken.pdf', '--out', 'out', '--json'], io)).not.toBe(0);
    const entries = JSON.parse(io.out) as Array<{ input: string; summary?: { pages: number }; error?: { code: string } }>;
    expect(entries.map((entry) => [entry.input.split('/').pop(), entry.error?.code])).toEqual([
      ['notes.md', undefined],
      ['broken.pdf', 'PDF_CORRUPT'],
    ]);
    expect(entries[0]!.summary!.pages).toBeGreaterThan(0);
  });

  it('refuses --doc-id with several files, and two files that would share a document folder, before writing anything', async () => {
    mkdirSync(join(dir, 'other'));
    copyFileSync(SAMPLE_PDF, join(dir, 'other', 'northwind.pdf'));
    for (const args of [
      ['ingest', 'northwind.pdf', 'notes.md', '--doc-id', 'x', '--out', 'out'],
      ['ingest', 'northwind.pdf', 'other/northwind.pdf', '--out', 'out'],
    ]) {
      const io = captureIo(dir);
      expect(await run(args, io)).toBe(2);
      expect(io.err).toMatch(/^doctree: \[USAGE\]/);
      expect(existsSync(join(dir, 'out'))).toBe(false);
    }
  });

  it('takes a folder for the files inside it', async () => {
    const io = captureIo(dir);
    expect(await run(['ingest', '.', '--out', 'out'], io)).not.toBe(0);
    expect(readdirSync(join(dir, 'out')).sort()).toEqual(['northwind', 'notes']);
    expect(io.out).toMatch(/Ingested 2 of 3 files \(1 failed, see above\)/);
    expect(io.err).toMatch(/broken\.pdf/);
  });

  it('caps --jobs at the cores and says so on stderr as a warning line', async () => {
    // More files than cores, so that the cap lowers how many run at once on any machine.
    const count = availableParallelism() + 2;
    for (let i = 0; i < count; i++) writeFileSync(join(dir, `part-${i}.md`), `# Part ${i}\n\nThe part ${i} line grew ${i}% in 2023.\n`);
    const io = captureIo(dir);
    const files = Array.from({ length: count }, (_, i) => `part-${i}.md`);
    expect(await run(['ingest', ...files, '--out', 'out', '--jobs', '1000'], io)).toBe(0);
    expect(io.err).toMatch(/^warning: .*1000/m);
    expect(io.err).not.toMatch(/\(node:\d+\)/);
  });

  it('asks for an input when none is given', async () => {
    const io = captureIo(dir);
    expect(await run(['ingest'], io)).toBe(2);
    expect(io.err).toMatch(/ingest needs an input file/);
  });
});
