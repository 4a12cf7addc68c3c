import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { writeSimplePdf } from '@doctree/ingest';
import { CollectionManifestSchema, resolveConfig, type CollectionManifest } from '@doctree/schema';
import { Collection } from './collection.js';
import { COLLECTION_FILES } from './file-collection-store.js';

// A real process is killed with SIGKILL in the middle of a sync; the child runs the TypeScript sources through
// __fixtures__/ts-source-register.mjs (no build needed). Start-up of that child is slow on a loaded machine.
jest.setTimeout(400_000);

const packageDir = join(__dirname, '..', '..');
const overrides = (dir: string) => ({ data_dir: join(dir, 'data'), embedder: { kind: 'hashing' as const }, index: { backend: 'exact' as const } });
const config = (dir: string) => resolveConfig({ overrides: overrides(dir) }).config;

const report = (company: string, year: number, topic: string, figure: string) =>
  `<!-- page 1 -->\n\n# ${company} Annual Report ${year}\n\n## Overview\n\n${company} makes ${topic}.\n\n<!-- page 2 -->\n\n## Results\n\nRevenue of ${company} was ${figure} in ${year}.\n\n<!-- page 3 -->\n\n## Liquidity\n\n${company} held cash of $4.1 million at the end of ${year}.\n`;

const pdf = (title: string, pages: number) =>
  writeSimplePdf(
    Array.from({ length: pages }, (_, i) => ({ runs: [{ text: `${title} — part ${i + 1}`, x: 72, y: 90, size: 16, bold: true }, ...Array.from({ length: 12 }, (_, j) => ({ text: `${title} line ${j + 1} of part ${i + 1}: granite, timber and freight volumes by region.`, x: 72, y: 130 + j * 16, size: 11 }))] })),
    { title },
  );

/** What must be the same for a document however it was built: its row (without times and build ids) and its index files. */
function documentsOf(dir: string): Map<string, unknown> {
  const manifest: CollectionManifest = CollectionManifestSchema.parse(JSON.parse(readFileSync(join(dir, COLLECTION_FILES.manifest), 'utf8')));
  return new Map(
    manifest.documents.map((d) => {
      const index = JSON.parse(readFileSync(join(dir, 'docs', d.doc_id, d.build_id, 'index', 'manifest.json'), 'utf8')) as { artifacts: Array<{ name: string; sha256: string; records?: number }>; doctree_sha256: string; source_sha256: string };
      return [
        d.doc_id,
        {
          row: { path: d.path, kind: d.kind, sha256: d.sha256, size: d.size, pages: d.pages, warnings: d.ingest_warnings, description: d.description, metadata: d.metadata },
          tree: index.doctree_sha256,
          source: index.source_sha256,
          artifacts: index.artifacts.map((a) => ({ name: a.name, sha256: a.sha256, records: a.records })),
          selection: JSON.parse(readFileSync(join(dir, 'docs', d.doc_id, d.build_id, 'selection.json'), 'utf8')) as unknown,
        },
      ];
    }),
  );
}

