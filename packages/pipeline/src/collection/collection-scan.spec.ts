import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CollectionManifestSchema, CollectionStatusReportSchema, resolveConfig } from '@doctree/schema';
import { Collection } from './collection.js';
import { docIdFor, scanInputDir } from './collection-scan.js';
import { COLLECTION_FILES } from './file-collection-store.js';

jest.setTimeout(120_000);

const note = (company: string, year: number, figure: string) => `<!-- page 1 -->

# ${company} Report ${year}

## Results

Revenue of ${company} was ${figure} in ${year}.
`;

describe('scanInputDir', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'doctree-scan-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('enters sub-folders with relative paths, skips hidden folders, symlink loops, links into itself and excluded folders', async () => {
    const input = join(dir, 'in');
    mkdirSync(join(input, 'acme', '2023'), { recursive: true });
    mkdirSync(join(input, '.git'));
    mkdirSync(join(input, 'collection', 'docs'), { recursive: true });
    mkdirSync(join(dir, 'elsewhere'));
    writeFileSync(join(input, 'top.md'), '# Top\n');
    writeFileSync(join(input, 'acme', 'a.md'), '# A\n');
    writeFileSync(join(input, 'acme', '2023', 'b.pdf'), '%PDF-1.7\n');
    writeFileSync(join(input, 'acme', 'notes.txt'), 'not a source');
    writeFileSync(join(input, '.git', 'hidden.md'), '# hidden\n');
    writeFileSync(join(input, 'collection', 'docs', 'built.md'), '# built\n');
    writeFileSync(join(dir, 'elsewhere', 'outside.md'), '# outside\n');
    symlinkSync(input, join(input, 'acme', 'loop')); // a link back to an ancestor
    symlinkSync(join(input, 'acme'), join(input, 'alias')); // a second way into a folder already scanned
    symlinkSync(join(dir, 'elsewhere'), join(input, 'linked')); // a folder outside: followed
    symlinkSync(join(dir, 'missing'), join(input, 'dangling'));

    const files = await scanInputDir(input, { exclude: [join(input, 'collection')] });
    expect(files.map((f) => [f.path, f.kind])).toEqual([
      ['acme/2023/b.pdf', 'pdf'],
      ['acme/a.md', 'markdown'],
      ['linked/outside.md', 'markdown'],
      ['top.md', 'markdown'],
    ]);
    expect(files[0]!.absolute).toBe(join(input, 'acme', '2023', 'b.pdf'));
    expect((await scanInputDir(input, { recursive: false })).map((f) => f.path)).toEqual(['top.md']);
    await expect(scanInputDir(join(dir, 'nope'))).rejects.toMatchObject({ code: 'INPUT_NOT_FOUND' });
  });

  it('gives files in sub-folders ids from their relative path, unique across folders', () => {
    const taken = new Map<string, string>();
    const first = docIdFor('acme/2023_10K.pdf', taken);
    taken.set(first, 'acme/2023_10K.pdf');
    expect(first).toBe('acme_2023_10k');
    expect(docIdFor('acme_2023_10K.pdf', taken)).toBe('acme_2023_10k-2');
    expect(docIdFor('Top_2021.md', taken)).toBe('top_2021');
  });
});

describe('Collection over sub-folders', () => {
  let dir: string;
  let input: string;
  let out: string;
  const config = () => resolveConfig({ overrides: { data_dir: join(dir, 'data'), embedder: { kind: 'hashing' }, index: { backend: 'exact' } } }).config;
  const rows = () => new Map(CollectionManifestSchema.parse(JSON.parse(readFileSync(join(out, COLLECTION_FILES.manifest), 'utf8'))).documents.map((d) => [d.doc_id, d]));

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'doctree-subfolders-'));
    input = join(dir, 'input');
    out = join(input, 'collection'); // the collection inside its own input folder is never scanned as input
    mkdirSync(join(input, 'harbor'), { recursive: true });
    mkdirSync(join(input, 'lumen', 'archive'), { recursive: true });
    writeFileSync(join(input, 'Overview_2023.md'), note('Overview Group', 2023, '$1.0 million'));
    writeFileSync(join(input, 'harbor', 'Harbor_2022.md'), note('Harbor Tools', 2022, '$48.2 million'));
    writeFileSync(join(input, 'lumen', 'archive', 'Lumen_2021.md'), note('Lumen Optics', 2021, '$9.1 million'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('ingests sub-folders and keeps them in step incrementally: add, modify and delete inside a sub-folder', async () => {
    const collection = await Collection.open(out, { config: config() });
    const first = await collection.ingest({ inputDir: input, workers: 1 });
    expect(first.added).toEqual(['harbor_harbor_2022', 'lumen_archive_lumen_2021', 'overview_2023']);
    expect(rows().get('lumen_archive_lumen_2021')).toMatchObject({ path: 'lumen/archive/Lumen_2021.md', kind: 'markdown', metadata: { company: 'Lumen', year: 2021 } });
    const before = rows();

    writeFileSync(join(input, 'lumen', 'archive', 'Lumen_2021.md'), note('Lumen Optics', 2021, '$9.4 million'));
    rmSync(join(input, 'harbor', 'Harbor_2022.md'));
    mkdirSync(join(input, 'harbor', '2023'));
    writeFileSync(join(input, 'harbor', '2023', 'Harbor_2023.md'), note('Harbor Tools', 2023, '$51.0 million'));

    const status = CollectionStatusReportSchema.parse(await collection.status());
    expect(Object.fromEntries(status.entries.map((e) => [e.path, e.change]))).toEqual({
      'Overview_2023.md': 'unchanged',
      'harbor/2023/Harbor_2023.md': 'new',
      'harbor/Harbor_2022.md': 'deleted',
      'lumen/archive/Lumen_2021.md': 'modified',
    });
    // Without sub-folders, the same collection sees only the top file: the others would be deleted.
    const flat = await collection.status(undefined, { recursive: false });
    expect(flat.entries.filter((e) => e.change === 'deleted').map((e) => e.path).sort()).toEqual(['harbor/Harbor_2022.md', 'lumen/archive/Lumen_2021.md']);

    const synced = await collection.sync({ workers: 1 });
    expect(synced).toMatchObject({ added: ['harbor_2023_harbor_2023'], updated: ['lumen_archive_lumen_2021'], removed: ['harbor_harbor_2022'], unchanged: ['overview_2023'], failed: [] });
    const after = rows();
    expect(after.get('overview_2023')!.build_id).toBe(before.get('overview_2023')!.build_id);
    expect(after.get('overview_2023')!.indexed_at).toBe(before.get('overview_2023')!.indexed_at);
    expect(after.get('lumen_archive_lumen_2021')!.build_id).not.toBe(before.get('lumen_archive_lumen_2021')!.build_id);
    expect((await collection.status()).pending).toBe(0);
  });
});
