/**
 * The reliability suite: the built `doctree` CLI on hostile inputs generated here. Every case asserts that
 * the process ends within a stated bound, with a one-line `DocTreeError` (`doctree: [CODE] …`) or a result whose
 * warning names the limit it hit; that no stack trace reaches the user; that no input was written over; and that no
 * temporary file is left (in the output folders and in a private TMPDIR). Kill -9 and signals are covered: a rerun
 * gives the files of a clean run.
 *
 * CI runs cheap sizes; `DOCTREE_RELIABILITY_FULL=1` (the bench, `node tools/bench/reliability/bench-reliability.mjs`)
 * runs the full ones: a 1 MB Flate bomb of 1 GiB, 10 000 blank scanned pages, a 1M-letter word.
 * Needs the built CLI (`test` depends on `^build`; `implicitDependencies: ["cli"]`).
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { execFileSync } from 'node:child_process';
import {
  ARABIC_TEXT,
  blankScanPdf,
  flateBombPdf,
  HEBREW_TEXT,
  hugeImagePdf,
  longWordPdf,
  mineruContentList,
  rtlPdf,
  textPdf,
  writeOcrStandIns,
} from './hostile-inputs.js';

const FULL = process.env['DOCTREE_RELIABILITY_FULL'] === '1';
const root = resolve(__dirname, '..', '..', '..');
const cli = join(root, 'apps', 'cli', 'bin', 'doctree.js');
const MiB = 1024 ** 2;

/** What one CLI run did. */
interface CliRun {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
  pid: number;
  /** Highest resident set size seen (Linux, sampled every 50 ms), MB; 0 elsewhere. */
  peakRssMb: number;
}

interface RunOptions {
  /** Longest the run may take before it is killed (and the case fails). */
  boundMs: number;
  /** Folders put first on PATH. */
  path?: string[];
  /** Called with the child once it started (to signal it). */
  onStart?: (pid: number) => void;
  env?: Record<string, string>;
}

let work: string;
let tmp: string;

