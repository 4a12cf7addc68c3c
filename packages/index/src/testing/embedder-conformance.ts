import { DocTreeError } from '@doctree/schema';
import type { Embedder } from '@doctree/schema';
import { conformanceTestGlobals } from '@doctree/schema/testing';

import { definedOnly } from '../vector/vector-options.js';

/**
 * Builds a fresh embedder for the suite, ready to report `id` and `dimension` (initialise it first if it learns them
 * lazily); `batchSize` is a hint the factory should pass to its constructor.
 */
export type EmbedderConformanceFactory = (options: { batchSize: number }) => Embedder | Promise<Embedder>;

/** Options of {@link runEmbedderConformance}. */
export interface EmbedderConformanceOptions {
  /** When set, the suite is registered as one skipped test whose title gives this reason (and a warning is printed). */
  skip?: string;
  /** True when `embedQuery(t)` must equal `embedDocuments([t])[0]` (false for asymmetric models). Default true. */
  symmetric?: boolean;
  /** Timeout of each test and of creating the embedders, ms. Default 60000. */
  timeoutMs?: number;
}

/** Defaults of {@link EmbedderConformanceOptions}. */
export const EMBEDDER_CONFORMANCE_DEFAULTS = {
  symmetric: true,
  timeoutMs: 60_000,
} as const satisfies EmbedderConformanceOptions;

const cosine = (a: Float32Array, b: Float32Array): number => {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
};
const norm = (a: Float32Array): number => Math.sqrt(cosine(a, a));

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  return undefined;
}

/** Texts with a clear nearest neighbour: [anchor, paraphrase sharing content words, unrelated]. */
const TRIPLES: ReadonlyArray<readonly [string, string, string]> = [
  ['Net revenue increased in 2018 compared with 2017.', 'The revenue for 2018 increased over the 2017 revenue.', 'The cat slept on the warm kitchen floor.'],
  ['Capital expenditures for property, plant and equipment', 'Purchases of property and equipment (capital expenditures)', 'The football team won the championship game.'],
  ['How to descale the coffee machine', 'Descaling the coffee machine removes limescale.', 'Interest rates and the bond market'],
  ['Students must register for classes before the semester starts.', 'Class registration for students closes when the semester starts.', 'Quarterly dividends paid to shareholders'],
];

const SAMPLE = [
  'Total net sales were $28.4 billion, up 5% from the prior year.',
  'The kitten is sleeping on the sofa.',
  'Item 7. Management’s Discussion and Analysis of Financial Condition',
  'Café déjà vu — naïve résumé',
  'Table 2: accuracy of the models on the benchmark',
];

/**
 * Registers the shared conformance suite of {@link Embedder} implementations with the running test framework
 * (global `describe` / `it` / `beforeAll` / `expect`, as in jest or vitest). Covers: dimension and Float32Array
 * output, unit norm, determinism (same instance and a fresh one), batch results equal to one-by-one results,
 * empty strings (finite, all-zero or unit vectors), similar texts closer than unrelated ones, progress
 * reporting, the abort signal (before the call and between batches), input validation, and a stable id.
 *
 * @example
 * ```ts
 * import { HashingEmbedder } from '@doctree/index';
 * import { runEmbedderConformance } from '@doctree/index/testing';
 * runEmbedderConformance('hashing', ({ batchSize }) => new HashingEmbedder({ batchSize }));
 * ```
 */
