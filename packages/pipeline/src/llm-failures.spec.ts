import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { QaSystem } from '@doctree/eval';
import { DocTreeError, resolveConfig, type ChatModelClient, type Question } from '@doctree/schema';
import { llmFailureWarning } from './command/llm-failure-warning.js';
import { evaluateQuestions } from './evaluate-questions.js';
import { countLlmFailures, LlmFailureCounter } from './llm-failures.js';

const SAMPLES = join(__dirname, '../../../data/samples');

/** A chat model whose every call fails as an unreachable endpoint does. */
const failingChat = (): ChatModelClient & { calls: number } => {
  const client = {
    model: 'unreachable-model',
    calls: 0,
    async chat(): Promise<never> {
      client.calls++;
      throw new DocTreeError('LLM_UNAVAILABLE', 'connect ECONNREFUSED 127.0.0.1:9');
    },
  };
  return client;
};

describe('LLM failure accounting of an evaluation', () => {
  it('counts failed calls per system and question, by code, and only inside an answer', async () => {
    const chat = countLlmFailures(failingChat());
    const counter = new LlmFailureCounter();
    const inner: QaSystem = {
      id: 'sys',
      async answer(question) {
        for (let i = 0; i < 2; i++) await chat.chat({ messages: [{ role: 'user', content: question.question }] }).catch(() => undefined);
        return { answer: { answer: 'x' } } as never;
      },
    };
    const system = counter.wrapSystem(inner);
    await chat.chat({ messages: [] }).catch(() => undefined); // a summary call outside any answer: not counted
    for (const id of ['q1', 'q2']) await system.answer({ id, question: id } as Question, {} as never);
    const stats = counter.stats().get('sys')!;
    expect(stats).toEqual({ calls: 4, failed_calls: 4, questions_fallen_back: 2, questions: 2, codes: { LLM_UNAVAILABLE: 4 } });
    expect(llmFailureWarning('sys', stats)).toBe(
      'warning: sys: 4 of 4 LLM call(s) failed (LLM_UNAVAILABLE 4); 2 of 2 question(s) fell back offline — every LLM call failed: this is not an LLM run; check the endpoint (doctree doctor)',
    );
    expect(llmFailureWarning('sys', { ...stats, failed_calls: 0, questions_fallen_back: 0, codes: {} })).toBeUndefined();
  });

  it('evaluateQuestions with every LLM call failing reports the failures and writes them to metrics.json', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'doctree-llm-failures-'));
    try {
      const config = resolveConfig({ overrides: { data_dir: join(dir, 'data'), embedder: { kind: 'hashing' }, llm: { provider: 'none' } } }).config;
      const chat = failingChat();
      // A temporary a killed run left in the run folder goes.
      mkdirSync(join(dir, 'out'), { recursive: true });
      const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
      writeFileSync(join(dir, 'out', `predictions.jsonl.tmp-${dead}-0a1b2c3d`), '{"partial');
      const result = await evaluateQuestions({ questions: join(SAMPLES, 'northwind-questions.jsonl'), systems: ['doctree'], outDir: join(dir, 'out'), config, chat, limit: 1 });
      const stats = result.llmFailures.get('doctree');
      expect(stats).toMatchObject({ questions: 1, questions_fallen_back: 1, codes: { LLM_UNAVAILABLE: expect.any(Number) } });
      expect(stats!.failed_calls).toBe(stats!.calls);
      expect(stats!.failed_calls).toBeGreaterThan(0);
      const written = JSON.parse(readFileSync(result.files.metrics, 'utf8')) as { systems: Array<{ llm_failures?: unknown }> };
      expect(written.systems[0]!.llm_failures).toEqual(stats);
      expect(readdirSync(join(dir, 'out')).filter((name) => name.includes('.tmp-'))).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
