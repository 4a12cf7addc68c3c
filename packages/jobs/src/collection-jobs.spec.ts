import { sampleFiling } from '@doctree/pipeline/testing';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileCollectionStore, METADATA_EXTRACTOR_VERSION } from '@doctree/pipeline';
import { resolveConfig } from '@doctree/schema';
import type { CollectionDocument } from '@doctree/schema';
import { PostgresCollectionStore, PostgresStore } from '@doctree/store-postgres';
import { describeWithService } from '@doctree/store-postgres/testing';
import { collectionJobHandlers, collectionJobStore, sourceKindOf } from './collection-jobs.js';
import type { DocumentJob } from './document-job.js';
import { runInProcess } from './in-process.js';
import type { WorkerJobEvent } from './run-worker.js';

describe('sourceKindOf', () => {
  it('reads the kind from the file name and refuses others', () => {
    expect([sourceKindOf('a/b.PDF'), sourceKindOf('x.md'), sourceKindOf('c_structure.json'), sourceKindOf('content_list.json')]).toEqual(['pdf', 'markdown', 'pageindex', 'mineru']);
    expect(() => sourceKindOf('notes.txt')).toThrow(expect.objectContaining({ code: 'INPUT_UNSUPPORTED' }));
  });
});

describeWithService('postgres', { title: 'collection jobs into the Postgres collection store', skipName: '@doctree/jobs (collection jobs)', dirPrefix: 'doctree-coljobs-' }, (pg) => {

  it('builds real documents (ingest + index + selection) as jobs and commits each; a rerun is all unchanged', async () => {
    const config = resolveConfig({ overrides: { data_dir: join(pg.dir, 'data'), embedder: { kind: 'hashing' }, index: { backend: 'exact' } } }).config;
    const db = await PostgresStore.open({ url: pg.url, schema: 'coljobs' });
    try {
      const store = new PostgresCollectionStore({ store: db, collection: 'handbooks', cacheDir: join(pg.dir, 'cache') });
      await store.initialize({ input_dir: pg.dir });
      const jobs: DocumentJob[] = ['pumps', 'valves'].map((name) => {
        const path = join(pg.dir, `${name}.md`);
        writeFileSync(path, `# ${name} handbook\n\n## Maintenance\n\nInspect the ${name} every 500 operating hours and replace worn seals.\n\n## Safety\n\nIsolate the ${name} before opening any housing.\n`);
        return { op: 'upsert', collection: 'handbooks', doc_id: name, path, sha256: createHash('sha256').update(readFileSync(path)).digest('hex') };
      });
      const handlers = collectionJobHandlers({ store, config });
      const first = await runInProcess({ jobs, store: collectionJobStore(store), handlers, concurrency: 2 });
      expect([...first.outcomes.values()]).toEqual(['written', 'written']);
      expect(first.dead).toEqual([]);
      const manifest = (await store.readManifest())!;
      expect(manifest.documents.map((d) => [d.doc_id, d.kind, d.sha256])).toEqual(jobs.map((j) => [j.doc_id, 'markdown', j.sha256]));
      // Rows record the settings they were built with, as a local sync does (text only: no OCR fingerprint).
      expect(manifest.documents.map((d) => d.build_settings)).toEqual(jobs.map(() => ({ limits: expect.stringMatching(/^[0-9a-f]{16}$/), index: expect.stringMatching(/^[0-9a-f]{16}$/) })));
      expect(readFileSync(join(await store.documentDir('valves'), 'doctree.mm.json'), 'utf8')).toContain('Isolate the valves');
      const hits = await db.hybridSearch({ collection: 'handbooks', query: 'replace worn seals pumps', k: 3 });
      expect(hits[0]).toMatchObject({ doc_id: 'pumps' });
      const again = await runInProcess({ jobs, store: collectionJobStore(store), handlers });
      expect([...again.outcomes.values()]).toEqual(['unchanged', 'unchanged']);
      // A row an older extractor wrote is refreshed in its transaction, without a rebuild.
      const pumps = manifest.documents.find((d) => d.doc_id === 'pumps')!;
      await store.updateMetadata('pumps', { metadata: { edited: [] } });
      const refreshed = await runInProcess({ jobs, store: collectionJobStore(store, { config }), handlers: { build: () => Promise.reject(new Error('rebuilt')) } });
      expect([...refreshed.outcomes.values()]).toEqual(['refreshed', 'unchanged']);
      const row = (await store.readManifest())!.documents.find((d) => d.doc_id === 'pumps')!;
      expect(row).toMatchObject({ build_id: pumps.build_id, metadata: pumps.metadata, description: pumps.description });
    } finally {
      await db.close();
    }
  }, 120_000);
});

