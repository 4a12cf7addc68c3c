import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeSimplePdf } from '@doctree/ingest';
import { HashingEmbedder } from '@doctree/index';
import { CollectionManifestSchema, CollectionStatusReportSchema, CollectionSyncReportSchema, DocTreeError, PageIndexDocumentSchema, resolveConfig } from '@doctree/schema';
import { Collection } from './collection.js';
import { COLLECTION_FILES } from './file-collection-store.js';

jest.setTimeout(120_000);

const config = (dir: string) => resolveConfig({ overrides: { data_dir: join(dir, 'data'), embedder: { kind: 'hashing' }, index: { backend: 'exact' } } }).config;

const report = (company: string, year: number, topic: string, figure: string) => `<!-- page 1 -->

# ${company} Annual Report ${year}

## Overview

${company} makes ${topic}. This report covers the fiscal year ${year}.

<!-- page 2 -->

## Results of operations

Revenue of ${company} was ${figure} in ${year}, driven by ${topic} sales in Europe and Asia.

<!-- page 3 -->

## Liquidity

${company} held cash of $4.1 million at the end of ${year} and has no debt.
`;

function pdfReport(title: string, lines: string[]): Uint8Array {
  return writeSimplePdf(
    [
      { runs: [{ text: title, x: 72, y: 90, size: 18, bold: true }, ...lines.map((text, i) => ({ text, x: 72, y: 130 + i * 16, size: 11 }))] },
      { runs: [{ text: 'Outlook', x: 72, y: 90, size: 16, bold: true }, { text: `${title} expects steady demand next year.`, x: 72, y: 130, size: 11 }] },
    ],
    { title },
  );
}

/** The rows of a manifest that stay the same for an untouched document. */
const stable = (dir: string) =>
  new Map(CollectionManifestSchema.parse(JSON.parse(readFileSync(join(dir, COLLECTION_FILES.manifest), 'utf8'))).documents.map((d) => [d.doc_id, { build_id: d.build_id, indexed_at: d.indexed_at, sha256: d.sha256 }]));

