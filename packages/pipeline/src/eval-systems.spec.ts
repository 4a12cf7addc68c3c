import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadDataset } from '@doctree/eval';
import { runQaSystemConformance } from '@doctree/eval/testing';
import { DocTreeError, resolveConfig, type Question } from '@doctree/schema';
import { createEvalSystemContext, createEvalSystems, EVAL_SYSTEM_IDS, type EvalSystemContext } from './eval-systems.js';

const SAMPLES = join(__dirname, '../../../data/samples');
const SAMPLE_PDF = join(SAMPLES, 'northwind-annual-report-2023.pdf');
const QUESTIONS = join(SAMPLES, 'northwind-questions.jsonl');

// One scratch data folder and one shared context for the whole file: the sample is ingested and indexed once.
const dir = mkdtempSync(join(tmpdir(), 'doctree-eval-systems-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
// The hashing embedder keeps these tests light; the SIF default is covered by @doctree/index.
const config = resolveConfig({ overrides: { data_dir: join(dir, 'data'), embedder: { kind: 'hashing' }, llm: { provider: 'none' } } }).config;
let shared: EvalSystemContext | undefined;
const context = (): EvalSystemContext => (shared ??= createEvalSystemContext({ config }));

async function question(id: string): Promise<Question> {
  const dataset = await loadDataset(QUESTIONS);
  const found = dataset.questions.find((q) => q.id === id);
  if (!found) throw new Error(`no question ${id} in the fixture`);
  return found;
}

for (const id of EVAL_SYSTEM_IDS) {
  runQaSystemConformance(id, async () => ({
    system: createEvalSystems([id], { config, context: context() })[0]!,
    question: await question('nw-capex-2023'),
    documentPath: SAMPLE_PDF,
  }));
}

describe('createEvalSystems', () => {
  it('refuses unknown and repeated ids, naming the valid ones', () => {
    const attempt = (ids: string[]): DocTreeError => {
      try {
        createEvalSystems(ids, { config, context: context() });
      } catch (error) {
        if (DocTreeError.isInstance(error)) return error;
        throw error;
      }
      throw new Error('expected a DocTreeError');
    };
    const unknown = attempt(['rag', 'ragg']);
    expect(unknown.code).toBe('USAGE');
    expect(unknown.message).toBe('unknown system "ragg"');
    for (const valid of EVAL_SYSTEM_IDS) expect(unknown.hint).toContain(valid);
    expect(attempt(['rag', 'rag']).message).toMatch(/"rag" is given twice/);
    expect(attempt([]).code).toBe('USAGE');
  });

  it('gives every system the same document folder, embedder and reader, and records that in its configuration', async () => {
    const systems = createEvalSystems(['rag', 'rag-hybrid', 'bm25-pages', 'doctree'], { config, context: context() });
    for (const system of systems) {
      const build = await system.prepare!({ docFile: 'northwind-annual-report-2023.pdf', path: SAMPLE_PDF });
      expect(build.buildMs).toBeGreaterThanOrEqual(0);
    }
    const prepared = await context().documents.prepare(SAMPLE_PDF);
    expect(prepared.docDir).toBe(join(dir, 'data', 'eval', 'northwind-annual-report-2023'));
    expect(existsSync(join(prepared.docDir, 'rag', 'manifest.json'))).toBe(true);
    const rag = await context().documents.ragIndex(SAMPLE_PDF);
    expect(rag.manifest.embedder).toEqual(prepared.manifest.embedder);
    const configs = systems.map((s) => s.describe!().config!);
    for (const c of configs) expect(c).toMatchObject({ embedder: { kind: 'hashing', dimension: 512 }, reader: 'extractive-v1', router: 'rules', llm: 'none' });
    expect(configs.map((c) => c['hybrid'])).toEqual([false, true, undefined, undefined]);
    const doctreeBuild = await systems[3]!.prepare!({ docFile: 'northwind-annual-report-2023.pdf', path: SAMPLE_PDF });
    expect(doctreeBuild.buildMs).toBeGreaterThan(0); // the index build time its manifest recorded, also when reused
  });

  it('marks each DocTree ablation as ablating doctree and records the one switch it turns off', () => {
    const systems = createEvalSystems(['doctree', 'doctree-sparse-only', 'doctree-dense-only', 'doctree-no-expansion', 'doctree-no-replan', 'doctree-no-router'], { config, context: context() });
    const described = systems.map((s) => ({ id: s.id, ...s.describe!() }));
    expect(described[0]).toMatchObject({ id: 'doctree', label: 'DocTree', config: { router: 'rules', agent: { lanes: 'both', expansion: true, maxReplans: 2, router: 'auto' } } });
    expect(described[0]!.ablationOf).toBeUndefined();
    const switches = described.slice(1).map((d) => {
      expect(d.ablationOf).toBe('doctree');
      const c = d.config!['agent'] as Record<string, unknown>;
      return [d.id, c['lanes'], c['expansion'], c['maxReplans'], c['router']];
    });
    expect(switches).toEqual([
      ['doctree-sparse-only', 'sparse', true, 2, 'auto'],
      ['doctree-dense-only', 'dense', true, 2, 'auto'],
      ['doctree-no-expansion', 'both', false, 2, 'auto'],
      ['doctree-no-replan', 'both', true, 0, 'auto'],
      ['doctree-no-router', 'both', true, 2, 'single-template'],
    ]);
  });

  it('answers with the DocTree agent: its answer, its ranked pages and its trace', async () => {
    const [doctree, noRouter] = createEvalSystems(['doctree', 'doctree-no-router'], { config, context: context() });
    const result = await doctree!.answer(await question('nw-employees'), { path: SAMPLE_PDF });
    expect(result.answer).toMatchObject({ answer: 2140, answer_format: 'Int', pages: [1] });
    expect(result.rankedPages[0]).toBe(1);
    expect(result.llm).toEqual({ calls: 0, promptTokens: 0, completionTokens: 0 });
    const route = result.answer.trace.events.find((e) => e.type === 'route');
    expect(route?.data?.['router']).toBe('rules');
    const ablated = await noRouter!.answer(await question('nw-employees'), { path: SAMPLE_PDF });
    expect(ablated.answer.trace.events.find((e) => e.type === 'route')?.data?.['router']).toBe('none');
  });

  it('ranks the evidence page of a table question first and answers it from the evidence it read', async () => {
    const q = await question('nw-industrial-2022');
    for (const system of createEvalSystems(['rag', 'rag-hybrid', 'bm25-pages'], { config, context: context() })) {
      const result = await system.answer(q, { path: SAMPLE_PDF });
      expect(result.rankedPages.slice(0, 2)).toContain(1);
      expect(new Set(result.rankedPages).size).toBe(result.rankedPages.length);
      for (const s of result.answer.support) expect(result.rankedPages).toContain(s.page);
      expect(result.answer.trace.events.map((e) => e.type)).toEqual(expect.arrayContaining(['tool_call', 'observe', 'read', 'finalize']));
    }
  });

  it('answers a number question with a number when the evidence holds it (the shared finalizer normalises the value)', async () => {
    const q = await question('nw-employees');
    const [bm25] = createEvalSystems(['bm25-pages'], { config, context: context() });
    const result = await bm25!.answer(q, { path: SAMPLE_PDF });
    expect(result.rankedPages[0]).toBe(1);
    expect(result.answer).toMatchObject({ answer: 2140, answer_format: 'Int', pages: [1] });
  });
});
