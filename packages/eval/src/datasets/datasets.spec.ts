import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { DocTreeError } from '@doctree/schema';

import { parseDocTreeQuestions } from './doctree-questions.js';
import { answerFormatLabel, evidenceSourceLabels } from './evidence-labels.js';
import { parseFinanceBenchJsonl } from './financebench-jsonl.js';
import { arrayElementLines } from './json-lines.js';
import { detectDatasetFormat, loadDataset, loadQuestions } from './load-questions.js';
import { parseMmLongBenchSamples } from './mmlongbench-samples.js';
import { parsePythonLiteral } from './python-literal.js';

const fixtures = join(__dirname, '__fixtures__');

async function errorOf(run: () => unknown): Promise<DocTreeError> {
  try {
    await run();
  } catch (error) {
    if (DocTreeError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a DocTreeError');
}

describe('parsePythonLiteral', () => {
  it('reads the literals MMLongBench-Doc stores as strings', () => {
    expect(parsePythonLiteral('[5, 6]')).toEqual([5, 6]);
    expect(parsePythonLiteral("['Pure-text (Plain-text)', 'Table']")).toEqual(['Pure-text (Plain-text)', 'Table']);
    expect(parsePythonLiteral(`["it's", 'say "hi"', 'a\\'b', '\\u00e9', 'x' 'y']`)).toEqual(["it's", 'say "hi"', "a'b", 'é', 'xy']);
    expect(parsePythonLiteral('(1, 2.5, -3, True, None)')).toEqual([1, 2.5, -3, true, null]);
    expect(parsePythonLiteral('[]')).toEqual([]);
    expect(parsePythonLiteral("[['a'], []]")).toEqual([['a'], []]);
  });

  it('returns undefined for anything that is not a literal, and never runs code', () => {
    for (const bad of ['[oops', "['a', 'b'", '__import__("os")', '[1 2]', '', "'unterminated", '[1,,2]']) {
      expect({ bad, value: parsePythonLiteral(bad) }).toEqual({ bad, value: undefined });
    }
  });
});

describe('DocTree questions.jsonl', () => {
  it('loads the dev format with 1-based pages and keeps extra fields', async () => {
    const dataset = await loadDataset(join(fixtures, 'questions.jsonl'));
    expect(dataset.format).toBe('doctree');
    expect(dataset.name).toBe('__fixtures__/questions');
    expect(dataset.baseDir).toBe(fixtures);
    expect(dataset.questions.map((q) => q.id)).toEqual(['nw-001', 'nw-002', 'nw-003', 'fb-90001']);
    const q2 = dataset.questions[1]!;
    expect(q2.evidence_pages).toEqual([5, 6]);
    expect((q2 as Record<string, unknown>)['reviewer']).toBe('kept as an extra field');
    expect(dataset.questions[2]!.answerable).toBe(false);
  });

  it('names the file and line of a malformed row', async () => {
    const file = 'questions.jsonl';
    const good = '{"id":"a","doc_file":"x.pdf","question":"q?","answer":"1","answer_format":"Int","answerable":true,"evidence_pages":[1],"evidence_sources":null}';
    let error = await errorOf(() => parseDocTreeQuestions(`${good}\n\n{"id": "b", "doc_file": "x.pdf"`, { file }));
    expect(error.code).toBe('EVAL_DATASET_INVALID');
    expect(error.file).toBe(file);
    expect(error.message).toMatch(/invalid JSON.*\(line 3\)/);
    error = await errorOf(() => parseDocTreeQuestions(`${good}\n${good.replace('"a"', '"b"').replace('[1]', '[0]')}`, { file }));
    expect(error.message).toMatch(/evidence_pages\.0.*\(line 2\)/);
    expect(error.hint).toMatch(/1-based/);
    error = await errorOf(() => parseDocTreeQuestions(`${good}\n${good}`, { file }));
    expect(error.message).toMatch(/duplicate question id "a" \(first on line 1\) \(line 2\)/);
  });
});

describe('MMLongBench-Doc samples.json', () => {
  it('parses Python-literal lists, keeps 1-based pages, drops page 0 with a note, and numbers ids like the dev set', () => {
    const questions = parseMmLongBenchSamples(require('node:fs').readFileSync(join(fixtures, 'mmlongbench-samples.json'), 'utf8'), { file: 'samples.json' });
    expect(questions.map((q) => q.id)).toEqual(['mmlb-0000', 'mmlb-0001', 'mmlb-0002', 'mmlb-0003']);
    expect(questions[0]).toMatchObject({ doc_file: 'documents/northwind-annual-report-2023.pdf', answer: '7', answer_format: 'Int', answerable: true, evidence_pages: [3], evidence_sources: ['Pure-text (Plain-text)'] });
    expect(questions[1]!.evidence_pages).toEqual([5, 6]); // sorted
    expect(questions[1]!.answer).toBe("['Cold brew', 'Espresso beans']"); // kept as upstream; the List rule parses it
    expect(questions[2]).toMatchObject({ answer_format: 'None', answerable: false, evidence_pages: [], evidence_sources: [] });
    expect(questions[3]!.evidence_pages).toEqual([2]);
    expect((questions[3] as Record<string, unknown>)['evidence_page_issue']).toMatch(/dropped page\(s\) 0/);
    expect((questions[3] as Record<string, unknown>)['orig']).toMatchObject({ index_in_samples_json: 3, doc_id: 'field-guide.pdf', evidence_pages: '[0, 2]' });
  });

  it('names the line where a malformed sample starts', async () => {
    const text = '[\n  {"doc_id": "a.pdf", "question": "q", "answer": "1", "evidence_pages": "[1]", "evidence_sources": "[]", "answer_format": "Int"},\n  {\n    "doc_id": "a.pdf", "question": "q2", "answer": "1",\n    "evidence_pages": "[1, oops]", "evidence_sources": "[]", "answer_format": "Int"\n  }\n]';
    expect(arrayElementLines(text)).toEqual([2, 3]);
    const error = await errorOf(() => parseMmLongBenchSamples(text, { file: 'samples.json' }));
    expect(error.message).toMatch(/sample 1: evidence_pages must be a list of integers.*\(line 3\)/);
    const badFormat = text.replace('"answer_format": "Int"\n', '"answer_format": "Number"\n');
    expect((await errorOf(() => parseMmLongBenchSamples(badFormat, { file: 'samples.json' }))).message).toMatch(/answer_format.*\(line 3\)/);
    expect((await errorOf(() => parseMmLongBenchSamples('[{"doc_id": 1}', { file: 'samples.json' }))).message).toMatch(/invalid JSON/);
  });
});

describe('FinanceBench financebench_open_source.jsonl', () => {
  it('converts 0-based evidence_page_num to 1-based pages and labels the questions as open answers', () => {
    const questions = parseFinanceBenchJsonl(require('node:fs').readFileSync(join(fixtures, 'financebench-open-source.jsonl'), 'utf8'));
    expect(questions.map((q) => q.id)).toEqual(['fb-90001', 'fb-90002']);
    expect(questions[0]).toMatchObject({ doc_file: '../pdfs/NORTHWIND_2023_10K.pdf', answer: '$412.50', answer_format: null, answerable: true, evidence_pages: [9], evidence_sources: null });
    expect(questions[1]!.evidence_pages).toEqual([1, 5]); // 0-based [4, 0, 4]
    const orig = (questions[1] as Record<string, unknown>)['orig'] as Record<string, unknown>;
    expect(orig['evidence_page_num_0based']).toEqual([4, 0, 4]);
    expect(orig['question_type']).toBe('domain-relevant');
    expect(orig).not.toHaveProperty('evidence');
  });

  it('names the line of a malformed row', async () => {
    const error = await errorOf(() =>
      parseFinanceBenchJsonl('{"financebench_id":"financebench_id_1","doc_name":"D","question":"q","answer":"a","evidence":[]}\n{"financebench_id":"financebench_id_2","doc_name":"D","question":"q","answer":"a","evidence":[{"evidence_page_num":-1}]}', { file: 'fb.jsonl' }),
    );
    expect(error.code).toBe('EVAL_DATASET_INVALID');
    expect(error.message).toMatch(/evidence\.0\.evidence_page_num.*\(line 2\)/);
  });
});

describe('format detection and loading', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'doctree-eval-datasets-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('detects each published format', async () => {
    expect((await loadDataset(join(fixtures, 'mmlongbench-samples.json'))).format).toBe('mmlongbench');
    expect((await loadDataset(join(fixtures, 'financebench-open-source.jsonl'))).format).toBe('financebench');
    expect((await loadQuestions(join(fixtures, 'financebench-open-source.jsonl'), { documentPrefix: 'pdfs/' }))[0]!.doc_file).toBe('pdfs/NORTHWIND_2023_10K.pdf');
    expect(detectDatasetFormat('[]')).toBe('mmlongbench');
  });

  it('explains unreadable or unrecognised files', async () => {
    expect((await errorOf(() => loadDataset(join(dir, 'missing.jsonl')))).code).toBe('INPUT_NOT_FOUND');
    expect((await errorOf(() => loadDataset(dir))).code).toBe('INPUT_UNSUPPORTED');
    await writeFile(join(dir, 'empty.jsonl'), '\n\n');
    expect((await errorOf(() => loadDataset(join(dir, 'empty.jsonl')))).message).toMatch(/empty/);
    await writeFile(join(dir, 'other.jsonl'), '{"foo": 1}\n');
    const error = await errorOf(() => loadDataset(join(dir, 'other.jsonl')));
    expect(error.code).toBe('EVAL_DATASET_INVALID');
    expect(error.file).toBe(join(dir, 'other.jsonl'));
  });
});

describe('report labels', () => {
  const base = { id: 'x', doc_file: 'a.pdf', question: 'q', answer: 'a', answer_format: 'Str' as const, answerable: true, evidence_pages: [1], evidence_sources: ['Table', 'Pure-text (Plain-text)', 'Table'] };
  it('maps evidence sources to short labels and labels rows without sources explicitly', () => {
    expect(evidenceSourceLabels(base)).toEqual(['table', 'text']);
    expect(evidenceSourceLabels({ ...base, evidence_sources: ['Generalized-text (Layout)', 'Chart', 'Figure'] })).toEqual(['layout', 'chart', 'figure']);
    expect(evidenceSourceLabels({ ...base, id: 'fb-00001', answer_format: null, evidence_sources: null })).toEqual(['financial-statement']);
    expect(evidenceSourceLabels({ ...base, evidence_sources: [] })).toEqual(['unknown']);
    expect(evidenceSourceLabels({ ...base, answer_format: 'None', answerable: false, evidence_sources: [] })).toEqual(['unanswerable']);
    expect(answerFormatLabel({ answer_format: null })).toBe('open');
    expect(answerFormatLabel({ answer_format: 'List' })).toBe('List');
  });
});
