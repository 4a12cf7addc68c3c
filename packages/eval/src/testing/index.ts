/**
 * Test helpers of `@doctree/eval`, published as the `@doctree/eval/testing` subpath: the QaSystem conformance suite
 * (registers tests with the running framework) and the Chromium lookup used to check HTML reports in a browser.
 */
export { runQaSystemConformance } from './qa-system-conformance.js';
export type { QaSystemConformanceSetup, QaSystemConformanceFactory, QaSystemConformanceOptions } from './qa-system-conformance.js';
export { findChromiumExecutable, CHROMIUM_CANDIDATE_PATHS, CHROMIUM_HEADLESS_ARGS } from './find-chromium.js';
export type { ChromiumLookup } from './find-chromium.js';