describe('Collection', () => {
  let dir: string;
  let input: string;
  let out: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'doctree-collection-'));
    input = join(dir, 'input');
    out = join(dir, 'collection');
    mkdirSync(input);
    writeFileSync(join(input, 'Harbor_2022_10K.md'), report('Harbor Tools', 2022, 'cordless drills', '$48.2 million'));
    writeFileSync(join(input, 'Lumen_2023_10K.md'), report('Lumen Optics', 2023, 'camera lenses', '$12.9 million'));
    writeFileSync(join(input, 'Quarry_2021.pdf'), pdfReport('Quarry Stoneworks Annual Review', ['Quarry Stoneworks cut granite for bridges in 2021.', 'Revenue was $7.5 million.']));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('ingests a folder in one run: every document lands with its row, metadata, description and selection data', async () => {
    const collection = await Collection.open(out, { config: config(dir) });
    const result = CollectionSyncReportSchema.parse(await collection.ingest({ inputDir: input }));
    expect(result.added.sort()).toEqual(['harbor_2022_10k', 'lumen_2023_10k', 'quarry_2021']);
    expect(result.failed).toEqual([]);
    const manifest = CollectionManifestSchema.parse(await collection.manifest());
    const harbor = manifest.documents.find((d) => d.doc_id === 'harbor_2022_10k')!;
    expect(harbor).toMatchObject({ path: 'Harbor_2022_10K.md', kind: 'markdown', pages: 3, metadata: { company: 'Harbor', year: 2022, form: '10-K' } });
    expect(harbor.description).toContain('Harbor');
    expect(manifest.documents.find((d) => d.doc_id === 'quarry_2021')).toMatchObject({ kind: 'pdf', pages: 2, metadata: { company: 'Quarry', year: 2021 } });
    expect(manifest.embedder?.id).toMatch(/^hashing/);
    // Each committed document is one version folder with its tree, index and selection data; no staging is left.
    for (const d of manifest.documents) {
      const docDir = join(out, 'docs', d.doc_id, d.build_id);
      for (const file of ['doctree.mm.json', 'index/manifest.json', 'selection.json']) expect(existsSync(join(docDir, file))).toBe(true);
    }
    expect(readdirSync(join(out, COLLECTION_FILES.staging))).toEqual([]);
    expect(existsSync(join(out, COLLECTION_FILES.lock))).toBe(false);
  });

  it('builds with the OCR settings of its configuration (ingest.ocr), in its build workers too', async () => {
    writeFileSync(join(input, 'Slides_2022.pdf'), writeSimplePdf([{ runs: [{ text: 'Slides of the year', x: 72, y: 90, size: 24 }] }, { runs: [], shapes: [{ kind: 'rect', x: 72, y: 140, width: 300, height: 60, gray: 0.2 }] }]));
    const off = resolveConfig({ overrides: { data_dir: join(dir, 'data'), embedder: { kind: 'hashing' }, index: { backend: 'exact' } }, file: { ingest: { ocr: { enabled: false } } } }).config;
    const collection = await Collection.open(out, { config: off });
    expect((await collection.ingest({ inputDir: input, workers: 2 })).failed).toEqual([]);
    const slides = (await collection.manifest())!.documents.find((d) => d.doc_id === 'slides_2022')!;
    expect(slides.ingest_warnings.map((w) => w.code)).toContain('OCR_UNAVAILABLE');
    expect(slides.ingest_warnings.find((w) => w.code === 'OCR_UNAVAILABLE')?.message).toMatch(/OCR was turned off/);
  });

  it('rebuilds what a settings change affects: OCR settings only the document with textless pages, a raised limit retries what it refused', async () => {
    writeFileSync(join(input, 'Slides_2022.pdf'), writeSimplePdf([{ runs: [{ text: 'Slides of the year', x: 72, y: 90, size: 24 }] }, { runs: [], shapes: [{ kind: 'rect', x: 72, y: 140, width: 300, height: 60, gray: 0.2 }] }]));
    const withIngest = (ingest: object) => resolveConfig({ overrides: { data_dir: join(dir, 'data'), embedder: { kind: 'hashing' }, index: { backend: 'exact' } }, file: { ingest } }).config;
    // A page cap of 2 refuses the two 3-page Markdown reports.
    const capped = await Collection.open(out, { config: withIngest({ limits: { max_pages: 2 } }) });
    const first = await capped.ingest({ inputDir: input });
    expect(first.added.sort()).toEqual(['quarry_2021', 'slides_2022']);
    expect(first.failed.map((f) => f.doc_id).sort()).toEqual(['harbor_2022_10k', 'lumen_2023_10k']);
    expect((await capped.status()).pending).toBe(2);

    // The default cap: the refused files are tried again, the landed ones rebuilt (their limits changed).
    const open = await Collection.open(out, { config: withIngest({}) });
    const status = CollectionStatusReportSchema.parse(await open.status());
    expect(status.entries.map((e) => [e.doc_id, e.change, e.reason]).sort()).toEqual([
      ['harbor_2022_10k', 'new', 'settings'],
      ['lumen_2023_10k', 'new', 'settings'],
      ['quarry_2021', 'modified', 'settings'],
      ['slides_2022', 'modified', 'settings'],
    ]);
    const second = await open.sync();
    expect([...second.added, ...second.updated].sort()).toEqual(['harbor_2022_10k', 'lumen_2023_10k', 'quarry_2021', 'slides_2022']);
    expect(second.failed).toEqual([]);
    const built = stable(out);

    // Another OCR resolution: only the slides (a page without a text layer) are rebuilt.
    const sharper = await Collection.open(out, { config: withIngest({ ocr: { dpi: 300 } }) });
    expect((await sharper.status()).entries.filter((e) => e.change !== 'unchanged').map((e) => [e.doc_id, e.change, e.reason])).toEqual([['slides_2022', 'modified', 'settings']]);
    const third = await sharper.sync();
    expect(third.updated).toEqual(['slides_2022']);
    expect(third.unchanged.sort()).toEqual(['harbor_2022_10k', 'lumen_2023_10k', 'quarry_2021']);
    const after = stable(out);
    for (const id of ['harbor_2022_10k', 'lumen_2023_10k', 'quarry_2021']) expect(after.get(id)).toEqual(built.get(id));
    expect(after.get('slides_2022')!.build_id).not.toBe(built.get('slides_2022')!.build_id);
    expect((await sharper.status()).pending).toBe(0);
  });

  it('rebuilds every document when the index configuration changed (here the HNSW threshold), and nothing when it did not', async () => {
    await (await Collection.open(out, { config: config(dir) })).ingest({ inputDir: input });
    expect((await (await Collection.open(out, { config: config(dir) })).status()).pending).toBe(0);
    const other = resolveConfig({ overrides: { data_dir: join(dir, 'data'), embedder: { kind: 'hashing' }, index: { backend: 'exact', hnsw_min_vectors: 1000 } } }).config;
    const reopened = await Collection.open(out, { config: other });
    expect((await reopened.status()).entries.map((e) => [e.doc_id, e.change, e.reason]).sort()).toEqual([
      ['harbor_2022_10k', 'modified', 'settings'],
      ['lumen_2023_10k', 'modified', 'settings'],
      ['quarry_2021', 'modified', 'settings'],
    ]);
    await reopened.sync();
    expect((await reopened.status()).pending).toBe(0);
  });

  it('builds with a ready-made embedder in this thread, so documents and questions share it, and its documents stay current', async () => {
    const embedder = new HashingEmbedder({ dimension: 64 });
    const collection = await Collection.open(out, { config: config(dir), components: { embedder } });
    const report = await collection.ingest({ inputDir: input, workers: 2 });
    expect(report.workers).toBe(1);
    expect((await collection.manifest())!.embedder).toEqual({ id: embedder.id, dimension: 64 });
    expect((await (await Collection.open(out, { config: config(dir), components: { embedder } })).status()).pending).toBe(0);
    expect((await collection.ask('How much cash did Harbor Tools hold at the end of 2022?')).doc_id).toBe('harbor_2022_10k');
  });

  it('rebuilds every document when the embedder changed, so questions keep working without --force', async () => {
    await (await Collection.open(out, { config: config(dir) })).ingest({ inputDir: input });
    const other = resolveConfig({ overrides: { data_dir: join(dir, 'data'), embedder: { kind: 'hashing', dimension: 256 }, index: { backend: 'exact' } } }).config;
    const reopened = await Collection.open(out, { config: other });
    const status = await reopened.status();
    expect(status.entries.map((e) => [e.doc_id, e.change, e.reason]).sort()).toEqual([
      ['harbor_2022_10k', 'modified', 'settings'],
      ['lumen_2023_10k', 'modified', 'settings'],
      ['quarry_2021', 'modified', 'settings'],
    ]);
    expect((await reopened.sync()).updated.sort()).toEqual(['harbor_2022_10k', 'lumen_2023_10k', 'quarry_2021']);
    expect((await reopened.manifest())!.embedder).toMatchObject({ dimension: 256 });
    expect((await reopened.status()).pending).toBe(0);
    const asked = await reopened.ask('What was the revenue of Lumen Optics in 2023?');
    expect(asked.doc_id).toBe('lumen_2023_10k');
    expect(asked.answer.pages).toContain(2);
  });

  it('status lists pending changes without writing; sync adds, rebuilds by hash and removes, leaving unchanged documents untouched', async () => {
    const collection = await Collection.open(out, { config: config(dir) });
    await collection.ingest({ inputDir: input });
    const before = stable(out);
    const manifestText = readFileSync(join(out, COLLECTION_FILES.manifest), 'utf8');

    writeFileSync(join(input, 'Harbor_2022_10K.md'), report('Harbor Tools', 2022, 'cordless drills', '$51.0 million'));
    rmSync(join(input, 'Lumen_2023_10K.md'));
    writeFileSync(join(input, 'Fjord_2020_10Q.md'), report('Fjord Shipping', 2020, 'ferry tickets', '$3.3 million'));
    // Same bytes written again (a new mtime) is no change: changes are found by hash.
    writeFileSync(join(input, 'Quarry_2021.pdf'), readFileSync(join(input, 'Quarry_2021.pdf')));

    const status = CollectionStatusReportSchema.parse(await collection.status());
    const changes = new Map(status.entries.map((e) => [e.doc_id, e.change]));
    expect(Object.fromEntries(changes)).toEqual({ harbor_2022_10k: 'modified', lumen_2023_10k: 'deleted', fjord_2020_10q: 'new', quarry_2021: 'unchanged' });
    expect(status.pending).toBe(3);
    expect(readFileSync(join(out, COLLECTION_FILES.manifest), 'utf8')).toBe(manifestText);

    const synced = await collection.sync();
    expect(synced).toMatchObject({ added: ['fjord_2020_10q'], updated: ['harbor_2022_10k'], removed: ['lumen_2023_10k'], unchanged: ['quarry_2021'], failed: [] });
    const after = stable(out);
    expect(after.get('quarry_2021')).toEqual(before.get('quarry_2021'));
    expect(after.get('harbor_2022_10k')!.build_id).not.toBe(before.get('harbor_2022_10k')!.build_id);
    expect(after.has('lumen_2023_10k')).toBe(false);
    expect(existsSync(join(out, 'docs', 'lumen_2023_10k'))).toBe(false);
    // The old version of the rebuilt document is gone.
    expect(readdirSync(join(out, 'docs', 'harbor_2022_10k'))).toEqual([after.get('harbor_2022_10k')!.build_id]);
    expect((await collection.status()).pending).toBe(0);
  });

  it('reports a document that fails and lands the others; the failure is retried once the file changes', async () => {
    writeFileSync(join(input, 'Broken_2020.pdf'), '%PDF-1.7\nthis is not a PDF body\n');
    const collection = await Collection.open(out, { config: config(dir) });
    const result = await collection.ingest({ inputDir: input });
    expect(result.failed).toEqual([expect.objectContaining({ doc_id: 'broken_2020', path: 'Broken_2020.pdf', code: expect.stringMatching(/^PDF_|INPUT_/) })]);
    expect(result.added).toHaveLength(3);
    const manifest = (await collection.manifest())!;
    expect(manifest.failures).toEqual([expect.objectContaining({ path: 'Broken_2020.pdf' })]);
    expect((await collection.status()).entries.find((e) => e.doc_id === 'broken_2020')?.change).toBe('failed');
    writeFileSync(join(input, 'Broken_2020.pdf'), pdfReport('Broken Arrow Outfitters', ['Repaired file with real pages.']));
    expect((await collection.sync()).added).toEqual(['broken_2020']);
    expect((await collection.manifest())!.failures).toEqual([]);
  });

  it('a second writer is refused with the holder named, waits when asked, and takes over the lock of a killed process', async () => {
    mkdirSync(out, { recursive: true });
    const lockPath = join(out, COLLECTION_FILES.lock);
    // Another process takes the lock with the same protocol (owner written, then linked into place) and holds it.
    const holder = spawn(process.execPath, [
      '-e',
      `const fs=require('fs');const t=${JSON.stringify(lockPath)}+'.tmp';fs.writeFileSync(t,JSON.stringify({pid:process.pid,host:${JSON.stringify(hostname())},started:new Date().toISOString()}));fs.linkSync(t,${JSON.stringify(lockPath)});fs.unlinkSync(t);console.log('locked');setTimeout(()=>{fs.unlinkSync(${JSON.stringify(lockPath)});process.exit(0)},1500);`,
    ]);
    await new Promise<void>((resolve) => holder.stdout.once('data', () => resolve()));
    const collection = await Collection.open(out, { config: config(dir) });
    const refused = await collection.sync({ inputDir: input }).catch((error: unknown) => error);
    expect(DocTreeError.isInstance(refused) && refused.code).toBe('COLLECTION_LOCKED');
    expect((refused as DocTreeError).message).toContain(`process ${holder.pid} on ${hostname()}`);
    const waits: string[] = [];
    const waited = await collection.sync({ inputDir: input, waitMs: 60_000, onProgress: (e) => e.stage === 'lock-wait' && waits.push(e.holder) });
    expect(waits).toHaveLength(1);
    expect(waited.added).toHaveLength(3);

    // A holder killed with SIGKILL leaves its lock behind: the next run sees the process is gone and goes on.
    const killed = spawn(process.execPath, ['-e', `const fs=require('fs');fs.writeFileSync(${JSON.stringify(lockPath)},JSON.stringify({pid:process.pid,host:${JSON.stringify(hostname())},started:new Date().toISOString()}));console.log('locked');setInterval(()=>{},1000);`]);
    await new Promise<void>((resolve) => killed.stdout.once('data', () => resolve()));
    killed.kill('SIGKILL');
    await new Promise((resolve) => killed.once('exit', resolve));
    expect(existsSync(lockPath)).toBe(true);
    expect((await collection.sync()).unchanged).toHaveLength(3);
    expect(existsSync(lockPath)).toBe(false);
  });

  it('a run killed mid-build (kill -9) leaves the last complete state readable, and the next run finishes to the same documents as a clean build', async () => {
    const collection = await Collection.open(out, { config: config(dir) });
    await collection.ingest({ inputDir: input });
    writeFileSync(join(input, 'Harbor_2022_10K.md'), report('Harbor Tools', 2022, 'cordless drills', '$60.0 million'));
    writeFileSync(join(input, 'Fjord_2020_10Q.md'), report('Fjord Shipping', 2020, 'ferry tickets', '$3.3 million'));
    const committed = readFileSync(join(out, COLLECTION_FILES.manifest), 'utf8');
    // A child process plays a sync that is killed mid-build: it holds the lock, has a half-written staging folder and
    // a new document version renamed into docs/ that the manifest does not name yet; then it is killed with SIGKILL.
    const script = `const fs=require('fs'),p=require('path');const out=${JSON.stringify(out)};
fs.writeFileSync(p.join(out,'.lock'),JSON.stringify({pid:process.pid,host:${JSON.stringify(hostname())},started:new Date().toISOString()}));
const st=p.join(out,'.staging',process.pid+'-abcdef','fjord_2020_10q');fs.mkdirSync(p.join(st,'index'),{recursive:true});fs.writeFileSync(p.join(st,'doctree.mm.json'),'{"trunc');
const v=p.join(out,'docs','harbor_2022_10k','20990101T000000-deadbeef-000000');fs.mkdirSync(v,{recursive:true});fs.writeFileSync(p.join(v,'doctree.mm.json'),'{}');
console.log('building');setInterval(()=>{},1000);`;
    const child = spawn(process.execPath, ['-e', script]);
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));

    // The last complete state is readable as it was: the manifest is untouched and still names whole documents.
    expect(readFileSync(join(out, COLLECTION_FILES.manifest), 'utf8')).toBe(committed);
    const reader = await Collection.open(out, { config: config(dir) });
    const selection = await reader.select('Harbor Tools revenue 2022');
    expect(selection.selected).toEqual(['harbor_2022_10k']);

    const resumed = await collection.sync();
    expect(resumed).toMatchObject({ added: ['fjord_2020_10q'], updated: ['harbor_2022_10k'], failed: [] });
    expect(readdirSync(join(out, 'docs', 'harbor_2022_10k'))).toHaveLength(1);
    expect(readdirSync(join(out, COLLECTION_FILES.staging))).toEqual([]);

    // A clean build of the same folder gives the same documents, hashes, pages and metadata.
    const clean = await Collection.open(join(dir, 'clean'), { config: config(dir) });
    await clean.ingest({ inputDir: input });
    const shape = (m: Awaited<ReturnType<Collection['manifest']>>) => m!.documents.map((d) => ({ doc_id: d.doc_id, sha256: d.sha256, pages: d.pages, metadata: d.metadata, description: d.description, warnings: d.ingest_warnings }));
    expect(shape(await collection.manifest())).toEqual(shape(await clean.manifest()));
    const nodes = async (c: Collection, id: string) => (await c.store.selectionData(id)).nodes;
    expect(await nodes(collection, 'harbor_2022_10k')).toEqual(await nodes(clean, 'harbor_2022_10k'));
  });

  it('selects the document a question names and ranks by description and node hits otherwise; filters and --doc narrow the choice', async () => {
    const collection = await Collection.open(out, { config: config(dir) });
    await collection.ingest({ inputDir: input });
    const named = await collection.select('What was revenue of Lumen Optics in 2023?');
    expect(named.selected).toEqual(['lumen_2023_10k']);
    expect(named.ranked[0]).toMatchObject({ doc_id: 'lumen_2023_10k', metadata: ['company', 'year'] });
    expect(named.ranked[0]!.nodes.hits).toBeGreaterThan(0);

    // No company or year named: the description and section texts decide.
    const unnamed = await collection.select('Who cuts granite for bridges?');
    expect(unnamed.selected).toEqual(['quarry_2021']);
    expect(unnamed.ranked[0]!.fused).toBeGreaterThan(unnamed.ranked[1]!.fused);

    const filtered = await collection.select('revenue', { filters: { year: 2022 } });
    expect(filtered.ranked.map((r) => r.doc_id)).toEqual(['harbor_2022_10k']);
    expect(filtered.filtered_out).toBe(2);
    expect((await collection.select('revenue', { mode: 'all' })).selected).toHaveLength(3);
    expect((await collection.select('anything', { docs: ['quarry_2021'] })).selected).toEqual(['quarry_2021']);
    await expect(collection.select('anything', { docs: ['nope'] })).rejects.toMatchObject({ code: 'USAGE' });
  });

  it('edited metadata survives a rebuild and steers selection', async () => {
    const collection = await Collection.open(out, { config: config(dir) });
    await collection.ingest({ inputDir: input });
    const row = await collection.setMetadata('quarry_2021', { company: 'Granite Bridges Holding', form: '20-F' });
    expect(row.metadata).toMatchObject({ company: 'Granite Bridges Holding', form: '20-F', year: 2021, edited: ['company', 'form'] });
    expect((await collection.select('Granite Bridges Holding revenue')).ranked[0]).toMatchObject({ doc_id: 'quarry_2021', metadata: ['company'] });
    await collection.sync({ force: true });
    expect((await collection.manifest())!.documents.find((d) => d.doc_id === 'quarry_2021')!.metadata).toMatchObject({ company: 'Granite Bridges Holding', form: '20-F' });
    await expect(collection.setMetadata('quarry_2021', { year: 1200 })).rejects.toMatchObject({ code: 'SCHEMA_INVALID' });
  });

  it('answers over the collection from the selected document, and from several with mode all', async () => {
    const collection = await Collection.open(out, { config: config(dir) });
    await collection.ingest({ inputDir: input });
    const answered = await collection.ask('How much cash did Harbor Tools hold at the end of 2022?');
    expect(answered.doc_id).toBe('harbor_2022_10k');
    expect(answered.selection.selected).toEqual(['harbor_2022_10k']);
    expect(answered.answer.pages).toContain(3);
    const all = await collection.ask('What was revenue?', { mode: 'all' });
    expect(all.documents.map((d) => d.doc_id).sort()).toEqual(['harbor_2022_10k', 'lumen_2023_10k', 'quarry_2021']);
  });

  it('exports PageIndex trees and imports them back as documents with the same structure and pages', async () => {
    const collection = await Collection.open(out, { config: config(dir) });
    await collection.ingest({ inputDir: input });
    const tree = PageIndexDocumentSchema.parse(await collection.exportPageIndex('harbor_2022_10k'));
    expect(tree.doc_name).toBe('Harbor_2022_10K.md');
    expect(tree.structure).toHaveLength(1);
    const top = tree.structure[0]!;
    expect(top.title).toBe('Harbor Tools Annual Report 2022');
    expect(top.nodes!.map((n) => [n.title, n.start_index, n.end_index])).toEqual([
      ['Overview', 1, 1],
      ['Results of operations', 2, 2],
      ['Liquidity', 3, 3],
    ]);
    expect(top.nodes![1]!.summary).toContain('Revenue');

    const file = join(dir, 'harbor_structure.json');
    writeFileSync(file, JSON.stringify(tree));
    const imported = await collection.importPageIndex([file]);
    expect(imported.added).toEqual(['harbor']);
    const back = await collection.exportPageIndex('harbor');
    const shape = (nodes: typeof tree.structure): unknown => nodes.map((n) => ({ title: n.title, start: n.start_index, end: n.end_index, nodes: shape(n.nodes ?? []) }));
    expect(shape(back.structure)).toEqual(shape(tree.structure));
    // Imported trees are not part of the input folder: a sync keeps them.
    expect((await collection.sync()).removed).toEqual([]);

    writeFileSync(join(dir, 'bad_structure.json'), JSON.stringify({ doc_name: 'x', structure: [{ title: 'A' }] }));
    const bad = await collection.importPageIndex([join(dir, 'bad_structure.json')]);
    expect(bad.failed).toEqual([expect.objectContaining({ code: 'SCHEMA_INVALID' })]);
  });

  it('refuses a manifest of another format version', async () => {
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, COLLECTION_FILES.manifest), JSON.stringify({ format: 'doctree.collection', version: 99 }));
    const collection = await Collection.open(out, { config: config(dir) });
    await expect(collection.status(input)).rejects.toMatchObject({ code: 'FORMAT_VERSION_UNSUPPORTED' });
  });
});
