const { join } = require('node:path');
const nxPreset = require('@nx/jest/preset').default;

module.exports = {
  ...nxPreset,
  testEnvironment: 'node',
  // Resolve workspace packages to their TypeScript sources through the custom export
  // condition, so tests never depend on a stale dist/ of a sibling package.
  testEnvironmentOptions: {
    customExportConditions: ['@doctree/source', 'node', 'require', 'default'],
  },
};

/** Reporters of a project: the default one plus the per-project counts used by `npm test`'s closing line. */
module.exports.reportersFor = (project) => ['default', [join(__dirname, 'tools', 'jest', 'count-reporter.cjs'), { project }]];
