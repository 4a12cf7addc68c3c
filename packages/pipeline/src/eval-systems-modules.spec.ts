import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DocTreeError, resolveConfig } from '@doctree/schema';
import { createEvalSystemContext, type EvalSystemContext } from './eval-systems.js';
import { loadEvalSystems } from './eval-systems-modules.js';
import { evaluateQuestions } from './evaluate-questions.js';

const SAMPLES = join(__dirname, '../../../data/samples');
const QUESTIONS = join(SAMPLES, 'northwind-questions.jsonl');

const dir = mkdtempSync(join(tmpdir(), 'doctree-eval-modules-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const config = resolveConfig({ overrides: { data_dir: join(dir, 'data'), embedder: { kind: 'hashing' }, llm: { provider: 'none' } } }).config;
let shared: EvalSystemContext | undefined;
const context = (): EvalSystemContext => (shared ??= createEvalSystemContext({ config, outDir: join(dir, 'documents') }));

/**
 * A system module as a user writes it: a plain Retriever (no imports) plugged into the DocTree system as a lane.
 * CommonJS here because jest runs specs as CommonJS; the packed-install spec runs ESM modules through the real CLI.
 */
const wordLaneModule = (weight: number): string => `
class WordLane {
  name = 'word-lane';
  constructor(index) { this.index = index; }
  async retrieve({ query, k }) {
    const words = query.toLowerCase().split(/\\W+/).filter((w) => w.length > 3);
    const doc = this.index.tree.doc.doc_id;
    return this.index.tree.nodes
      .map((node) => ({ node, score: ${weight} * words.filter((w) => node.text.toLowerCase().includes(w)).length }))
      .filter((x) => x.score > 0)
      .sort((a, b) => b.score - a.score)
      .slice(0, k)
      .map(({ node, score }) => ({ eid: doc + ':' + node.node_id, doc_id: doc, page_idx: node.bboxes[0]?.page_idx ?? 0, node_id: node.node_id, modality: 'text', snippet: node.text.slice(0, 200), bbox: null, score_raw: score, method: this.name, extra: {} }));
  }
}
module.exports = function createSystem(context) {
  return context.doctreeSystem({ id: 'doctree-word-lane', label: 'DocTree + word lane', agent: (index) => ({ retrievers: [new WordLane(index)] }), parts: { retrievers: ['word-lane'] } });
}
`;

/**
 * Loads a CommonJS test module by evaluating its text (jest's module registry cannot load files outside the project);
 * each load reads the file again, as `import()` of a new URL does.
 */
const importModule = async (url: string): Promise<Record<string, unknown>> => {
  const module = { exports: {} as unknown };
  new Function('module', 'exports', readFileSync(fileURLToPath(url.replace(/\?.*$/, '')), 'utf8'))(module, module.exports);
  return typeof module.exports === 'function' ? { default: module.exports } : (module.exports as Record<string, unknown>);
};

function write(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

async function failure(promise: Promise<unknown>): Promise<DocTreeError> {
  try {
    await promise;
  } catch (error) {
    if (DocTreeError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a DocTreeError');
}

describe('loadEvalSystems: systems from modules', () => {
  it('loads a module factory beside built-in ids; its description carries the module hash', async () => {
    write('word-lane.cjs', wordLaneModule(1));
    const systems = await loadEvalSystems(['bm25-pages', './word-lane.cjs'], { config, context: context(), baseDir: dir, importModule });
    expect(systems.map((s) => s.id)).toEqual(['bm25-pages', 'doctree-word-lane']);
    const description = systems[1]!.describe!();
    expect(description.label).toBe('DocTree + word lane');
    expect(description.config).toMatchObject({ system: 'doctree', parts: { retrievers: ['word-lane'] } });
    expect(description.code).toMatchObject({ module: 'word-lane.cjs', module_sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
  });

  it('names a bad module or export with a hint', async () => {
    write('no-factory.cjs', 'exports.answer = 42;\nexports.makeIt = function makeIt() { return {}; };\n');
    write('returns-nothing.cjs', 'exports.createSystem = function createSystem() { return { id: "x" }; };\n');
    write('throws.cjs', 'module.exports = function () { throw new Error("no endpoint configured"); };\n');
    write('bad-id.cjs', 'module.exports = () => ({ id: "bad id", answer: async () => ({}) });\n');
    const load = (spec: string) => failure(loadEvalSystems([spec], { config, context: context(), baseDir: dir, importModule }));
    const missing = await load('./missing.mjs');
    expect([missing.code, missing.file]).toEqual(['INPUT_NOT_FOUND', join(dir, 'missing.mjs')]);
    const noFactory = await load('./no-factory.cjs');
    expect(noFactory.code).toBe('CONFIG_INVALID');
    expect(noFactory.message).toBe('system module ./no-factory.cjs exports no function "default" or "createSystem"');
    expect(noFactory.hint).toContain('module:./no-factory.cjs#makeIt');
    expect((await load('module:./no-factory.cjs#other')).message).toMatch(/exports no function "other"/);
    expect((await load('./returns-nothing.cjs')).message).toMatch(/returned object instead of a QaSystem|instead of a QaSystem/);
    expect((await load('./throws.cjs')).message).toMatch(/the system factory default of \.\/throws\.cjs failed: no endpoint configured/);
    expect((await load('./bad-id.cjs')).message).toMatch(/invalid system id "bad id"/);
    expect((await load('doctreee')).message).toBe('unknown system "doctreee"');
  });

  it('evaluates a module system, resumes it under the same fingerprint and answers again after the module changed', async () => {
    const module = write('lane-system.cjs', wordLaneModule(1));
    const run = (systems: string[]) => evaluateQuestions({ questions: QUESTIONS, systems, outDir: join(dir, 'run'), config, context: context(), limit: 2, baseDir: dir, importModule });
    const first = await run([`module:${module}`]);
    expect(first.answered).toBe(2);
    expect(first.predictions.every((p) => p.system === 'doctree-word-lane' && p.error === undefined)).toBe(true);
    const again = await run([`module:${module}`]);
    expect(again.systems[0]).toMatchObject({ system: 'doctree-word-lane', resumed: 2, changed: false });
    write('lane-system.cjs', wordLaneModule(2));
    const edited = await run([`module:${module}`]);
    expect(edited.systems[0]).toMatchObject({ resumed: 0, changed: true });
    expect(edited.answered).toBe(2);
  }, 120_000);
});
