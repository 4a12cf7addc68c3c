import { mkdtemp, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { DocTreeError } from '@doctree/schema';

import { ExactVectorIndex } from './exact-vector-index.js';
import type { FaissNodeModule } from './faiss-node-loader.js';
import { FaissVectorIndex } from './faiss-vector-index.js';
import { createVectorIndex, detectVectorBackend, loadVectorIndex } from './vector-backend.js';

function faissLoadable(): boolean {
  try {
    jest.requireActual<FaissNodeModule>('faiss-node');
    return true;
  } catch {
    return false;
  }
}
const hasFaiss = faissLoadable();
const withFaiss = hasFaiss ? it : it.skip;

async function rejection(promise: Promise<unknown>): Promise<DocTreeError> {
  try {
    await promise;
  } catch (error) {
    if (DocTreeError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a rejection');
}

function vectors(count: number, dimension: number): Float32Array[] {
  return Array.from({ length: count }, (_, v) => Float32Array.from({ length: dimension }, (_, i) => Math.sin(v * 7 + i * 3)));
}

describe('vector backends', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'doctree-backend-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  afterEach(() => {
    delete process.env['DOCTREE_SKIP_FAISS'];
  });

  async function saveExact(name: string): Promise<string> {
    const index = new ExactVectorIndex({ dimension: 4, embedderId: 'hashing-v1:d4' });
    index.add(['a', 'b', 'c'], vectors(3, 4));
    const path = join(dir, name);
    await index.save(path);
    return path;
  }

  describe('detectVectorBackend', () => {
    it('reports faiss availability and the active backend', async () => {
      const status = await detectVectorBackend();
      expect(status.requested).toBe('auto');
      expect(status.faiss.available).toBe(hasFaiss);
      expect(status.active).toBe(hasFaiss ? 'faiss' : 'exact');
      expect(status.reason).toMatch(hasFaiss ? /faiss-node .*loaded/ : /exact/);
      if (hasFaiss) expect(status.faiss.version).toMatch(/^\d+\.\d+\.\d+/);
      else expect(status.faiss.error).toBeDefined();
    });

    it('honours an explicit exact request', async () => {
      expect(await detectVectorBackend({ backend: 'exact' })).toMatchObject({ active: 'exact', requested: 'exact' });
    });

    it('treats faiss as unavailable under DOCTREE_SKIP_FAISS=1', async () => {
      process.env['DOCTREE_SKIP_FAISS'] = '1';
      const status = await detectVectorBackend();
      expect(status).toMatchObject({ active: 'exact', faiss: { available: false, error: 'disabled by DOCTREE_SKIP_FAISS=1' } });
      expect(status.reason).toMatch(/npm run setup/);
    });
  });

  describe('createVectorIndex', () => {
    it('uses faiss when it loads, else the exact index (auto)', async () => {
      const index = await createVectorIndex({ dimension: 8, embedderId: 'e', kind: 'hnsw' });
      expect(index.info).toMatchObject(hasFaiss ? { backend: 'faiss', kind: 'hnsw' } : { backend: 'exact', kind: 'flat' });
    });

    it('falls back to the exact flat index when faiss is missing', async () => {
      process.env['DOCTREE_SKIP_FAISS'] = '1';
      const index = await createVectorIndex({ dimension: 8, embedderId: 'e', kind: 'hnsw', metric: 'l2' });
      expect(index).toBeInstanceOf(ExactVectorIndex);
      expect(index.info).toEqual({ backend: 'exact', kind: 'flat', metric: 'l2', dimension: 8, size: 0, embedderId: 'e' });
    });

    it('throws BACKEND_UNAVAILABLE with a hint when faiss is requested but missing', async () => {
      process.env['DOCTREE_SKIP_FAISS'] = '1';
      const error = await rejection(createVectorIndex({ backend: 'faiss', dimension: 8, embedderId: 'e' }));
      expect(error.code).toBe('BACKEND_UNAVAILABLE');
      expect(error.hint).toMatch(/npm run setup/);
    });

    it('rejects invalid options', async () => {
      expect((await rejection(createVectorIndex({ backend: 'exact', dimension: 0, embedderId: 'e' }))).code).toBe('CONFIG_INVALID');
      expect((await rejection(createVectorIndex({ backend: 'exact', dimension: 4, embedderId: '' }))).code).toBe('CONFIG_INVALID');
    });
  });

  describe('loadVectorIndex', () => {
    it('loads an exact index', async () => {
      const path = await saveExact('ok.vec');
      const index = await loadVectorIndex(path, { expectedEmbedderId: 'hashing-v1:d4' });
      expect(index.info).toMatchObject({ backend: 'exact', size: 3 });
    });

    it('reports a missing index as INDEX_MISSING', async () => {
      expect((await rejection(loadVectorIndex(join(dir, 'nope.vec')))).code).toBe('INDEX_MISSING');
      const path = await saveExact('no-binary.vec');
      await rm(path);
      expect((await rejection(loadVectorIndex(path))).code).toBe('INDEX_MISSING');
    });

    it('refuses another embedder with EMBEDDER_MISMATCH', async () => {
      const path = await saveExact('embedder.vec');
      const error = await rejection(loadVectorIndex(path, { expectedEmbedderId: 'openai:text-embedding-3-small' }));
      expect(error.code).toBe('EMBEDDER_MISMATCH');
      expect(error.message).toMatch(/hashing-v1:d4/);
    });

    it('refuses other formats and versions with FORMAT_VERSION_UNSUPPORTED', async () => {
      const path = await saveExact('version.vec');
      const meta = JSON.parse(await readFile(`${path}.meta.json`, 'utf8'));
      await writeFile(`${path}.meta.json`, JSON.stringify({ ...meta, version: 2 }));
      expect((await rejection(loadVectorIndex(path))).code).toBe('FORMAT_VERSION_UNSUPPORTED');
      await writeFile(`${path}.meta.json`, JSON.stringify({ ...meta, format: 'other.vectors' }));
      expect((await rejection(loadVectorIndex(path))).code).toBe('FORMAT_VERSION_UNSUPPORTED');
      await writeFile(`${path}.meta.json`, JSON.stringify(meta));
      const bytes = await readFile(path);
      bytes.writeUInt32LE(9, 4);
      await writeFile(path, bytes);
      expect((await rejection(loadVectorIndex(path))).code).toBe('FORMAT_VERSION_UNSUPPORTED');
    });

    it('reports damaged files as INDEX_CORRUPT', async () => {
      const path = await saveExact('corrupt.vec');
      const meta = JSON.parse(await readFile(`${path}.meta.json`, 'utf8'));
      await truncate(path, 30);
      expect((await rejection(loadVectorIndex(path))).code).toBe('INDEX_CORRUPT');
      await writeFile(`${path}.meta.json`, '{"format":"doctree.vectors","version":1');
      expect((await rejection(loadVectorIndex(path))).code).toBe('INDEX_CORRUPT');
      await writeFile(`${path}.meta.json`, JSON.stringify({ ...meta, ids: ['a', 'b'] }));
      expect((await rejection(loadVectorIndex(path))).code).toBe('INDEX_CORRUPT');
      await writeFile(`${path}.meta.json`, JSON.stringify({ ...meta, ids: ['a', 'a', 'b'] }));
      expect((await rejection(loadVectorIndex(path))).code).toBe('INDEX_CORRUPT');
      await writeFile(path, 'definitely not vectors');
      await writeFile(`${path}.meta.json`, JSON.stringify(meta));
      expect((await rejection(loadVectorIndex(path))).code).toBe('INDEX_CORRUPT');
    });

    it('throws BACKEND_UNAVAILABLE when faiss is requested but missing', async () => {
      const path = await saveExact('want-faiss.vec');
      process.env['DOCTREE_SKIP_FAISS'] = '1';
      expect((await rejection(loadVectorIndex(path, { backend: 'faiss' }))).code).toBe('BACKEND_UNAVAILABLE');
    });

    withFaiss('loads a faiss-written index with the exact backend from its raw-vector sidecar', async () => {
      const faiss = jest.requireActual<FaissNodeModule>('faiss-node');
      const written = new FaissVectorIndex({ faiss, dimension: 6, embedderId: 'e', kind: 'hnsw' });
      const data = vectors(40, 6);
      written.add(data.map((_, i) => `n${i}`), data);
      const path = join(dir, 'faiss.idx');
      await written.save(path);

      const asFaiss = await loadVectorIndex(path);
      expect(asFaiss).toBeInstanceOf(FaissVectorIndex);
      expect(asFaiss.info).toEqual(written.info);
      expect((asFaiss as FaissVectorIndex).hnswParameters).toEqual({ m: 32, efConstruction: 200, efSearch: 64 });

      process.env['DOCTREE_SKIP_FAISS'] = '1';
      const fallback = await loadVectorIndex(path, { expectedEmbedderId: 'e' });
      expect(fallback).toBeInstanceOf(ExactVectorIndex);
      expect(fallback.info).toEqual({ ...written.info, backend: 'exact', kind: 'flat' });
      for (const query of data.slice(0, 5)) {
        expect(fallback.search(query, { k: 3 }).map((h) => h.id)).toEqual(written.search(query, { k: 3 }).map((h) => h.id));
      }
      delete process.env['DOCTREE_SKIP_FAISS'];
      expect(await loadVectorIndex(path, { backend: 'exact' })).toBeInstanceOf(ExactVectorIndex);

      await rm(`${path}.vectors`);
      expect((await rejection(loadVectorIndex(path, { backend: 'exact' }))).code).toBe('INDEX_MISSING');
    });

    withFaiss('reports a truncated faiss file as INDEX_CORRUPT', async () => {
      const faiss = jest.requireActual<FaissNodeModule>('faiss-node');
      const written = new FaissVectorIndex({ faiss, dimension: 6, embedderId: 'e' });
      written.add(['a', 'b'], vectors(2, 6));
      const path = join(dir, 'faiss-truncated.idx');
      await written.save(path);
      await truncate(path, 20);
      expect((await rejection(loadVectorIndex(path))).code).toBe('INDEX_CORRUPT');
    });

    withFaiss('rebuilds an exact-written index as faiss flat when faiss is requested', async () => {
      const path = await saveExact('to-faiss.vec');
      const index = await loadVectorIndex(path, { backend: 'faiss' });
      expect(index).toBeInstanceOf(FaissVectorIndex);
      expect(index.info).toMatchObject({ backend: 'faiss', kind: 'flat', size: 3 });
      const exact = await loadVectorIndex(path, { backend: 'exact' });
      const query = vectors(5, 4)[4] as Float32Array;
      expect(index.search(query, { k: 3 }).map((h) => h.id)).toEqual(exact.search(query, { k: 3 }).map((h) => h.id));
    });
  });
});
