import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { DocTreeError } from '@doctree/schema';
import type { VectorHit, VectorIndex, VectorMetric } from '@doctree/schema';
import { conformanceTestGlobals } from '@doctree/schema/testing';

import { loadVectorIndex } from '../vector/vector-backend.js';
import { definedOnly } from '../vector/vector-options.js';

/** What the conformance suite needs to build and reload indexes of one backend. */
export interface VectorIndexConformanceFactory {
  /** Creates an empty index. */
  create(options: { dimension: number; metric: VectorMetric; embedderId: string }): VectorIndex | Promise<VectorIndex>;
  /** Loads an index saved at `path`; default `loadVectorIndex(path, { expectedEmbedderId })`. */
  load?(path: string, options: { expectedEmbedderId: string }): Promise<VectorIndex>;
}

/** Options of {@link runVectorIndexConformance}. */
export interface VectorIndexConformanceOptions {
  /** Metrics to run the suite for; default both. */
  metrics?: readonly VectorMetric[];
  /** When set, the suite is registered as one skipped test whose title gives this reason. */
  skip?: string;
}

/** Defaults of {@link VectorIndexConformanceOptions}. */
export const VECTOR_INDEX_CONFORMANCE_DEFAULTS = {
  metrics: ['inner_product', 'l2'],
} as const satisfies VectorIndexConformanceOptions;

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

function unitVectors(count: number, dimension: number, seed: number): Float32Array[] {
  const next = random(seed);
  const out: Float32Array[] = [];
  for (let v = 0; v < count; v++) {
    const vector = new Float32Array(dimension);
    let norm = 0;
    for (let i = 0; i < dimension; i++) {
      vector[i] = next() * 2 - 1;
      norm += vector[i]! * vector[i]!;
    }
    norm = Math.sqrt(norm);
    for (let i = 0; i < dimension; i++) vector[i] = vector[i]! / norm;
    out.push(vector);
  }
  return out;
}

function bruteForce(ids: readonly string[], vectors: readonly Float32Array[], query: Float32Array, metric: VectorMetric, k: number, filter?: (id: string) => boolean): VectorHit[] {
  const hits: VectorHit[] = [];
  vectors.forEach((vector, position) => {
    const id = ids[position]!;
    if (filter !== undefined && !filter(id)) return;
    let score = 0;
    for (let i = 0; i < vector.length; i++) {
      score += metric === 'l2' ? -((query[i]! - vector[i]!) ** 2) : query[i]! * vector[i]!;
    }
    hits.push({ id, score });
  });
  return hits.sort((a, b) => b.score - a.score).slice(0, k);
}

function caught(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  return undefined;
}

/**
 * Registers the shared conformance suite of {@link VectorIndex} implementations with the running test framework
 * (global `describe` / `it` / `expect`, as in jest or vitest). Covers: empty index, exact top-1 self-retrieval,
 * ordering against brute force, k larger than the size, filters, dimension mismatch and duplicate id errors
 * (and that a failed `add` changes nothing), and the save/load round trip.
 *
 * @example
 * ```ts
 * import { ExactVectorIndex } from '@doctree/index';
 * import { runVectorIndexConformance } from '@doctree/index/testing';
 * runVectorIndexConformance('exact', { create: (o) => new ExactVectorIndex(o) });
 * ```
 */
