import { readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { HashingEmbedder } from '@doctree/index';
import { OpenAIChatClient } from '@doctree/agents';
import { startScriptedOpenAIServer, type RecordedChatRequest, type ScriptedChatReply, type ScriptedOpenAIServer } from '@doctree/agents/testing';
import { HARBOR_PAGES, tempDir, writeParagraphPdf } from './__fixtures__/workspace-fixtures.js';
import { REWRITE_SYSTEM_PROMPT, SUPPORT_SYSTEM_PROMPT } from './llm.js';
import { EvidenceWorkspace } from './workspace.js';

jest.setTimeout(90_000);

const CHINESE_MD = `# 河谷铁路

新时刻表把行程时间从五十八分钟缩短到四十九分钟。

票价收入覆盖了百分之六十四的运营成本。
`;

let root: string;
let server: ScriptedOpenAIServer;
const embedder = new HashingEmbedder({ dimension: 256 });

/** The scripted model: rewrites the Chinese question, and judges support quoting the passage's first sentence (or a made-up one when the claim says "invented"). */
function model(request: RecordedChatRequest): ScriptedChatReply {
  if (request.system === REWRITE_SYSTEM_PROMPT) return { kind: 'json', value: { q_en: 'Why did membership fees rise?' } };
  if (request.system === SUPPORT_SYSTEM_PROMPT) {
    const passage = /<<<PASSAGE\n([\s\S]*?)\nPASSAGE>>>/.exec(request.user)?.[1] ?? '';
    if (request.user.includes('invented')) return { kind: 'json', value: { support: 0.97, quote: 'A sentence that is nowhere in the passage.' } };
    return { kind: 'json', value: { support: 0.91, quote: passage.split(/(?<=\.)\s/)[0] ?? '' } };
  }
  return { kind: 'status', status: 400, body: { error: { message: 'unexpected prompt' } } };
}

beforeAll(async () => {
  server = await startScriptedOpenAIServer({ chatFallback: model });
  root = await tempDir();
  await EvidenceWorkspace.init(root);
  writeParagraphPdf(join(root, 'raw/evidence/harbor-light-review-2022.pdf'), HARBOR_PAGES, 'Harbor Light Cooperative - Annual Review');
  await writeFile(join(root, 'raw/evidence/valley-rail-zh.md'), CHINESE_MD);
  const ws = await EvidenceWorkspace.open(root, { embedder, pdfWorkers: 0 });
  await ws.parse();
  await ws.chunk();
  await ws.embed();
  await ws.buildBm25();
});
afterAll(async () => {
  await server.close();
  await rm(root, { recursive: true, force: true });
});

const client = (): OpenAIChatClient => new OpenAIChatClient({ baseURL: server.baseURL, apiKey: 'sk-workspace-test-key', model: 'scripted', maxRetries: 0, timeoutMs: 5000, retryBaseDelayMs: 1 });

describe('Chinese questions', () => {
  it('offline: records q_zh, searches it as given and finds the Chinese source', async () => {
    const ws = await EvidenceWorkspace.open(root, { embedder });
    const { run } = await ws.query('新时刻表把行程时间缩短了多少？');
    expect(run).toMatchObject({ q_zh: '新时刻表把行程时间缩短了多少？', q_en: null, rewrite: 'none', queries: ['新时刻表把行程时间缩短了多少？'] });
    expect(run.evidence[0]).toMatchObject({ doc_uid: 'valley-rail-zh', locator_quality: 'char_anchor' });
    expect(run.evidence[0]!.exact_quote).toBe('新时刻表把行程时间从五十八分钟缩短到四十九分钟。');
  });

  it('with a chat model: rewrites to English through the real client, records q_zh and q_en, searches both', async () => {
    const before = server.chatRequests.length;
    const ws = await EvidenceWorkspace.open(root, { embedder, chat: client() });
    const { run } = await ws.query('会员费为什么上涨？');
    expect(run).toMatchObject({ q_zh: '会员费为什么上涨？', q_en: 'Why did membership fees rise?', rewrite: 'llm' });
    expect(run.queries).toEqual(['会员费为什么上涨？', 'Why did membership fees rise?']);
    expect(run.evidence[0]).toMatchObject({ doc_uid: 'harbor-light-review-2022', page: 1 });
    const request = server.chatRequests[before]!;
    expect(request.user).toContain('<<<QUESTION\n会员费为什么上涨？\nQUESTION>>>');
    expect(request.authorization).toBe('Bearer sk-workspace-test-key');
    // The key never reaches the workspace's files.
    for (const dir of ['meta/query_runs', 'outputs']) {
      for (const name of await readdir(join(root, dir))) if (name.endsWith('.json') || name.endsWith('.md')) expect(await readFile(join(root, dir, name), 'utf8')).not.toContain('sk-workspace-test-key');
    }
  });
});

describe('verify-citations with a chat model', () => {
  it('uses the judge when its quote is verbatim and falls back to the offline score when it is not', async () => {
    const draft = join(root, 'llm-draft.md');
    await writeFile(draft, 'Harbor Light Cooperative was founded in 1998 {#harbor-light-review-2022}. An invented claim about the repair yard {#harbor-light-review-2022}.\n');
    const ws = await EvidenceWorkspace.open(root, { embedder, chat: client() });
    const result = await ws.verifyCitations(draft);
    expect(result.checks[0]).toMatchObject({ scorer: 'llm', support_score: 0.91, status: 'OK' });
    expect(result.checks[1]!.scorer).toBe('offline');
    expect(result.checks[1]!.status).not.toBe('OK');
  });
});

describe('papers mode', () => {
  it('groups the hits of the evidence run by document without retrieving again', async () => {
    const spy = jest.spyOn(embedder, 'embedQuery');
    const ws = await EvidenceWorkspace.open(root, { embedder });
    const evidence = await ws.query('solar panels and electricity costs');
    const calls = spy.mock.calls.length;
    const papers = await ws.query('solar panels and electricity costs', { mode: 'papers' });
    expect(spy.mock.calls.length).toBe(calls);
    expect(papers.reused).toBe(true);
    expect(papers.run.reused_from).toBe(evidence.run.query_id);
    expect(papers.run.hits).toEqual(evidence.run.hits);
    expect(papers.output).toMatch(/papers_pack_v001\.md$/);
    expect(await readFile(papers.output, 'utf8')).toContain(`### harborLightReview2022 (\`harbor-light-review-2022\`)`);
    spy.mockRestore();
  });
});

describe('init', () => {
  it('never overwrites an existing configuration and never moves raw files', async () => {
    const configPath = join(root, 'workspace.config.json');
    const edited = JSON.parse(await readFile(configPath, 'utf8'));
    edited.counterevidence_mode = 'soft';
    await writeFile(configPath, JSON.stringify(edited));
    const again = await EvidenceWorkspace.init(root);
    expect(again.config_written).toBe(false);
    expect(JSON.parse(await readFile(configPath, 'utf8')).counterevidence_mode).toBe('soft');
    expect((await readdir(join(root, 'raw/evidence'))).sort()).toEqual(['harbor-light-review-2022.pdf', 'valley-rail-zh.md']);
    const project = JSON.parse(await readFile(join(root, 'meta/project.json'), 'utf8'));
    expect(project).toMatchObject({ format: 'doctree.workspace-project', tool_version: '0.1.0', config_hash: expect.stringMatching(/^[0-9a-f]{16}$/) });
  });
});

describe('counterevidence', () => {
  it('soft lists passages that share a claim\'s terms but not its figures; strict marks the claim CONTESTED', async () => {
    const draft = join(root, 'counter.md');
    await writeFile(draft, 'In the 2022 season the cold store handled 25,100 tonnes of catch.\n');
    const configPath = join(root, 'workspace.config.json');
    const config = JSON.parse(await readFile(configPath, 'utf8'));
    for (const mode of ['soft', 'strict'] as const) {
      await writeFile(configPath, JSON.stringify({ ...config, counterevidence_mode: mode }));
      const ws = await EvidenceWorkspace.open(root, { embedder });
      const { claims } = await ws.audit(draft);
      expect(claims[0]!.counterevidence[0]).toMatchObject({ doc_uid: 'harbor-light-review-2022', page: 1 });
      expect(claims[0]!.status).toBe(mode === 'strict' ? 'CONTESTED' : 'EVIDENCE_NEEDED');
    }
  });
});
