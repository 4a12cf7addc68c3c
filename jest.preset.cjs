const { join } = require('node:path');
const nxPreset = require('@nx/jest/preset').default;

module.exports = {
  ...nxPreset,
  testEnvironment: 'node',
  // A safety bound, not a measurement: end-to-end specs (ingest + index + ask of a PDF) take a few seconds alone and
  // several times that on a loaded 2-core machine; performance is measured by tools/bench, never by test timeouts.
  testTimeout: 60_000,
  // Resolve workspace packages to their TypeScript sources through the custom export
  // condition, so tests never depend on a stale dist/ of a sibling package.
  testEnvironmentOptions: {
    customExportConditions: ['@doctree/source', 'node', 'require', 'default'],
  },
};

/** Reporters of a project: the default one plus the per-project counts used by `npm test`'s closing line. */
module.exports.reportersFor = (project) => ['default', [join(__dirname, 'tools', 'jest', 'count-reporter.cjs'), { project }]];
