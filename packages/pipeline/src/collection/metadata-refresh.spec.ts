import { sampleFiling } from '../testing/sample-filing.js';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DOC_FILES } from '@doctree/ingest';
import { resolveConfig, type CollectionDocument } from '@doctree/schema';
import { createIndexComponents } from '../index-components.js';
import { Collection } from './collection.js';
import { METADATA_EXTRACTOR_VERSION } from './document-metadata.js';
import { metadataIsStale, refreshDocumentMetadata } from './metadata-refresh.js';

jest.setTimeout(120_000);

const config = (dir: string) => resolveConfig({ overrides: { data_dir: join(dir, 'data'), embedder: { kind: 'hashing' }, index: { backend: 'exact' } } }).config;

const filing = (cover: string): string => sampleFiling(cover);

describe('refreshDocumentMetadata', () => {
  let dir: string;
  let collection: Collection;
  let made: number;
  const embedder = async () => {
    made++;
    return (await createIndexComponents(config(dir))).embedder;
  };
  const row = async (docId: string): Promise<CollectionDocument> => (await collection.manifest())!.documents.find((d) => d.doc_id === docId)!;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'doctree-metadata-refresh-'));
    const input = join(dir, 'input');
    mkdirSync(input);
    writeFileSync(join(input, 'Harbor_2022_10K.md'), filing('Annual report for the fiscal year ended December 31, 2022'));
    writeFileSync(join(input, 'Harbor_2023Q2_10Q.md'), filing('Quarterly report for the quarterly period ended June 30, 2023'));
    collection = await Collection.open(join(dir, 'collection'), { config: config(dir) });
    await collection.ingest({ inputDir: input, workers: 1 });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  beforeEach(() => {
    made = 0;
  });

  it('extracts again what an older extraction read, keeps hand edits, rewrites description and profile, rebuilds nothing', async () => {
    const store = collection.store;
    const built = await row('harbor_2023q2_10q');
    const before = await store.selectionData('harbor_2023q2_10q');
    // What the first extraction wrote (no quarter, no period end, no version), with a hand-edited company.
    await store.updateMetadata('harbor_2023q2_10q', { metadata: { company: 'Harbor Tools Group', year: 2023, form: '10-Q', edited: ['company'] } });
    const stale = await row('harbor_2023q2_10q');
    expect(metadataIsStale(stale)).toBe(true);

    const refreshed = await refreshDocumentMetadata(store, stale, embedder);
    expect(refreshed?.metadata).toMatchObject({ company: 'Harbor Tools Group', quarter: 'Q2', period_end: '2023-06-30', extractor: METADATA_EXTRACTOR_VERSION, edited: ['company'] });
    expect(refreshed?.description).toContain('2023 Q2');
    const after = await row('harbor_2023q2_10q');
    expect(after).toEqual(refreshed);
    expect(after.build_id).toBe(built.build_id);
    expect(after.indexed_at).toBe(built.indexed_at);
    const data = await store.selectionData('harbor_2023q2_10q');
    expect(data.profile).toContain('Harbor Tools Group');
    expect(data.profile).not.toBe(before.profile);
    expect([...data.profile_vector]).not.toEqual([...before.profile_vector]);
    expect(data.nodes).toEqual(before.nodes);
    expect(made).toBe(1);
    // Now current: nothing left to do.
    expect(metadataIsStale(after)).toBe(false);
    expect(await refreshDocumentMetadata(store, after, embedder)).toBeUndefined();
  });

  it('leaves a current document untouched and makes no embedder for it', async () => {
    const current = await row('harbor_2022_10k');
    const profile = (await collection.store.selectionData('harbor_2022_10k')).profile;
    expect(await refreshDocumentMetadata(collection.store, current, embedder)).toBeUndefined();
    expect(await row('harbor_2022_10k')).toEqual(current);
    expect((await collection.store.selectionData('harbor_2022_10k')).profile).toBe(profile);
    expect(made).toBe(0);
  });

  it('keeps the metadata of a document whose stored tree cannot be read', async () => {
    const store = collection.store;
    await store.updateMetadata('harbor_2022_10k', { metadata: { company: 'Harbor', year: 2022, edited: [] } });
    const stale = await row('harbor_2022_10k');
    rmSync(join(await store.documentDir('harbor_2022_10k'), DOC_FILES.tree));
    expect(await refreshDocumentMetadata(store, stale, embedder)).toBeUndefined();
    expect(await row('harbor_2022_10k')).toEqual(stale);
    expect(made).toBe(0);
  });
});