const filing = (cover: string): string => sampleFiling(cover);

describe('collection jobs into the file collection store', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'doctree-coljobs-file-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('refreshes, without rebuilding, the metadata an older extractor read of a document a job finds unchanged', async () => {
    const config = resolveConfig({ overrides: { data_dir: join(dir, 'data'), embedder: { kind: 'hashing' }, index: { backend: 'exact' } } }).config;
    const input = join(dir, 'input');
    mkdirSync(input);
    const store = new FileCollectionStore(join(dir, 'collection'), { backend: 'exact' });
    await store.initialize({ input_dir: input });
    const jobs: DocumentJob[] = [
      ['harbor_2022_10k', 'Harbor_2022_10K.md', 'Annual report for the fiscal year ended December 31, 2022'],
      ['harbor_2023q2_10q', 'Harbor_2023Q2_10Q.md', 'Quarterly report for the quarterly period ended June 30, 2023'],
    ].map(([docId, name, cover]) => {
      const path = join(input, name!);
      writeFileSync(path, filing(cover!));
      return { op: 'upsert', collection: 'harbor', doc_id: docId!, path, sha256: createHash('sha256').update(readFileSync(path)).digest('hex') };
    });
    const handlers = collectionJobHandlers({ store, config });
    const jobStore = collectionJobStore(store, { config });
    const first = await runInProcess({ jobs, store: jobStore, handlers });
    expect([...first.outcomes.values()]).toEqual(['written', 'written']);
    const rows = async (): Promise<Map<string, CollectionDocument>> => new Map((await store.readManifest())!.documents.map((d) => [d.doc_id, d]));
    const built = await rows();
    expect(built.get('harbor_2023q2_10q')!.metadata).toMatchObject({ quarter: 'Q2', extractor: METADATA_EXTRACTOR_VERSION });
    const profile = await store.selectionData('harbor_2023q2_10q');

    // The quarterly report as the first extraction wrote it: no quarter, no period end, no extractor version, and the
    // description and selection profile those gave.
    const n = profile.profile_vector.length;
    await store.updateMetadata('harbor_2023q2_10q', { metadata: { company: 'Harbor Tools', year: 2023, form: '10-Q', edited: [] }, description: 'Harbor Tools 10-Q 2023.', profile: { text: 'Harbor Tools 10-Q 2023.', vector: new Float32Array(n).fill(1 / Math.sqrt(n)) } });
    const stale = (await rows()).get('harbor_2023q2_10q')!;
    // A store view without the collection's embedder leaves it as it is.
    const plain = await runInProcess({ jobs, store: collectionJobStore(store), handlers });
    expect([...plain.outcomes.values()]).toEqual(['unchanged', 'unchanged']);
    expect((await rows()).get('harbor_2023q2_10q')).toEqual(stale);

    const build = jest.fn(handlers.build);
    const events: WorkerJobEvent[] = [];
    const again = await runInProcess({ jobs, store: jobStore, handlers: { build }, onJob: (e) => events.push(e) });
    expect(build).not.toHaveBeenCalled();
    expect(events.map((e) => [e.doc_id, e.outcome])).toEqual(expect.arrayContaining([['harbor_2022_10k', 'unchanged'], ['harbor_2023q2_10q', 'refreshed']]));
    expect(again.dead).toEqual([]);
    const after = await rows();
    const quarterly = after.get('harbor_2023q2_10q')!;
    expect(quarterly.metadata).toMatchObject({ quarter: 'Q2', period_end: '2023-06-30', extractor: METADATA_EXTRACTOR_VERSION });
    expect(quarterly.description).toContain('2023 Q2');
    expect(quarterly.build_id).toBe(built.get('harbor_2023q2_10q')!.build_id);
    expect(quarterly.indexed_at).toBe(built.get('harbor_2023q2_10q')!.indexed_at);
    // The profile is written and embedded again: the same as a build with the current extractor gives.
    const refreshedProfile = await store.selectionData('harbor_2023q2_10q');
    expect(refreshedProfile.profile).toBe(profile.profile);
    expect([...refreshedProfile.profile_vector]).toEqual([...profile.profile_vector]);
    // The current document is untouched, row and all.
    expect(after.get('harbor_2022_10k')).toEqual(built.get('harbor_2022_10k'));

    const third = await runInProcess({ jobs, store: jobStore, handlers: { build } });
    expect([...third.outcomes.values()]).toEqual(['unchanged', 'unchanged']);
    expect(build).not.toHaveBeenCalled();
  }, 120_000);
});
