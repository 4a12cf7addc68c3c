import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startScriptedOpenAIServer } from '@doctree/agents/testing';
import type { CapturedIo } from '@doctree/pipeline/testing';
import { captureIo as capture } from '../__fixtures__/capture-io.js';
import { run } from '../main.js';

const SAMPLES = join(__dirname, '../../../../data/samples');
const SAMPLE_PDF = join(SAMPLES, 'northwind-annual-report-2023.pdf');
const ENCRYPTED_PDF = join(__dirname, '../../../../packages/ingest/src/__fixtures__/pdf/encrypted.pdf');
const QUESTION = 'How many people did Northwind employ at December 31, 2023?';
const HASHING = { DOCTREE_EMBEDDER: 'hashing' };

const captureIo = (cwd: string, env: Record<string, string | undefined> = HASHING): CapturedIo => capture(cwd, env);

/** One line on stderr, no stack trace. */
const expectOneLine = (io: CapturedIo, message: RegExp): void => {
  expect(io.err.trim().split('\n')).toHaveLength(1);
  expect(io.err).toMatch(message);
  expect(io.err).not.toMatch(/\n\s+at /);
};

describe('outputs never overwrite inputs or prepared documents', () => {
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'doctree-cli-outputs-'));
    copyFileSync(SAMPLE_PDF, join(dir, 'northwind.pdf'));
    // Prepare data/default/northwind once.
    expect(await run(['index', 'northwind.pdf'], captureIo(dir))).toBe(0);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('ask --trace refuses the input PDF itself and leaves it intact', async () => {
    const before = readFileSync(join(dir, 'northwind.pdf'));
    for (const trace of ['northwind.pdf', './data/../northwind.pdf']) {
      const io = captureIo(dir);
      expect(await run(['ask', 'northwind.pdf', QUESTION, '--trace', trace], io)).toBe(2);
      expectOneLine(io, /^doctree: \[USAGE\] .*--trace .*northwind\.pdf is the input .*; writing there would overwrite it \(hint: .*e\.g\. --trace trace\.json/);
      expect(io.out).toBe('');
    }
    expect(readFileSync(join(dir, 'northwind.pdf')).equals(before)).toBe(true);
  });

  it("ask --trace refuses the document's artifacts, for a file and for a document folder input", async () => {
    const doc = join(dir, 'data', 'default', 'northwind');
    const tree = readFileSync(join(doc, 'doctree.mm.json'));
    for (const [input, trace] of [
      ['northwind.pdf', 'data/default/northwind/doctree.mm.json'],
      ['northwind.pdf', 'data/default/northwind/index/manifest.json'],
      ['data/default/northwind', 'data/default/northwind/content_list.enhanced.json'],
      ['data/default/northwind', 'data/default/northwind/trace.json'],
    ] as const) {
      const io = captureIo(dir);
      expect(await run(['ask', input, QUESTION, '--trace', trace], io)).toBe(2);
      expectOneLine(io, /\[USAGE\] .*is inside the document folder .*northwind; writing there would overwrite the document's artifacts/);
    }
    expect(readFileSync(join(doc, 'doctree.mm.json')).equals(tree)).toBe(true);
    expect(existsSync(join(doc, 'trace.json'))).toBe(false);
  });

  it('ask --trace refuses the folder a new document is about to be ingested into', async () => {
    const io = captureIo(dir);
    expect(await run(['ask', 'northwind.pdf', QUESTION, '--out', 'fresh', '--trace', 'fresh/northwind/trace.json'], io)).toBe(2);
    expectOneLine(io, /\[USAGE\] .*inside the document folder .*fresh\/northwind/);
    expect(existsSync(join(dir, 'fresh'))).toBe(false);
  });

  it('ingest, index and eval refuse an --out inside a document folder or equal to an input', async () => {
    mkdirSync(join(dir, 'set'), { recursive: true });
    copyFileSync(join(SAMPLES, 'northwind-questions.jsonl'), join(dir, 'set', 'questions.jsonl'));
    const cases: string[][] = [
      ['ingest', 'northwind.pdf', '--out', 'data/default/northwind'],
      ['ingest', 'northwind.pdf', '--out', 'data/default/northwind/index'],
      ['index', 'northwind.pdf', '--out', 'data/default/northwind'],
      ['eval', '--questions', 'set/questions.jsonl', '--systems', 'bm25-pages', '--out', 'data/default/northwind'],
      ['eval', '--questions', 'set/questions.jsonl', '--systems', 'bm25-pages', '--out', 'set/questions.jsonl'],
      ['eval', '--questions', 'set/questions.jsonl', '--systems', 'bm25-pages', '--out', 'runs', '--docs', 'data/default/northwind'],
    ];
    for (const argv of cases) {
      const io = captureIo(dir);
      expect(await run(argv, io)).toBe(2);
      expectOneLine(io, /\[USAGE\] .*--(out|docs) .*(is inside the document folder|is the input)/);
    }
    expect(existsSync(join(dir, 'data', 'default', 'northwind', 'northwind'))).toBe(false);
    expect(existsSync(join(dir, 'runs'))).toBe(false);
  });

  it("ingest refuses to read a document's own content list into that same folder", async () => {
    const doc = join(dir, 'data', 'default', 'northwind');
    const io = captureIo(dir);
    expect(await run(['ingest', join(doc, 'content_list.enhanced.json'), '--doc-id', 'northwind'], io)).toBe(2);
    expectOneLine(io, /\[USAGE\] .*content_list\.enhanced\.json lies inside .*northwind, the document folder ingest writes/);
  });
});