export function runVectorIndexConformance(name: string, factory: VectorIndexConformanceFactory, options: VectorIndexConformanceOptions = {}): void {
  const { describe, it, beforeAll, afterAll, expect } = conformanceTestGlobals('runVectorIndexConformance');
  const { metrics, skip } = { ...VECTOR_INDEX_CONFORMANCE_DEFAULTS, ...definedOnly(options) };
  if (skip !== undefined) {
    console.warn(`VectorIndex conformance: ${name} skipped: ${skip}`);
    describe(`VectorIndex conformance: ${name}`, () => {
      it.skip(`${name} (skipped: ${skip})`, () => undefined);
    });
    return;
  }
  const load = (path: string, embedderId: string): Promise<VectorIndex> =>
    factory.load !== undefined ? factory.load(path, { expectedEmbedderId: embedderId }) : loadVectorIndex(path, { expectedEmbedderId: embedderId });

  for (const metric of metrics) {
    describe(`VectorIndex conformance: ${name} (${metric})`, () => {
      const embedderId = `conformance:${metric}`;
      const create = async (dimension: number): Promise<VectorIndex> => factory.create({ dimension, metric, embedderId });
      const filled = async (count: number, dimension: number, seed: number) => {
        const index = await create(dimension);
        const ids = Array.from({ length: count }, (_, i) => `id-${i}`);
        const vectors = unitVectors(count, dimension, seed);
        index.add(ids, vectors);
        return { index, ids, vectors };
      };
      let dir = '';
      beforeAll(async () => {
        dir = await mkdtemp(join(tmpdir(), 'doctree-vector-conformance-'));
      });
      afterAll(async () => {
        if (dir !== '') await rm(dir, { recursive: true, force: true });
      });

      it('reports its info and searches an empty index', async () => {
        const index = await create(8);
        expect(index.info.dimension).toBe(8);
        expect(index.info.metric).toBe(metric);
        expect(index.info.embedderId).toBe(embedderId);
        expect(index.info.size).toBe(0);
        expect(index.search(unitVectors(1, 8, 1)[0]!, { k: 5 })).toEqual([]);
        expect(index.search(unitVectors(1, 8, 1)[0]!, { k: 0 })).toEqual([]);
      });

      it('retrieves every vector as its own top-1 hit', async () => {
        const { index, ids, vectors } = await filled(200, 16, 2);
        expect(index.info.size).toBe(200);
        vectors.forEach((vector, i) => {
          const hits = index.search(vector, { k: 1 });
          expect(hits).toHaveLength(1);
          expect(hits[0]!.id).toBe(ids[i]);
          expect(hits[0]!.score).toBeCloseTo(metric === 'l2' ? 0 : 1, 4);
        });
      });

      it('orders hits best first, like brute force', async () => {
        const { index, ids, vectors } = await filled(60, 8, 3);
        for (const query of unitVectors(5, 8, 4)) {
          const hits = index.search(query, { k: 10 });
          const expected = bruteForce(ids, vectors, query, metric, 10);
          expect(hits.map((h) => h.id)).toEqual(expected.map((h) => h.id));
          hits.forEach((hit, i) => {
            expect(hit.score).toBeCloseTo(expected[i]!.score, 4);
            if (i > 0) expect(hits[i - 1]!.score).toBeGreaterThanOrEqual(hit.score);
          });
        }
      });

      it('returns every vector when k is larger than the size', async () => {
        const { index, ids } = await filled(5, 4, 5);
        const hits = index.search(unitVectors(1, 4, 6)[0]!, { k: 50 });
        expect(hits).toHaveLength(5);
        expect(new Set(hits.map((h) => h.id))).toEqual(new Set(ids));
      });

      it('applies the filter before the cut to k', async () => {
        const { index, ids, vectors } = await filled(100, 8, 7);
        const query = unitVectors(1, 8, 8)[0]!;
        const even = (id: string): boolean => Number(id.slice(3)) % 2 === 0;
        const hits = index.search(query, { k: 10, filter: even });
        expect(hits.map((h) => h.id)).toEqual(bruteForce(ids, vectors, query, metric, 10, even).map((h) => h.id));
        // Few survivors, ranked last: over-fetching must keep going until it finds them.
        const worst = new Set(bruteForce(ids, vectors, query, metric, 100).slice(-3).map((h) => h.id));
        const rare = index.search(query, { k: 10, filter: (id) => worst.has(id) });
        expect(new Set(rare.map((h) => h.id))).toEqual(worst);
        expect(index.search(query, { k: 10, filter: () => false })).toEqual([]);
      });

      it('rejects vectors and queries of the wrong dimension, changing nothing', async () => {
        const { index } = await filled(3, 4, 9);
        const bad = caught(() => index.add(['x', 'y'], [new Float32Array(4), new Float32Array(5)]));
        expect(DocTreeError.isInstance(bad)).toBe(true);
        expect((bad as Error).message).toMatch(/dimension/i);
        expect(index.info.size).toBe(3);
        const badQuery = caught(() => index.search(new Float32Array(3), { k: 1 }));
        expect(DocTreeError.isInstance(badQuery)).toBe(true);
        expect((badQuery as Error).message).toMatch(/dimension/i);
      });

      it('rejects duplicate ids, changing nothing', async () => {
        const { index } = await filled(3, 4, 10);
        const [a, b] = unitVectors(2, 4, 11) as [Float32Array, Float32Array];
        const existing = caught(() => index.add(['new', 'id-1'], [a, b]));
        expect(DocTreeError.isInstance(existing)).toBe(true);
        expect((existing as Error).message).toMatch(/duplicate/i);
        const inBatch = caught(() => index.add(['twice', 'twice'], [a, b]));
        expect(DocTreeError.isInstance(inBatch)).toBe(true);
        expect(index.info.size).toBe(3);
        expect(index.search(a, { k: 10 }).some((hit) => hit.id === 'new')).toBe(false);
      });

      it('saves and loads back an equal index', async () => {
        const { index, vectors } = await filled(50, 12, 12);
        const path = join(dir, `${name.replace(/[^a-z0-9]+/gi, '-')}-${metric}.bin`);
        await index.save(path);
        const meta = JSON.parse(await readFile(`${path}.meta.json`, 'utf8')) as Record<string, unknown>;
        expect(meta['format']).toBe('doctree.vectors');
        expect(meta['version']).toBe(1);
        expect(meta['size']).toBe(50);
        const loaded = await load(path, embedderId);
        expect(loaded.info).toEqual(index.info);
        for (const query of [...unitVectors(3, 12, 13), vectors[7]!]) {
          const before = index.search(query, { k: 5 });
          const after = loaded.search(query, { k: 5 });
          expect(after.map((h) => h.id)).toEqual(before.map((h) => h.id));
          after.forEach((hit, i) => expect(hit.score).toBeCloseTo(before[i]!.score, 5));
        }
        const extra = unitVectors(1, 12, 14)[0]!;
        loaded.add(['added-after-load'], [extra]);
        expect(loaded.search(extra, { k: 1 })[0]!.id).toBe('added-after-load');
      });
    });
  }
}
