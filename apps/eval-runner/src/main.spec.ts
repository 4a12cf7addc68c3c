import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseExperiment } from '@doctree/eval';
import { EVAL_SYSTEM_IDS } from '@doctree/pipeline';
import { run } from './main.js';
import { captureIo as captureCommandIo, type CapturedIo } from '@doctree/pipeline/testing';

const TINY = join(__dirname, '__fixtures__', 'tiny-experiment.json');
const EXAMPLE = join(__dirname, '../../../examples/experiments/dev-comparison.json');

const captureIo = (cwd: string, isTty = false): CapturedIo => captureCommandIo({ cwd, isTty });

describe('doctree-eval-runner', () => {
  // End-to-end runs of the agent and the baselines: a safety bound for a loaded CI machine, not a speed test.
  jest.setTimeout(60_000);
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'doctree-eval-runner-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('prints usage with --help (status 0) and without arguments (usage status)', async () => {
    const help = captureIo(dir);
    expect(await run(['--help'], help)).toBe(0);
    expect(help.out).toMatch(/doctree-eval-runner <experiment\.json> \[--out DIR\]/);
    const bare = captureIo(dir);
    expect(await run([], bare)).toBe(2);
  });

  it('refuses invalid experiment files with one line naming the file and the field', async () => {
    const write = (name: string, value: unknown): string => {
      const file = join(dir, name);
      writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
      return file;
    };
    const base = JSON.parse(readFileSync(TINY, 'utf8')) as Record<string, unknown>;
    const cases: Array<[string, unknown, number, RegExp]> = [
      ['unknown-system.json', { ...base, systems: ['rag', 'gpt'] }, 3, /\[CONFIG_INVALID\] \S+unknown-system\.json: invalid experiment file: systems\.1: unknown system "gpt" \(valid: [^)]*rag-hybrid/],
      ['no-questions.json', { ...base, datasets: [{ name: 'x' }] }, 3, /datasets\.0\.questions: /],
      ['bad-embedder.json', { ...base, configs: [{ name: 'x', config: { embedder: { kind: 'bert' } } }] }, 3, /configs\.0\.config\.embedder\.kind: /],
      ['secret.json', { ...base, configs: [{ name: 'x', config: { llm: { api_key: 'sk-abcdefgh' } } }] }, 3, /configs\.0\.config\.llm: Unrecognized key: "api_key"/],
      ['version.json', { ...base, version: 7 }, 6, /\[FORMAT_VERSION_UNSUPPORTED\] .*version 7 is not supported/],
      ['not-json.json', '{"format":', 3, /not valid JSON/],
    ];
    for (const [name, value, status, message] of cases) {
      const io = captureIo(dir);
      expect(await run([write(name, value)], io)).toBe(status);
      expect(io.err).toMatch(message);
      expect(io.err.trimEnd().split('\n')).toHaveLength(1);
      expect(io.err).not.toContain('sk-abcdefgh');
    }
    const missing = captureIo(dir);
    expect(await run(['nope.json'], missing)).toBe(4);
    expect(missing.err).toMatch(/\[INPUT_NOT_FOUND\] .*nope\.json/);
    const limit = captureIo(dir);
    expect(await run([TINY, '--limit', 'two'], limit)).toBe(2);
  });

  it('ships a valid example experiment over the dev set', () => {
    const experiment = parseExperiment(JSON.parse(readFileSync(EXAMPLE, 'utf8')), { file: EXAMPLE, knownSystems: EVAL_SYSTEM_IDS });
    expect(experiment.datasets[0]!.questions).toBe(join(__dirname, '../../../../shared/data/eval/dev/questions.jsonl'));
    expect(experiment.systems).toEqual(expect.arrayContaining(['rag', 'bm25-pages']));
  });

  it('runs a tiny experiment end to end into one comparison report, and a rerun resumes every run', async () => {
    const out = join(dir, 'out');
    const first = captureIo(dir, true);
    expect(await run([TINY, '--out', out], first)).toBe(0);
    expect(first.err).toMatch(/\[1\/2\] northwind × hashing-512\n/);
    expect(first.err).toMatch(/\[2\/2\] northwind × hashing-128\n/);
    expect(first.out).toMatch(/^northwind × hashing-512 \(16 answered now, 0 from an earlier run\)/);
    expect(first.out).toContain(`Comparison: ${join(out, 'comparison.md')}`);
    for (const config of ['hashing-512', 'hashing-128']) {
      expect(readFileSync(join(out, 'northwind', config, 'predictions.jsonl'), 'utf8').trim().split('\n')).toHaveLength(16);
      expect(existsSync(join(out, 'northwind', config, 'report.html'))).toBe(true);
      expect(existsSync(join(out, 'documents', config, 'northwind-annual-report-2023', 'index', 'manifest.json'))).toBe(true);
    }
    const md = readFileSync(join(out, 'comparison.md'), 'utf8');
    expect(md).toMatch(/^# Experiment tiny-northwind\n/);
    expect(md).toContain(`\`\`\`sh\ndoctree-eval-runner ${TINY} --out ${out}\n\`\`\``);
    expect(md).toContain('Configuration hashing-128: feature hashing, 128 dimensions — embedder hashing d128, vector backend exact, LLM none (offline).');
    for (const config of ['hashing-512', 'hashing-128']) {
      for (const system of ['DocTree', 'DocTree − REPLAN \\(ablates doctree\\)', 'RAG \\(dense chunks\\)', 'BM25 over pages \\(reference\\)']) {
        expect(md).toMatch(new RegExp(`\\| northwind \\| ${config} \\| ${system} \\| 4 \\| \\d`));
      }
    }
    expect(md).toMatch(/### Evidence-page retrieval\n\n\| System \|[^\n]*\n[^\n]*\n\| hashing-512 · DocTree \|/);
    expect(md).toMatch(/\| hashing-128 · DocTree − REPLAN \| hashing-128 · DocTree \|/);
    const html = readFileSync(join(out, 'comparison.html'), 'utf8');
    expect(html).toContain('data-chart="recall-at-k"');
    expect(JSON.parse(readFileSync(join(out, 'comparison.json'), 'utf8')).runs).toHaveLength(2);

    const again = captureIo(dir);
    expect(await run([TINY, '--out', out, '--json'], again)).toBe(0);
    const result = JSON.parse(again.out) as { runs: Array<{ answered: number; resumed: number }> };
    expect(result.runs.map((r) => [r.answered, r.resumed])).toEqual([
      [0, 16],
      [0, 16],
    ]);
  });
});
