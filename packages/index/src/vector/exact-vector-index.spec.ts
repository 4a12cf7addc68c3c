import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { runVectorIndexConformance } from '../testing/index.js';
import { ExactVectorIndex } from './exact-vector-index.js';
import { decodeVectorFile, encodeVectorFile } from './vector-file-format.js';

runVectorIndexConformance('exact', { create: (options) => new ExactVectorIndex(options) });

describe('ExactVectorIndex', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'doctree-exact-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('grows past its initial capacity, one vector at a time', () => {
    const index = new ExactVectorIndex({ dimension: 3, embedderId: 'e', initialCapacity: 1 });
    for (let i = 0; i < 100; i++) index.add([`v${i}`], [new Float32Array([i, 1, 0])]);
    expect(index.info.size).toBe(100);
    expect(index.search(new Float32Array([1, 0, 0]), { k: 2 }).map((h) => h.id)).toEqual(['v99', 'v98']);
  });

  it('keeps defaults for options given as undefined', () => {
    const index = new ExactVectorIndex({ dimension: 2, embedderId: 'e', metric: undefined, initialCapacity: undefined });
    expect(index.info.metric).toBe('inner_product');
  });

  it('breaks score ties by insertion order', () => {
    const index = new ExactVectorIndex({ dimension: 2, embedderId: 'e' });
    index.add(['a', 'b', 'c'], [new Float32Array([1, 0]), new Float32Array([1, 0]), new Float32Array([1, 0])]);
    expect(index.search(new Float32Array([1, 0]), { k: 2 }).map((h) => h.id)).toEqual(['a', 'b']);
  });

  it('returns the negative squared distance for l2', () => {
    const index = new ExactVectorIndex({ dimension: 2, embedderId: 'e', metric: 'l2' });
    index.add(['far', 'near'], [new Float32Array([3, 4]), new Float32Array([1, 1])]);
    expect(index.search(new Float32Array([0, 0]), { k: 2 })).toEqual([
      { id: 'near', score: -2 },
      { id: 'far', score: -25 },
    ]);
  });

  it('writes a DTVX file, atomically (no temporary file left)', async () => {
    const index = new ExactVectorIndex({ dimension: 2, embedderId: 'hashing-v1:d2' });
    index.add(['a', 'b'], [new Float32Array([0.5, 0.25]), new Float32Array([-1, 2])]);
    const path = join(dir, 'dense.vec');
    await index.save(path);
    const bytes = await readFile(path);
    expect(bytes.subarray(0, 4).toString('latin1')).toBe('DTVX');
    expect(bytes.length).toBe(16 + 2 * 2 * 4);
    expect(Array.from(decodeVectorFile(bytes, path).vectors)).toEqual([0.5, 0.25, -1, 2]);
    const meta = JSON.parse(await readFile(`${path}.meta.json`, 'utf8'));
    expect(meta).toEqual({
      format: 'doctree.vectors',
      version: 1,
      backend: 'exact',
      kind: 'flat',
      metric: 'inner_product',
      dimension: 2,
      size: 2,
      embedder_id: 'hashing-v1:d2',
      ids: ['a', 'b'],
    });
    expect((await readdir(dir)).filter((name) => name.includes('.tmp-'))).toEqual([]);
  });

  it('removes the temporary file when a write fails', async () => {
    const index = new ExactVectorIndex({ dimension: 2, embedderId: 'e' });
    const occupied = join(dir, 'occupied');
    await mkdir(join(occupied, 'child'), { recursive: true });
    // Renaming the temporary file over a non-empty directory fails.
    await expect(index.save(occupied)).rejects.toMatchObject({ code: 'IO_WRITE_FAILED', file: occupied });
    expect((await readdir(dir)).filter((name) => name.includes('.tmp-'))).toEqual([]);
  });

  it('round-trips the binary encoding', () => {
    const values = new Float32Array([1.5, -2, 3.25, 0, 1e-7, 42]);
    const decoded = decodeVectorFile(encodeVectorFile(3, values), 'x');
    expect(decoded.dimension).toBe(3);
    expect(decoded.count).toBe(2);
    expect(decoded.vectors).toEqual(values);
  });
});
