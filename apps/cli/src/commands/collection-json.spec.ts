import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fromJSONSchema } from 'zod';
import { cliRunner } from '../__fixtures__/cli-runner.js';

jest.setTimeout(120_000);

const schemasDir = join(__dirname, '..', '..', '..', '..', 'docs', 'schemas');
/** A validator built from the published JSON Schema file itself (not from the zod schema it was generated from). */
const published = (name: string) => fromJSONSchema(JSON.parse(readFileSync(join(schemasDir, `${name}.json`), 'utf8')) as Parameters<typeof fromJSONSchema>[0]);

const doc = (company: string, year: number, cash: string) => `<!-- page 1 -->\n\n# ${company} Annual Report ${year}\n\n## Cash\n\n${company} held cash of ${cash} at the end of ${year}.\n`;

describe('doctree collection --json', () => {
  let dir: string;
  const cli = cliRunner(() => dir);
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'doctree-cli-collection-json-'));
    mkdirSync(join(dir, 'in'));
    writeFileSync(join(dir, 'in', 'Alder_2021_10K.md'), doc('Alder Mills', 2021, '$2.5 million'));
    writeFileSync(join(dir, 'in', 'Birch_2022_10K.md'), doc('Birch Labs', 2022, '$7.0 million'));
    writeFileSync(join(dir, 'in', 'Cedar_2020_10K.md'), doc('Cedar Foods', 2020, '$1.0 million'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('ingest, status and sync (after adding, modifying and deleting files) print JSON valid under docs/schemas', async () => {
    const sync = published('collection-sync');
    const status = published('collection-status');
    const manifest = published('collection-manifest');
    const ingest = await cli('collection', 'ingest', '--input-dir', 'in', '--collection-dir', 'col', '--jobs', '1', '--json');
    expect(ingest.status).toBe(0);
    expect(sync.parse(JSON.parse(ingest.out))).toMatchObject({ mode: 'ingest', added: ['alder_2021_10k', 'birch_2022_10k', 'cedar_2020_10k'] });

    writeFileSync(join(dir, 'in', 'Dune_2023_10K.md'), doc('Dune Surf', 2023, '$0.4 million'));
    writeFileSync(join(dir, 'in', 'Birch_2022_10K.md'), doc('Birch Labs', 2022, '$7.5 million'));
    rmSync(join(dir, 'in', 'Cedar_2020_10K.md'));
    const pending = await cli('collection', 'status', '--collection-dir', 'col', '--json');
    expect(pending.status).toBe(0);
    const entries = (status.parse(JSON.parse(pending.out)) as { entries: Array<{ doc_id: string; change: string }> }).entries;
    expect(Object.fromEntries(entries.map((e) => [e.doc_id, e.change]))).toEqual({ alder_2021_10k: 'unchanged', birch_2022_10k: 'modified', cedar_2020_10k: 'deleted', dune_2023_10k: 'new' });

    const synced = await cli('collection', 'sync', '--collection-dir', 'col', '--json');
    expect(synced.status).toBe(0);
    expect(sync.parse(JSON.parse(synced.out))).toMatchObject({ mode: 'sync', added: ['dune_2023_10k'], updated: ['birch_2022_10k'], removed: ['cedar_2020_10k'], unchanged: ['alder_2021_10k'], failed: [] });
    expect(status.parse(JSON.parse((await cli('collection', 'status', '--collection-dir', 'col', '--json')).out))).toMatchObject({ pending: 0 });
    expect(manifest.parse(JSON.parse(readFileSync(join(dir, 'col', 'collection.json'), 'utf8')))).toMatchObject({ format: 'doctree.collection' });
    // The validators do reject: a report missing a field is refused.
    expect(sync.safeParse({ ...JSON.parse(synced.out), added: undefined }).success).toBe(false);
  });
});