function rssMb(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** Runs `doctree <args>` in `cwd` with a private TMPDIR, and measures it. */
function doctree(args: string[], cwd: string, options: RunOptions): Promise<CliRun> {
  return new Promise((resolvePromise, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [cli, ...args], {
      cwd,
      env: {
        PATH: [...(options.path ?? []), process.env['PATH'] ?? ''].join(delimiter),
        HOME: process.env['HOME'] ?? tmp,
        TMPDIR: tmp,
        NODE_OPTIONS: '',
        DOCTREE_EMBEDDER: 'hashing',
        ...options.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let peak = 0;
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const sampler = setInterval(() => (peak = Math.max(peak, rssMb(child.pid!))), 50);
    const killer = setTimeout(() => child.kill('SIGKILL'), options.boundMs);
    child.on('error', reject);
    child.on('spawn', () => options.onStart?.(child.pid!));
    child.on('exit', (status, signal) => {
      clearInterval(sampler);
      clearTimeout(killer);
      const ms = performance.now() - started;
      // stdout/stderr may still be draining.
      setImmediate(() => resolvePromise({ status, signal, stdout, stderr, ms, pid: child.pid!, peakRssMb: Math.round(peak) }));
    });
  });
}

const sha = (path: string): string => createHash('sha256').update(readFileSync(path)).digest('hex');

/** Every path under `dir` (files and folders). */
function walk(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    out.push(path);
    if (entry.isDirectory()) out.push(...walk(path));
  }
  return out;
}

/** Temporary files and folders DocTree makes: atomic-write temporaries, swapped-out folders, OCR render folders. */
const TEMP = /\.(?:tmp|old)-\d+-[0-9a-f]{8}$|(^|\/)doctree-ocr-\d+-/;

/** The checks every case makes. */
function expectWellBehaved(run: CliRun, options: { boundMs: number; inputs?: Record<string, string>; outputs?: string[] }): void {
  expect(run.signal === 'SIGKILL' ? `killed after ${Math.round(run.ms)} ms (bound ${options.boundMs} ms)` : 'ended').toBe('ended');
  expect(run.ms).toBeLessThan(options.boundMs);
  // No stack trace: no `    at fn (file:line:col)` line, no `node:internal` frames.
  expect(run.stderr).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
  expect(run.stderr).not.toMatch(/node:internal|Error: .*\n\s+at /);
  // Inputs unchanged.
  for (const [path, digest] of Object.entries(options.inputs ?? {})) expect(sha(path)).toBe(digest);
  // No temporary file left, in the outputs or in the private TMPDIR.
  const leftovers = [...(options.outputs ?? []), tmp].flatMap(walk).filter((path) => TEMP.test(path));
  expect(leftovers).toEqual([]);
}

/** The error line of a failed run: exactly one `doctree: [CODE] …` line on stderr. */
function expectOneErrorLine(run: CliRun, code: string): string {
  const lines = run.stderr.split('\n').filter((line) => line.trim() !== '');
  const errors = lines.filter((line) => /^doctree: \[[A-Z_]+\]/.test(line));
  expect(errors).toEqual([expect.stringContaining(`[${code}]`)]);
  return errors[0]!;
}

/** Writes `doctree.config.json` in `dir` with `ingest.limits` (and more) and returns its path. */
function config(dir: string, value: unknown): string {
  const path = join(dir, 'doctree.config.json');
  writeFileSync(path, JSON.stringify(value));
  return path;
}

beforeAll(() => {
  if (!existsSync(join(root, 'apps', 'cli', 'dist', 'main.js'))) throw new Error('build the CLI first: npx nx build cli');
  work = mkdtempSync(join(tmpdir(), 'doctree-reliability-'));
  tmp = join(work, 'tmp');
  mkdirSync(tmp);
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('reliability: resource limits', () => {
  it(`refuses a Flate bomb (${FULL ? '1 MB → 1 GiB, default limits' : '→ 48 MiB, max_stream_bytes 16 MiB'}) with one INPUT_UNSUPPORTED line, in bounded time and memory`, async () => {
    const dir = join(work, 'bomb');
    mkdirSync(dir);
    const input = join(dir, 'bomb.pdf');
    writeFileSync(input, await flateBombPdf(FULL ? 1024 * MiB : 48 * MiB));
    if (!FULL) config(dir, { ingest: { limits: { max_stream_bytes: 16 * MiB } } });
    const digest = sha(input);
    const boundMs = FULL ? 60_000 : 30_000;
    const run = await doctree(['ingest', 'bomb.pdf', '--out', 'out'], dir, { boundMs });
    expect(run.status).toBe(4);
    expect(expectOneErrorLine(run, 'INPUT_UNSUPPORTED')).toMatch(/decompression bomb.*max_stream_bytes/);
    expectWellBehaved(run, { boundMs, inputs: { [input]: digest }, outputs: [join(dir, 'out')] });
    expect(existsSync(join(dir, 'out', 'bomb'))).toBe(false);
    if (run.peakRssMb > 0) expect(run.peakRssMb).toBeLessThan(400);
  }, 180_000);

  it('skips a huge page image with an IMAGE_TOO_LARGE warning and ingests the text', async () => {
    const dir = join(work, 'image');
    mkdirSync(dir);
    const input = join(dir, 'huge.pdf');
    writeFileSync(input, await hugeImagePdf(FULL ? 60_000 : 20_000));
    const digest = sha(input);
    const boundMs = 60_000;
    const run = await doctree(['ingest', 'huge.pdf', '--out', 'out'], dir, { boundMs });
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/\[IMAGE_TOO_LARGE\] 1 image\(s\) exceed 64000000 pixels/);
    expect(readFileSync(join(dir, 'out', 'huge', 'doctree.mm.json'), 'utf8')).toContain('A page with a huge image');
    expectWellBehaved(run, { boundMs, inputs: { [input]: digest }, outputs: [join(dir, 'out')] });
    if (run.peakRssMb > 0) expect(run.peakRssMb).toBeLessThan(900);
  }, 120_000);

  it(`caps OCR of ${FULL ? '10 000' : '40'} blank scanned pages (OCR_CAPPED), rendering only the pages under the cap, leaving no render folder`, async () => {
    const dir = join(work, 'ocr');
    const bin = join(dir, 'bin');
    writeOcrStandIns(bin);
    const pages = FULL ? 10_000 : 40;
    const cap = FULL ? 500 : 5;
    const input = join(dir, 'scan.pdf');
    writeFileSync(input, blankScanPdf(pages));
    // 10 000 pages are past the default max_pages (5 000, refused at once): raised here, the OCR cap stays the default.
    config(dir, { ingest: { limits: FULL ? { max_pages: 20_000 } : { max_ocr_pages: cap } } });
    const digest = sha(input);
    const boundMs = FULL ? 900_000 : 90_000;
    const run = await doctree(['ingest', 'scan.pdf', '--out', 'out'], dir, { boundMs, path: [bin] });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`\\[OCR_CAPPED\\] ${pages} page\\(s\\) have no text layer; OCR is capped at ${cap} page\\(s\\)`));
    expect(readFileSync(join(bin, 'pdftoppm.log'), 'utf8').trim().split('\n')).toHaveLength(cap);
    expectWellBehaved(run, { boundMs, inputs: { [input]: digest }, outputs: [join(dir, 'out')] });
  }, 1_000_000);

  it('ends a run stopped by SIGTERM during OCR by that signal, its render folder removed', async () => {
    const dir = join(work, 'sigterm');
    const bin = join(dir, 'bin');
    writeOcrStandIns(bin, 0.5);
    writeFileSync(join(dir, 'scan.pdf'), blankScanPdf(20));
    let pid = 0;
    const log = join(bin, 'pdftoppm.log');
    const poll = setInterval(() => {
      if (pid && existsSync(log)) {
        clearInterval(poll);
        process.kill(pid, 'SIGTERM');
      }
    }, 20);
    const boundMs = 60_000;
    const run = await doctree(['ingest', 'scan.pdf', '--out', 'out'], dir, { boundMs, path: [bin], onStart: (p) => (pid = p) });
    clearInterval(poll);
    expect(run.signal).toBe('SIGTERM');
    expect(readdirSync(tmp).filter((name) => name.startsWith(`doctree-ocr-${run.pid}-`))).toEqual([]);
    expectWellBehaved({ ...run, signal: null }, { boundMs, outputs: [join(dir, 'out')] });
  }, 90_000);

  it('refuses a fifo and a link to /dev/zero at once in ingest, index and ask (INPUT_UNSUPPORTED), and a MinerU page_idx of 2 000 000 000 (MINERU_INVALID)', async () => {
    const dir = join(work, 'special');
    mkdirSync(dir);
    execFileSync('mkfifo', [join(dir, 'pipe.pdf')]);
    symlinkSync('/dev/zero', join(dir, 'zero.pdf'));
    writeFileSync(join(dir, 'big_content_list.json'), mineruContentList(2_000_000_000));
    const boundMs = 20_000;
    for (const args of [['ingest', 'pipe.pdf'], ['ingest', 'zero.pdf'], ['index', 'zero.pdf'], ['ask', 'pipe.pdf', 'What grew?']]) {
      const run = await doctree([...args, '--out', 'out'], dir, { boundMs });
      expect(run.status).toBe(4);
      expectOneErrorLine(run, 'INPUT_UNSUPPORTED');
      expectWellBehaved(run, { boundMs, outputs: [join(dir, 'out')] });
    }
    const run = await doctree(['ingest', 'big_content_list.json', '--out', 'out'], dir, { boundMs });
    expect(run.status).toBe(5);
    expectOneErrorLine(run, 'MINERU_INVALID');
    expectWellBehaved(run, { boundMs, outputs: [join(dir, 'out')] });
  }, 90_000);

  it(`ingests a PDF whose text is one ${FULL ? '1 000 000' : '200 000'}-letter word in bounded time`, async () => {
    const dir = join(work, 'word');
    mkdirSync(dir);
    writeFileSync(join(dir, 'word.pdf'), longWordPdf(FULL ? 1_000_000 : 200_000));
    const boundMs = FULL ? 120_000 : 60_000;
    const run = await doctree(['ingest', 'word.pdf', '--out', 'out'], dir, { boundMs });
    expect(run.status).toBe(0);
    expectWellBehaved(run, { boundMs, outputs: [join(dir, 'out')] });
  }, 200_000);
});

describe('reliability: kill -9, stale temporaries, reruns', () => {
  it('a rerun after kill -9 removes what the dead run left and writes the files of a clean run', async () => {
    const dir = join(work, 'kill');
    mkdirSync(dir);
    const input = join(dir, 'report.pdf');
    writeFileSync(input, textPdf(FULL ? 400 : 60));
    const digest = sha(input);
    const boundMs = 120_000;
    const clean = await doctree(['ingest', 'report.pdf', '--out', 'clean'], dir, { boundMs });
    expect(clean.status).toBe(0);
    // Killed while ingesting: whatever it had written stays.
    let pid = 0;
    const killer = setTimeout(() => pid && process.kill(pid, 'SIGKILL'), 1500);
    const killed = await doctree(['ingest', 'report.pdf', '--out', 'out'], dir, { boundMs, onStart: (p) => (pid = p) });
    clearTimeout(killer);
    // Temporaries of dead processes, as a kill -9 in the middle of writing leaves them.
    const docDir = join(dir, 'out', 'report');
    mkdirSync(join(docDir, `index.tmp-${killed.pid}-0badf00d`), { recursive: true });
    writeFileSync(join(docDir, `doctree.mm.json.tmp-${killed.pid}-deadbeef`), '{"partial');
    mkdirSync(join(tmp, `doctree-ocr-${killed.pid}-Ab12Cd`));
    const rerun = await doctree(['ingest', 'report.pdf', '--out', 'out'], dir, { boundMs });
    expect(rerun.status).toBe(0);
    for (const name of ['content_list.adapted.json', 'content_list.enhanced.json', 'doctree.mm.json']) {
      expect(readFileSync(join(docDir, name), 'utf8')).toBe(readFileSync(join(dir, 'clean', 'report', name), 'utf8'));
    }
    // The index build of the same folder removes the dead run's index folder.
    const index = await doctree(['index', docDir], dir, { boundMs });
    expect(index.status).toBe(0);
    expect(existsSync(join(docDir, `index.tmp-${killed.pid}-0badf00d`))).toBe(false);
    // The OCR render folder of the dead run goes with the next OCR run.
    const bin = join(dir, 'bin');
    writeOcrStandIns(bin);
    writeFileSync(join(dir, 'scan.pdf'), blankScanPdf(1));
    expect((await doctree(['ingest', 'scan.pdf', '--out', 'out'], dir, { boundMs, path: [bin] })).status).toBe(0);
    expectWellBehaved(rerun, { boundMs, inputs: { [input]: digest }, outputs: [join(dir, 'out'), join(dir, 'clean')] });
  }, 400_000);
});

describe('reliability: document ids', () => {
  it('never lets two inputs with the same derived id replace each other silently; non-Latin names get distinct ids', async () => {
    const dir = join(work, 'ids');
    for (const sub of ['c1', 'c2']) {
      mkdirSync(join(dir, sub), { recursive: true });
      writeFileSync(join(dir, sub, 'report.pdf'), textPdf(2, sub));
    }
    const boundMs = 60_000;
    const together = await doctree(['ingest', 'c1/report.pdf', 'c2/report.pdf', '--out', 'out'], dir, { boundMs });
    expect(together.status).toBe(2);
    expectOneErrorLine(together, 'USAGE');
    expect(await doctree(['ingest', 'c1/report.pdf', '--out', 'out'], dir, { boundMs })).toMatchObject({ status: 0 });
    const second = await doctree(['ingest', 'c2/report.pdf', '--out', 'out'], dir, { boundMs });
    expect(second.status).toBe(0);
    expect(second.stdout).toMatch(/\[DOC_REPLACED\] The document folder report held report\.pdf/);
    writeFileSync(join(dir, 'تقرير.pdf'), textPdf(1, 'Arabic name'));
    writeFileSync(join(dir, 'דוח.pdf'), textPdf(1, 'Hebrew name'));
    const names = await doctree(['ingest', 'تقرير.pdf', 'דוח.pdf', '--out', 'names'], dir, { boundMs });
    expect(names.status).toBe(0);
    const folders = readdirSync(join(dir, 'names'));
    expect(folders).toHaveLength(2);
    for (const folder of folders) expect(folder).toMatch(/^document-[0-9a-f]{8}$/);
    expectWellBehaved(names, { boundMs, outputs: [join(dir, 'out'), join(dir, 'names')] });
  }, 120_000);
});

describe('reliability: right-to-left scripts', () => {
  it('stores Hebrew and Arabic text in logical order, Arabic as base letters', async () => {
    const dir = join(work, 'rtl');
    mkdirSync(dir);
    writeFileSync(join(dir, 'rtl.pdf'), rtlPdf());
    const boundMs = 60_000;
    const run = await doctree(['ingest', 'rtl.pdf', '--out', 'out'], dir, { boundMs });
    expect(run.status).toBe(0);
    const tree = readFileSync(join(dir, 'out', 'rtl', 'doctree.mm.json'), 'utf8');
    for (const text of [...HEBREW_TEXT, ARABIC_TEXT]) expect(tree).toContain(text);
    expect(tree).not.toMatch(/[\uFB50-\uFDFF\uFE70-\uFEFC]/);
    expectWellBehaved(run, { boundMs, outputs: [join(dir, 'out')] });
  }, 90_000);
});

describe('reliability: outputs and LLM failures', () => {
  it('refuses --trace over the input PDF, leaving it unchanged', async () => {
    const dir = join(work, 'trace');
    mkdirSync(dir);
    const input = join(dir, 'x.pdf');
    writeFileSync(input, textPdf(1));
    const digest = sha(input);
    const boundMs = 60_000;
    const run = await doctree(['ask', 'x.pdf', 'What grew?', '--trace', 'x.pdf'], dir, { boundMs });
    expect(run.status).toBe(2);
    expectOneErrorLine(run, 'USAGE');
    expectWellBehaved(run, { boundMs, inputs: { [input]: digest } });
  }, 90_000);

  it('eval --llm openai with every LLM call failing says so on stderr and in metrics.json', async () => {
    const dir = join(work, 'eval');
    mkdirSync(dir);
    config(dir, { llm: { provider: 'openai', base_url: 'http://127.0.0.1:9/v1', api_key: 'sk-test-not-a-key', max_retries: 0, timeout_ms: 3000 }, embedder: { kind: 'hashing' } });
    const boundMs = 180_000;
    const questions = join(root, 'data', 'samples', 'northwind-questions.jsonl');
    const run = await doctree(['eval', '--questions', questions, '--systems', 'doctree', '--out', 'run', '--limit', '1', '--docs', 'docs'], dir, { boundMs });
    expect(run.status).toBe(0);
    expect(run.stderr).toMatch(/^warning: doctree: (\d+) of \1 LLM call\(s\) failed \(LLM_UNAVAILABLE \d+\); 1 of 1 question\(s\) fell back offline — every LLM call failed/m);
    expect(run.stderr).not.toContain('sk-test-not-a-key');
    const metrics = JSON.parse(readFileSync(join(dir, 'run', 'metrics.json'), 'utf8')) as { systems: Array<{ llm_failures?: { questions_fallen_back: number } }> };
    expect(metrics.systems[0]!.llm_failures).toMatchObject({ questions_fallen_back: 1 });
    expectWellBehaved(run, { boundMs, outputs: [join(dir, 'run'), join(dir, 'docs')] });
    expect(statSync(join(dir, 'run', 'metrics.json')).size).toBeGreaterThan(0);
  }, 240_000);
});
