import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startScriptedOpenAIServer, type RecordedChatRequest, type ScriptedChatReply } from '@doctree/agents/testing';
import { AnswerSchema, TraceSchema } from '@doctree/schema';
import { replayToolCalls } from '@doctree/toolhub';
import { captureIo as capture } from '../__fixtures__/capture-io.js';
import { run } from '../main.js';

const SAMPLE_PDF = join(__dirname, '../../../../data/samples/northwind-annual-report-2023.pdf');
const QUESTION = 'How many people did Northwind employ at December 31, 2023?';
const HASHING = { DOCTREE_EMBEDDER: 'hashing' };
const KEY = 'sk-cli-ask-test-5e4d3c2b1a';

const captureIo = (cwd: string, env: Record<string, string | undefined> = HASHING): ReturnType<typeof capture> => capture(cwd, env);

const byRole = (request: RecordedChatRequest): ScriptedChatReply => {
  if (request.system.startsWith('You are a document navigator')) return { kind: 'malformed' };
  if (request.system.startsWith('You are an analyst')) return { kind: 'json', value: { answer: 2140, answer_format: 'Int', confidence: 0.9, support_node_ids: [], quote: 'we employed 2,140 people' } };
  if (request.system.startsWith('You verify an answer')) return { kind: 'json', value: { pass: true, score: 0.9, failures: [] } };
  return { kind: 'json', value: { summary: 'Northwind Instruments annual report: revenue, employees, segments.' } };
};

