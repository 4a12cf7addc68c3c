import { readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DocTreeError } from '@doctree/schema';
import { HashingEmbedder } from '@doctree/index';
import { HARBOR_PAGES, RAIL_PAGES, tempDir, writeParagraphPdf } from './__fixtures__/workspace-fixtures.js';
import { evidenceFromHits } from './evidence.js';
import { workspaceRetriever } from './context.js';
import type { ChildHit, EvidenceRetriever } from './retrieval.js';
import type { SourceRecord } from './sources.js';
import { EvidenceWorkspace } from './workspace.js';

jest.setTimeout(90_000);

const GARDEN_MD = `# Community gardens in Eastfield

## Plots

The Eastfield garden has 64 plots. Each plot is rented for a season of eight months.

## Water

Rain barrels collect about 30,000 litres a year, which covers most of the watering in spring.
`;

const embedder = new HashingEmbedder({ dimension: 256 });
let root: string;
let ws: EvidenceWorkspace;
const readText = (p: string): Promise<string> => readFile(p, 'utf8');
const lines = async (p: string): Promise<Array<Record<string, unknown>>> =>
  (await readText(p))
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

beforeAll(async () => {
  root = await tempDir();
  await EvidenceWorkspace.init(root);
  writeParagraphPdf(join(root, 'raw/evidence/harbor-light-review-2022.pdf'), HARBOR_PAGES, 'Harbor Light Cooperative - Annual Review');
  await writeFile(join(root, 'raw/evidence/eastfield-gardens.md'), GARDEN_MD);
  await writeFile(join(root, 'raw/instruction/guidance/rubric.md'), '# Rubric\n\nEvery claim about membership fees must cite the annual review.\n');
  ws = await EvidenceWorkspace.open(root, { embedder, pdfWorkers: 0 });
  await ws.parse();
  await ws.chunk();
  await ws.embed();
  await ws.buildBm25();
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe('1. the evidence pack holds citable sources only', () => {
  it('never returns instruction material, even when the question is about it', async () => {
    const { run } = await ws.query('Every claim about membership fees must cite');
    expect(run.evidence.length).toBeGreaterThan(0);
    expect(run.evidence.every((e) => e.citable && e.doc_uid !== 'rubric')).toBe(true);
  });

  it('leaves out a source set to citable=false', async () => {
    await ws.setMeta('eastfield-gardens', { citable: false });
    try {
      const { run } = await ws.query('How many plots does the Eastfield garden have?');
      expect(run.evidence.map((e) => e.doc_uid)).not.toContain('eastfield-gardens');
    } finally {
      await ws.setMeta('eastfield-gardens', { citable: true });
    }
  });

  it('aborts the query and writes nothing when a retriever lets a non-citable hit through', async () => {
    await ws.setMeta('eastfield-gardens', { citable: false });
    try {
      const real = await workspaceRetriever(ws.context);
      // A retriever that ignores the citable filter: the query itself must refuse its hits.
      const rogue: EvidenceRetriever = { buildId: real.buildId, models: real.models, documents: () => real.documents(), parent: (id) => real.parent(id), child: (id) => real.child(id), search: (q, o) => real.search(q, { k: o.k }) };
      const leaky = await EvidenceWorkspace.open(root, { embedder, retriever: rogue });
      const before = { packs: (await readdir(join(root, 'outputs'))).length, runs: (await readdir(join(root, 'meta/query_runs')).catch(() => [])).length };
      let error: unknown;
      try {
        await leaky.query('How many plots does the Eastfield garden have?');
      } catch (e) {
        error = e;
      }
      expect(DocTreeError.isInstance(error) && error.code === 'SCHEMA_INVALID').toBe(true);
      expect((error as DocTreeError).message).toContain('non-citable source (eastfield-gardens)');
      expect((error as DocTreeError).hint).toContain('Returned sources: ');
      expect({ packs: (await readdir(join(root, 'outputs'))).length, runs: (await readdir(join(root, 'meta/query_runs')).catch(() => [])).length }).toEqual(before);
    } finally {
      await ws.setMeta('eastfield-gardens', { citable: true });
    }
  });

  it('aborts with the applied filters and the returned sources when a non-citable hit gets through', () => {
    const source = { doc_uid: 'notes', citable: false, source_type: 'instruction', citation_key: 'notes', present: true } as SourceRecord;
    const hit = { chunk: { chunk_id: 'notes:s001:c01', parent_id: 'notes:s001', doc_uid: 'notes', char_start: 0, char_end: 5, tokens: 1, overlap_tokens: 0, text: 'Notes', hash: '0'.repeat(64) }, score: 0.9, dense: 0.9, lexical: 1, coverage: 1 } satisfies ChildHit;
    let error: unknown;
    try {
      evidenceFromHits([hit], { question: 'q', queries: ['q'], parents: new Map(), sources: new Map([['notes', source]]), filters: { year: { from: 2020, to: 2020 } } });
    } catch (e) {
      error = e;
    }
    expect(DocTreeError.isInstance(error)).toBe(true);
    expect((error as DocTreeError).hint).toContain('Applied filters: citable=true (always, evidence mode), year=2020');
    expect((error as DocTreeError).hint).toContain('Returned sources: notes (citable=false');
  });
});

describe('2. every evidence has a locator', () => {
  it('gives PDF evidence its page and Markdown evidence a char anchor with a warning', async () => {
    const { run } = await ws.query('How many plots does the Eastfield garden have?');
    const garden = run.evidence.find((e) => e.doc_uid === 'eastfield-gardens')!;
    expect(garden).toMatchObject({ page: null, locator_quality: 'char_anchor', section_path: ['Community gardens in Eastfield', 'Plots'] });
    expect(garden.anchor_begin.length).toBeGreaterThan(0);
    expect(run.warnings.some((w) => w.startsWith('WARN eastfield-gardens:s'))).toBe(true);
    const { run: pdfRun } = await ws.query('storm damage to the breakwater');
    expect(pdfRun.evidence[0]).toMatchObject({ doc_uid: 'harbor-light-review-2022', page: 3, locator_quality: 'page', parent_id: 'harbor-light-review-2022:p003' });
  });

  it('fails hard on a hit without doc_uid or parent_id', () => {
    const hit = { chunk: { chunk_id: 'x', parent_id: '', doc_uid: 'harbor-light-review-2022', char_start: 0, char_end: 1, tokens: 1, overlap_tokens: 0, text: 'x', hash: '0'.repeat(64) }, score: 1, dense: 1, lexical: 1, coverage: 1 } satisfies ChildHit;
    expect(() => evidenceFromHits([hit], { question: 'q', queries: ['q'], parents: new Map(), sources: new Map(), filters: {} })).toThrow(/has no parent_id/);
    const noDoc = { ...hit, chunk: { ...hit.chunk, parent_id: 'harbor-light-review-2022:p001', doc_uid: '' } } satisfies ChildHit;
    expect(() => evidenceFromHits([noDoc], { question: 'q', queries: ['q'], parents: new Map(), sources: new Map(), filters: {} })).toThrow(/has no doc_uid/);
  });

  it('fails hard on a hit whose parent is unknown', async () => {
    const source = (await ws.sources()).find((s) => s.doc_uid === 'harbor-light-review-2022')!;
    const hit = { chunk: { chunk_id: 'harbor-light-review-2022:p009:c01', parent_id: 'harbor-light-review-2022:p009', doc_uid: source.doc_uid, char_start: 0, char_end: 5, tokens: 1, overlap_tokens: 0, text: 'Storm', hash: '0'.repeat(64) }, score: 1, dense: 1, lexical: 1, coverage: 1 } satisfies ChildHit;
    expect(() => evidenceFromHits([hit], { question: 'q', queries: ['q'], parents: new Map(), sources: new Map([[source.doc_uid, source]]), filters: {} })).toThrow(/names parent harbor-light-review-2022:p009, which is not in chunks/);
  });
});

describe('3. outputs list the sources used', () => {
  it('ends evidence packs and audits with a doc_uid list', async () => {
    const { output, run } = await ws.query('Why did membership fees rise?');
    const pack = await readText(output);
    expect(pack).toContain('## Sources used (doc_uid list)');
    for (const uid of new Set(run.evidence.map((e) => e.doc_uid))) expect(pack.split('## Sources used (doc_uid list)')[1]).toContain(`- ${uid}`);
    const draft = join(root, 'draft.md');
    await writeFile(draft, 'Membership fees rose to 240 euros per household because the cold store needed a new compressor {#harbor-light-review-2022}.\n');
    const audit = await ws.audit(draft);
    expect(await readText(audit.output)).toMatch(/## Sources used \(doc_uid list\)\n\n- harbor-light-review-2022/);
  });
});

describe('audit', () => {
  it('types strong claims, links pack evidence at or above T and marks the rest EVIDENCE_NEEDED with a suggested query', async () => {
    await ws.query('Why did membership fees rise?');
    const draft = join(root, 'audit-draft.md');
    await writeFile(
      draft,
      'Membership fees rose to 240 euros per household because the cold store needed a new compressor. The lighthouse should be painted red every spring. The cooperative runs a market hall.\n',
    );
    const { claims, output } = await ws.audit(draft);
    expect(claims.map((c) => [c.claim_id, c.status])).toEqual([
      ['C001', 'SUPPORTED'],
      ['C002', 'EVIDENCE_NEEDED'],
    ]);
    expect(claims[0]!.types).toEqual(expect.arrayContaining(['causal', 'quantitative']));
    expect(claims[0]!.linked_evidence[0]).toMatchObject({ doc_uid: 'harbor-light-review-2022', page: 1, via: 'evidence_pack' });
    expect(claims[1]!.types).toContain('recommendation');
    expect(claims[1]!.suggested_queries[0]).toBe('lighthouse painted red every spring');
    expect(output).toMatch(/outputs\/audits\/audit-draft_claims_v001\.md$/);
    expect(await readText(output)).toContain('| C002 | The lighthouse should be painted red every spring. | generalising, recommendation | – | **EVIDENCE_NEEDED** |');
  });
});

describe('4. verify-citations', () => {
  it('has k = 10 and T = 0.55 by default and says OK, WEAK or MISSING with a suggested query', async () => {
    expect(ws.context.config.verify_citations).toEqual({ k: 10, threshold: 0.55 });
    const draft = join(root, 'cited.md');
    await writeFile(
      draft,
      [
        'In the 2022 season the cold store handled 18,400 tonnes of catch {#harbor-light-review-2022}.',
        'In the 2022 season the cold store handled 25,100 tonnes of catch {#harbor-light-review-2022}.',
        'Rain barrels collect about 30,000 litres a year {#harbor-light-review-2022}.',
        'The harbour has a lighthouse {#no-such-doc}.',
      ].join(' '),
    );
    const result = await ws.verifyCitations(draft);
    expect(result.checks.map((c) => c.status)).toEqual(['OK', 'WEAK', 'MISSING', 'MISSING']);
    expect(result.checks[0]!.suggested_query).toBeNull();
    expect(result.checks[1]!.suggested_query).toContain('cold');
    expect(result.checks[0]!.page).toBe(1);
    expect(await readText(result.output)).toContain('k = 10, T = 0.55');
  });

  it('searches only the cited document, with k = 10', async () => {
    const real = await workspaceRetriever(ws.context);
    const calls: Array<{ k: number; accepted: string[] }> = [];
    const spy: EvidenceRetriever = {
      buildId: real.buildId,
      models: real.models,
      documents: () => real.documents(),
      parent: (id) => real.parent(id),
      child: (id) => real.child(id),
      search: async (q, o) => {
        const hits = await real.search(q, o);
        calls.push({ k: o.k, accepted: [...new Set(['harbor-light-review-2022', 'eastfield-gardens'].filter((uid) => o.accept?.({ doc_uid: uid } as ChildHit['chunk'])))] });
        return hits;
      },
    };
    const spied = await EvidenceWorkspace.open(root, { embedder, retriever: spy });
    const draft = join(root, 'cited-k.md');
    await writeFile(draft, 'The Eastfield garden has 64 plots {#eastfield-gardens}.\n');
    const result = await spied.verifyCitations(draft);
    expect(result.checks.map((c) => c.status)).toEqual(['OK']);
    expect(calls).toEqual([{ k: 10, accepted: ['eastfield-gardens'] }]);
  });
});

describe('5. every build writes a build manifest', () => {
  it('has one manifest per parse, chunk, embed and bm25 build with hashes, models, config hash and version', async () => {
    const ids = await readdir(join(root, 'meta/builds'));
    const manifests = await Promise.all(ids.map(async (id) => JSON.parse(await readText(join(root, 'meta/builds', id, 'build_manifest.json'))) as Record<string, unknown>));
    expect(new Set(manifests.map((m) => m['step']))).toEqual(new Set(['parse', 'chunk', 'embed', 'bm25']));
    const embed = manifests.find((m) => m['step'] === 'embed')!;
    expect(embed).toMatchObject({ build_id: expect.stringMatching(/^[0-9]{8}T[0-9]{6}Z-[0-9a-f]{8}-0\.1\.0/), config_hash: ws.context.configHash, tool_version: '0.1.0' });
    expect((embed['models'] as Record<string, unknown>)['embedder']).toBe(embedder.id);
    expect((embed['inputs'] as unknown[]).length).toBe(2);
  });
});

describe('6. every query writes a query run', () => {
  it('records question, filters, hits and evidence under meta/query_runs/<query_id>.json', async () => {
    const { run, run_file } = await ws.query('energy costs of the cold store', { filters: { year: { from: 2022, to: 2022 } } });
    const saved = JSON.parse(await readText(run_file)) as Record<string, unknown>;
    expect(run_file).toBe(join(root, 'meta/query_runs', `${run.query_id}.json`));
    expect(saved).toMatchObject({ query_id: run.query_id, build_id: run.build_id, filters: { year: { from: 2022, to: 2022 } }, mode: 'evidence' });
    expect((saved['hits'] as unknown[]).length).toBeGreaterThan(0);
    // The Markdown source has no year: the year filter leaves it out.
    expect(run.evidence.every((e) => e.doc_uid === 'harbor-light-review-2022')).toBe(true);
  });
});

describe('7. parse writes the quality report', () => {
  it('has a row per document with pages, text coverage, OCR pages, tables and furniture removed', async () => {
    const report = await readText(join(root, 'meta/parse_quality_report.md'));
    expect(report).toContain('| doc_uid | type | citable | pages | text coverage | OCR pages | tables | furniture removed | warnings |');
    expect(report).toMatch(/\| harbor-light-review-2022 \| evidence\/document \| true \| 3 \| 100 % \| 0 \| 0 \| [1-9][0-9]* \|/);
    expect(report).toMatch(/\| rubric \| instruction\/guidance \| false \|/);
  });
});

describe('8. adding a PDF updates chunks and index incrementally', () => {
  it('chunks and embeds only the new document, which is then found', async () => {
    const vectorsBefore = JSON.parse(await readText(join(root, 'index/vectors.json'))) as { entries: unknown[] };
    const buildsBefore = (await readdir(join(root, 'meta/builds'))).length;
    writeParagraphPdf(join(root, 'raw/evidence/valley-rail-2021.pdf'), RAIL_PAGES, 'Valley Rail Line - Operations Report');
    const parsed = await ws.parse();
    expect(parsed.parsed).toEqual(['valley-rail-2021']);
    const { manifest } = await ws.chunk();
    expect(manifest.changes.added).toEqual(['valley-rail-2021']);
    expect(manifest.changes.unchanged.sort()).toEqual(['eastfield-gardens', 'harbor-light-review-2022']);
    const embedded = await ws.embed();
    expect(embedded.reused).toBe(vectorsBefore.entries.length);
    expect(embedded.embedded).toBe(manifest.docs.find((d) => d.doc_uid === 'valley-rail-2021')!.chunks);
    const { run } = await ws.query('journey time of the new timetable');
    expect(run.evidence[0]).toMatchObject({ doc_uid: 'valley-rail-2021', page: 2 });
    // 5. each of these builds wrote its own manifest.
    expect((await readdir(join(root, 'meta/builds'))).length).toBe(buildsBefore + 3);
  });
});

describe('9. every revision is a new file and a line in the version log', () => {
  it('numbers packs v001, v002… and logs each with from → to', async () => {
    const names = (await readdir(join(root, 'outputs'))).filter((n) => n.startsWith('evidence_pack_'));
    expect(names.length).toBeGreaterThan(3);
    expect(names.sort()[0]).toBe('evidence_pack_v001.md');
    const log = await lines(join(root, 'meta/version_log.jsonl'));
    const packs = log.filter((l) => String(l['file']).startsWith('outputs/evidence_pack_'));
    expect(packs.length).toBe(names.length);
    expect(packs[1]).toMatchObject({ from: 'v001', to: 'v002', command: 'query' });
    expect(log.some((l) => l['command'] === 'meta set' && String(l['to']).includes('citable=true'))).toBe(true);
    // 6. every pack written has its query run.
    const packsAll = (await readdir(join(root, 'outputs'))).filter((n) => /^(evidence|papers)_pack_v[0-9]+\.md$/.test(n));
    expect((await readdir(join(root, 'meta/query_runs'))).filter((n) => n.endsWith('.json')).length).toBe(packsAll.length);
  });

  it('writes a checked draft again as a new version, logged from the old one', async () => {
    const draft = join(root, 'again.md');
    await writeFile(draft, 'Repairs cost 96,000 euros {#harbor-light-review-2022}.\n');
    const first = await ws.verifyCitations(draft);
    await writeFile(draft, 'Repairs of the breakwater cost 96,000 euros {#harbor-light-review-2022}.\n');
    const second = await ws.verifyCitations(draft);
    expect([first.output, second.output].map((p) => p.slice(p.lastIndexOf('/') + 1))).toEqual(['again_citations_v001.md', 'again_citations_v002.md']);
    expect(await readText(first.output)).toContain('Repairs cost 96,000 euros');
    const log = await lines(join(root, 'meta/version_log.jsonl'));
    expect(log.filter((l) => String(l['file']).startsWith('outputs/audits/again_citations_')).map((l) => [l['from'], l['to']])).toEqual([
      [null, 'v001'],
      ['v001', 'v002'],
    ]);
  });

  it('gives two queries that race two different versions', async () => {
    const [a, b] = await Promise.all([ws.query('breakwater repairs'), ws.query('solar panels on the market hall')]);
    expect(a.output).not.toBe(b.output);
    expect(await readText(a.output)).toContain('breakwater repairs');
    expect(await readText(b.output)).toContain('solar panels on the market hall');
  });
});
