/**
 * Long synchronous work written as a generator that `yield`s between slices (a hit scored, an item packed) runs either
 * in one go ({@link runSlices}) or with a cooperative pause between its slices ({@link runSlicesCooperatively}) — the
 * same code, so both give the same result.
 */

/** Runs the slices of `steps` in one go and returns its result. */
export function runSlices<T>(steps: Generator<void, T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * Runs the slices of `steps`, awaiting `pause()` after each one (e.g. the agent's pause: it yields to the event loop
 * every few ms of work and throws `CANCELLED` once the question's signal aborts, which stops the work there).
 */
export async function runSlicesCooperatively<T>(steps: Generator<void, T>, pause: () => Promise<void>): Promise<T> {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    await pause();
  }
}
