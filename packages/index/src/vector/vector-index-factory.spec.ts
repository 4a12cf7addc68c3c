import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DocTreeError, IndexManifestSchema } from '@doctree/schema';
import { sampleTree } from '../__fixtures__/sample-tree.js';
import { buildDocIndex } from '../build/build-doc-index.js';
import { loadDocIndex } from '../build/load-doc-index.js';
import { minisearchSparseBackend } from '../build/sparse-backend.js';
import { HashingEmbedder } from '../embedders/hashing-embedder.js';
import { runVectorIndexConformance } from '../testing/vector-index-conformance.js';
import { ExactVectorIndex } from './exact-vector-index.js';
import { JsonVectorIndex, jsonVectorIndexFactory } from './__fixtures__/json-vector-index.js';
import { builtinVectorIndexFactory } from './vector-index-factory.js';

// The factory a user passes as `vectorIndex` is what the conformance suite runs.
runVectorIndexConformance('a vector index factory of your own (JSON brute force)', jsonVectorIndexFactory());
runVectorIndexConformance('the built-in factory (exact)', builtinVectorIndexFactory({ backend: 'exact' }));

async function rejection(promise: Promise<unknown>): Promise<DocTreeError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(DocTreeError.isInstance(error)).toBe(true);
  return error as DocTreeError;
}

describe('buildDocIndex / loadDocIndex with vectorIndex', () => {
  let docDir: string;
  const embedder = new HashingEmbedder({ dimension: 64 });
  const sparse = minisearchSparseBackend();

  beforeEach(() => {
    docDir = mkdtempSync(join(tmpdir(), 'doctree-vector-factory-'));
    writeFileSync(join(docDir, 'doctree.mm.json'), JSON.stringify(sampleTree()));
  });
  afterEach(() => rmSync(docDir, { recursive: true, force: true }));

  it('builds every dense view with the factory, records its id, and loads them back with it for search', async () => {
    const factory = jsonVectorIndexFactory();
    const built = await buildDocIndex(docDir, { embedder, sparse, vectorIndex: factory });
    expect(factory.made).toHaveLength(3);
    const files = readdirSync(join(docDir, 'index'));
    expect(files).toEqual(expect.arrayContaining(['coarse.custom-vectors', 'leaf.custom-vectors', 'leaf_raw.custom-vectors', 'coarse.custom-vectors.meta.json']));
    expect(files.some((f) => f.endsWith('.vectors') || f.endsWith('.faiss'))).toBe(false);
    // The saved file is the factory's own format (JSON), listed with its sha256 like every artifact.
    expect(JSON.parse(readFileSync(join(docDir, 'index', 'coarse.custom-vectors'), 'utf8')).ids.length).toBeGreaterThan(5);
    const manifest = IndexManifestSchema.parse(JSON.parse(readFileSync(join(docDir, 'index', 'manifest.json'), 'utf8')));
    expect(manifest.vector_index).toEqual({ id: 'json-scan-v1' });
    expect(manifest.artifacts.map((a) => a.name)).toEqual(expect.arrayContaining(['coarse.custom-vectors', 'leaf_raw.custom-vectors.meta.json']));
    expect(built.manifest.vector_index?.id).toBe('json-scan-v1');

    const index = await loadDocIndex(docDir, { sparse, embedder, vectorIndex: factory, validation: 'full' });
    expect(index.vectors.coarse).toBeInstanceOf(JsonVectorIndex);
    const coarse = index.vectors.coarse as JsonVectorIndex;
    const hits = coarse.search(await embedder.embedQuery('Consolidated Statement of Cash Flows'), { k: 4 });
    expect(coarse.searches).toBe(1);
    expect(hits.map((h) => h.id)).toContain('sec_4#h');
  });

  it('rebuilds when the factory changes, and is a no-op with the same one', async () => {
    const first = await buildDocIndex(docDir, { embedder, sparse, vectorIndex: jsonVectorIndexFactory() });
    expect((await buildDocIndex(docDir, { embedder, sparse, vectorIndex: jsonVectorIndexFactory() })).rebuilt).toBe(false);
    const other = await buildDocIndex(docDir, { embedder, sparse, vectorIndex: jsonVectorIndexFactory('json-scan-v2') });
    expect(other.rebuilt).toBe(true);
    expect(other.manifest.config_hash).not.toBe(first.manifest.config_hash);
    const builtin = await buildDocIndex(docDir, { embedder, sparse, backend: 'exact' });
    expect(builtin.rebuilt).toBe(true);
    expect(builtin.manifest.vector_index).toBeUndefined();
    expect(existsSync(join(docDir, 'index', 'coarse.vectors'))).toBe(true);
    // The built-in factory given explicitly is the default: same config hash, nothing rebuilt.
    expect((await buildDocIndex(docDir, { embedder, sparse, vectorIndex: builtinVectorIndexFactory({ backend: 'exact' }) })).rebuilt).toBe(false);
  });

  it('refuses to load an index with other vector indexes than it was built with (BACKEND_UNAVAILABLE naming both)', async () => {
    await buildDocIndex(docDir, { embedder, sparse, vectorIndex: jsonVectorIndexFactory() });
    const without = await rejection(loadDocIndex(docDir, { sparse, embedder }));
    expect(without.code).toBe('BACKEND_UNAVAILABLE');
    expect(without.message).toContain('"json-scan-v1"');
    expect(without.hint).toContain('vectorIndex');
    const other = await rejection(loadDocIndex(docDir, { sparse, embedder, vectorIndex: jsonVectorIndexFactory('json-scan-v2') }));
    expect(other.message).toMatch(/json-scan-v1.*json-scan-v2/);

    rmSync(join(docDir, 'index'), { recursive: true });
    await buildDocIndex(docDir, { embedder, sparse, backend: 'exact' });
    const custom = await rejection(loadDocIndex(docDir, { sparse, embedder, vectorIndex: jsonVectorIndexFactory() }));
    expect(custom.code).toBe('BACKEND_UNAVAILABLE');
    expect(custom.message).toContain('built-in');
    expect((await loadDocIndex(docDir, { sparse, embedder })).vectors.leaf).toBeInstanceOf(ExactVectorIndex);
  });

  it('turns a raw error of a factory into INDEX_CORRUPT naming the file, and refuses a factory without load', async () => {
    const factory = jsonVectorIndexFactory();
    await buildDocIndex(docDir, { embedder, sparse, vectorIndex: factory });
    const broken = { ...factory, load: () => Promise.reject(new TypeError('boom')) };
    const error = await rejection(loadDocIndex(docDir, { sparse, embedder, vectorIndex: broken }));
    expect(error.code).toBe('INDEX_CORRUPT');
    expect(error.file).toMatch(/\.custom-vectors$/);
    const usage = await rejection(buildDocIndex(docDir, { embedder, sparse, force: true, vectorIndex: { id: 'x', create: factory.create } as never }));
    expect(usage.code).toBe('USAGE');
  });
});
