import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { detectVectorBackend, HashingEmbedder } from '@doctree/index';
import { DocTreeError, RagManifestSchema } from '@doctree/schema';
import { editNodeText, generatedReport } from '../__fixtures__/trees.js';
import { chunkDocTree } from '../chunking/chunk-doc-tree.js';
import { buildRagIndex } from './build-rag-index.js';
import { loadRagIndex } from './load-rag-index.js';
import { RAG_FILES } from './rag-index-files.js';

async function errorOf(promise: Promise<unknown>): Promise<DocTreeError> {
  try {
    await promise;
  } catch (error) {
    if (DocTreeError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a DocTreeError');
}

describe('buildRagIndex / loadRagIndex', () => {
  let docDir: string;
  const embedder = new HashingEmbedder({ dimension: 256 });
  const tree = generatedReport(3, 10);

  beforeEach(() => {
    docDir = mkdtempSync(join(tmpdir(), 'doctree-rag-'));
    writeFileSync(join(docDir, 'doctree.mm.json'), JSON.stringify(tree));
  });
  afterEach(() => rmSync(docDir, { recursive: true, force: true }));

  it('writes parents, chunks, vectors and a manifest, then loads an index that finds the chunk a query is about', async () => {
    const built = await buildRagIndex(docDir, { embedder, backend: 'exact' });
    expect(built.rebuilt).toBe(true);
    const files = readdirSync(join(docDir, 'rag')).sort();
    expect(files).toEqual(['chunks.jsonl', 'chunks.vectors', 'chunks.vectors.meta.json', 'manifest.json', 'parents.jsonl']);
    expect(readdirSync(docDir).some((f) => f.includes('.tmp-'))).toBe(false);
    const manifest = RagManifestSchema.parse(JSON.parse(readFileSync(join(docDir, 'rag', RAG_FILES.manifest), 'utf8')));
    const expected = chunkDocTree(tree);
    expect(manifest).toMatchObject({
      format: 'doctree.rag',
      version: 1,
      doc_id: 'report-3',
      embedder: { id: embedder.id, dimension: 256 },
      vector_backend: 'exact',
      chunking: { target_tokens: 200, min_tokens: 80, max_tokens: 300, max_overlap_ratio: 0.1 },
      counts: { parents: expected.parents.length, chunks: expected.chunks.length, embedded: expected.chunks.length, reused: 0 },
    });
    expect(manifest.doctree_sha256).toMatch(/^[0-9a-f]{64}$/);

    const index = await loadRagIndex(docDir, { embedder });
    expect(index.chunks).toEqual(expected.chunks);
    expect(index.parents).toEqual(expected.parents);
    expect(index.vectors.info).toMatchObject({ size: expected.chunks.length, dimension: 256, embedderId: embedder.id });
    const target = expected.chunks.find((c) => c.kind === 'table')!;
    const [best] = index.vectors.search(await embedder.embedQuery(target.text), { k: 1 });
    expect(best?.id).toBe(target.chunk_id);
  });

  it('is a no-op when nothing changed, and re-embeds only changed chunks when the tree changes', async () => {
    const first = await buildRagIndex(docDir, { embedder, backend: 'exact' });
    const again = await buildRagIndex(docDir, { embedder, backend: 'exact' });
    expect(again.rebuilt).toBe(false);
    expect(again.manifest).toEqual(first.manifest);

    const last = tree.nodes.filter((n) => n.role === 'paragraph').at(-1)!;
    const changed = editNodeText(tree, last.node_id, `${last.text.slice(0, -1)} (restated).`);
    writeFileSync(join(docDir, 'doctree.mm.json'), JSON.stringify(changed));
    const rebuilt = await buildRagIndex(docDir, { embedder, backend: 'exact' });
    expect(rebuilt.rebuilt).toBe(true);
    expect(rebuilt.manifest.counts.embedded).toBeGreaterThan(0);
    expect(rebuilt.manifest.counts.reused).toBeGreaterThan(rebuilt.manifest.counts.embedded);
    const index = await loadRagIndex(docDir, { embedder });
    const restated = index.chunks.find((c) => c.text.includes('(restated).'))!;
    const [best] = index.vectors.search(await embedder.embedQuery(restated.text), { k: 1 });
    expect(best?.id).toBe(restated.chunk_id);

    const otherConfig = await buildRagIndex(docDir, { embedder, backend: 'exact', chunking: { targetTokens: 150 } });
    expect(otherConfig.rebuilt).toBe(true);
    expect(otherConfig.manifest.config_hash).not.toBe(rebuilt.manifest.config_hash);
  });

  it('rejects another embedder, another format version, a missing or damaged index with clear errors', async () => {
    expect((await errorOf(loadRagIndex(docDir, { embedder }))).code).toBe('INDEX_MISSING');
    await buildRagIndex(docDir, { embedder, backend: 'exact' });

    const mismatch = await errorOf(loadRagIndex(docDir, { embedder: new HashingEmbedder({ dimension: 128 }) }));
    expect(mismatch.code).toBe('EMBEDDER_MISMATCH');
    expect(mismatch.message).toContain(embedder.id);
    expect(mismatch.file).toMatch(/manifest\.json$/);

    const manifestPath = join(docDir, 'rag', 'manifest.json');
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
    writeFileSync(manifestPath, JSON.stringify({ ...manifest, version: 2 }));
    const version = await errorOf(loadRagIndex(docDir, { embedder }));
    expect(version.code).toBe('FORMAT_VERSION_UNSUPPORTED');
    expect(version.hint).toContain('force: true');

    writeFileSync(manifestPath, JSON.stringify(manifest));
    const chunksPath = join(docDir, 'rag', 'chunks.jsonl');
    writeFileSync(chunksPath, readFileSync(chunksPath, 'utf8').slice(0, 100));
    expect((await errorOf(loadRagIndex(docDir, { embedder }))).code).toBe('INDEX_CORRUPT');
    // A damaged index is rebuilt even though the tree did not change.
    expect((await buildRagIndex(docDir, { embedder, backend: 'exact' })).rebuilt).toBe(true);
    expect((await loadRagIndex(docDir, { embedder })).chunks.length).toBeGreaterThan(0);
  });

  it('fails without a tree or with a bad one, and a cancelled build leaves the previous index in place', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'doctree-rag-empty-'));
    try {
      expect((await errorOf(buildRagIndex(empty, { embedder }))).code).toBe('INPUT_NOT_FOUND');
      writeFileSync(join(empty, 'doctree.mm.json'), '{"format":"doctree.mm"}');
      const bad = await errorOf(buildRagIndex(empty, { embedder }));
      expect(bad.code).toBe('SCHEMA_INVALID');
      expect(existsSync(join(empty, 'rag'))).toBe(false);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
    const first = await buildRagIndex(docDir, { embedder, backend: 'exact' });
    const controller = new AbortController();
    controller.abort();
    const cancelled = await errorOf(buildRagIndex(docDir, { embedder, backend: 'exact', force: true, signal: controller.signal }));
    expect(cancelled.code).toBe('CANCELLED');
    expect((await loadRagIndex(docDir, { embedder })).manifest.build_id).toBe(first.manifest.build_id);
    expect(readdirSync(docDir).filter((f) => f.startsWith('rag.'))).toEqual([]);
  });

  it('round-trips with the faiss backend when faiss-node loads, and the faiss index also loads exactly', async () => {
    const status = await detectVectorBackend({ backend: 'faiss' });
    if (!status.faiss.available) {
      console.warn(`faiss-node not loadable (${status.faiss.error ?? 'unknown'}): run npm run setup; checking the exact fallback only`);
      expect((await errorOf(buildRagIndex(docDir, { embedder, backend: 'faiss' }))).code).toBe('BACKEND_UNAVAILABLE');
      return;
    }
    const built = await buildRagIndex(docDir, { embedder, backend: 'faiss' });
    expect(built.manifest.vector_backend).toBe('faiss');
    expect(readdirSync(join(docDir, 'rag'))).toEqual(expect.arrayContaining(['chunks.faiss', 'chunks.faiss.vectors']));
    const viaFaiss = await loadRagIndex(docDir, { embedder, backend: 'faiss' });
    const viaExact = await loadRagIndex(docDir, { embedder, backend: 'exact' });
    expect(viaFaiss.vectors.info.backend).toBe('faiss');
    expect(viaExact.vectors.info.backend).toBe('exact');
    const query = await embedder.embedQuery('capital expenditures increased in the U.S. market');
    const a = viaFaiss.vectors.search(query, { k: 5 });
    const b = viaExact.vectors.search(query, { k: 5 });
    expect(a.map((h) => h.id)).toEqual(b.map((h) => h.id));
    for (let i = 0; i < a.length; i++) expect(a[i]!.score).toBeCloseTo(b[i]!.score, 4);
  });
});
