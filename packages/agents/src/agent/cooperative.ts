import { performance } from 'node:perf_hooks';

import { DocTreeError } from '@doctree/schema';

/** Longest stretch of work (ms) between two yields to the event loop. Well under the 50 ms a service can afford. */
export const COOPERATIVE_SLICE_MS = 10;

/**
 * A cooperative checkpoint for long work on the Node event loop: call `await pause()` between steps and inside long
 * loops. It throws `CANCELLED` once `signal` is aborted, and yields to the event loop (`setImmediate`: timers, I/O and
 * other requests run) when more than `sliceMs` passed since the last yield; otherwise it returns at once.
 */
export type CooperativePause = () => Promise<void>;

/** Options of {@link createPause}. */
export interface CreatePauseOptions {
  /** Aborting it makes the next `pause()` throw `DocTreeError('CANCELLED')`. */
  signal?: AbortSignal;
  /** Work (ms) between two yields. Default {@link COOPERATIVE_SLICE_MS}. */
  sliceMs?: number;
}

/** The error of a cancelled question. */
export function cancelledError(signal: AbortSignal | undefined): DocTreeError {
  return new DocTreeError('CANCELLED', 'the question was cancelled', { cause: signal?.reason });
}

/**
 * A {@link CooperativePause} over `signal`.
 *
 * @example
 * ```ts
 * const pause = createPause({ signal });
 * for (const node of nodes) {
 *   score(node);
 *   await pause(); // yields every 10 ms of work; throws CANCELLED once `signal` aborts
 * }
 * ```
 */
export function createPause(options: CreatePauseOptions = {}): CooperativePause {
  const { signal, sliceMs = COOPERATIVE_SLICE_MS } = options;
  let since = performance.now();
  return async () => {
    if (signal?.aborted) throw cancelledError(signal);
    if (performance.now() - since < sliceMs) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    since = performance.now();
    if (signal?.aborted) throw cancelledError(signal);
  };
}
