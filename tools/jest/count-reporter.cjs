// Jest reporter: writes this project's test counts to test-output/test-counts/<project>.json at the
// workspace root, so `npm test` can print one closing "N passed, N failed" line for all projects
// (the file is a cached Nx output, so cached projects still count).
const { mkdirSync, writeFileSync, renameSync } = require('node:fs');
const { join } = require('node:path');

class CountReporter {
  constructor(globalConfig, options = {}) {
    this.project = options.project || 'unknown';
  }

  onRunComplete(_contexts, results) {
    const dir = join(__dirname, '..', '..', 'test-output', 'test-counts');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `${this.project}.json`);
    const counts = {
      passed: results.numPassedTests,
      failed: results.numFailedTests + results.numRuntimeErrorTestSuites,
      skipped: results.numPendingTests + results.numTodoTests,
    };
    writeFileSync(`${file}.tmp`, JSON.stringify(counts));
    renameSync(`${file}.tmp`, file);
  }
}

module.exports = CountReporter;
