import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CapturedIo } from '@doctree/pipeline/testing';
import { captureIo as capture } from '../__fixtures__/capture-io.js';
import { run } from '../main.js';

const SAMPLES = join(__dirname, '../../../../data/samples');

// The hashing embedder keeps these tests light (the SIF default is covered by @doctree/index and @doctree/pipeline).
const ENV = { DOCTREE_EMBEDDER: 'hashing' };

const captureIo = (cwd: string, isTty = false): CapturedIo => capture(cwd, ENV, isTty);

const lines = (file: string): string[] => readFileSync(file, 'utf8').split('\n').filter(Boolean);

describe('doctree eval', () => {
  // End-to-end runs of the agent and the baselines: a safety bound for a loaded CI machine, not a speed test.
  jest.setTimeout(60_000);
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'doctree-cli-eval-'));
    mkdirSync(join(dir, 'set'));
    copyFileSync(join(SAMPLES, 'northwind-annual-report-2023.pdf'), join(dir, 'set', 'northwind-annual-report-2023.pdf'));
    copyFileSync(join(SAMPLES, 'northwind-questions.jsonl'), join(dir, 'set', 'questions.jsonl'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('evaluates with --limit, prints the summary table, and a rerun without --limit resumes instead of starting over', async () => {
    const first = captureIo(dir, true);
    expect(await run(['eval', '--questions', 'set/questions.jsonl', '--systems', 'doctree,rag,bm25-pages', '--out', 'out', '--limit', '2'], first)).toBe(0);
    expect(first.out).toMatch(/^set\/questions: 2 questions, 3 systems\nSystem\s+R@1\s+R@3\s+R@5\s+R@10\s+MRR\s+Accuracy\s+F1\s+p50\s+p95\s+Build\s+Errors\n/);
    expect(first.out).toMatch(/\nDocTree\s+\d/);
    expect(first.out).toMatch(/\nRAG \(dense chunks\)\s+\d/);
    expect(first.out).toMatch(/\nBM25 over pages \(reference\)\s+\d/);
    expect(first.out).toContain('6 answered now, 0 taken over from an earlier run.');
    expect(first.out).toContain(`Report: ${join(dir, 'out', 'report.md')}`);
    // Progress is drawn on the terminal (stderr), the table goes to stdout.
    expect(first.err).toMatch(/doctree \[1\/3\] .* 2\/2/);
    expect(lines(join(dir, 'out', 'predictions.jsonl'))).toHaveLength(6);
    expect(existsSync(join(dir, 'out', 'report.html'))).toBe(true);
    expect(existsSync(join(dir, 'data', 'eval', 'northwind-annual-report-2023', 'rag', 'manifest.json'))).toBe(true);

    // "Interrupted" after two questions: the same command without --limit answers only the four missing ones per system.
    const second = captureIo(dir);
    expect(await run(['eval', '--questions', 'set/questions.jsonl', '--systems', 'doctree,rag,bm25-pages', '--out', 'out', '--json'], second)).toBe(0);
    const report = JSON.parse(second.out);
    expect(report).toMatchObject({ answered: 12, resumed: 6, metrics: { n_questions: 6 } });
    expect(report.metrics.systems.map((m: { system: string }) => m.system)).toEqual(['doctree', 'rag', 'bm25-pages']);
    // The rerun says, per system, that it resumes the answers of the unchanged system (and nothing else on stderr).
    expect(second.err.split('\n').filter((l) => l !== '')).toEqual([
      expect.stringMatching(/^resuming 2 answers of doctree \(fingerprint [0-9a-f]{12}\)$/),
      expect.stringMatching(/^resuming 2 answers of rag \(fingerprint [0-9a-f]{12}\)$/),
      expect.stringMatching(/^resuming 2 answers of bm25-pages \(fingerprint [0-9a-f]{12}\)$/),
    ]);
    const predictions = lines(join(dir, 'out', 'predictions.jsonl')).map((l) => JSON.parse(l) as { id: string; system: string });
    expect(predictions).toHaveLength(18);
    expect(new Set(predictions.map((p) => `${p.system}/${p.id}`)).size).toBe(18);
    // The unanswerable question is scored, and the evidence page of the employees question is ranked first by BM25.
    const bm25 = predictions.find((p) => p.system === 'bm25-pages' && p.id === 'nw-employees') as unknown as { ranked_pages: number[] };
    expect(bm25.ranked_pages[0]).toBe(1);
  });

  it('refuses an unknown system listing the valid ones, and other bad arguments, with the usage status', async () => {
    const unknown = captureIo(dir);
    expect(await run(['eval', '--questions', 'set/questions.jsonl', '--systems', 'rag,gpt', '--out', 'out'], unknown)).toBe(2);
    expect(unknown.err).toMatch(/^doctree: \[USAGE\] unknown system "gpt".*rag, rag-hybrid, bm25-pages/s);
    expect(existsSync(join(dir, 'out'))).toBe(false);

    for (const [args, message] of [
      [['--systems', 'rag', '--out', 'out'], /needs --questions/],
      [['--questions', 'set/questions.jsonl', '--out', 'out'], /needs --systems/],
      [['--questions', 'set/questions.jsonl', '--systems', 'rag'], /needs --out/],
      [['--questions', 'set/questions.jsonl', '--systems', 'rag', '--out', 'out', '--limit', '0'], /--limit must be a positive integer, not "0"/],
      [['--questions', 'set/questions.jsonl', '--systems', 'rag', '--out', 'out', '--llm', 'claude'], /--llm must be none or openai/],
      [['--questions', 'set/questions.jsonl', '--systems', 'rag', '--out', 'out', '--judge', '--llm', 'none'], /LLM judge needs an LLM endpoint/],
    ] as const) {
      const io = captureIo(dir);
      expect(await run(['eval', ...args], io)).toBe(2);
      expect(io.err).toMatch(message);
    }
  });

  it('reports a missing dataset file without a stack trace', async () => {
    const io = captureIo(dir);
    const status = await run(['eval', '--questions', 'set/nope.jsonl', '--systems', 'rag', '--out', 'out'], io);
    expect(status).not.toBe(0);
    expect(io.err).toMatch(/^doctree: \[[A-Z_]+\] .*nope\.jsonl/);
    expect(io.err).not.toMatch(/\n\s+at /);
  });
});
