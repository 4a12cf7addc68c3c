import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildDocIndex, HashingEmbedder, minisearchSparseBackend } from '@doctree/index';
import { sampleDocTree } from '@doctree/index/testing';
import { conformanceRow, conformanceSelection } from '@doctree/pipeline/testing';
import { readIndexBundle } from './index-bundle.js';
import { PostgresCollectionStore } from './postgres-collection-store.js';
import { PostgresRetriever } from './postgres-retriever.js';
import { PostgresStore } from './postgres-store.js';
import { announceSkip, serviceAvailability, startTestService } from './testing/index.js';
import type { TestService } from './testing/index.js';

const embedder = new HashingEmbedder({ dimension: 96 });
let docDir: string;
beforeAll(async () => {
  docDir = mkdtempSync(join(tmpdir(), 'doctree-bundle-'));
  writeFileSync(join(docDir, 'doctree.mm.json'), JSON.stringify(sampleDocTree()));
  await buildDocIndex(docDir, { embedder, sparse: minisearchSparseBackend(), backend: 'exact' });
}, 60_000);
afterAll(() => rmSync(docDir, { recursive: true, force: true }));

describe('readIndexBundle', () => {
  it('turns a built document folder into nodes, pages, view embeddings and every file', async () => {
    const bundle = await readIndexBundle(docDir);
    expect(bundle.embedder_id).toBe(embedder.id);
    expect(bundle.nodes.length).toBeGreaterThan(3);
    expect(bundle.nodes.some((n) => n.role === 'table' && n.modality === 'table')).toBe(true);
    const views = new Set(bundle.embeddings.map((e) => e.view));
    expect([...views].sort()).toEqual(['coarse', 'leaf', 'leaf_raw']);
    for (const e of bundle.embeddings) expect(e.vector.length).toBe(96);
    expect(bundle.pages.length).toBeGreaterThan(0);
    expect(bundle.artifacts.map((a) => a.path)).toEqual(expect.arrayContaining(['doctree.mm.json', 'index/manifest.json', 'index/leaf.vectors']));
  });

  it('refuses a damaged index file with INDEX_CORRUPT naming it', async () => {
    const broken = mkdtempSync(join(tmpdir(), 'doctree-bundle-bad-'));
    try {
      const { cpSync } = await import('node:fs');
      cpSync(docDir, broken, { recursive: true });
      writeFileSync(join(broken, 'index', 'dense_leaf.jsonl'), '{"node_id": "x", oops');
      await expect(readIndexBundle(broken)).rejects.toMatchObject({ code: 'INDEX_CORRUPT', file: `${join(broken, 'index', 'dense_leaf.jsonl')}:1` });
    } finally {
      rmSync(broken, { recursive: true, force: true });
    }
  });
});

const availability = serviceAvailability('postgres');
if (!availability.ok) announceSkip('@doctree/store-postgres (index bundle)', availability.reason);
(availability.ok ? describe : describe.skip)('a built document committed to the Postgres collection store', () => {
  let service: TestService | undefined;
  beforeAll(async () => {
    service = await startTestService('postgres');
  }, 90_000);
  afterAll(async () => service?.stop(), 30_000);

  it('is searchable by the hybrid retriever with its pages and roles', async () => {
    const db = await PostgresStore.open({ url: service!.url, schema: 'bundle' });
    const cache = mkdtempSync(join(tmpdir(), 'doctree-bundle-cache-'));
    try {
      const store = new PostgresCollectionStore({ store: db, collection: 'samples', cacheDir: cache });
      await store.initialize({ input_dir: '/in' });
      const staged = await store.stageDocument('sample');
      const { cpSync } = await import('node:fs');
      cpSync(docDir, staged, { recursive: true });
      await store.commitDocument(conformanceRow('sample', 'b1'), staged, conformanceSelection('sample', [[1, 0, 0, 0]]));
      const retriever = new PostgresRetriever({ store: db, collection: 'samples', embedder });
      const tables = await retriever.retrieve({ query: 'consolidated statement of cash flows', k: 3, roles: ['table'] });
      expect(tables.length).toBeGreaterThan(0);
      expect(tables[0]).toMatchObject({ doc_id: 'sample', modality: 'table', method: 'pg.hybrid' });
      const sales = await retriever.retrieve({ query: 'net sales increased', k: 3 });
      expect(sales[0]?.snippet).toMatch(/Net sales/);
    } finally {
      await db.close();
      rmSync(cache, { recursive: true, force: true });
    }
  }, 60_000);
});
