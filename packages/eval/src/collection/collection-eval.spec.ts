import type { Prediction, Question } from '@doctree/schema';

import { CollectionEvalReportSchema, filterQuestions, parseQuestionFilter, renderCollectionEvalMarkdown, summarizeCollectionEval, type SelectionRecord } from './collection-eval.js';

const question = (id: string, extra: Record<string, unknown> = {}): Question =>
  ({ id, doc_file: `pdfs/${id}.pdf`, question: `q ${id}`, answer: '1', answer_format: null, answerable: true, evidence_pages: [2], evidence_sources: null, ...extra }) as Question;

const prediction = (system: string, id: string, recall5: number, accuracy: number, evidence: number[] = [2]): Prediction => ({
  id,
  system,
  doc_file: `pdfs/${id}.pdf`,
  question: `q ${id}`,
  answer: 'x',
  answer_format: 'Str',
  confidence: 0.5,
  ranked_pages: [],
  pages: [],
  support: [],
  latency_ms: 1,
  llm_calls: 0,
  tokens: { prompt: 0, completion: 0 },
  gold: { answer: '1', answer_format: null, answerable: true, evidence_pages: evidence, evidence_sources: null, source_labels: [], format_label: 'open' },
  score: { accuracy, rule: 'numeric', scored_answer: 'x', answered: true, recall_at: evidence.length > 0 ? { '5': recall5 } : {}, hit_at: {}, reciprocal_rank: null },
});

const selection = (id: string, gold: string, ranked: string[]): SelectionRecord => ({ system: 'coll', id, gold_doc: gold, ranked, selected: ranked.slice(0, 1), answered_doc: ranked[0] ?? null });

describe('question filters', () => {
  it('keep the questions whose field equals or contains the value, and refuse a malformed filter', () => {
    const questions = [question('a', { source_benchmark: 'Alpha Bench @1' }), question('b', { source_benchmark: 'Beta' }), question('c')];
    expect(filterQuestions(questions, [parseQuestionFilter('source_benchmark~alpha')]).map((q) => q.id)).toEqual(['a']);
    expect(filterQuestions(questions, [parseQuestionFilter('source_benchmark=Beta')]).map((q) => q.id)).toEqual(['b']);
    expect(filterQuestions(questions, [parseQuestionFilter('answerable=true'), parseQuestionFilter('id~c')]).map((q) => q.id)).toEqual(['c']);
    // An inherited name is not a field of the record.
    expect(filterQuestions(questions, [parseQuestionFilter('constructor~Object')])).toEqual([]);
    for (const bad of ['source_benchmark', '=x', 'a.b=1', 'id=']) expect(() => parseQuestionFilter(bad)).toThrow(expect.objectContaining({ code: 'USAGE' }));
  });
});

describe('summarizeCollectionEval', () => {
  it('scores selection accuracy@1/@3 and recall and accuracy next to the single-document answers, in pp', () => {
    const predictions = [
      prediction('coll', 'q1', 1, 1),
      prediction('coll', 'q2', 0, 0), // wrong document first: its pages counted as misses
      prediction('coll', 'q3', 0.5, 1),
      prediction('coll', 'q4', 0, 1, []), // no gold pages: left out of recall
      prediction('single', 'q1', 1, 1),
      prediction('single', 'q2', 1, 1),
      prediction('single', 'q3', 0.5, 0),
      prediction('single', 'q4', 0, 1, []),
    ];
    const selections = [
      selection('q1', 'd1', ['d2', 'd1']), // an earlier record of q1, replaced by the later one
      selection('q1', 'd1', ['d1', 'd2', 'd3']),
      selection('q2', 'd2', ['d3', 'd1', 'd2']),
      selection('q3', 'd3', ['d3']),
      selection('q4', 'd4', ['d1', 'd2', 'd3', 'd4']),
    ];
    const report = summarizeCollectionEval({ dataset: 'fixture', collection: { dir: '/c', documents: 4, manifest_sha256: 'ab'.repeat(32) }, collectionSystem: 'coll', singleSystem: 'single', predictions, selections, filters: [parseQuestionFilter('id~q')] });
    expect(CollectionEvalReportSchema.parse(report)).toEqual(report);
    expect(report.selection).toEqual({ n: 4, accuracy_at_1: 0.5, accuracy_at_3: 0.75 });
    expect(report.recall).toEqual({ n: 3, collection: 0.5, single: 0.8333, diff_pp: -33.33 });
    expect(report.accuracy).toEqual({ n: 4, collection: 0.75, single: 0.75, diff_pp: 0 });
    expect(report.questions.find((q) => q.id === 'q2')).toMatchObject({ gold_doc: 'd2', gold_rank: 3, gold_first: false, top3: ['d3', 'd1', 'd2'], recall_collection: 0, recall_single: 1 });
    expect(report.questions.find((q) => q.id === 'q4')).toMatchObject({ gold_rank: 4, recall_collection: null });
    expect(report.filters).toEqual(['id~q']);

    const markdown = renderCollectionEvalMarkdown(report);
    expect(markdown).toContain('| document selection accuracy@1 | 4 | 50.0 % |');
    expect(markdown).toMatch(/evidence-page recall@5 .*\| 3 \| 50\.0 % \| 83\.3 % \| -33\.3 pp \|/);
    expect(markdown).toContain('| q1 | d1 | d1 | 1 ✓ |');
  });

  it('without single-document answers reports the collection side only', () => {
    const report = summarizeCollectionEval({ dataset: 'fixture', collection: { dir: '/c', documents: 2, manifest_sha256: 'x' }, collectionSystem: 'coll', predictions: [prediction('coll', 'q1', 1, 1)], selections: [selection('q1', 'd1', ['d1'])] });
    expect(report.recall).toEqual({ n: 1, collection: 1, single: null, diff_pp: null });
    expect(report.systems.single).toBeNull();
    expect(renderCollectionEvalMarkdown(report)).toContain('single-document: not asked');
  });
});
