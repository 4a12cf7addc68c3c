import { sampleFiling } from '../testing/sample-filing.js';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CollectionManifestSchema, CollectionSyncReportSchema, resolveConfig } from '@doctree/schema';
import { Collection } from './collection.js';
import { METADATA_EXTRACTOR_VERSION } from './document-metadata.js';
import { COLLECTION_FILES } from './file-collection-store.js';

jest.setTimeout(120_000);

const config = (dir: string) => resolveConfig({ overrides: { data_dir: join(dir, 'data'), embedder: { kind: 'hashing' }, index: { backend: 'exact' } } }).config;

const filing = (cover: string, cash: string): string => sampleFiling(cover, cash);

describe('Collection periods and open documents', () => {
  let dir: string;
  let input: string;
  let out: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'doctree-collection-periods-'));
    input = join(dir, 'input');
    out = join(dir, 'collection');
    mkdirSync(input);
    writeFileSync(join(input, 'Harbor_2022_10K.md'), filing('Annual report for the fiscal year ended December 31, 2022', '$4.1 million'));
    writeFileSync(join(input, 'Harbor_2023Q2_10Q.md'), filing('Quarterly report for the quarterly period ended June 30, 2023', '$3.7 million'));
    writeFileSync(join(input, 'Harbor_2023Q4_release.md'), filing('Results for the fourth quarter, three months ended December 31, 2023', '$5.2 million'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('selects among one company’s filings by the period the question names, in any written form', async () => {
    const collection = await Collection.open(out, { config: config(dir) });
    await collection.ingest({ inputDir: input });
    const rows = new Map((await collection.manifest())!.documents.map((d) => [d.doc_id, d.metadata]));
    expect(rows.get('harbor_2023q2_10q')).toMatchObject({ year: 2023, quarter: 'Q2', period_end: '2023-06-30', form: '10-Q', extractor: METADATA_EXTRACTOR_VERSION });
    expect(rows.get('harbor_2022_10k')).toMatchObject({ year: 2022, period_end: '2022-12-31' });
    const first = async (question: string) => (await collection.select(question)).selected[0];
    expect(await first('How much cash did Harbor Tools hold in Q2 FY23?')).toBe('harbor_2023q2_10q');
    expect(await first('How much cash did Harbor Tools hold in 2Q23?')).toBe('harbor_2023q2_10q');
    expect(await first('How much cash did Harbor Tools hold at the end of fiscal 2022?')).toBe('harbor_2022_10k');
    expect(await first('How much cash did Harbor Tools hold in FY22?')).toBe('harbor_2022_10k');
    expect(await first('How much cash did Harbor Tools hold in the fourth quarter of 2023?')).toBe('harbor_2023q4_release');
    // A year no filing covers: the nearest later report holds it as a comparative.
    expect(await first('How much cash did Harbor Tools hold in 2021?')).toBe('harbor_2022_10k');
    const ranked = (await collection.select('How much cash did Harbor Tools hold in Q2 FY23?')).ranked[0]!;
    expect(ranked).toMatchObject({ metadata: ['company', 'year', 'quarter'], period: 3 });
  });

  it('sync extracts again the metadata an older extraction read, without rebuilding the documents', async () => {
    const collection = await Collection.open(out, { config: config(dir) });
    await collection.ingest({ inputDir: input });
    const path = join(out, COLLECTION_FILES.manifest);
    const built = CollectionManifestSchema.parse(JSON.parse(readFileSync(path, 'utf8')));
    // A manifest written by the first extraction: no quarter, no period end, no extractor version.
    const old = { ...built, documents: built.documents.map((d) => ({ ...d, metadata: { company: d.metadata.company, year: d.metadata.year, form: d.metadata.form, edited: [] } })) };
    writeFileSync(path, JSON.stringify(old));
    const reopened = await Collection.open(out, { config: config(dir) });
    const report = CollectionSyncReportSchema.parse(await reopened.sync());
    expect(report.metadata_refreshed?.sort()).toEqual(['harbor_2022_10k', 'harbor_2023q2_10q', 'harbor_2023q4_release']);
    expect(report.updated).toEqual([]);
    expect(report.unchanged).toHaveLength(3);
    const after = (await reopened.manifest())!.documents;
    for (const d of after) expect(d.build_id).toBe(built.documents.find((b) => b.doc_id === d.doc_id)!.build_id);
    expect(after.find((d) => d.doc_id === 'harbor_2023q2_10q')!.metadata).toMatchObject({ quarter: 'Q2', period_end: '2023-06-30', extractor: METADATA_EXTRACTOR_VERSION });
    expect(after.find((d) => d.doc_id === 'harbor_2023q2_10q')!.description).toContain('2023 Q2');
    // Nothing is left to refresh.
    expect((await reopened.sync()).metadata_refreshed).toBeUndefined();
  });

  it('keeps asked documents open between questions, bounded, and opens a rebuilt document again', async () => {
    const collection = await Collection.open(out, { config: config(dir), openDocuments: { maxDocuments: 1 } });
    await collection.ingest({ inputDir: input });
    const cash = async (question: string) => {
      const answered = await collection.ask(question);
      return { doc: answered.doc_id, text: JSON.stringify(answered.answer.answer) };
    };
    expect(await cash('How much cash did Harbor Tools hold in Q2 FY23?')).toEqual({ doc: 'harbor_2023q2_10q', text: expect.stringContaining('3.7') });
    expect(collection.openDocuments.documents).toBe(1);
    expect(collection.openDocuments.bytes).toBeGreaterThan(0);
    expect(await cash('How much cash did Harbor Tools hold in FY22?')).toEqual({ doc: 'harbor_2022_10k', text: expect.stringContaining('4.1') });
    expect(collection.openDocuments.documents).toBe(1);
    // The same document again is answered from the open agent, with the same answer.
    expect(await cash('How much cash did Harbor Tools hold in FY22?')).toEqual({ doc: 'harbor_2022_10k', text: expect.stringContaining('4.1') });

    writeFileSync(join(input, 'Harbor_2022_10K.md'), filing('Annual report for the fiscal year ended December 31, 2022', '$9.6 million'));
    const report = await collection.sync();
    expect(report.updated).toEqual(['harbor_2022_10k']);
    expect(collection.openDocuments.documents).toBe(0);
    expect(await cash('How much cash did Harbor Tools hold in FY22?')).toEqual({ doc: 'harbor_2022_10k', text: expect.stringContaining('9.6') });

    // A sync by another process is seen too: the rebuilt document lives in another version folder.
    const other = await Collection.open(out, { config: config(dir) });
    writeFileSync(join(input, 'Harbor_2022_10K.md'), filing('Annual report for the fiscal year ended December 31, 2022', '$2.8 million'));
    await other.sync();
    expect(await cash('How much cash did Harbor Tools hold in FY22?')).toEqual({ doc: 'harbor_2022_10k', text: expect.stringContaining('2.8') });
  });
});
