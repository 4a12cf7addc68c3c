import { DocTreeError } from '@doctree/schema';
import type { VectorMetric } from '@doctree/schema';

/** Largest vector dimension accepted (guards against a swapped argument allocating gigabytes). */
export const MAX_VECTOR_DIMENSION = 65_536;

/**
 * Checks the options shared by every vector index constructor.
 *
 * @throws DocTreeError `CONFIG_INVALID`.
 */
export function assertIndexOptions(options: { dimension: number; embedderId: string; metric: VectorMetric; kind?: string }): void {
  const { dimension, embedderId, metric, kind } = options;
  if (!Number.isInteger(dimension) || dimension < 1 || dimension > MAX_VECTOR_DIMENSION) {
    throw new DocTreeError('CONFIG_INVALID', `Vector dimension must be an integer in 1..${MAX_VECTOR_DIMENSION}, got ${String(dimension)}`);
  }
  if (typeof embedderId !== 'string' || embedderId.length === 0) {
    throw new DocTreeError('CONFIG_INVALID', 'A vector index needs the non-empty id of the embedder that produces its vectors');
  }
  if (metric !== 'inner_product' && metric !== 'l2') {
    throw new DocTreeError('CONFIG_INVALID', `Unknown vector metric ${JSON.stringify(metric)} (expected inner_product or l2)`);
  }
  if (kind !== undefined && kind !== 'flat' && kind !== 'hnsw') {
    throw new DocTreeError('CONFIG_INVALID', `Unknown vector index kind ${JSON.stringify(kind)} (expected flat or hnsw)`);
  }
}

/**
 * Drops keys whose value is `undefined`, so that `{ ...DEFAULTS, ...definedOnly(options) }` keeps a default when
 * a caller passes `{ metric: undefined }` explicitly.
 */
export function definedOnly<T extends object>(options: T): T {
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as T;
}
