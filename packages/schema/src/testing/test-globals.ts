/**
 * The test-framework globals the shared conformance suites of DocTree (`runEmbedderConformance`,
 * `runRetrieverConformance`, `runReaderConformance`, `runQaSystemConformance`…) register their tests with: jest or
 * vitest style `describe` / `it` / `beforeAll` / `afterAll` / `expect`, looked up on `globalThis` when a suite is
 * registered, so that published packages do not depend on `@types/jest`.
 */

/** The matchers the conformance suites use (a subset of jest's and vitest's). */
export interface ConformanceMatchers {
  toBe(expected: unknown): void;
  toEqual(expected: unknown): void;
  toBeCloseTo(expected: number, digits?: number): void;
  toBeGreaterThan(expected: number): void;
  toBeGreaterThanOrEqual(expected: number): void;
  toBeLessThan(expected: number): void;
  toBeLessThanOrEqual(expected: number): void;
  toHaveLength(expected: number): void;
  toMatch(expected: RegExp): void;
  toContain(expected: unknown): void;
}

/** A test or hook body. */
export type ConformanceTestFn = () => Promise<void> | void;

/** The globals a conformance suite registers with. */
export interface ConformanceTestGlobals {
  describe(name: string, fn: () => void): void;
  it: ((name: string, fn: ConformanceTestFn, timeout?: number) => void) & { skip(name: string, fn: ConformanceTestFn): void };
  beforeAll(fn: ConformanceTestFn, timeout?: number): void;
  afterAll(fn: ConformanceTestFn, timeout?: number): void;
  expect(actual: unknown): ConformanceMatchers;
}

const REQUIRED = ['describe', 'it', 'beforeAll', 'afterAll', 'expect'] as const;

/**
 * Returns the running test framework's globals for a conformance suite.
 *
 * @param suite - The suite's function name, named in the error.
 * @throws Error when called outside a test file (a missing global is a programming error, not user input).
 */
export function conformanceTestGlobals(suite: string): ConformanceTestGlobals {
  const g = globalThis as unknown as Record<string, unknown>;
  const missing = REQUIRED.filter((name) => typeof g[name] !== 'function');
  if (missing.length > 0) {
    throw new Error(`${suite} must be called from a test file (jest or vitest globals; missing ${missing.join(', ')})`);
  }
  return g as unknown as ConformanceTestGlobals;
}
