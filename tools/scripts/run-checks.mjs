#!/usr/bin/env node
// `npm test`: lint + typecheck + build + test for every project through Nx, then one closing line
// "tests: N passed, N failed, N skipped" summed over all projects. Exit status is Nx's.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const countsDir = join(root, 'test-output', 'test-counts');
rmSync(countsDir, { recursive: true, force: true });
const env = { ...process.env, NX_DAEMON: process.env.NX_DAEMON ?? 'false', NX_NO_CLOUD: 'true' };
const nx = spawnSync(
  process.execPath,
  [join(root, 'node_modules', 'nx', 'dist', 'bin', 'nx.js'), 'run-many', '-t', 'lint', 'typecheck', 'build', 'test', '--outputStyle=static', ...process.argv.slice(2)],
  { cwd: root, env, stdio: 'inherit' },
);
const total = { passed: 0, failed: 0, skipped: 0 };
if (existsSync(countsDir)) {
  for (const file of readdirSync(countsDir).filter((f) => f.endsWith('.json'))) {
    const counts = JSON.parse(readFileSync(join(countsDir, file), 'utf8'));
    total.passed += counts.passed;
    total.failed += counts.failed;
    total.skipped += counts.skipped;
  }
}
const status = nx.status ?? 1;
if (status !== 0 && total.failed === 0) total.failed = 1; // a failed lint/typecheck/build counts as a failure
console.log(`\ntests: ${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
process.exit(status);
