import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { resolveConfig } from '@doctree/schema';
import { PostgresCollectionStore, PostgresStore } from '@doctree/store-postgres';
import { describeWithService } from '@doctree/store-postgres/testing';
import { collectionJobHandlers, collectionJobStore, sourceKindOf } from './collection-jobs.js';
import type { DocumentJob } from './document-job.js';
import { runInProcess } from './in-process.js';

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
      expect(readFileSync(join(await store.documentDir('valves'), 'doctree.mm.json'), 'utf8')).toContain('Isolate the valves');
      const hits = await db.hybridSearch({ collection: 'handbooks', query: 'replace worn seals pumps', k: 3 });
      expect(hits[0]).toMatchObject({ doc_id: 'pumps' });
      const again = await runInProcess({ jobs, store: collectionJobStore(store), handlers });
      expect([...again.outcomes.values()]).toEqual(['unchanged', 'unchanged']);
    } finally {
      await db.close();
    }
  }, 120_000);
});
