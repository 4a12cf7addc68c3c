/**
 * The SDK examples in `examples/` run as a user would run them (plain Node ESM against the built packages) and print
 * what their comments promise. Needs built dist/ folders (this project's test target depends on `^build`). The
 * TypeScript examples (`examples/*.ts`, every one of them) are compiled in a strict project against the packed
 * tarballs and run offline by `packed-install.spec.ts`, with the custom-retriever experiment of `examples/experiments/`.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { findWorkspaceRoot } from './index.js';

const execFileAsync = promisify(execFile);
const root = findWorkspaceRoot(__dirname);
const examples = join(root, 'examples');
const TIMEOUT = 180_000;

/** Runs an example in a scratch working directory (its data folder lands there), offline, with the hashing embedder. */
async function runExample(name: string, args: string[] = []): Promise<string> {
  const cwd = mkdtempSync(join(tmpdir(), 'doctree-example-'));
  try {
    const env: NodeJS.ProcessEnv = { PATH: process.env['PATH'], HOME: process.env['HOME'], DOCTREE_EMBEDDER: 'hashing' };
    const { stdout } = await execFileAsync(process.execPath, [join(examples, name), ...args], { cwd, env, timeout: TIMEOUT });
    return stdout;
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}

describe('examples/', () => {
  it('has a test for every example script (.mjs here; every .ts through the packed install)', () => {
    expect(readdirSync(examples).filter((f) => f.endsWith('.mjs')).sort()).toEqual(['ask-a-pdf.mjs', 'check-environment.mjs', 'ingest-a-folder.mjs']);
    const packed = readFileSync(join(__dirname, 'packed-install.spec.ts'), 'utf8');
    expect(packed).toContain(".filter((f) => f.endsWith('.ts'))");
    expect(readdirSync(examples).filter((f) => f.endsWith('.ts'))).toEqual(expect.arrayContaining(['swap-the-embedder.ts', 'swap-the-reader.ts', 'swap-the-retriever.ts']));
    expect(readdirSync(join(examples, 'experiments')).sort()).toEqual(expect.arrayContaining(['custom-retriever.json', 'word-overlap-system.mjs']));
  });

  it('the custom-retriever experiment plugs a retriever of your own into the eval runner (built packages)', async () => {
    const out = mkdtempSync(join(tmpdir(), 'doctree-example-experiment-'));
    try {
      const runner = join(root, 'apps', 'eval-runner', 'bin', 'doctree-eval-runner.js');
      const env: NodeJS.ProcessEnv = { PATH: process.env['PATH'], HOME: process.env['HOME'] };
      const { stdout } = await execFileAsync(process.execPath, [runner, join(examples, 'experiments', 'custom-retriever.json'), '--out', out], { cwd: out, env, timeout: TIMEOUT });
      expect(stdout).toMatch(/^DocTree \+ word-overlap lane +100\.0%/m);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, TIMEOUT);

  it('ask-a-pdf.mjs answers about the bundled sample with a supported, cited answer', async () => {
    const out = await runExample('ask-a-pdf.mjs');
    expect(out).toMatch(/^answer: 204\.9 /m);
    expect(out).toMatch(/^ {2}p\.1 tab_\d+: Industrial Sensors \| 204\.9/m);
    expect(out).toMatch(/^ranked pages: 1\b/m);
  }, TIMEOUT);

  it('ingest-a-folder.mjs ingests the bundled samples into their document folders', async () => {
    const out = await runExample('ingest-a-folder.mjs');
    expect(out).toMatch(/^northwind-annual-report-2023: 3 pages, \d+ tables, \d+ figures -> \S*data\/samples\/northwind-annual-report-2023$/m);
  }, TIMEOUT);

  it('check-environment.mjs reports the configuration and the vector backend', async () => {
    const out = await runExample('check-environment.mjs');
    expect(out).toMatch(/^llm: none, embedder: hashing, vectors: (faiss|exact) \(/m);
  }, TIMEOUT);
});
