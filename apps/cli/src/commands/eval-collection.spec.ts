import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CollectionEvalReportSchema } from '@doctree/eval';
import { cliRunner } from '../__fixtures__/cli-runner.js';

jest.setTimeout(120_000);

const doc = (company: string, year: number, topic: string, cash: string) =>
  `<!-- page 1 -->\n\n# ${company} Annual Report ${year}\n\n## Operations\n\n${company} sells ${topic}.\n\n<!-- page 2 -->\n\n## Cash\n\n${company} held cash of ${cash} at the end of ${year}.\n`;

const question = (id: string, docFile: string, text: string, answer: string, group: string) => ({ id, doc_file: docFile, question: text, answer, answer_format: null, answerable: true, evidence_pages: [2], evidence_sources: null, source_benchmark: group });

describe('doctree eval --collection', () => {
  let dir: string;
  const cli = cliRunner(() => dir);
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'doctree-cli-eval-collection-'));
    mkdirSync(join(dir, 'one', 'in'), { recursive: true });
    mkdirSync(join(dir, 'two', 'in'), { recursive: true });
    writeFileSync(join(dir, 'one', 'in', 'Alder_2021_10K.md'), doc('Alder Mills', 2021, 'sawn timber', '$2.5 million'));
    writeFileSync(join(dir, 'two', 'in', 'Birch_2022_10K.md'), doc('Birch Labs', 2022, 'lab glassware', '$7.0 million'));
    writeFileSync(join(dir, 'one', 'questions.jsonl'), `${JSON.stringify(question('a-1', 'in/Alder_2021_10K.md', 'How much cash did Alder Mills hold at the end of 2021?', '$2.5 million', 'Set A'))}\n`);
    writeFileSync(
      join(dir, 'two', 'questions.jsonl'),
      [question('b-1', 'in/Birch_2022_10K.md', 'How much cash did Birch Labs hold at the end of 2022?', '$7.0 million', 'Set A'), question('b-2', 'in/Birch_2022_10K.md', 'What does Birch Labs sell?', 'lab glassware', 'Set B')].map((q) => JSON.stringify(q)).join('\n'),
    );
    // One collection of the documents of both question files (as a folder of both).
    mkdirSync(join(dir, 'all'));
    writeFileSync(join(dir, 'all', 'Alder_2021_10K.md'), readFileSync(join(dir, 'one', 'in', 'Alder_2021_10K.md')));
    writeFileSync(join(dir, 'all', 'Birch_2022_10K.md'), readFileSync(join(dir, 'two', 'in', 'Birch_2022_10K.md')));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('asks the questions of several files of the whole collection and prints selection accuracy and recall against single-document asks', async () => {
    expect((await cli('collection', 'ingest', '--input-dir', 'all', '--collection-dir', 'col', '--jobs', '1')).status).toBe(0);
    const result = await cli('eval', '--collection', 'col', '--questions', 'one/questions.jsonl', '--questions', 'two/questions.jsonl', '--filter', 'source_benchmark=Set A', '--out', 'out');
    expect(result.status).toBe(0);
    expect(result.out).toMatch(/^one\/questions \+ two\/questions \(collection\): 2 questions over 2 documents\n/);
    expect(result.out).toContain('Document selection  accuracy@1 100.0 %  accuracy@3 100.0 %  (2 questions)');
    expect(result.out).toMatch(/Evidence recall@5 {3}collection 100\.0 % {2}single document 100\.0 % {2}difference 0\.0 pp/);
    expect(result.out).toContain('4 answered now, 0 taken over from an earlier run.');
    const report = CollectionEvalReportSchema.parse(JSON.parse(readFileSync(join(dir, 'out', 'collection.json'), 'utf8')));
    expect(report.questions.map((q) => [q.id, q.doc_file, q.gold_doc])).toEqual([
      ['a-1', 'one/in/Alder_2021_10K.md', 'alder_2021_10k'],
      ['b-1', 'two/in/Birch_2022_10K.md', 'birch_2022_10k'],
    ]);
    expect(existsSync(join(dir, 'out', 'report.md'))).toBe(true);

    const again = await cli('eval', '--collection-dir', 'col', '--questions', 'one/questions.jsonl', '--questions', 'two/questions.jsonl', '--filter', 'source_benchmark=Set A', '--out', 'out', '--json');
    expect(again.status).toBe(0);
    expect(JSON.parse(again.out)).toMatchObject({ answered: 0, resumed: 4, selection: { n: 2, accuracy_at_1: 1 } });
  });

  it('refuses --systems, a malformed filter and a missing collection with usage errors', async () => {
    expect((await cli('eval', '--collection', 'col', '--questions', 'one/questions.jsonl', '--out', 'out', '--systems', 'rag')).status).toBe(2);
    const badFilter = await cli('eval', '--collection', 'col', '--questions', 'one/questions.jsonl', '--out', 'out', '--filter', 'source_benchmark');
    expect(badFilter.status).toBe(2);
    expect(badFilter.err).toContain('field=value or field~text');
    const missing = await cli('eval', '--collection', 'nope', '--questions', 'one/questions.jsonl', '--out', 'out');
    expect(missing.status).not.toBe(0);
    expect(missing.err).toContain('collection ingest');
    expect(missing.err).not.toMatch(/\n\s+at /);
  });
});
