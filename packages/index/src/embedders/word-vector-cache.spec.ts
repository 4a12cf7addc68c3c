import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { DocTreeError } from '@doctree/schema';

import { decodeWordVectors, encodeWordVectors, quantizeRow, readWordVectors, WORD_VECTORS_FORMAT, writeWordVectors } from './word-vector-cache.js';

function sample() {
  const words = ['the', 'café', '"', 'revenue'];
  const dimension = 3;
  const values = [
    [0.5, -1, 0.25],
    [0, 0, 0],
    [2, 1, -3],
    [1e-3, 2e-3, -1e-3],
  ];
  const matrix = new Int8Array(words.length * dimension);
  const scales = new Float32Array(words.length);
  values.forEach((row, i) => (scales[i] = quantizeRow(row, matrix, i * dimension)));
  return { words, dimension, values, matrix, scales, source: { package: 'test-vectors', version: '1.0.0' } };
}

function caught(fn: () => unknown): DocTreeError {
  try {
    fn();
  } catch (error) {
    if (DocTreeError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected an error');
}

describe('word-vector cache format', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'doctree-wordvec-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('quantises to int8 with a per-row scale', () => {
    const target = new Int8Array(3);
    const scale = quantizeRow([0.5, -1, 0.25], target, 0);
    expect(scale).toBeCloseTo(1 / 127, 8);
    expect(Array.from(target)).toEqual([64, -127, 32]);
    expect(quantizeRow([0, 0, 0], target, 0)).toBe(0);
  });

  it('round-trips words, scales and values through a file', async () => {
    const input = sample();
    const path = join(dir, 'sample.bin');
    await writeWordVectors(path, input);
    const loaded = await readWordVectors(path);
    expect(loaded.meta).toMatchObject({ format: WORD_VECTORS_FORMAT, version: 2, dimension: 3, size: 4, source: input.source });
    expect(loaded.words).toEqual(input.words);
    expect(loaded.rows.get('café')).toBe(1);
    input.values.forEach((row, i) =>
      row.forEach((value, d) => {
        expect(loaded.matrix[i * 3 + d]! * loaded.scales[i]!).toBeCloseTo(value, Math.abs(value) > 0.1 ? 1 : 4);
        expect(Math.abs(loaded.matrix[i * 3 + d]! * loaded.scales[i]! - value)).toBeLessThanOrEqual(Math.max(...row.map(Math.abs)) / 254 + 1e-9);
      }),
    );
  });

  it('looks words up like a map: first (most frequent) row of a repeated word, UTF-8 words, absent words', () => {
    const words = ['the', 'of', 'café', 'naïve', 'the', 'revenue', '"', 'a]b', 'São', '東京'];
    const dimension = 2;
    const decoded = decodeWordVectors(encodeWordVectors({ words, dimension, matrix: new Int8Array(words.length * dimension), scales: new Float32Array(words.length), source: { package: 't', version: '1' } }));
    const expected = new Map<string, number>();
    words.forEach((word, row) => (expected.has(word) ? undefined : expected.set(word, row)));
    for (const [word, row] of expected) expect([word, decoded.rows.get(word)]).toEqual([word, row]);
    for (const absent of ['', 'th', 'thee', 'cafe', 'Café', '東', 'revenues']) expect([absent, decoded.rows.get(absent)]).toEqual([absent, undefined]);
    expect(decoded.rows.size).toBe(expected.size);
    expect(decoded.rows.has('café')).toBe(true);
    // Many words: every one found at its row (exercises collisions in the hash table).
    const many = Array.from({ length: 5000 }, (_, i) => `w${(i * 7919) % 100_003}x${i % 13}`);
    const big = decodeWordVectors(encodeWordVectors({ words: many, dimension: 1, matrix: new Int8Array(many.length), scales: new Float32Array(many.length), source: { package: 't', version: '1' } }));
    many.forEach((word, row) => expect(big.rows.get(word) === row || many.indexOf(word) === big.rows.get(word)).toBe(true));
    expect(big.rows.get('w1x99')).toBeUndefined();
  });

  it('decodes from an unaligned buffer', () => {
    const bytes = encodeWordVectors(sample());
    const shifted = new Uint8Array(bytes.length + 1);
    shifted.set(bytes, 1);
    const decoded = decodeWordVectors(shifted.subarray(1));
    expect(decoded.words).toEqual(sample().words);
    expect(Array.from(decoded.scales)).toEqual(Array.from(sample().scales));
  });

  it('rejects damaged files and other versions', async () => {
    const bytes = Buffer.from(encodeWordVectors(sample()));
    expect(caught(() => decodeWordVectors(bytes.subarray(0, bytes.length - 1))).code).toBe('INDEX_CORRUPT');
    expect(caught(() => decodeWordVectors(Buffer.from('nope'))).code).toBe('INDEX_CORRUPT');
    const headerLength = bytes.readUInt32LE(4);
    const header = bytes.toString('utf8', 8, 8 + headerLength).replace('"version":2', '"version":9');
    const other = Buffer.from(bytes);
    other.write(header, 8, 'utf8');
    const path = join(dir, 'v9.bin');
    await writeFile(path, other);
    const error = await readWordVectors(path).catch((e: unknown) => e);
    expect(DocTreeError.isInstance(error) && error.code).toBe('FORMAT_VERSION_UNSUPPORTED');
    expect((await readFile(path)).length).toBe(bytes.length);
  });
});
