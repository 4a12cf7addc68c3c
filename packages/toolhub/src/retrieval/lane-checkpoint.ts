import { performance } from 'node:perf_hooks';

import { DocTreeError } from '@doctree/schema';

/** Longest stretch of lane work (ms) between two yields to the event loop (as the agent's cooperative pause). */
export const LANE_SLICE_MS = 10;

/**
 * A checkpoint between the parts of a lane's search (index sources, vector views): `await checkpoint()` throws
 * `CANCELLED` once `signal` aborts and yields to the event loop (`setImmediate`) when more than `sliceMs` of work
 * passed since the last yield; otherwise it returns at once. Results never depend on it.
 *
 * @example
 * ```ts
 * const checkpoint = createLaneCheckpoint(request.signal);
 * for (const view of views) {
 *   await checkpoint();
 *   hits.push(...search(view));
 * }
 * ```
 */
export function createLaneCheckpoint(signal: AbortSignal | undefined, sliceMs: number = LANE_SLICE_MS): () => Promise<void> {
  let since = performance.now();
  const check = (): void => {
    if (signal?.aborted) throw new DocTreeError('CANCELLED', 'the search was cancelled', { cause: signal.reason });
  };
  return async () => {
    check();
    if (performance.now() - since < sliceMs) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    since = performance.now();
    check();
  };
}
