import { DocTreeError } from '@doctree/schema';

import { runEmbedderConformance } from '../testing/embedder-conformance.js';
import { HASHING_EMBEDDER_DEFAULTS, HashingEmbedder } from './hashing-embedder.js';

const cosine = (a: Float32Array, b: Float32Array): number => a.reduce((sum, value, i) => sum + value * b[i]!, 0);

runEmbedderConformance('hashing', ({ batchSize }) => new HashingEmbedder({ batchSize }));
runEmbedderConformance('hashing d64 unigrams only', ({ batchSize }) => new HashingEmbedder({ batchSize, dimension: 64, bigramWeight: 0, charWeight: 0, stopwordWeight: 1 }));

describe('HashingEmbedder', () => {
  it('has a readable id that changes with every vector-changing setting', () => {
    const base = new HashingEmbedder();
    expect(base.id).toMatch(/^hashing-v1:d512:w2c3-5:s[0-9a-f]{8}$/);
    expect(new HashingEmbedder({ batchSize: 7 }).id).toBe(base.id);
    expect(new HashingEmbedder({ dimension: 1024 }).id).toMatch(/^hashing-v1:d1024:w2c3-5:/);
    expect(new HashingEmbedder({ bigramWeight: 0 }).id).toMatch(/^hashing-v1:d512:w1c3-5:/);
    expect(new HashingEmbedder({ charWeight: 0 }).id).toMatch(/^hashing-v1:d512:w2c0:/);
    const variants = [
      { wordWeight: 0.9 },
      { bigramWeight: 0.4 },
      { charWeight: 0.6 },
      { charNgramMin: 2 },
      { charNgramMax: 6 },
      { sublinearTf: false },
      { stopwordWeight: 1 },
    ].map((options) => new HashingEmbedder(options).id);
    expect(new Set([base.id, ...variants]).size).toBe(variants.length + 1);
    expect(new HashingEmbedder({ dimension: undefined }).id).toBe(base.id);
  });

  it('produces the pinned vector (bump hashing-v1 when this changes)', async () => {
    const embedder = new HashingEmbedder();
    const vector = await embedder.embedQuery('Net sales of Northwind rose 5% to $28.4 billion in 2018; the Café opened.');
    const nonZero = vector.reduce((n, value) => n + (value !== 0 ? 1 : 0), 0);
    const checksum = vector.reduce((sum, value, i) => sum + value * ((i % 7) + 1), 0);
    expect(embedder.id).toBe('hashing-v1:d512:w2c3-5:sc7a1aaa5');
    expect(nonZero).toBe(104);
    expect(checksum).toBeCloseTo(0.8696860559284687, 5);
  });

  it('matches accents, case, thousands separators and zero fractions', async () => {
    const embedder = new HashingEmbedder();
    const [a, b] = await embedder.embedDocuments(['Café revenue 1,482.00', 'CAFE Revenue 1482']);
    expect(cosine(a!, b!)).toBeCloseTo(1, 5);
  });

  it('relates word forms through character n-grams', async () => {
    const withChars = new HashingEmbedder();
    const without = new HashingEmbedder({ charWeight: 0 });
    const pair = ['descaling', 'descale'];
    const [a, b] = await withChars.embedDocuments(pair);
    const [c, d] = await without.embedDocuments(pair);
    expect(cosine(a!, b!)).toBeGreaterThan(0.05);
    expect(cosine(a!, b!)).toBeGreaterThan(Math.abs(cosine(c!, d!)) + 0.05);
  });

  it('down-weights stopwords', async () => {
    const embedder = new HashingEmbedder();
    const plain = new HashingEmbedder({ stopwordWeight: 1 });
    const texts = ['the revenue of the company', 'the weather of the day'];
    const [a, b] = await embedder.embedDocuments(texts);
    const [c, d] = await plain.embedDocuments(texts);
    expect(cosine(a!, b!)).toBeLessThan(cosine(c!, d!));
  });

  it('uses sublinear term frequency', async () => {
    const sublinear = new HashingEmbedder({ bigramWeight: 0, charWeight: 0 });
    const raw = new HashingEmbedder({ bigramWeight: 0, charWeight: 0, sublinearTf: false });
    const texts = ['cash cash cash cash cash cash cash cash flow', 'flow'];
    const [a, b] = await sublinear.embedDocuments(texts);
    const [c, d] = await raw.embedDocuments(texts);
    expect(cosine(a!, b!)).toBeGreaterThan(cosine(c!, d!));
  });

  it('embeds pages quickly (a loose guard against accidental slowdowns)', async () => {
    const embedder = new HashingEmbedder();
    const page = 'Consolidated statement of cash flows. Purchases of property, plant and equipment (1,482) (1,291). '.repeat(30);
    const started = performance.now();
    const vectors = await embedder.embedDocuments(Array.from({ length: 200 }, (_, i) => `${page} page ${i}`));
    expect(vectors).toHaveLength(200);
    expect(performance.now() - started).toBeLessThan(20_000); // ~0.4 ms per page outside jest
  }, 30_000);

  it('rejects invalid settings with CONFIG_INVALID', () => {
    for (const options of [{ dimension: 0 }, { dimension: 1.5 }, { charNgramMin: 4, charNgramMax: 3 }, { wordWeight: -1 }, { wordWeight: 0, bigramWeight: 0, charWeight: 0 }, { stopwordWeight: Number.NaN }]) {
      let error: unknown;
      try {
        new HashingEmbedder(options);
      } catch (caught) {
        error = caught;
      }
      expect(DocTreeError.isInstance(error) && error.code === 'CONFIG_INVALID').toBe(true);
    }
    expect(HASHING_EMBEDDER_DEFAULTS.dimension).toBe(512);
  });
});
