/**
 * Test helpers of `@doctree/pipeline`, published as the `@doctree/pipeline/testing` subpath.
 */
export { captureIo } from './capture-io.js';
export { sampleFiling } from './sample-filing.js';
export type { CapturedIo, CaptureIoOptions } from './capture-io.js';
export { conformanceRow, conformanceSelection, runCollectionStoreConformance } from '../collection/collection-store-conformance.js';
export type { CollectionStoreConformanceOptions } from '../collection/collection-store-conformance.js';
