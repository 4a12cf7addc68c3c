import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mkdir } from 'node:fs/promises';
import { detectVectorBackend } from '@doctree/index';
import { conformanceRow, conformanceSelection, runCollectionStoreConformance } from './collection-store-conformance.js';
import { FileCollectionStore } from './file-collection-store.js';

runCollectionStoreConformance({
  name: 'FileCollectionStore',
  create: async () => {
    const dir = mkdtempSync(join(tmpdir(), 'doctree-store-'));
    return { store: new FileCollectionStore(join(dir, 'collection'), { backend: 'exact' }), dispose: async () => rmSync(dir, { recursive: true, force: true }) };
  },
});

describe('FileCollectionStore', () => {
  it('builds the selection index as faiss HNSW from the size threshold on (exact below it)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'doctree-store-'));
    try {
      const faiss = (await detectVectorBackend({ backend: 'auto' })).faiss.available;
      const store = new FileCollectionStore(join(dir, 'c'), { backend: faiss ? 'faiss' : 'exact', hnswMinNodes: 3 });
      await store.initialize({ input_dir: '/in' });
      const commit = async (id: string, vectors: number[][]) => {
        const staged = await store.stageDocument(id);
        await mkdir(staged, { recursive: true });
        await store.commitDocument(conformanceRow(id, 'b1'), staged, conformanceSelection(id, vectors));
      };
      await commit('small', [[1, 0, 0, 0], [0, 1, 0, 0]]);
      expect((await store.refreshSelectionIndex()).kind).toBe('flat');
      await commit('more', [[0, 0, 1, 0], [0, 0, 0, 1]]);
      const info = await store.refreshSelectionIndex();
      expect(info).toEqual({ nodes: 4, kind: faiss ? 'hnsw' : 'flat', refreshed: 1 });
      expect((await store.searchNodes(Float32Array.from([0, 0, 1, 0]), 1))[0]).toMatchObject({ doc_id: 'more', node_id: 'n0' });
      // A store opened afresh reads the saved index.
      const reopened = new FileCollectionStore(join(dir, 'c'), { backend: faiss ? 'faiss' : 'exact', hnswMinNodes: 3 });
      expect((await reopened.searchNodes(Float32Array.from([0, 0, 0, 1]), 1))[0]).toMatchObject({ doc_id: 'more', node_id: 'n1' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
