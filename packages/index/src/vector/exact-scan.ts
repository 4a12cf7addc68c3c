import type { VectorHit, VectorMetric } from '@doctree/schema';

import { TopK } from './top-k.js';
import type { VectorStore } from './vector-store.js';

/**
 * Scans every stored vector (optionally only ids passing `filter`) and returns the `limit` best hits, best first.
 * Scores: inner product, or negative squared L2 distance. Ties go to the earlier position.
 */
export function exactTopK(store: VectorStore, metric: VectorMetric, query: Float32Array, limit: number, filter?: (id: string) => boolean): VectorHit[] {
  const d = store.dimension;
  const n = store.size;
  const data = store.vectors;
  const ids = store.ids;
  const top = new TopK(limit);
  const l2 = metric === 'l2';
  for (let position = 0; position < n; position++) {
    if (filter !== undefined && !filter(ids[position]!)) continue;
    const score = l2 ? -squaredDistance(query, data, position * d, d) : dot(query, data, position * d, d);
    top.push(score, position);
  }
  return top.sorted().map(({ score, position }) => ({ id: ids[position]!, score }));
}

function dot(query: Float32Array, data: Float32Array, offset: number, d: number): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let i = 0;
  for (; i + 3 < d; i += 4) {
    s0 += query[i]! * data[offset + i]!;
    s1 += query[i + 1]! * data[offset + i + 1]!;
    s2 += query[i + 2]! * data[offset + i + 2]!;
    s3 += query[i + 3]! * data[offset + i + 3]!;
  }
  for (; i < d; i++) s0 += query[i]! * data[offset + i]!;
  return s0 + s1 + s2 + s3;
}

function squaredDistance(query: Float32Array, data: Float32Array, offset: number, d: number): number {
  let s0 = 0;
  let s1 = 0;
  let i = 0;
  for (; i + 1 < d; i += 2) {
    const a = query[i]! - data[offset + i]!;
    const b = query[i + 1]! - data[offset + i + 1]!;
    s0 += a * a;
    s1 += b * b;
  }
  for (; i < d; i++) {
    const a = query[i]! - data[offset + i]!;
    s0 += a * a;
  }
  return s0 + s1;
}
