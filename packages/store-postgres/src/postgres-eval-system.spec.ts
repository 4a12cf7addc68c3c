import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { evaluateQuestions } from '@doctree/pipeline';
import type { EvalSystemFactory } from '@doctree/pipeline';
import { resolveConfig } from '@doctree/schema';
import type { Hit } from '@doctree/schema';
import { bundleHash, postgresEvalSystem } from './postgres-eval-system.js';
import { collapseRecords } from './postgres-retriever.js';
import { PostgresStore } from './postgres-store.js';
import { describeWithService } from './testing/index.js';

const QUESTIONS = join(__dirname, '../../../data/samples/northwind-questions.jsonl');

const hit = (nodeId: string, score: number): Hit => ({ eid: `d:${nodeId}`, doc_id: 'd', page_idx: 0, node_id: nodeId, modality: 'text', snippet: nodeId, bbox: null, score_raw: score, method: 'pg.hybrid', extra: {} });

describe('records as nodes', () => {
  it('collapses section variants and leaf chunks into their node, keeping the best record and at most k', () => {
    const hits = collapseRecords([hit('sec_2#g', 0.9), hit('t_7#c1', 0.8), hit('sec_2#h', 0.7), hit('t_7', 0.6), hit('tab_1', 0.5)], 3);
    expect(hits.map((h) => [h.node_id, h.eid, h.extra['record_id']])).toEqual([
      ['sec_2', 'd:sec_2', 'sec_2#g'],
      ['t_7', 'd:t_7', 't_7#c1'],
      ['tab_1', 'd:tab_1', undefined],
    ]);
  });

  it('hashes the stored files by path and content, whatever their order', () => {
    const a = { path: 'index/a.json', content: Buffer.from('a') };
    const b = { path: 'doctree.mm.json', content: Buffer.from('b') };
    expect(bundleHash({ artifacts: [a, b] })).toBe(bundleHash({ artifacts: [b, a] }));
    expect(bundleHash({ artifacts: [a, { ...b, content: Buffer.from('c') }] })).not.toBe(bundleHash({ artifacts: [a, b] }));
  });
});

describeWithService('postgres', { title: 'doctree-pg: the DocTree agent over documents kept in PostgreSQL', skipName: '@doctree/store-postgres (doctree-pg eval system)', dirPrefix: 'doctree-pg-eval-' }, (server) => {

  it('answers the sample questions with the same answers and pages as doctree, reading the document back from the store', async () => {
    const config = resolveConfig({ overrides: { data_dir: join(server.dir, 'data'), embedder: { kind: 'hashing' }, index: { backend: 'exact' }, llm: { provider: 'none' } } }).config;
    const store = await PostgresStore.open({ url: server.url, schema: 'evalspec' });
    try {
      const factories = new Map<string, EvalSystemFactory>([
        ['doctree-pg', postgresEvalSystem({ store, cacheDir: join(server.dir, 'pg-cache') })],
        ['doctree-pg-hybrid', postgresEvalSystem({ store, id: 'doctree-pg-hybrid', hybridLane: true, cacheDir: join(server.dir, 'pg-cache') })],
      ]);
      const run = (outDir: string) =>
        evaluateQuestions({ questions: QUESTIONS, systems: ['doctree', 'doctree-pg', 'doctree-pg-hybrid'], outDir: join(server.dir, outDir), config, chat: null, documentsDir: join(server.dir, 'documents'), systemFactories: factories });
      const result = await run('run');
      const by = (system: string) => new Map(result.predictions.filter((p) => p.system === system).map((p) => [p.id, p]));
      const doctree = by('doctree');
      const pg = by('doctree-pg');
      expect(doctree.size).toBe(6);
      expect(pg.size).toBe(6);
      for (const [id, p] of doctree) {
        const q = pg.get(id)!;
        expect(q.error).toBeUndefined();
        expect({ id, answer: q.answer, pages: q.pages, ranked: q.ranked_pages }).toEqual({ id, answer: p.answer, pages: p.pages, ranked: p.ranked_pages });
      }
      // The document is in the store: nodes with full text, embeddings, every index file as an artifact.
      const [doc] = await store.listDocuments('eval');
      expect(doc).toMatchObject({ doc_id: 'northwind-annual-report-2023' });
      expect(doc!.nodes).toBeGreaterThan(10);
      expect(doc!.embeddings).toBeGreaterThan(10);
      const artifacts = await store.query<{ path: string }>('test', `SELECT path FROM ${store.quotedSchema}.artifacts WHERE collection = 'eval' ORDER BY path`);
      expect(artifacts.map((a) => a.path)).toContain('index/manifest.json');
      expect(artifacts.every((a) => a.path === 'doctree.mm.json' || a.path.startsWith('index/'))).toBe(true);
      // With the hybrid lane, the store's search in SQL runs inside the agent's retrieval.
      const hybrid = result.predictions.find((p) => p.system === 'doctree-pg-hybrid' && p.trace_path !== undefined)!;
      expect(readFileSync(join(server.dir, 'run', hybrid.trace_path!), 'utf8')).toContain('pg_hybrid.search');
      // A second run over the same documents does not write them again (same files, same hash).
      const [before] = await store.query<{ xmin: string }>('test', `SELECT xmin::text FROM ${store.quotedSchema}.documents WHERE collection = 'eval'`);
      const again = await run('run-again');
      expect(again.predictions.filter((p) => p.system === 'doctree-pg').map((p) => p.answer)).toEqual([...pg.values()].map((p) => p.answer));
      const [after] = await store.query<{ xmin: string }>('test', `SELECT xmin::text FROM ${store.quotedSchema}.documents WHERE collection = 'eval'`);
      expect(after).toEqual(before);
    } finally {
      await store.close();
    }
  }, 300_000);
});