describe('doctree ask and doctree trace', () => {
  // End-to-end runs of the agent and the baselines: a safety bound for a loaded CI machine, not a speed test.
  jest.setTimeout(60_000);
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'doctree-cli-ask-'));
    copyFileSync(SAMPLE_PDF, join(dir, 'northwind.pdf'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('shows a number with the unit and scale the document states it in', async () => {
    const io = captureIo(dir);
    expect(await run(['ask', 'northwind.pdf', 'What were capital expenditures in 2023?'], io)).toBe(0);
    expect(io.out).toMatch(/^Answer: 37\.5 {2}\(Float\) — \$37\.5 million\n/);
    const json = captureIo(dir);
    expect(await run(['ask', 'northwind.pdf', 'What were capital expenditures in 2023?', '--json'], json)).toBe(0);
    expect(AnswerSchema.parse(JSON.parse(json.out))).toMatchObject({ answer: 37.5, display: '$37.5 million' });
  });

  it('answers offline with confidence, supporting pages and snippets, and the path taken; writes a trace that replays', async () => {
    const io = captureIo(dir);
    expect(await run(['ask', 'northwind.pdf', QUESTION, '--trace', 'out/trace.json'], io)).toBe(0);
    expect(io.out).toMatch(/^Answer: 2140 {2}\(Int\)\nConfidence: 0\.\d\d \(probability the answer is right\)\nSupporting pages: 1\n {2}p\.1 {2}\S+ {2}".*2,140 people.*"/);
    expect(io.out).toContain('Path taken (plan → tools → evidence):');
    expect(io.out).toMatch(/route +\w+ \(rules; domain pack \w+, \w+\)/);
    expect(io.out).toMatch(/\d+\. bm25_node\.search ok \d+ hits/);
    expect(io.out).toMatch(/reader\.answer ok 1 hits/);
    expect(io.err).toBe('');
    const tracePath = join(dir, 'out', 'trace.json');
    const trace = TraceSchema.parse(JSON.parse(readFileSync(tracePath, 'utf8')));
    expect(trace.question).toBe(QUESTION);

    const replay = captureIo(dir);
    expect(await run(['trace', 'out/trace.json'], replay)).toBe(0);
    expect(replay.out).toContain(`Question: ${QUESTION}`);
    const calls = replayToolCalls(trace);
    const lines = replay.out.split('\n').filter((l) => /^\d+\. /.test(l));
    expect(lines.map((l) => l.split(' ')[1])).toEqual(calls.map((c) => c.tool_id));
    expect(replay.out).toMatch(/→ \S+ p\.1 \(/);
    const json = captureIo(dir);
    await run(['trace', 'out/trace.json', '--json'], json);
    expect(JSON.parse(json.out).map((c: { tool_id: string }) => c.tool_id)).toEqual(calls.map((c) => c.tool_id));
  });

  it('shows progress on a terminal while a new document is ingested and indexed, on stderr only', async () => {
    const io = capture(dir, HASHING, true);
    expect(await run(['ask', 'northwind.pdf', QUESTION, '--out', 'tty-data'], io)).toBe(0);
    expect(io.err).toMatch(/\[ingest\]|\[index\]/);
    expect(io.out).toMatch(/^Answer: 2140/);
    expect(io.out).not.toMatch(/\[ingest\]|\[index\]/);
  });

  it('--json prints exactly the Answer schema', async () => {
    const io = captureIo(dir);
    expect(await run(['ask', 'northwind.pdf', QUESTION, '--json', '--max-replans', '0'], io)).toBe(0);
    const answer = JSON.parse(io.out);
    expect(AnswerSchema.strict().parse(answer)).toEqual(answer);
    expect(Object.keys(answer).sort()).toEqual(['answer', 'answer_format', 'confidence', 'pages', 'support', 'trace']);
    expect(answer).toMatchObject({ answer: 2140, pages: [1] });
  });

  it('reports usage errors and bad inputs in one line with their exit status', async () => {
    const cases: Array<[string[], number, RegExp]> = [
      [['ask', 'northwind.pdf'], 2, /USAGE.*ask takes a document and a question/],
      [['ask', 'missing.pdf', QUESTION], 4, /INPUT_NOT_FOUND/],
      [['ask', 'northwind.pdf', QUESTION, '--max-replans', 'many'], 2, /--max-replans must be an integer/],
      [['ask', 'northwind.pdf', QUESTION, '--llm', 'gpt'], 2, /--llm must be none or openai/],
      [['trace', 'northwind.pdf'], 6, /SCHEMA_INVALID.*not JSON/],
      [['trace', 'nothing.json'], 4, /INPUT_NOT_FOUND/],
    ];
    for (const [argv, status, message] of cases) {
      const io = captureIo(dir);
      expect(await run(argv, io)).toBe(status);
      expect(io.err.trim().split('\n')).toHaveLength(1);
      expect(io.err).toMatch(message);
      expect(io.err).not.toMatch(/\n\s+at /);
    }
    writeFileSync(join(dir, 'not-a-trace.json'), '{"format": "other"}');
    const io = captureIo(dir);
    expect(await run(['trace', 'not-a-trace.json'], io)).toBe(6);
    expect(io.err).toMatch(/not a doctree\.trace v1 document/);
  });

  it('uses the endpoint of OPENAI_BASE_URL / OPENAI_API_KEY through the real client, and never prints the key', async () => {
    const server = await startScriptedOpenAIServer({ chatFallback: byRole });
    try {
      const env = { ...HASHING, OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: KEY, DOCTREE_DATA_DIR: 'llm-data' };
      const io = captureIo(dir, env);
      expect(await run(['ask', 'northwind.pdf', QUESTION, '--trace', 'llm-trace.json'], io)).toBe(0);
      expect(io.out).toMatch(/^Answer: 2140/);
      expect(io.out).toMatch(/llm: \d+ call\(s\), \d+ prompt \+ \d+ completion tokens/);
      expect(server.chatRequests.some((r) => r.system.startsWith('You are an analyst'))).toBe(true);
      const written = readFileSync(join(dir, 'llm-trace.json'), 'utf8');
      expect(JSON.parse(written).mode).toBe('llm');
      for (const text of [io.out, io.err, written]) expect(text).not.toContain(KEY);

      const offline = captureIo(dir, env);
      const before = server.chatRequests.length;
      expect(await run(['ask', 'northwind.pdf', QUESTION, '--llm', 'none'], offline)).toBe(0);
      expect(offline.out).toContain('llm: none (offline)');
      expect(server.chatRequests.length).toBe(before);
    } finally {
      await server.close();
    }
  });

  it('an endpoint that never answers: the offline fallbacks answer and one warning line says so', async () => {
    const server = await startScriptedOpenAIServer({ chatFallback: { kind: 'hang' } });
    try {
      const env = { ...HASHING, OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: KEY, DOCTREE_LLM_TIMEOUT_MS: '150', DOCTREE_DATA_DIR: 'hang-data' };
      writeFileSync(join(dir, 'doctree.config.json'), JSON.stringify({ llm: { max_retries: 0 } }));
      const io = captureIo(dir, env);
      expect(await run(['ask', 'northwind.pdf', QUESTION], io)).toBe(0);
      expect(io.out).toMatch(/^Answer: 2140/);
      expect(io.err).toMatch(/^doctree: warning: \d+ LLM call\(s\) failed \(LLM_TIMEOUT\)/);
      expect(io.err.trim().split('\n')).toHaveLength(1);
    } finally {
      rmSync(join(dir, 'doctree.config.json'), { force: true });
      await server.close();
    }
  });

  it('--dry-run answers offline and counts the prompt tokens the LLM path would send', async () => {
    const io = captureIo(dir);
    expect(await run(['ask', 'northwind.pdf', QUESTION, '--dry-run'], io)).toBe(0);
    expect(io.out).toMatch(/^Answer: 2140/);
    expect(io.out).toMatch(/llm: [3-9] call\(s\), \d{3,} prompt \+ 0 completion tokens.*\(dry run: counted, not sent\)/);
    expect(existsSync(join(dir, 'data', 'default', 'northwind', 'index'))).toBe(true);
  });
});
