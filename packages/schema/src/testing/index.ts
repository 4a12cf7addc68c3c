/**
 * Test helpers of `@doctree/schema`, published as the `@doctree/schema/testing` subpath: what the conformance suites of
 * every package share.
 */
export { conformanceTestGlobals } from './test-globals.js';
export { errorCodeOf } from './error-code.js';
export type { ConformanceMatchers, ConformanceTestFn, ConformanceTestGlobals } from './test-globals.js';
