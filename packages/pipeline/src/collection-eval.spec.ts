import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CollectionEvalReportSchema, SelectionRecordSchema } from '@doctree/eval';
import { writeSimplePdf } from '@doctree/ingest';
import { resolveConfig } from '@doctree/schema';
import { COLLECTION_EVAL_SYSTEMS, evaluateCollection } from './collection-eval.js';
import { Collection } from './collection/collection.js';

jest.setTimeout(180_000);

const config = (dir: string) => resolveConfig({ overrides: { data_dir: join(dir, 'data'), embedder: { kind: 'hashing' }, index: { backend: 'exact' } } }).config;

const report = (company: string, year: number, topic: string, revenue: string, cash: string) => `<!-- page 1 -->

# ${company} Annual Report ${year}

## Overview

${company} makes ${topic}. This report covers the fiscal year ${year}.

<!-- page 2 -->

## Results of operations

Revenue of ${company} was ${revenue} in ${year}, driven by ${topic} sales in Europe and Asia.

<!-- page 3 -->

## Liquidity

${company} held cash of ${cash} at the end of ${year} and has no debt.
`;

const question = (id: string, docFile: string, text: string, answer: string, pages: number[], source: string) => ({ id, doc_file: docFile, question: text, answer, answer_format: null, answerable: true, evidence_pages: pages, evidence_sources: null, source_benchmark: source });