describe('terminal safety and accurate hints', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'doctree-cli-hints-'));
    copyFileSync(SAMPLE_PDF, join(dir, 'northwind.pdf'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('escapes control characters of file names in errors and of questions in a replayed trace; --json stays exact', async () => {
    const io = captureIo(dir);
    expect(await run(['ask', 'evil\x1b[2J\u202efdp.pdf', QUESTION], io)).toBe(4);
    expect(io.err).toContain('evil\\x1b[2J\\u202efdp.pdf');
    expect(io.err.trimEnd()).not.toMatch(/[\p{Cc}\u202e]/u);

    const question = 'How many people\x1b]0;owned\x07 did Northwind employ at December 31, 2023?';
    expect(await run(['ask', 'northwind.pdf', question, '--trace', 'trace.json'], captureIo(dir))).toBe(0);
    const replay = captureIo(dir);
    expect(await run(['trace', 'trace.json'], replay)).toBe(0);
    expect(replay.out).toContain('Question: How many people\\x1b]0;owned\\x07 did Northwind');
    expect(replay.out.replace(/[\n\t]/g, '')).not.toMatch(/\p{Cc}/u);
    expect(JSON.parse(readFileSync(join(dir, 'trace.json'), 'utf8')).question).toBe(question);
  });

  it('ask opens an encrypted PDF with --password, and its hint names an option ask accepts', async () => {
    copyFileSync(ENCRYPTED_PDF, join(dir, 'locked.pdf'));
    const locked = captureIo(dir);
    expect(await run(['ask', 'locked.pdf', 'What is readable?'], locked)).toBe(5);
    expectOneLine(locked, /\[PDF_ENCRYPTED\] .*locked\.pdf.*hint: .*--password/);
    const opened = captureIo(dir);
    expect(await run(['ask', 'locked.pdf', 'What is readable?', '--password', 'doctree'], opened)).toBe(0);
    expect(opened.out).toMatch(/^Answer: /);
    const help = captureIo(dir);
    await run(['--help'], help);
    expect(help.out).toMatch(/doctree ask [^\n]*\n[^\n]*--password PW/);
    expect(help.out).toMatch(/doctree index [^\n]*\n[^\n]*--password PW/);
  });

  it('a cache folder that cannot be written is reported as the cache folder, with its path', async () => {
    const server = await startScriptedOpenAIServer({ chatFallback: { kind: 'json', value: { summary: 'Northwind annual report.' } }, embeddings: { dimension: 16 } });
    try {
      mkdirSync(join(dir, 'llm-data'));
      writeFileSync(join(dir, 'llm-data', '.cache'), 'a file where the cache folder should be');
      // `openai` embeddings are cached in <data_dir>/.cache/embeddings.jsonl.
      const env = { DOCTREE_EMBEDDER: 'openai', OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'sk-cache-test', DOCTREE_DATA_DIR: 'llm-data' };
      const io = captureIo(dir, env);
      const status = await run(['index', 'northwind.pdf'], io);
      const cache = join(dir, 'llm-data', '.cache');
      expect(status).toBe(11);
      expectOneLine(io, new RegExp(`\\[IO_WRITE_FAILED\\] .*cannot write to the cache folder ${cache.replace(/[/\\.]/g, '.')}: .*hint: Check free space and write permission of the cache folder`));
      expect(io.err).not.toMatch(/output folder/);
    } finally {
      await server.close();
    }
  });
});
