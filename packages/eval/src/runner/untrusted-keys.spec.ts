import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { MetricsFileSchema, QuestionSchema } from '@doctree/schema';
import type { Question } from '@doctree/schema';

import { ScriptedQaSystem } from '../__fixtures__/scripted-qa-system.js';
import { EVIDENCE_SOURCE_LABELS, evidenceSourceLabels } from '../datasets/evidence-labels.js';
import { reportTables } from '../report/report-tables.js';
import { accuracyBySourceSvg } from '../report/svg-charts.js';
import { runEvaluation } from './run-evaluation.js';

// Dataset strings (evidence sources, document files, question ids) and system ids become group labels and keys of
// metrics, build times and manifests: names of Object.prototype properties are labels like any other.
const PROTO_WORDS = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', 'prototype'];

const questions: Question[] = PROTO_WORDS.map((word, i) =>
  QuestionSchema.parse({
    id: word,
    doc_file: word,
    question: `What is ${word}?`,
    answer: word,
    answer_format: 'Str',
    evidence_pages: [i + 1],
    evidence_sources: [word, 'Table'],
  }),
);

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'doctree-eval-untrusted-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('evaluation bookkeeping with Object.prototype names', () => {
  it('evidence sources that are not MMLongBench-Doc labels are kept, lower-cased', () => {
    expect(Object.getPrototypeOf(EVIDENCE_SOURCE_LABELS)).toBeNull();
    expect(questions.map((q) => evidenceSourceLabels(q))).toEqual(PROTO_WORDS.map((w) => [w.toLowerCase(), 'table']));
  });

  it('runs, resumes and reports: every group, build time and system keeps its own entry', async () => {
    const answers = Object.fromEntries(PROTO_WORDS.map((w, i) => [w, { answer: w, ranked: [i + 1] }]));
    const systems = () => [new ScriptedQaSystem({ id: 'constructor', answers, buildMs: 5 }), new ScriptedQaSystem({ id: 'toString', answers, buildMs: 7 })];
    const outDir = join(dir, 'run');
    const first = await runEvaluation({ questions, systems: systems(), outDir, dataset: 'proto' });
    const metrics = MetricsFileSchema.parse(JSON.parse(await readFile(join(outDir, 'metrics.json'), 'utf8')));
    expect(metrics.systems.map((m) => m.system)).toEqual(['constructor', 'toString']);
    for (const m of [...first.metrics.systems, ...metrics.systems]) {
      expect(m.overall).toMatchObject({ n: PROTO_WORDS.length, accuracy: 1 });
      // zod leaves a `__proto__` record key out when it validates metrics: that group is dropped, and never becomes the
      // prototype of the breakdown (whose inherited fields would then be read as groups).
      const kept = PROTO_WORDS.filter((w) => w !== '__proto__').map((w) => w.toLowerCase());
      expect(Object.getPrototypeOf(m.by_source)).toBe(Object.prototype);
      expect(Object.keys(m.by_source).sort()).toEqual([...kept, 'table'].sort());
      for (const word of kept) expect(m.by_source[word]).toMatchObject({ n: 1, accuracy: 1 });
      expect(m.by_source['table']).toMatchObject({ n: PROTO_WORDS.length });
      expect(m.index_build_docs).toBe(PROTO_WORDS.length);
    }
    const tables = reportTables(metrics);
    const bySource = tables.find((t) => t.id === 'accuracy-by_source')!;
    for (const word of PROTO_WORDS.filter((w) => w !== '__proto__')) expect(bySource.rows).toContainEqual([word.toLowerCase(), '1', '100.0%', '100.0%']);
    const svg = accuracyBySourceSvg(metrics);
    expect(svg).toContain('constructor (n=1)');
    expect(svg).toContain('tostring (n=1)');
    expect(svg).not.toContain('NaN');

    // A second run resumes everything: same systems, nothing answered again, no configuration conflict.
    const again = systems();
    const second = await runEvaluation({ questions, systems: again, outDir, dataset: 'proto' });
    expect(again.map((s) => s.answered)).toEqual([[], []]);
    expect(second.metrics.systems.map((m) => m.overall.accuracy)).toEqual([1, 1]);
  });
});
