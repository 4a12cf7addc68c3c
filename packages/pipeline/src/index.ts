/**
 * `@doctree/pipeline`: ready-made DocTree operations composed from the other packages, used by the `doctree` CLI and
 * the eval runner.
 */
export { createIndexComponents } from './index-components.js';
export type { IndexComponents, IndexComponentsOptions } from './index-components.js';
export { prepareDocument } from './prepare-document.js';
export type { PrepareDocumentOptions, PrepareProgress, PreparedDocument } from './prepare-document.js';
export { describeIndex } from './index-report.js';
export type { IndexReport } from './index-report.js';