describe('evaluateCollection', () => {
  let dir: string;
  let input: string;
  let colDir: string;
  let questionsFile: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'doctree-collection-eval-'));
    input = join(dir, 'set', 'docs');
    colDir = join(dir, 'collection');
    mkdirSync(input, { recursive: true });
    writeFileSync(join(input, 'Harbor_2022_10K.md'), report('Harbor Tools', 2022, 'cordless drills', '$48.2 million', '$4.1 million'));
    writeFileSync(join(input, 'Lumen_2023_10K.md'), report('Lumen Optics', 2023, 'camera lenses', '$12.9 million', '$0.8 million'));
    writeFileSync(
      join(input, 'Quarry_2021.pdf'),
      writeSimplePdf([{ runs: [{ text: 'Quarry Stoneworks Annual Review', x: 72, y: 90, size: 18, bold: true }, { text: 'Quarry Stoneworks cut granite for bridges in 2021.', x: 72, y: 130, size: 11 }] }], { title: 'Quarry Stoneworks Annual Review' }),
    );
    // A document of the questions that is not in the collection.
    writeFileSync(join(dir, 'set', 'Fjord_2020_10Q.md'), report('Fjord Shipping', 2020, 'ferry tickets', '$3.3 million', '$1.0 million'));
    questionsFile = join(dir, 'set', 'questions.jsonl');
    const questions = [
      question('h-1', 'docs/Harbor_2022_10K.md', 'How much cash did Harbor Tools hold at the end of 2022?', '$4.1 million', [3], 'Alpha set'),
      question('l-1', 'docs/Lumen_2023_10K.md', 'What was the revenue of Lumen Optics in 2023?', '$12.9 million', [2], 'Alpha set'),
      // Its gold document is Harbor's while it names Lumen: selection picks Lumen, and Lumen's pages must not count.
      question('x-1', 'docs/Harbor_2022_10K.md', 'What was the revenue of Lumen Optics in 2023?', '$48.2 million', [2], 'Alpha set'),
      question('f-1', 'Fjord_2020_10Q.md', 'What was the revenue of Fjord Shipping in 2020?', '$3.3 million', [2], 'Alpha set'),
      question('q-1', 'docs/Quarry_2021.pdf', 'Who cut granite for bridges?', 'Quarry Stoneworks', [1], 'Beta set'),
    ];
    writeFileSync(questionsFile, `${questions.map((q) => JSON.stringify(q)).join('\n')}\n`);
    await (await Collection.open(colDir, { config: config(dir) })).ingest({ inputDir: input, workers: 1 });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('asks each question of the whole collection and reports selection accuracy and gold-document recall next to single-document asks; a rerun resumes', async () => {
    const outDir = join(dir, 'run');
    const result = await evaluateCollection({ collectionDir: colDir, questions: questionsFile, outDir, config: config(dir), filters: ['source_benchmark~alpha'] });
    const { report } = result;
    expect(CollectionEvalReportSchema.parse(JSON.parse(readFileSync(result.files.collection, 'utf8')))).toEqual(report);
    expect(report.skipped).toEqual([{ id: 'f-1', doc_file: 'Fjord_2020_10Q.md', reason: 'document not in the collection' }]);
    expect(report.questions.map((q) => q.id)).toEqual(['h-1', 'l-1', 'x-1']);
    expect(report.filters).toEqual(['source_benchmark~alpha']);

    const row = (id: string) => report.questions.find((q) => q.id === id)!;
    expect(row('h-1')).toMatchObject({ gold_doc: 'harbor_2022_10k', selected: ['harbor_2022_10k'], gold_rank: 1, gold_first: true, answered_doc: 'harbor_2022_10k' });
    expect(row('l-1')).toMatchObject({ gold_doc: 'lumen_2023_10k', gold_first: true });
    expect(row('x-1')).toMatchObject({ gold_doc: 'harbor_2022_10k', selected: ['lumen_2023_10k'], gold_first: false, answered_doc: 'lumen_2023_10k', recall_collection: 0 });
    // Asked of its own document, the same question finds the page.
    expect(row('x-1').recall_single).toBe(1);
    expect(row('h-1').recall_collection).toBe(row('h-1').recall_single);
    expect(report.selection).toMatchObject({ n: 3, accuracy_at_1: 0.6667 });
    expect(report.selection.accuracy_at_3).toBe(1);
    expect(report.recall.n).toBe(3);
    expect(report.recall.diff_pp).toBeCloseTo((report.recall.collection - report.recall.single!) * 100, 1);
    expect(report.recall.diff_pp).toBeLessThan(0);
    expect(result.metrics.systems.map((s) => s.system)).toEqual([COLLECTION_EVAL_SYSTEMS.collection, COLLECTION_EVAL_SYSTEMS.single]);
    expect(readFileSync(result.files.collectionMarkdown, 'utf8')).toMatch(/document selection accuracy@1 \| 3 \| 66\.7 %/);
    const lines = readFileSync(result.files.selections, 'utf8').trim().split('\n').map((l) => SelectionRecordSchema.parse(JSON.parse(l)));
    expect(lines.filter((l) => l.id === 'x-1').at(-1)).toMatchObject({ ranked: expect.arrayContaining(['harbor_2022_10k']), answered_doc: 'lumen_2023_10k' });

    // The same command again resumes: nothing is asked again and the report is the same.
    const again = await evaluateCollection({ collectionDir: colDir, questions: questionsFile, outDir, config: config(dir), filters: ['source_benchmark~alpha'] });
    expect(again.answered).toBe(0);
    expect(again.resumed).toBe(6);
    expect(again.report).toEqual(report);

    // Compared with the single-document answers of that run instead of asking them again.
    const referenced = await evaluateCollection({ collectionDir: colDir, questions: questionsFile, outDir: join(dir, 'run-ref'), config: config(dir), filters: ['source_benchmark~alpha'], single: { runDir: outDir, system: COLLECTION_EVAL_SYSTEMS.single } });
    expect(referenced.metrics.systems.map((s) => s.system)).toEqual([COLLECTION_EVAL_SYSTEMS.collection]);
    expect(referenced.report.recall).toEqual(report.recall);
    expect(referenced.report.systems.single_run).toBe(outDir);
  });

  it('answers again when the collection changed since the run (its manifest hash is in the fingerprint), and refuses filters that keep nothing', async () => {
    const outDir = join(dir, 'run-changes');
    const options = { collectionDir: colDir, questions: questionsFile, outDir, config: config(dir), filters: ['source_benchmark=Beta set'], single: 'none' as const };
    const first = await evaluateCollection(options);
    expect(first.report.questions.map((q) => [q.id, q.gold_first])).toEqual([['q-1', true]]);
    expect(first.report.systems.single).toBeNull();
    writeFileSync(join(input, 'Lumen_2023_10K.md'), report('Lumen Optics', 2023, 'camera lenses', '$13.0 million', '$0.8 million'));
    await (await Collection.open(colDir, { config: config(dir) })).sync({ workers: 1 });
    const rerun = await evaluateCollection(options);
    expect(rerun.systems).toEqual([expect.objectContaining({ system: COLLECTION_EVAL_SYSTEMS.collection, changed: true, resumed: 0 })]);
    expect(rerun.answered).toBe(1);
    expect(rerun.report.collection.manifest_sha256).not.toBe(first.report.collection.manifest_sha256);

    await expect(evaluateCollection({ ...options, outDir: join(dir, 'none'), filters: ['source_benchmark=Gamma'] })).rejects.toMatchObject({ code: 'USAGE' });
    expect(existsSync(join(dir, 'none'))).toBe(false);
  });
});
