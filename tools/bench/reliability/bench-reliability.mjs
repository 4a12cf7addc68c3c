#!/usr/bin/env node
// Reliability bench: the reliability suite (tools/reliability/src/reliability.spec.ts) at full size —
// a 1 MB Flate bomb that decodes to 1 GiB (default limits), a 60 000 × 60 000 page image, 10 000 blank scanned pages
// OCRed through stand-in programs (default cap: 500 pages), a 1 000 000-letter word, kill -9 of a 400-page ingest —
// each against its stated time bound, with peak RSS sampled. CI runs the cheap sizes (`npx nx test reliability`).
// Needs the built CLI (`npx nx build cli`). Takes several minutes on 2 cores (the 10 000-page OCR case dominates).
//
//   node tools/bench/reliability/bench-reliability.mjs [jest args, e.g. -t "Flate bomb"]
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
if (!existsSync(join(root, 'apps', 'cli', 'dist', 'main.js'))) {
  console.error('bench-reliability: build the CLI first (npx nx build cli)');
  process.exit(2);
}
const jest = join(root, 'node_modules', 'jest', 'bin', 'jest.js');
const started = Date.now();
const run = spawnSync(process.execPath, [jest, '-c', join(root, 'tools', 'reliability', 'jest.config.cjs'), '--runInBand', ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, NODE_OPTIONS: '--experimental-vm-modules', DOCTREE_RELIABILITY_FULL: '1' },
});
console.log(`\nbench-reliability: full sizes, ${Math.round((Date.now() - started) / 1000)} s, ${run.status === 0 ? 'all cases within their bounds' : 'FAILED'}`);
process.exit(run.status ?? 1);
