import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { captureIo } from '../__fixtures__/capture-io.js';
import { run } from '../main.js';
import { postgresEvalSystems } from './eval-postgres.js';

describe('doctree eval with the PostgreSQL systems', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'doctree-cli-eval-pg-'));
    writeFileSync(join(dir, 'questions.jsonl'), `${JSON.stringify({ id: 'q1', doc_file: 'a.pdf', question: 'What is on page 1?', answer: 'x', answer_format: 'Str' })}\n`);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('asks for a store before anything runs, and opens none for the other systems', async () => {
    const io = captureIo(dir);
    expect(await run(['eval', '--questions', 'questions.jsonl', '--systems', 'doctree,doctree-pg', '--out', 'run'], io)).toBe(2);
    expect(io.err).toContain('system doctree-pg needs a PostgreSQL store: --store postgres://');
    const none = await postgresEvalSystems(captureIo(dir, { DOCTREE_STORE: 'postgres://u:pw@127.0.0.1:1/x' }), ['doctree', 'rag'], undefined);
    expect(none.factories.size).toBe(0);
    await none.close();
  });

  it('reports an unreachable store without its password', async () => {
    const io = captureIo(dir, { DOCTREE_STORE: 'postgres://app:eval-pw-9@127.0.0.1:1/db' });
    expect(await run(['eval', '--questions', 'questions.jsonl', '--systems', 'doctree-pg', '--out', 'run'], io)).not.toBe(0);
    expect(io.err).toContain('postgres://app:[redacted]@127.0.0.1:1/db');
    expect(`${io.out}${io.err}`).not.toContain('eval-pw-9');
  }, 60_000);
});
