import { HashingEmbedder } from '@doctree/index';
import { runRetrieverConformance } from '@doctree/index/testing';
import { DocTreeError } from '@doctree/schema';
import { PostgresRetriever } from './postgres-retriever.js';
import { PostgresStore } from './postgres-store.js';
import type { StoredDocument } from './stored-document.js';
import { announceSkip, serviceAvailability, startTestService } from './testing/index.js';
import type { TestService } from './testing/index.js';

const availability = serviceAvailability('postgres');
if (!availability.ok) announceSkip('@doctree/store-postgres', availability.reason);
const describePg = availability.ok ? describe : describe.skip;

let service: TestService | undefined;
let url = '';
beforeAll(async () => {
  if (!availability.ok) return;
  service = await startTestService('postgres');
  url = service.url;
}, 90_000);
const opened: PostgresStore[] = [];
afterAll(async () => {
  await Promise.all(opened.map((store) => store.close()));
  await service?.stop();
}, 30_000);

const embedder = new HashingEmbedder({ dimension: 128 });

async function storeFor(schema: string): Promise<PostgresStore> {
  const store = await PostgresStore.open({ url, schema });
  opened.push(store);
  return store;
}

describePg('PostgresStore on a throwaway PostgreSQL + pgvector', () => {
  runRetrieverConformance('PostgresRetriever (hybrid: HNSW + ts_rank, RRF in SQL)', async (corpus) => {
    const store = await storeFor('conformance');
    const vectors = await embedder.embedDocuments(corpus.map((d) => d.text));
    await store.writeDocument({
      collection: 'conformance',
      doc_id: 'doc',
      content_sha256: 'a'.repeat(64),
      nodes: corpus.map((d) => ({ node_id: d.node_id, role: d.role, modality: d.role === 'table' ? 'table' : d.role === 'section' ? 'section' : 'text', page_idx: d.page_idx, text: d.text })),
      embeddings: corpus.map((d, i) => ({ node_id: d.node_id, view: 'node', vector: vectors[i]! })),
      embedder_id: embedder.id,
    });
    return new PostgresRetriever({ store, collection: 'conformance', embedder });
  });

  it('migrations are idempotent, recorded, and safe when two processes open the store at once', async () => {
    const [a, b] = await Promise.all([storeFor('migrate_twice'), storeFor('migrate_twice')]);
    const applied = [a.migration!.applied, b.migration!.applied].sort((x, y) => y.length - x.length);
    expect(applied).toEqual([[1, 2], []]);
    const c = await storeFor('migrate_twice');
    expect(c.migration).toEqual({ applied: [], version: 2 });
    const rows = await c.query<{ version: number }>('test', 'SELECT version FROM "migrate_twice".schema_migrations ORDER BY version');
    expect(rows).toEqual([{ version: 1 }, { version: 2 }]);
    const indexes = await c.query<{ indexname: string }>('test', "SELECT indexname FROM pg_indexes WHERE schemaname = 'migrate_twice' ORDER BY indexname");
    expect(indexes.map((r) => r.indexname)).toEqual(expect.arrayContaining(['nodes_tsv_gin', 'pages_tsv_gin']));
    await Promise.all([a.close(), b.close(), c.close()]);
  }, 60_000);

  it('refuses a database written by a newer DocTree with FORMAT_VERSION_UNSUPPORTED', async () => {
    const store = await storeFor('from_future');
    await store.query('test', 'INSERT INTO "from_future".schema_migrations (version, name) VALUES (99, $1)', ['later']);
    await store.close();
    await expect(storeFor('from_future')).rejects.toMatchObject({ code: 'FORMAT_VERSION_UNSUPPORTED' });
  }, 60_000);

  it('writes a document in one transaction: a failing write leaves the previous version whole', async () => {
    const store = await storeFor('atomic');
    const version = (n: number, nodes: number): StoredDocument => ({
      collection: 'c',
      doc_id: 'report',
      content_sha256: String(n).repeat(64).slice(0, 64),
      nodes: Array.from({ length: nodes }, (_, i) => ({ node_id: `n${i}`, role: 'paragraph', modality: 'text' as const, page_idx: i, text: `version ${n} paragraph ${i} about turbines` })),
      embeddings: Array.from({ length: nodes }, (_, i) => ({ node_id: `n${i}`, view: 'node', vector: new Float32Array(8).fill(i + 1) })),
      embedder_id: 'e',
    });
    await store.writeDocument(version(1, 3));
    // The second version carries a vector of another dimension for one node: the insert fails half-way.
    const broken = version(2, 5);
    const embeddings = [...broken.embeddings!];
    embeddings[4] = { node_id: 'n4', view: 'node', vector: new Float32Array(3000).fill(1) };
    await expect(store.writeDocument({ ...broken, embeddings })).rejects.toBeInstanceOf(DocTreeError);
    const docs = await store.listDocuments('c');
    expect(docs).toEqual([{ doc_id: 'report', content_sha256: '1'.repeat(64), row: {}, nodes: 3, embeddings: 3 }]);
    await store.writeDocument(version(2, 5));
    expect((await store.listDocuments('c'))[0]).toMatchObject({ content_sha256: '2'.repeat(64), nodes: 5, embeddings: 5 });
    const hits = await store.hybridSearch({ collection: 'c', query: 'turbines paragraph', k: 10 });
    expect(hits.map((h) => h.snippet.slice(0, 9))).toEqual(Array(5).fill('version 2'));
    expect(await store.removeDocument('c', 'report')).toBe(true);
    expect(await store.removeDocument('c', 'report')).toBe(false);
    expect(await store.hybridSearch({ collection: 'c', query: 'turbines', k: 10 })).toEqual([]);
    await store.close();
  }, 60_000);

  it('fuses both lanes: a node found by text and by vector outranks one found by a single lane', async () => {
    const store = await storeFor('fusion');
    const texts = ['hydraulic pump maintenance schedule', 'quarterly dividend policy', 'pump'];
    const vectors = await embedder.embedDocuments(texts);
    await store.writeDocument({
      collection: 'c',
      doc_id: 'd',
      content_sha256: 'f'.repeat(64),
      nodes: texts.map((text, i) => ({ node_id: `n${i}`, role: 'paragraph', modality: 'text' as const, page_idx: i, text })),
      embeddings: vectors.map((vector, i) => ({ node_id: `n${i}`, view: 'node', vector })),
      embedder_id: embedder.id,
    });
    const query = 'hydraulic pump maintenance';
    const hits = await store.hybridSearch({ collection: 'c', query, vector: await embedder.embedQuery(query), embedderId: embedder.id, k: 3 });
    expect(hits[0]).toMatchObject({ node_id: 'n0', doc_id: 'd', eid: 'd:n0', extra: { dense_rank: 1, sparse_rank: 1, role: 'paragraph' } });
    // Another embedder's vectors are never compared with this query.
    const other = await store.hybridSearch({ collection: 'c', query: 'zzz', vector: await embedder.embedQuery(query), embedderId: 'other', k: 3 });
    expect(other).toEqual([]);
    await store.close();
  }, 60_000);

  it('stores text carrying U+0000 (some PDF text layers do), which text and jsonb columns cannot hold, and finds it', async () => {
    const store = await storeFor('nul');
    await store.writeDocument({
      collection: 'c',
      doc_id: 'd',
      content_sha256: 'e'.repeat(64),
      row: { doc_id: 'd', title: 'Annual\u0000Report' },
      nodes: [{ node_id: 'n0', role: 'paragraph', modality: 'text', page_idx: 0, title: 'Cash\u0000flow', text: 'Operating\u0000cash flow rose to $12 million', extra: { label: 'x\u0000y' } }],
      pages: [{ page_idx: 0, text: 'Operating\u0000cash flow rose' }],
      artifacts: [{ path: 'doctree.mm.json', content: Buffer.from('{"t":"a\u0000b"}') }],
    });
    const [hit] = await store.hybridSearch({ collection: 'c', query: 'operating cash flow', k: 1 });
    expect(hit).toMatchObject({ node_id: 'n0', snippet: 'Operating\uFFFDcash flow rose to $12 million', extra: { label: 'x\uFFFDy', title: 'Cash\uFFFDflow' } });
    const [doc] = await store.listDocuments('c');
    expect(doc!.row).toEqual({ doc_id: 'd', title: 'Annual\uFFFDReport' });
    await store.close();
  }, 60_000);

  it('never shows the password of the URL: connection errors and the location are redacted', async () => {
    const secretUrl = url.replace('postgres@', 'postgres:hunter2-s3cret@').replace(/:(\d+)\//, ':1/');
    const error = await PostgresStore.open({ url: secretUrl, connectTimeoutMs: 2000 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'BACKEND_UNAVAILABLE' });
    const text = `${String((error as Error).message)} ${(error as DocTreeError).hint} ${JSON.stringify(error)} ${String((error as Error).stack)}`;
    expect(text).not.toContain('hunter2-s3cret');
    expect((error as Error).message).toContain('postgres:[redacted]@127.0.0.1:1');
    await expect(PostgresStore.open({ url: 'mysql://root:pw@x/db' })).rejects.toMatchObject({ code: 'USAGE', message: 'not a PostgreSQL URL: mysql://root:[redacted]@x/db' });
  }, 30_000);
});