export function runEmbedderConformance(name: string, factory: EmbedderConformanceFactory, options: EmbedderConformanceOptions = {}): void {
  const { describe, it, beforeAll, expect } = conformanceTestGlobals('runEmbedderConformance');
  const { skip, symmetric, timeoutMs } = { ...EMBEDDER_CONFORMANCE_DEFAULTS, ...definedOnly(options) };
  if (skip !== undefined) {
    console.warn(`Embedder conformance: ${name} skipped: ${skip}`);
    describe(`Embedder conformance: ${name}`, () => {
      it.skip(`${name} (skipped: ${skip})`, () => undefined);
    });
    return;
  }
  describe(`Embedder conformance: ${name}`, () => {
    let embedder: Embedder;
    let small: Embedder;
    beforeAll(async () => {
      embedder = await factory({ batchSize: 16 });
      small = await factory({ batchSize: 2 });
    }, timeoutMs);

    it('has a stable non-empty id and a positive integer dimension matching its vectors', async () => {
      const [vector] = await embedder.embedDocuments([SAMPLE[0]!]);
      expect(typeof embedder.id).toBe('string');
      expect(embedder.id.length).toBeGreaterThan(0);
      expect(Number.isInteger(embedder.dimension) && embedder.dimension > 0).toBe(true);
      expect(vector instanceof Float32Array).toBe(true);
      expect(vector!.length).toBe(embedder.dimension);
      const again = await factory({ batchSize: 16 });
      await again.embedQuery(SAMPLE[1]!);
      expect(again.id).toBe(embedder.id);
      expect(again.dimension).toBe(embedder.dimension);
      expect(small.id).toBe(embedder.id);
    }, timeoutMs);

    it('returns L2-normalised vectors', async () => {
      const vectors = await embedder.embedDocuments(SAMPLE);
      expect(vectors).toHaveLength(SAMPLE.length);
      for (const vector of vectors) {
        expect(vector.length).toBe(embedder.dimension);
        expect(norm(vector)).toBeCloseTo(1, 4);
      }
      expect(norm(await embedder.embedQuery(SAMPLE[2]!))).toBeCloseTo(1, 4);
    }, timeoutMs);

    it('is deterministic, within an instance and across instances', async () => {
      const first = await embedder.embedDocuments(SAMPLE);
      const second = await embedder.embedDocuments(SAMPLE);
      const other = await (await factory({ batchSize: 16 })).embedDocuments(SAMPLE);
      first.forEach((vector, i) => {
        expect(Array.from(second[i]!)).toEqual(Array.from(vector));
        vector.forEach((value, d) => expect(other[i]![d]!).toBeCloseTo(value, 6));
      });
    }, timeoutMs);

    it('gives the same vectors in one batch, in small batches and one by one', async () => {
      const batch = await embedder.embedDocuments(SAMPLE);
      const smallBatches = await small.embedDocuments(SAMPLE);
      for (let i = 0; i < SAMPLE.length; i++) {
        const [single] = await embedder.embedDocuments([SAMPLE[i]!]);
        batch[i]!.forEach((value, d) => {
          expect(single![d]!).toBeCloseTo(value, 5);
          expect(smallBatches[i]![d]!).toBeCloseTo(value, 5);
        });
        if (symmetric) {
          const query = await embedder.embedQuery(SAMPLE[i]!);
          batch[i]!.forEach((value, d) => expect(query[d]!).toBeCloseTo(value, 5));
        }
      }
    }, timeoutMs);

    it('embeds empty and blank strings safely (finite, all-zero or unit vectors)', async () => {
      const vectors = [...(await embedder.embedDocuments(['', 'text between', '   \n', ''])), await embedder.embedQuery('')];
      expect(vectors).toHaveLength(5);
      for (const vector of vectors) {
        expect(vector.length).toBe(embedder.dimension);
        expect(vector.every((value) => Number.isFinite(value))).toBe(true);
        const n = norm(vector);
        expect(n < 1e-6 || Math.abs(n - 1) < 1e-4).toBe(true);
      }
      expect(await embedder.embedDocuments([])).toEqual([]);
    }, timeoutMs);

    it('places similar texts closer than unrelated ones', async () => {
      for (const [anchor, similar, unrelated] of TRIPLES) {
        const [a, b, c] = await embedder.embedDocuments([anchor, similar, unrelated]);
        expect(cosine(a!, b!)).toBeGreaterThan(cosine(a!, c!));
        const query = await embedder.embedQuery(anchor);
        expect(cosine(query, b!)).toBeGreaterThan(cosine(query, c!));
      }
    }, timeoutMs);

    it('reports progress after each batch', async () => {
      const calls: Array<[number, number]> = [];
      const texts = ['one', 'two', 'three', 'four', 'five'];
      const vectors = await small.embedDocuments(texts, { onProgress: (done, total) => calls.push([done, total]) });
      expect(vectors).toHaveLength(5);
      expect(calls.length).toBeGreaterThan(0);
      expect(calls[calls.length - 1]).toEqual([5, 5]);
      calls.forEach(([done, total], i) => {
        expect(total).toBe(5);
        if (i > 0) expect(done).toBeGreaterThan(calls[i - 1]![0]);
      });
    }, timeoutMs);

    it('honours an abort signal, before the call and between batches', async () => {
      const aborted = AbortSignal.abort(new Error('stop'));
      const before = await rejection(embedder.embedDocuments(['a text'], { signal: aborted }));
      expect(DocTreeError.isInstance(before) && before.code === 'CANCELLED').toBe(true);
      const query = await rejection(embedder.embedQuery('a text', { signal: aborted }));
      expect(DocTreeError.isInstance(query) && query.code === 'CANCELLED').toBe(true);
      const controller = new AbortController();
      const progress: number[] = [];
      const texts = Array.from({ length: 10 }, (_, i) => `abort test text number ${i}`);
      const during = await rejection(
        small.embedDocuments(texts, {
          signal: controller.signal,
          onProgress: (done) => {
            progress.push(done);
            controller.abort();
          },
        }),
      );
      expect(DocTreeError.isInstance(during) && during.code === 'CANCELLED').toBe(true);
      expect(progress).toEqual([2]);
    }, timeoutMs);

    it('rejects input that is not an array of strings with a DocTreeError', async () => {
      const notArray = await rejection(embedder.embedDocuments('text' as unknown as string[]));
      expect(DocTreeError.isInstance(notArray)).toBe(true);
      const notStrings = await rejection(embedder.embedDocuments(['ok', 42 as unknown as string]));
      expect(DocTreeError.isInstance(notStrings)).toBe(true);
      const notString = await rejection(embedder.embedQuery(undefined as unknown as string));
      expect(DocTreeError.isInstance(notString)).toBe(true);
    }, timeoutMs);
  });
}