describe('Collection sync killed with SIGKILL', () => {
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('leaves the last committed state readable, and the rerun gives the same manifest rows and index files as a clean build', async () => {
    dir = mkdtempSync(join(tmpdir(), 'doctree-collection-kill-'));
    const input = join(dir, 'input');
    const out = join(dir, 'collection');
    mkdirSync(input);
    writeFileSync(join(input, 'Harbor_2022_10K.md'), report('Harbor Tools', 2022, 'cordless drills', '$48.2 million'));
    writeFileSync(join(input, 'Lumen_2023_10K.md'), report('Lumen Optics', 2023, 'camera lenses', '$12.9 million'));
    await (await Collection.open(out, { config: config(dir) })).ingest({ inputDir: input, workers: 1 });
    const untouched = join(out, 'docs', 'harbor_2022_10k', readdirSync(join(out, 'docs', 'harbor_2022_10k'))[0]!);
    const untouchedMtimes = readdirSync(join(untouched, 'index')).map((f) => statSync(join(untouched, 'index', f)).mtimeMs);

    // Changes for the sync: a modified file, a deleted one, several new ones (PDFs big enough that the kill lands mid-build).
    writeFileSync(join(input, 'Lumen_2023_10K.md'), report('Lumen Optics', 2023, 'camera lenses', '$13.4 million'));
    writeFileSync(join(input, 'Fjord_2020_10Q.md'), report('Fjord Shipping', 2020, 'ferry tickets', '$3.3 million'));
    for (const name of ['Quarry_2021', 'Timber_2019', 'Freight_2018']) writeFileSync(join(input, `${name}.pdf`), pdf(`${name.split('_')[0]} Annual Review`, 12));
    const committed = readFileSync(join(out, COLLECTION_FILES.manifest), 'utf8');

    // The child syncs and says when the first document landed; it is killed right then, with the others in flight.
    const script = join(dir, 'sync-child.mjs');
    writeFileSync(
      script,
      `const { Collection } = await import(${JSON.stringify(pathToFileURL(join(packageDir, 'src', 'index.ts')).href)});
const { resolveConfig } = await import(${JSON.stringify(pathToFileURL(join(packageDir, '..', 'schema', 'src', 'index.ts')).href)});
const config = resolveConfig({ overrides: ${JSON.stringify(overrides(dir))} }).config;
const collection = await Collection.open(${JSON.stringify(out)}, { config });
await collection.sync({ workers: 1, onProgress: (e) => { if (e.stage === 'landed') process.stdout.write('landed ' + e.doc_id + '\\n'); } });
process.stdout.write('finished\\n');
`,
    );
    const child = spawn(process.execPath, ['--conditions=@doctree/source', '--import', join(__dirname, '__fixtures__', 'ts-source-register.mjs'), script], { cwd: packageDir, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const first = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => resolve(chunk.toString()));
      child.once('exit', (code) => reject(new Error(`the sync child exited (${String(code)}) before a document landed: ${stderr.slice(-2000)}`)));
    });
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    expect(first).toMatch(/^landed /);

    // The last committed state is readable: a valid manifest naming whole documents; the killed writer's lock is left.
    const afterKill = documentsOf(out);
    expect(afterKill.size).toBeGreaterThanOrEqual(2);
    expect(readFileSync(join(out, COLLECTION_FILES.manifest), 'utf8')).not.toBe(committed);
    expect(existsSync(join(out, COLLECTION_FILES.lock))).toBe(true);
    const pending = await (await Collection.open(out, { config: config(dir) })).status();
    expect(pending.pending).toBeGreaterThan(0);

    // The rerun takes over the lock and finishes; the untouched document was never rebuilt.
    const rerun = await (await Collection.open(out, { config: config(dir) })).sync({ workers: 1 });
    expect(rerun.failed).toEqual([]);
    expect(rerun.unchanged).toContain('harbor_2022_10k');
    expect(readdirSync(join(untouched, 'index')).map((f) => statSync(join(untouched, 'index', f)).mtimeMs)).toEqual(untouchedMtimes);
    expect(readdirSync(join(out, COLLECTION_FILES.staging))).toEqual([]);
    expect(existsSync(join(out, COLLECTION_FILES.lock))).toBe(false);
    for (const id of readdirSync(join(out, 'docs'))) expect(readdirSync(join(out, 'docs', id))).toHaveLength(1);

    const clean = join(dir, 'clean');
    await (await Collection.open(clean, { config: config(dir) })).ingest({ inputDir: input, workers: 1 });
    const resumed = documentsOf(out);
    expect([...resumed.keys()].sort()).toEqual(['fjord_2020_10q', 'freight_2018', 'harbor_2022_10k', 'lumen_2023_10k', 'quarry_2021', 'timber_2019']);
    expect(Object.fromEntries(resumed)).toEqual(Object.fromEntries(documentsOf(clean)));
  });
});
