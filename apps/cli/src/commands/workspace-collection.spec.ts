import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { extractPdfPages } from '@doctree/ingest';
import { Collection } from '@doctree/pipeline';
import { resolveConfig } from '@doctree/schema';
import { EvidenceWorkspace } from '@doctree/workspace';
import { runEvidenceRetrieverConformance, writeEvidenceConformancePdfs } from '@doctree/workspace/testing';
import { cliRunner } from '../__fixtures__/cli-runner.js';
import { openCollectionWorkspace } from './workspace-collection.js';

jest.setTimeout(180_000);

const env = { DOCTREE_EMBEDDER: 'hashing', DOCTREE_VECTOR_BACKEND: 'exact' };
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

// The collection-backed retriever under the same contract as the workspace's own.
runEvidenceRetrieverConformance('CollectionEvidenceRetriever (DocTree collection)', async (corpus) => {
  const dir = mkdtempSync(join(tmpdir(), 'doctree-ws-collection-conformance-'));
  dirs.push(dir);
  const config = resolveConfig({ overrides: { data_dir: join(dir, 'data'), embedder: { kind: 'hashing' }, index: { backend: 'exact' } } }).config;
  writeEvidenceConformancePdfs(join(dir, 'in'), corpus);
  const collection = await Collection.open(join(dir, 'col'), { config });
  const report = await collection.ingest({ inputDir: join(dir, 'in'), workers: 1 });
  expect(report.failed).toEqual([]);
  await EvidenceWorkspace.init(join(dir, 'ws'));
  const { retriever } = await openCollectionWorkspace(join(dir, 'ws'), join(dir, 'col'), { config });
  return retriever!;
});

describe('doctree workspace over a collection', () => {
  let dir: string;
  const cli = cliRunner(() => dir, env);
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'doctree-ws-collection-'));
    dirs.push(dir);
    writeEvidenceConformancePdfs(join(dir, 'in'));
    expect((await cli('collection', 'ingest', '--input-dir', 'in', '--collection-dir', 'col', '--jobs', '1')).status).toBe(0);
  });

  it('answers a query with citable evidence whose quotes occur verbatim on the cited page', async () => {
    const init = await cli('workspace', 'init', 'ws', '--collection', 'col');
    expect(init.status).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'ws/workspace.config.json'), 'utf8')).collection).toBe('../col');
    const sources = await cli('workspace', 'sources', '--workspace', 'ws', '--json');
    expect(JSON.parse(sources.out).sources.map((s: { doc_uid: string; source_subtype: string; citable: boolean; collection_doc_id: string }) => [s.doc_uid, s.source_subtype, s.citable, s.collection_doc_id])).toEqual([
      ['birchwood-orchestra-2021', 'collection', true, 'birchwood-orchestra-2021'],
      ['saltmarsh-ferry-2022', 'collection', true, 'saltmarsh-ferry-2022'],
    ]);
    // raw_path names the file the collection was built from.
    expect(JSON.parse(sources.out).sources[0].raw_path).toBe(join(dir, 'in', 'birchwood-orchestra-2021.pdf'));
    const query = await cli('workspace', 'query', 'How many crossings did fog cancel in November?', '--workspace', 'ws', '--json');
    expect(query.status).toBe(0);
    const printed = JSON.parse(query.out) as { build_id: string; evidence: Array<{ doc_uid: string; page: number; exact_quote: string }> };
    expect(printed.build_id).toMatch(/^collection-[0-9a-f]{16}$/);
    expect(printed.evidence[0]).toMatchObject({ doc_uid: 'saltmarsh-ferry-2022', page: 2 });
    expect(printed.evidence[0]!.exact_quote).toContain('Fog cancelled 27 crossings in November');
    const flat = (s: string): string => s.replace(/\s+/g, ' ');
    for (const e of printed.evidence) {
      const pages = await extractPdfPages(new Uint8Array(readFileSync(join(dir, 'in', `${e.doc_uid}.pdf`))), { filename: `${e.doc_uid}.pdf` });
      expect(flat(pages[e.page - 1]!.lines.map((l) => l.text).join(' '))).toContain(flat(e.exact_quote));
    }
    const pack = readFileSync(join(dir, 'ws/outputs/evidence_pack_v001.md'), 'utf8');
    expect(pack).toContain('saltmarsh-ferry-2022');
  });

  it('honours citable=false on a collection document and checks citations against the collection', async () => {
    expect((await cli('workspace', 'meta', 'set', '--doc-uid', 'saltmarsh-ferry-2022', '--citable', 'false', '--workspace', 'ws')).status).toBe(0);
    const query = await cli('workspace', 'query', 'How many crossings did fog cancel in November?', '--workspace', 'ws', '--json');
    expect(query.status).toBe(0);
    const evidence = (JSON.parse(query.out) as { evidence: Array<{ doc_uid: string }> }).evidence;
    expect(evidence.map((e) => e.doc_uid)).not.toContain('saltmarsh-ferry-2022');
    writeFileSync(join(dir, 'draft.md'), 'During the 2021 season the orchestra gave 14 concerts {#birchwood-orchestra-2021}. Fog cancelled 27 crossings in November {#saltmarsh-ferry-2022}.\n');
    const verify = await cli('workspace', 'verify-citations', 'draft.md', '--workspace', 'ws', '--json');
    expect(verify.status).toBe(1);
    expect(JSON.parse(verify.out).checks.map((c: { doc_uid: string; status: string; page: number | null }) => [c.doc_uid, c.status, c.page])).toEqual([
      ['birchwood-orchestra-2021', 'OK', 1],
      ['saltmarsh-ferry-2022', 'NOT_CITABLE', null],
    ]);
  });

  it('says what is wrong when the collection folder holds no collection, without a stack trace', async () => {
    const bad = await cli('workspace', 'query', 'fog', '--workspace', 'ws', '--collection', 'nowhere');
    expect(bad.status).not.toBe(0);
    expect(bad.err).toContain('no collection here');
    expect(bad.err).not.toMatch(/\n\s+at /);
  });
});
