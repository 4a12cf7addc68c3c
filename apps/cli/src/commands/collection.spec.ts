import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CollectionStatusReportSchema, CollectionSyncReportSchema, PageIndexDocumentSchema } from '@doctree/schema';
import { cliRunner } from '../__fixtures__/cli-runner.js';

jest.setTimeout(120_000);

const doc = (company: string, year: number, topic: string) =>
  `<!-- page 1 -->\n\n# ${company} Annual Report ${year}\n\n## Operations\n\n${company} sells ${topic}.\n\n<!-- page 2 -->\n\n## Cash\n\n${company} held cash of $2.5 million at the end of ${year}.\n`;

describe('doctree collection', () => {
  let dir: string;
  const cli = cliRunner(() => dir);
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'doctree-cli-collection-'));
    mkdirSync(join(dir, 'in'));
    writeFileSync(join(dir, 'in', 'Alder_2021_10K.md'), doc('Alder Mills', 2021, 'sawn timber'));
    writeFileSync(join(dir, 'in', 'Birch_2022_10K.md'), doc('Birch Labs', 2022, 'lab glassware'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('ingest, status and sync print what changed, with --json output that matches the published schemas', async () => {
    const ingest = await cli('collection', 'ingest', '--input-dir', 'in', '--collection-dir', 'col', '--json');
    expect(ingest.status).toBe(0);
    expect(CollectionSyncReportSchema.parse(JSON.parse(ingest.out))).toMatchObject({ mode: 'ingest', added: ['alder_2021_10k', 'birch_2022_10k'] });

    writeFileSync(join(dir, 'in', 'Cedar_2023_10K.md'), doc('Cedar Foods', 2023, 'oat milk'));
    rmSync(join(dir, 'in', 'Alder_2021_10K.md'));
    const status = await cli('collection', 'status', '--collection-dir', 'col');
    expect(status.status).toBe(0);
    expect(status.out).toMatch(/\[NEW\] cedar_2023_10k/);
    expect(status.out).toMatch(/\[DELETED\] alder_2021_10k/);
    expect(status.out).toMatch(/- birch_2022_10k {2}\(Birch 10-K 2022\)/);
    const statusJson = CollectionStatusReportSchema.parse(JSON.parse((await cli('collection', 'status', '--collection-dir', 'col', '--json')).out));
    expect(statusJson.pending).toBe(2);

    const sync = await cli('collection', 'sync', '--collection-dir', 'col');
    expect(sync.out).toMatch(/added 1, updated 0, removed 1, unchanged 1, failed 0; 2 document\(s\)/);
    expect((await cli('collection', 'status', '--collection-dir', 'col')).out).toContain('No pending changes.');
  });

  it('status shows a quarterly report\'s quarter; ask --where quarter=… keeps only that quarter and rejects a malformed one', async () => {
    writeFileSync(join(dir, 'in', 'Birch_2023Q2_10Q.md'), doc('Birch Labs', 2023, 'lab glassware'));
    writeFileSync(join(dir, 'in', 'Birch_2023Q3_10Q.md'), doc('Birch Labs', 2023, 'lab glassware'));
    await cli('collection', 'ingest', '--input-dir', 'in', '--collection-dir', 'col');
    const status = await cli('collection', 'status', '--collection-dir', 'col');
    expect(status.out).toMatch(/- birch_2023q2_10q {2}\(Birch 10-Q 2023 Q2\)/);
    const json = JSON.parse((await cli('ask', '--collection-dir', 'col', 'How much cash did Birch hold?', '--where', 'quarter=q3', '--mode', 'all', '--json')).out);
    expect(json.documents.map((d: { doc_id: string }) => d.doc_id)).toEqual(['birch_2023q3_10q']);
    const bad = await cli('ask', '--collection-dir', 'col', 'cash?', '--where', 'quarter=Q5');
    expect(bad.status).toBe(2);
    expect(bad.err).toMatch(/quarter must be Q1, Q2, Q3 or Q4/);
    expect(bad.err).not.toMatch(/\n\s+at /);
  });

  it('meta set edits metadata that ask --collection-dir then selects on, and shows the selection scores', async () => {
    await cli('collection', 'ingest', '--input-dir', 'in', '--collection-dir', 'col');
    const set = await cli('collection', 'meta', 'set', 'birch_2022_10k', 'company=Birch Scientific', 'year=', '--collection-dir', 'col', '--json');
    expect(set.status).toBe(0);
    expect(JSON.parse(set.out).metadata).toEqual({ company: 'Birch Scientific', form: '10-K', title: 'Birch Labs Annual Report 2022', edited: ['company', 'year'], extractor: expect.any(Number) });
    const asked = await cli('ask', '--collection-dir', 'col', 'How much cash did Birch Scientific hold?');
    expect(asked.status).toBe(0);
    expect(asked.out).toMatch(/Selection \(select\)/);
    expect(asked.out).toMatch(/\* 1\. birch_2022_10k {2}metadata company {2}fused/);
    expect(asked.out).toMatch(/Document: birch_2022_10k/);
    const json = JSON.parse((await cli('ask', '--collection-dir', 'col', 'cash at the end of 2021', '--mode', 'all', '--json')).out);
    expect(json.documents.map((d: { doc_id: string }) => d.doc_id).sort()).toEqual(['alder_2021_10k', 'birch_2022_10k']);
    expect(json.selection.ranked[0].doc_id).toBe('alder_2021_10k');
    const bad = await cli('collection', 'meta', 'set', 'birch_2022_10k', 'ceo=someone', '--collection-dir', 'col');
    expect(bad.status).toBe(2);
    expect(bad.err).not.toMatch(/\n\s+at /);
  });

  it('exports PageIndex trees and imports them; a missing --collection-dir is a usage error', async () => {
    await cli('collection', 'ingest', '--input-dir', 'in', '--collection-dir', 'col');
    const exported = await cli('collection', 'export-pageindex', '--collection-dir', 'col', '--doc', 'alder_2021_10k');
    const tree = PageIndexDocumentSchema.parse(JSON.parse(exported.out));
    expect(tree.structure[0]!.nodes!.map((n) => [n.title, n.start_index])).toEqual([
      ['Operations', 1],
      ['Cash', 2],
    ]);
    expect((await cli('collection', 'export-pageindex', '--collection-dir', 'col', '--out', 'trees')).status).toBe(0);
    expect(existsSync(join(dir, 'trees', 'birch_2022_10k_structure.json'))).toBe(true);
    const imported = await cli('collection', 'import-pageindex', 'trees/birch_2022_10k_structure.json', '--collection-dir', 'other', '--json');
    expect(imported.status).toBe(0);
    expect(JSON.parse(imported.out).added).toEqual(['birch_2022_10k']);
    expect(JSON.parse(readFileSync(join(dir, 'other', 'collection.json'), 'utf8')).documents[0].kind).toBe('pageindex');
    const usage = await cli('collection', 'status', '--input-dir', 'in');
    expect(usage.status).toBe(2);
    expect(usage.err).toMatch(/needs --collection-dir/);
  });
});
