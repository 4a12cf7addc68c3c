import { existsSync } from 'node:fs';
import { appendFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { DocTreeError, MetricsFileSchema } from '@doctree/schema';
import type { Question } from '@doctree/schema';

import { ScriptedChatModel } from '../__fixtures__/scripted-chat-model.js';
import { ScriptedQaSystem } from '../__fixtures__/scripted-qa-system.js';
import type { ScriptedAnswer } from '../__fixtures__/scripted-qa-system.js';
import { loadDataset } from '../datasets/load-questions.js';
import { JUDGE_SYSTEM_PROMPT } from '../judge/llm-judge.js';
import { createProgressPrinter, type EvalProgressEvent } from './progress.js';
import { readMetrics, readPredictions } from './read-results.js';
import { runEvaluation } from './run-evaluation.js';

const fixtures = join(__dirname, '..', 'datasets', '__fixtures__');

// nw-001 Int "7" pages [3] (text); nw-002 Str "Cold brew" pages [5, 6] (chart, table);
// nw-003 None "Not answerable" (unanswerable); fb-90001 open "$412.50" pages [9] (financial-statement).
const ALPHA: Record<string, ScriptedAnswer> = {
  'nw-001': { answer: '7', ranked: [3, 1] },
  'nw-002': { answer: 'Cold brew', ranked: [5, 2, 6] },
  'nw-003': { answer: 'Not answerable', ranked: [1] },
  'fb-90001': { answer: '412.5 million', ranked: [9], llmCalls: 2 },
};
const BETA: Record<string, ScriptedAnswer> = {
  'nw-001': { answer: '8', ranked: [1, 2, 3] },
  'nw-002': { answer: 'Espresso', ranked: [6] },
  'nw-003': { answer: '42', ranked: [] },
  'fb-90001': { answer: '$412.50', ranked: [8, 9] },
};

let questions: Question[];
let dir: string;
let run = 0;
const outDir = (): string => join(dir, `run-${++run}`);

beforeAll(async () => {
  questions = (await loadDataset(join(fixtures, 'questions.jsonl'))).questions;
  dir = await mkdtemp(join(tmpdir(), 'doctree-eval-run-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function errorOf(promise: Promise<unknown>): Promise<DocTreeError> {
  try {
    await promise;
  } catch (error) {
    if (DocTreeError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a DocTreeError');
}

async function lines(path: string): Promise<string[]> {
  return (await readFile(path, 'utf8')).split('\n').filter((l) => l !== '');
}

describe('runEvaluation', () => {
  it('writes predictions, traces, metrics and reports with hand-checked numbers', async () => {
    const out = outDir();
    const alpha = new ScriptedQaSystem({ id: 'alpha', answers: ALPHA, buildMs: 40, description: { label: 'Alpha', config: { k: 5 } } });
    const beta = new ScriptedQaSystem({ id: 'beta', answers: BETA, buildMs: 10 });
    const events: EvalProgressEvent[] = [];
    const result = await runEvaluation({ questions, systems: [alpha, beta], outDir: out, dataset: 'fixture', documentsDir: fixtures, onProgress: (e) => events.push(e) });

    expect(await lines(join(out, 'predictions.jsonl'))).toHaveLength(8);
    expect(alpha.prepared).toEqual(['pdfs/northwind-annual-report-2023.pdf']); // once per document
    const metrics = await readMetrics(join(out, 'metrics.json'));
    expect(MetricsFileSchema.parse(metrics)).toEqual(metrics);
    expect(metrics).toEqual(result.metrics);
    const [a, b] = metrics.systems;

    expect(a!.label).toBe('Alpha');
    expect(a!.overall.n).toBe(4);
    expect(a!.overall.n_retrieval).toBe(3);
    expect(a!.overall.recall_at['1']).toBeCloseTo((1 + 0.5 + 1) / 3, 10);
    expect(a!.overall.recall_at['3']).toBe(1);
    expect(a!.overall.mrr).toBe(1);
    expect(a!.overall.accuracy).toBe(1);
    expect(a!.overall.f1).toBe(1);
    expect(a!.llm.calls_per_question).toBe(0.5);
    expect(a!.llm.tokens_per_question).toBe((200 + 20) / 4);
    expect(a!.index_build_ms).toBe(40);
    expect(a!.index_build_docs).toBe(1);

    expect(b!.overall.recall_at['1']).toBeCloseTo((0 + 0.5 + 0) / 3, 10);
    expect(b!.overall.recall_at['3']).toBeCloseTo((1 + 0.5 + 1) / 3, 10);
    expect(b!.overall.mrr).toBeCloseTo((1 / 3 + 1 + 1 / 2) / 3, 10);
    expect(b!.overall.accuracy).toBe(0.25);
    expect(b!.overall.f1).toBeCloseTo(2 / 7, 10); // recall 1/3, precision 1/4
    expect(Object.keys(b!.by_source)).toEqual(['text', 'table', 'chart', 'financial-statement', 'unanswerable']);
    expect(b!.by_source['financial-statement']!.accuracy).toBe(1);
    expect(b!.by_source['unanswerable']).toMatchObject({ n: 1, n_retrieval: 0, accuracy: 0, recall_at: {} });
    expect(Object.keys(b!.by_format)).toEqual(['Int', 'Str', 'None', 'open']);

    const predictions = await readPredictions(join(out, 'predictions.jsonl'));
    const p = predictions.find((x) => x.system === 'beta' && x.id === 'nw-002')!;
    expect(p).toMatchObject({ answer: 'Espresso', ranked_pages: [6], pages: [6], trace_path: 'traces/beta/nw-002.json' });
    expect(p.gold).toMatchObject({ answer: 'Cold brew', evidence_pages: [5, 6], source_labels: ['chart', 'table'], format_label: 'Str' });
    expect(p.score).toMatchObject({ accuracy: 0, rule: 'str-anls', recall_at: { '1': 0.5 }, reciprocal_rank: 1 });
    const trace = JSON.parse(await readFile(join(out, p.trace_path!), 'utf8'));
    expect(trace).toMatchObject({ format: 'doctree.trace', trace_id: 'beta-nw-002' });
    expect(trace.events[0].message).toContain(join(fixtures, 'pdfs/northwind-annual-report-2023.pdf'));

    expect(existsSync(join(out, 'report.md'))).toBe(true);
    expect(existsSync(join(out, 'report.html'))).toBe(true);
    expect(JSON.parse(await readFile(join(out, 'run.json'), 'utf8'))).toMatchObject({ format: 'doctree.eval-run', version: 1, dataset: 'fixture', systems: { alpha: { config: { k: 5 } } } });

    const alphaEvents = events.filter((e) => e.system === 'alpha');
    expect(alphaEvents.map((e) => e.phase)).toEqual(['start', 'prepare', 'answered', 'answered', 'answered', 'answered', 'done']);
    expect(alphaEvents.filter((e) => e.phase === 'answered').map((e) => e.done)).toEqual([1, 2, 3, 4]);
  });

  it('records a failing answer as an error scored 0 and goes on', async () => {
    const out = outDir();
    const broken = new ScriptedQaSystem({ id: 'broken', answers: { ...ALPHA, 'nw-002': { answer: '', ranked: [], fail: 'reader crashed' } } });
    const result = await runEvaluation({ questions, systems: [broken], outDir: out });
    const failed = result.predictions.find((x) => x.id === 'nw-002')!;
    expect(failed.error).toEqual({ code: 'INTERNAL', message: 'reader crashed' });
    expect(failed.score).toMatchObject({ accuracy: 0, rule: 'error' });
    expect(failed.trace_path).toBeUndefined();
    expect(result.metrics.systems[0]!.errors).toBe(1);
    expect(result.metrics.systems[0]!.overall.accuracy).toBe(0.75);
    expect(await readFile(join(out, 'report.md'), 'utf8')).toContain('reader crashed');
  });

  it('resumes an interrupted run without answering a pair twice', async () => {
    const out = outDir();
    const controller = new AbortController();
    const first = new ScriptedQaSystem({ id: 'alpha', answers: ALPHA, onAnswer: (_q, calls) => calls === 3 && controller.abort() });
    const error = await errorOf(runEvaluation({ questions, systems: [first], outDir: out, signal: controller.signal }));
    expect(error.code).toBe('CANCELLED');
    expect(error.hint).toMatch(/again to resume/);
    expect(await lines(join(out, 'predictions.jsonl'))).toHaveLength(2);

    const second = new ScriptedQaSystem({ id: 'alpha', answers: ALPHA });
    const result = await runEvaluation({ questions, systems: [second], outDir: out });
    expect(second.answered).toEqual(['nw-003', 'fb-90001']);
    expect(result).toMatchObject({ answered: 2, resumed: 2 });
    const written = (await lines(join(out, 'predictions.jsonl'))).map((l) => JSON.parse(l).id);
    expect(written).toEqual(['nw-001', 'nw-002', 'nw-003', 'fb-90001']);
    expect(result.metrics.systems[0]!.overall.accuracy).toBe(1);

    // A later call adds a system and answers only its pairs.
    const beta = new ScriptedQaSystem({ id: 'beta', answers: BETA });
    const third = new ScriptedQaSystem({ id: 'alpha', answers: ALPHA });
    const more = await runEvaluation({ questions, systems: [third, beta], outDir: out, limit: 2 });
    expect(third.answered).toEqual([]);
    expect(beta.answered).toEqual(['nw-001', 'nw-002']);
    expect(more.metrics.n_questions).toBe(2);
  });

  it('answers failed pairs again only when asked to retry errors', async () => {
    const out = outDir();
    await runEvaluation({ questions, systems: [new ScriptedQaSystem({ id: 'alpha', answers: { ...ALPHA, 'nw-003': { answer: '', ranked: [], fail: 'timeout' } } })], outDir: out });
    const same = new ScriptedQaSystem({ id: 'alpha', answers: ALPHA });
    expect((await runEvaluation({ questions, systems: [same], outDir: out })).metrics.systems[0]!.errors).toBe(1);
    expect(same.answered).toEqual([]);
    const retried = await runEvaluation({ questions, systems: [same], outDir: out, retryErrors: true });
    expect(same.answered).toEqual(['nw-003']);
    expect(retried.metrics.systems[0]!.errors).toBe(0);
    expect(await readPredictions(join(out, 'predictions.jsonl'))).toHaveLength(4); // the retried line replaces the failed one
  });

  it('drops a line cut short by a crash and answers that pair again', async () => {
    const out = outDir();
    await runEvaluation({ questions, systems: [new ScriptedQaSystem({ id: 'alpha', answers: ALPHA })], outDir: out });
    const file = join(out, 'predictions.jsonl');
    const kept = await lines(file);
    await writeFile(file, `${kept.slice(0, 3).join('\n')}\n${kept[3]!.slice(0, 40)}`);
    const again = new ScriptedQaSystem({ id: 'alpha', answers: ALPHA });
    const result = await runEvaluation({ questions, systems: [again], outDir: out });
    expect(again.answered).toEqual(['fb-90001']);
    expect(result.predictions).toHaveLength(4);
    expect((await lines(file)).every((l) => JSON.parse(l) !== undefined)).toBe(true);

    await appendFile(file, 'not json\n{"also": "bad"}\n');
    const corrupt = await errorOf(runEvaluation({ questions, systems: [again], outDir: out }));
    expect(corrupt.code).toBe('SCHEMA_INVALID');
    expect(corrupt.message).toMatch(/line 5/);
  });

  it('answers again, and says so, when a system\'s configuration or code changed; resumes it under the same fingerprint', async () => {
    const out = outDir();
    const make = (config: Record<string, unknown>, code?: Record<string, string>) =>
      new ScriptedQaSystem({ id: 'alpha', answers: ALPHA, description: { config, ...(code ? { code } : {}) } });
    const printed: string[] = [];
    const stream = { write: (text: string) => void printed.push(text) };
    const first = await runEvaluation({ questions, systems: [make({ k: 5 }), new ScriptedQaSystem({ id: 'beta', answers: BETA })], outDir: out });
    expect(first.systems.map((r) => [r.system, r.changed, r.resumed])).toEqual([['alpha', false, 0], ['beta', false, 0]]);

    const same = make({ k: 5 });
    const resumed = await runEvaluation({ questions, systems: [same], outDir: out, onProgress: createProgressPrinter({ stream }) });
    expect(same.answered).toEqual([]);
    expect(printed.join('')).toContain(`resuming 4 answers of alpha (fingerprint ${first.systems[0]!.fingerprint.slice(0, 12)})`);
    expect(resumed.systems[0]).toMatchObject({ fingerprint: first.systems[0]!.fingerprint, resumed: 4, changed: false });

    printed.length = 0;
    const reconfigured = make({ k: 10 });
    const again = await runEvaluation({ questions, systems: [reconfigured], outDir: out, onProgress: createProgressPrinter({ stream }) });
    expect(reconfigured.answered).toHaveLength(4);
    expect(printed.join('')).toContain('alpha changed since the last run: answering again');
    expect(again.systems[0]).toMatchObject({ resumed: 0, changed: true });
    // Only the new answers of alpha are kept; beta's stay untouched.
    const kept = (await lines(join(out, 'predictions.jsonl'))).map((l) => JSON.parse(l) as { system: string });
    expect(kept.filter((p) => p.system === 'alpha')).toHaveLength(4);
    expect(kept.filter((p) => p.system === 'beta')).toHaveLength(4);

    // Same configuration, other code (a module file edited): answered again too.
    const edited = make({ k: 10 }, { module_sha256: 'b'.repeat(64) });
    await runEvaluation({ questions, systems: [edited], outDir: out });
    expect(edited.answered).toHaveLength(4);
    const manifest = JSON.parse(await readFile(join(out, 'run.json'), 'utf8')) as { systems: Record<string, { code?: unknown; fingerprint?: string }> };
    expect(manifest.systems['alpha']).toMatchObject({ code: { module_sha256: 'b'.repeat(64) } });
    expect(manifest.systems['alpha']!.fingerprint).toMatch(/^[0-9a-f]{64}$/);
  });

  it('an interrupted rerun of a changed system never reuses the answers from before the change', async () => {
    const out = outDir();
    await runEvaluation({ questions, systems: [new ScriptedQaSystem({ id: 'alpha', answers: ALPHA, description: { config: { k: 1 } } })], outDir: out });
    const controller = new AbortController();
    const interrupted = new ScriptedQaSystem({ id: 'alpha', answers: ALPHA, description: { config: { k: 2 } }, onAnswer: (_q, n) => (n === 2 ? controller.abort() : undefined) });
    await errorOf(runEvaluation({ questions, systems: [interrupted], outDir: out, signal: controller.signal }));
    const rest = new ScriptedQaSystem({ id: 'alpha', answers: ALPHA, description: { config: { k: 2 } } });
    const result = await runEvaluation({ questions, systems: [rest], outDir: out });
    expect(rest.answered.length + result.systems[0]!.resumed).toBe(4);
    expect(rest.answered.length).toBeGreaterThanOrEqual(2);
  });

  it('refuses to resume with other questions, another judge, or when told not to resume', async () => {
    const out = outDir();
    const make = (config: Record<string, unknown>) => new ScriptedQaSystem({ id: 'alpha', answers: ALPHA, description: { config } });
    await runEvaluation({ questions, systems: [make({ k: 5 })], outDir: out });
    const otherQuestions = await errorOf(runEvaluation({ questions: questions.slice(1), systems: [make({ k: 5 })], outDir: out }));
    expect(otherQuestions.message).toMatch(/the questions changed/);
    const judged = await errorOf(runEvaluation({ questions, systems: [make({ k: 5 })], outDir: out, judge: new ScriptedChatModel(['{}']) }));
    expect(judged.message).toMatch(/judge none → scripted-judge-1/);
    const noResume = await errorOf(runEvaluation({ questions, systems: [make({ k: 5 })], outDir: out, resume: false }));
    expect(noResume.code).toBe('USAGE');
  });

  it('limits the questions in flight per system', async () => {
    const two = new ScriptedQaSystem({ id: 'two', answers: ALPHA });
    const one = new ScriptedQaSystem({ id: 'one', answers: ALPHA });
    await runEvaluation({ questions, systems: [two], outDir: outDir(), concurrency: 2 });
    await runEvaluation({ questions, systems: [one], outDir: outDir(), concurrency: 1 });
    expect(two.maxInFlight).toBe(2);
    expect(one.maxInFlight).toBe(1);
  });

  it('adds LLM verdicts and records the judge prompt when a judge is given', async () => {
    const out = outDir();
    const judge = new ScriptedChatModel([(request) => (request.messages[1]!.content.includes('Espresso') ? '{"correct": false, "reason": "wrong product"}' : 'not json')]);
    const result = await runEvaluation({ questions, systems: [new ScriptedQaSystem({ id: 'beta', answers: BETA })], outDir: out, judge });
    const metrics = result.metrics.systems[0]!;
    expect(judge.requests).toHaveLength(4);
    expect(metrics.judge).toMatchObject({ model: 'scripted-judge-1', calls: 4, fallbacks: 3 });
    expect(metrics.overall.llm_judged_accuracy).toBe(0.25); // fallbacks use the rule scores: only fb-90001 is right
    expect(result.metrics.judge).toMatchObject({ model: 'scripted-judge-1', system_prompt: JUDGE_SYSTEM_PROMPT });
    expect(await readFile(join(out, 'report.md'), 'utf8')).toContain(JUDGE_SYSTEM_PROMPT);
  });

  it('keeps secrets out of traces and predictions', async () => {
    const out = outDir();
    const system = new ScriptedQaSystem({ id: 'alpha', answers: ALPHA, traceNote: 'key=sk-test-SECRET-1234', description: { config: { api_key: 'sk-test-SECRET-1234' } } });
    await runEvaluation({ questions, systems: [system], outDir: out, secrets: ['sk-test-SECRET-1234'] });
    for (const file of ['predictions.jsonl', 'run.json', 'traces/alpha/nw-001.json']) {
      expect({ file, leaked: (await readFile(join(out, file), 'utf8')).includes('SECRET') }).toEqual({ file, leaked: false });
    }
  });

  it('rejects bad options with USAGE', async () => {
    const alpha = new ScriptedQaSystem({ id: 'alpha', answers: ALPHA });
    expect((await errorOf(runEvaluation({ questions, systems: [], outDir: outDir() }))).code).toBe('USAGE');
    expect((await errorOf(runEvaluation({ questions, systems: [alpha, alpha], outDir: outDir() }))).message).toMatch(/given twice/);
    expect((await errorOf(runEvaluation({ questions, systems: [alpha], outDir: outDir(), concurrency: 0 }))).code).toBe('USAGE');
    expect((await errorOf(runEvaluation({ questions, systems: [new ScriptedQaSystem({ id: 'bad id', answers: ALPHA })], outDir: outDir() }))).code).toBe('USAGE');
  });
});
