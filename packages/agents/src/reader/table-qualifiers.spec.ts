import type { Observation } from '@doctree/schema';
import { EvidenceSet } from './evidence-model.js';
import { ExtractiveReader } from './extractive-reader.js';
import { profileQuestion } from './question-profile.js';
import { namedCellCandidates } from './table-candidates.js';
import { missingQualifier, questionQualifiers } from './table-qualifiers.js';

function table(nodeId: string, columns: string[], rows: string[][], caption?: string): Observation {
  const text = [columns.join(' | '), ...rows.map((r) => r.join(' | '))].join('\n');
  return { node_id: nodeId, modality: 'table', page: 6, bbox: null, payload: { kind: 'table', columns, rows, units: [], markdown: text, text, ...(caption ? { caption } : {}) } };
}

function paragraph(nodeId: string, text: string): Observation {
  return { node_id: nodeId, modality: 'text', page: 5, bbox: null, payload: { kind: 'text', text, heading_path: ['Results'] } };
}

const reader = new ExtractiveReader();

/** A made-up results table: two survey sites over two metrics. */
const sites = table(
  'tab_sites',
  ['Method', 'Riverbank', '', 'Hillside', ''],
  [
    ['', 'Accuracy', 'Error rate', 'Accuracy', 'Error rate'],
    ['Baseline', '71.2', '9.8', '64.0', '12.5'],
    ['Sparse tree', '74.9', '7.1', '61.3', '14.0'],
    ['Dense mesh', '73.5', '8.4', '66.8', '11.2'],
  ],
  'Table 2: Results of the three methods on the two survey sites.',
);

/** A made-up benchmark table: codes of test suites as columns. */
const suites = table('tab_suites', ['Model', 'QX-10', 'QX-20'], [
  ['Falcon net', '55.1', '61.0'],
  ['Owl net', '58.3', '59.2'],
  ['Heron net', '52.7', '63.4'],
]);

describe('questionQualifiers', () => {
  it('reads codes, capitalised names, quoted labels and years, not the word opening the question', () => {
    const q = questionQualifiers({ question: 'Which model scores best on QX-30 at the "Lakeside" site in 2021?', years: [2021] });
    expect(q.map((x) => [x.text, x.kind])).toEqual([
      ['QX-30', 'code'],
      ['Lakeside', 'name'],
      ['2021', 'year'],
    ]);
  });
});

describe('missingQualifier', () => {
  it('finds a name of a kind the table names others of, and none when one of the kind is there', () => {
    const lacks = missingQualifier(questionQualifiers({ question: 'Which model is best on QX-30?', years: [] }), { all: 'Model QX-10 QX-20 Falcon net', selectors: 'QX-10 QX-20' });
    expect(lacks).toMatchObject({ kind: 'code', names: ['QX-30'] });
    expect(lacks!.note).toMatch(/no column for "QX-30"/);
    // Written apart in the table (`QX 20`), the name is still there.
    expect(missingQualifier(questionQualifiers({ question: 'Which model is best on QX20?', years: [] }), { all: 'Model QX 10 QX 20', selectors: 'QX 10 QX 20' })).toBeUndefined();
    // The table names nothing of that kind (no codes): the name does not select here.
    expect(missingQualifier(questionQualifiers({ question: 'Which model is best on QX-30?', years: [] }), { all: 'Model accuracy recall', selectors: 'accuracy recall' })).toBeUndefined();
  });
});

describe('a table without the column the question names', () => {
  it('gives no ranking for a site the table lacks, with the reason in the notes; the site it has still ranks', async () => {
    const absent = await reader.read({ question: 'Which method has the highest accuracy on Lakeside?', observations: [sites] });
    expect(absent.answer_format).toBe('None');
    expect(absent.notes?.join('\n')).toMatch(/tab_sites: the table has no column for "Lakeside"/);
    const present = await reader.read({ question: 'Which method has the highest accuracy on Hillside?', observations: [sites] });
    expect(present.answer).toBe('Dense mesh');
  });

  it('gives no ranking for a code the columns lack, nor for a year they lack', async () => {
    expect((await reader.read({ question: 'Which model scores highest on QX-30?', observations: [suites] })).answer_format).toBe('None');
    expect((await reader.read({ question: 'Which model scores highest on QX-20?', observations: [suites] })).answer).toBe('Heron net');
    const harvest = table('tab_harvest', ['Harvest (tonnes)', '2019', '2020'], [
      ['Apples', '410', '385'],
      ['Pears', '420', '131'],
    ]);
    const missingYear = await reader.read({ question: 'Which fruit had the largest harvest in 2022?', observations: [harvest] });
    expect(missingYear.answer_format).toBe('None');
    expect(missingYear.notes?.join('\n')).toMatch(/no column for "2022"/);
    expect((await reader.read({ question: 'Which fruit had the largest harvest in 2019?', observations: [harvest] })).answer).toBe('Pears');
  });

  it('keeps the first value column when the question names no qualifier', async () => {
    expect((await reader.read({ question: 'Which model scores highest?', observations: [suites] })).answer).toBe('Owl net');
  });

  it('keeps an answer from a sentence that names what the table lacks, not from one that does not', async () => {
    const about = paragraph('t_1', 'On QX-30 the best model was Owl net, ahead of the other two.');
    const other = paragraph('t_2', 'The highest score overall was reached by Heron net.');
    const withSentence = await reader.read({ question: 'Which model scores highest on QX-30?', observations: [suites, other, about] });
    expect(withSentence.answer_format).not.toBe('None');
    expect(withSentence.support.every((s) => s.node_id === 't_1')).toBe(true);
    const without = await reader.read({ question: 'Which model scores highest on QX-30?', observations: [suites, other] });
    expect(without.answer_format).toBe('None');
  });

  it('reads no cell at a named row of a table without the named column', () => {
    const question = 'What was the score of Owl net on QX-30?';
    const evidence = new EvidenceSet([suites], profileQuestion(question));
    expect(namedCellCandidates(evidence)).toEqual([]);
    const present = 'What was the score of Owl net on QX-20?';
    expect(namedCellCandidates(new EvidenceSet([suites], profileQuestion(present)))[0]?.answer).toBe(59.2);
  });
});

describe('questionQualifiers of periods', () => {
  it('reads a period written as one word as its year, not as a code', () => {
    expect(questionQualifiers({ question: 'Which plant had the largest output in Q32024?', years: [] }).filter((q) => q.kind === 'code')).toEqual([]);
  });
});
