import { performance } from 'node:perf_hooks';

/** Longest stretch of loading work (ms) between two yields to the event loop. */
export const LOAD_SLICE_MS = 10;

/**
 * A checkpoint for long synchronous work (parsing, building lookups): `await tick()` yields to the event loop
 * (`setImmediate`, so timers, I/O and other requests run) once more than `sliceMs` passed since the last yield, and
 * returns at once otherwise.
 */
export function createYielder(sliceMs: number = LOAD_SLICE_MS): () => Promise<void> {
  let since = performance.now();
  return async () => {
    if (performance.now() - since < sliceMs) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    since = performance.now();
  };
}

/** Parses JSON lines (no validation), yielding through `tick` between lines. */
export async function parseJsonLinesSliced<T>(text: string, tick: () => Promise<void>): Promise<T[]> {
  const out: T[] = [];
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    if (end > start) out.push(JSON.parse(text.slice(start, end)) as T);
    start = end + 1;
    await tick();
  }
  return out;
}
