import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DocTreeError, INDEX_FORMAT_VERSION, IndexManifestSchema } from '@doctree/schema';
import { sampleTree } from '../__fixtures__/sample-tree.js';
import { HashingEmbedder } from '../embedders/hashing-embedder.js';
import { buildPageRecords } from '../records/page-records.js';
import { buildDocIndex } from './build-doc-index.js';
import { INDEX_FILES } from './index-files.js';
import { loadDocIndex } from './load-doc-index.js';
import { minisearchSparseBackend } from './sparse-backend.js';

describe('buildDocIndex / loadDocIndex', () => {
  let docDir: string;
  const embedder = new HashingEmbedder({ dimension: 256 });
  const sparse = minisearchSparseBackend();

  beforeEach(() => {
    docDir = mkdtempSync(join(tmpdir(), 'doctree-index-'));
    writeFileSync(join(docDir, 'doctree.mm.json'), JSON.stringify(sampleTree()));
  });
  afterEach(() => rmSync(docDir, { recursive: true, force: true }));

  it('writes every artifact with a manifest, then loads one DocIndex that answers lookups', async () => {
    const built = await buildDocIndex(docDir, { embedder, sparse, backend: 'exact' });
    expect(built.rebuilt).toBe(true);
    const files = readdirSync(join(docDir, 'index'));
    for (const name of Object.values(INDEX_FILES)) expect(files).toContain(name);
    expect(files).toEqual(expect.arrayContaining(['coarse.vectors', 'leaf.vectors', 'leaf_raw.vectors']));
    expect(files.some((f) => f.includes('.tmp-'))).toBe(false);
    const manifest = IndexManifestSchema.parse(JSON.parse(readFileSync(join(docDir, 'index', 'manifest.json'), 'utf8')));
    expect(manifest).toMatchObject({ doc_id: 'acme-10k-2018', embedder: { id: embedder.id, dimension: 256 }, vector_backend: 'exact' });
    expect(manifest.artifacts.find((a) => a.name === INDEX_FILES.denseCoarse)?.records).toBeGreaterThan(10);

    const index = await loadDocIndex(docDir, { sparse, embedder, validation: 'full' });
    expect(index.idMaps.label2id['Table 2']).toBe('tab_1');
    expect(index.graph.onPage(4)).toContain('tab_1');
    const hits = index.sparseCoarse.search('purchases of property plant equipment', { k: 3 });
    expect(hits[0]?.id).toBe('tab_1');
    const query = await embedder.embedQuery('Consolidated Statement of Cash Flows');
    const dense = index.vectors.coarse.search(query, { k: 4 }).map((h) => h.id);
    expect(dense).toContain('sec_4#h');
    expect(index.denseLeaf.get('t_2#c0')?.orig_node_id).toBe('t_2');
    expect(index.loadTimings['total']).toBeGreaterThan(0);
    expect(manifest.timings_ms['pages']).toBeGreaterThanOrEqual(0);
    expect(manifest.artifacts.find((a) => a.name === INDEX_FILES.bm25Pages)?.records).toBe(index.sparsePages.size);
  });

  it('builds the page view with the index: one BM25F document per page and the years of each page', async () => {
    await buildDocIndex(docDir, { embedder, sparse, backend: 'exact' });
    const index = await loadDocIndex(docDir, { sparse, embedder, validation: 'full' });
    const { docs, pages } = buildPageRecords(sampleTree());
    expect(index.sparsePages.size).toBe(docs.length);
    expect([...index.pageYears.keys()]).toEqual(pages.map((p) => p.page_idx));
    expect(index.pageYears.get(3)).toEqual(pages.find((p) => p.page_idx === 3)?.years);
    const stored = readFileSync(join(docDir, 'index', INDEX_FILES.sparsePages), 'utf8').trim().split('\n').map((line) => JSON.parse(line));
    expect(stored).toEqual(docs);
    const hits = index.sparsePages.search('purchases of property plant equipment', { k: 3 });
    expect(hits[0]).toMatchObject({ id: 'P4' });
    // The same page documents indexed in memory score the same.
    const inMemory = sparse.build(docs).search('purchases of property plant equipment', { k: 3 });
    expect(hits).toEqual(inMemory);
  });

  it('rebuilds an index of the previous format version (no page view), which the loader refuses', async () => {
    await buildDocIndex(docDir, { embedder, sparse, backend: 'exact' });
    const manifestPath = join(docDir, 'index', 'manifest.json');
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
    // What a version 1 index looked like: no page files, version 1 in the manifest.
    for (const name of [INDEX_FILES.sparsePages, INDEX_FILES.bm25Pages, INDEX_FILES.pages]) rmSync(join(docDir, 'index', name));
    const old = { ...manifest, version: 1, artifacts: manifest.artifacts.filter((a: { name: string }) => !a.name.includes('pages')) };
    writeFileSync(manifestPath, JSON.stringify(old));
    await expect(loadDocIndex(docDir, { sparse, embedder })).rejects.toMatchObject({ code: 'FORMAT_VERSION_UNSUPPORTED', hint: expect.stringMatching(/doctree index/) });
    const rebuilt = await buildDocIndex(docDir, { embedder, sparse, backend: 'exact' });
    expect(rebuilt.rebuilt).toBe(true);
    expect(rebuilt.manifest.version).toBe(INDEX_FORMAT_VERSION);
    expect((await loadDocIndex(docDir, { sparse, embedder })).sparsePages.size).toBeGreaterThan(0);
  });

  it('is a no-op when nothing changed, and rebuilds when the tree or the configuration changes', async () => {
    const first = await buildDocIndex(docDir, { embedder, sparse, backend: 'exact' });
    const again = await buildDocIndex(docDir, { embedder, sparse, backend: 'exact' });
    expect(again.rebuilt).toBe(false);
    expect(again.manifest.build_id).toBe(first.manifest.build_id);
    const otherConfig = await buildDocIndex(docDir, { embedder, sparse, backend: 'exact', records: { leafChunkTokens: 120 } });
    expect(otherConfig.rebuilt).toBe(true);
    const tree = sampleTree();
    tree.nodes[3]!.text = tree.nodes[3]!.text.replace('4.2%', '4.3%');
    tree.text = tree.text.replace('4.2%', '4.3%');
    writeFileSync(join(docDir, 'doctree.mm.json'), JSON.stringify(tree));
    const changedTree = await buildDocIndex(docDir, { embedder, sparse, backend: 'exact', records: { leafChunkTokens: 120 } });
    expect(changedTree.rebuilt).toBe(true);
  });

  it('refuses a different query embedder, another format version and missing files, with the file named', async () => {
    await buildDocIndex(docDir, { embedder, sparse, backend: 'exact' });
    const expectCode = async (promise: Promise<unknown>, code: string, file: RegExp): Promise<void> => {
      const error = await promise.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(DocTreeError.isInstance(error)).toBe(true);
      expect((error as DocTreeError).code).toBe(code);
      expect((error as DocTreeError).file).toMatch(file);
    };
    await expectCode(loadDocIndex(docDir, { sparse, embedder: new HashingEmbedder({ dimension: 128 }) }), 'EMBEDDER_MISMATCH', /manifest\.json$/);
    const manifestPath = join(docDir, 'index', 'manifest.json');
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
    writeFileSync(manifestPath, JSON.stringify({ ...manifest, version: 99 }));
    await expectCode(loadDocIndex(docDir, { sparse }), 'FORMAT_VERSION_UNSUPPORTED', /manifest\.json$/);
    writeFileSync(manifestPath, JSON.stringify(manifest));
    rmSync(join(docDir, 'index', INDEX_FILES.denseLeaf));
    await expectCode(loadDocIndex(docDir, { sparse }), 'INDEX_MISSING', /dense_leaf\.jsonl$/);
  });

  it('lists every file of index/ in the manifest, so a missing vector sidecar or metadata file rebuilds', async () => {
    const built = await buildDocIndex(docDir, { embedder, sparse, backend: 'exact' });
    expect(built.manifest.artifacts.map((a) => a.name).sort()).toEqual(readdirSync(join(docDir, 'index')).filter((f) => f !== 'manifest.json').sort());
    rmSync(join(docDir, 'index', 'leaf_raw.vectors.meta.json'));
    const again = await buildDocIndex(docDir, { embedder, sparse, backend: 'exact' });
    expect(again.rebuilt).toBe(true);
    expect(existsSync(join(docDir, 'index', 'leaf_raw.vectors.meta.json'))).toBe(true);
  });

  it('with fast validation still refuses a tree changed since the build and same-size damage, as INDEX_CORRUPT naming the file', async () => {
    await buildDocIndex(docDir, { embedder, sparse, backend: 'exact' });
    const corrupt = async (name: string, edit: (text: string) => string, file: RegExp, when: 'load' | 'search' = 'load'): Promise<void> => {
      const path = name === 'doctree.mm.json' ? join(docDir, name) : join(docDir, 'index', name);
      const before = readFileSync(path, 'utf8');
      const after = edit(before);
      expect(Buffer.byteLength(after)).toBe(Buffer.byteLength(before));
      writeFileSync(path, after);
      const outcome = await loadDocIndex(docDir, { sparse, embedder, validation: 'fast' }).then(
        (index) => {
          if (when === 'load') return index;
          try {
            return index.sparseLeaf.search('liquidity debt', { k: 3 });
          } catch (error) {
            return error;
          }
        },
        (error: unknown) => error,
      );
      expect(outcome).toMatchObject({ code: 'INDEX_CORRUPT', file: expect.stringMatching(file) });
      writeFileSync(path, before);
    };
    await corrupt('doctree.mm.json', (t) => t.replace('4.2%', '4.3%'), /doctree\.mm\.json$/);
    await corrupt(INDEX_FILES.bm25Leaf, (t) => `${t.slice(0, -2)}]}`, /bm25_leaf\.json$/);
    await corrupt(INDEX_FILES.summary, (t) => t.replace('"doctree.summary"', '"doctree.summery"'), /summary\.json$/);
    await corrupt(INDEX_FILES.pages, (t) => t.replace('"doctree.pages"', '"doctree.pagez"'), /pages\.json$/);
    await corrupt(INDEX_FILES.pages, (t) => t.replace('"years":[', '"yeers":['), /pages\.json$/);
    await corrupt(INDEX_FILES.bm25Pages, (t) => `${t.slice(0, -2)}]}`, /bm25_pages\.json$/);
    // Postings of a term replaced by a number of the same length: noticed when a search reaches them.
    await corrupt(INDEX_FILES.bm25Leaf, (t) => t.replace(/\["liquiditi",\{[^\]]*\}\]/, (m) => `["liquiditi",${'1'.repeat(m.length - 14)}]`), /bm25_leaf\.json$/, 'search');
    expect((await loadDocIndex(docDir, { sparse, embedder, validation: 'full' })).sparseLeaf.search('liquidity', { k: 1 })).toHaveLength(1);
  });

  it('checks every file\'s sha256: same-size tampering rebuilds on `index` and is INDEX_CORRUPT on load (full and fast)', async () => {
    const first = await buildDocIndex(docDir, { embedder, sparse, backend: 'exact' });
    const tamper = (name: string): { path: string; before: Buffer } => {
      const path = join(docDir, 'index', name);
      const before = readFileSync(path);
      const after = Buffer.from(before);
      // Flip the bits of a few bytes in the middle: the size stays, the content does not.
      for (let i = Math.floor(after.length / 2); i < Math.floor(after.length / 2) + 4; i++) after[i] = after[i]! ^ 0xff;
      expect(after.byteLength).toBe(before.byteLength);
      writeFileSync(path, after);
      return { path, before };
    };
    for (const name of [INDEX_FILES.denseLeaf, INDEX_FILES.bm25Leaf, 'leaf.vectors']) {
      const { path, before } = tamper(name);
      for (const validation of ['full', 'fast'] as const) {
        await expect(loadDocIndex(docDir, { sparse, embedder, validation })).rejects.toMatchObject({
          code: 'INDEX_CORRUPT',
          file: path,
          hint: expect.stringMatching(/doctree index/),
        });
      }
      const again = await buildDocIndex(docDir, { embedder, sparse, backend: 'exact' });
      expect(again.rebuilt).toBe(true);
      expect(readFileSync(path).equals(before)).toBe(true);
      expect((await loadDocIndex(docDir, { sparse, embedder, validation: 'full' })).manifest.config_hash).toBe(first.manifest.config_hash);
    }
    // Nothing tampered: still a no-op.
    expect((await buildDocIndex(docDir, { embedder, sparse, backend: 'exact' })).rebuilt).toBe(false);
  });

  it('leaves the previous index untouched when a build fails', async () => {
    await buildDocIndex(docDir, { embedder, sparse, backend: 'exact' });
    const before = readFileSync(join(docDir, 'index', 'manifest.json'), 'utf8');
    const failing = { ...embedder, id: 'failing', dimension: 256, embedQuery: embedder.embedQuery.bind(embedder), embedDocuments: async () => Promise.reject(new Error('embedding service down')) };
    await expect(buildDocIndex(docDir, { embedder: failing, sparse, backend: 'exact' })).rejects.toThrow('embedding service down');
    expect(readFileSync(join(docDir, 'index', 'manifest.json'), 'utf8')).toBe(before);
    expect(readdirSync(docDir).filter((f) => f.includes('.tmp-'))).toEqual([]);
    expect(existsSync(join(docDir, 'index', 'coarse.vectors'))).toBe(true);
  });

  it('reports a missing tree with a hint to ingest first', async () => {
    rmSync(join(docDir, 'doctree.mm.json'));
    await expect(buildDocIndex(docDir, { embedder, sparse })).rejects.toMatchObject({ code: 'INPUT_NOT_FOUND', hint: expect.stringMatching(/doctree ingest/) });
  });
});
