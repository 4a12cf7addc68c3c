import { AnswerSchema, DocTreeError, type Observation, type Support, type Trace } from '@doctree/schema';
import { reportIndex } from '../__fixtures__/report-tree.js';
import { RuleJudger } from '../judger/rule-judger.js';
import { Observer } from '../observer/observe.js';
import { ExtractiveReader } from '../reader/extractive-reader.js';
import { finalizeAnswer } from './finalize-answer.js';

const trace: Trace = {
  format: 'doctree.trace',
  version: 1,
  trace_id: 'tr-1',
  doc_id: 'northwind-2018',
  question: 'q',
  started_at: '2024-05-01T10:00:00.000Z',
  mode: 'offline',
  events: [{ type: 'read', t_ms: 3, attempt: 0, message: 'extractive-v1' }],
  llm: { calls: 0, prompt_tokens: 0, completion_tokens: 0, cost_usd: null },
  replans: 0,
};
const support = (nodeId: string, page: number, start: number): Support => ({ node_id: nodeId, page, bbox: null, char_start: start, char_end: start + 5, snippet: 'abcde' });

describe('finalizeAnswer', () => {
  it('turns a judged read of the cash-flow table into a valid Answer with its pages', async () => {
    const index = reportIndex();
    const observations: Observation[] = await new Observer().observe(['t_1', 'tab_1', 'img_1'], index);
    const question = 'What is the FY2018 capital expenditure amount (in USD millions)?';
    const read = await new ExtractiveReader().read({ question, observations });
    const verdict = await new RuleJudger().judge({ question, observations, result: read });
    const answer = finalizeAnswer({ read, verdict, trace: { ...trace, question } });
    expect(AnswerSchema.parse(answer)).toEqual(answer);
    expect(answer).toMatchObject({ answer: 1482, answer_format: 'Int', pages: [3], display: read.display });
    expect(answer.display).toMatch(/1,482 million/);
    expect(answer.confidence).toBeCloseTo(0.6 * read.confidence + 0.4 * verdict.score, 6);
    expect(answer.trace).toEqual({ ...trace, question });
    expect(answer.support[0]!.snippet).toBe('Purchases of property, plant and equipment (PP&E) | (1,482)');
  });

  it('sorts support by page, drops duplicates and lists each page once', () => {
    const answer = finalizeAnswer({
      read: { answer: ['b', 'a', 'b'], answer_format: 'List', confidence: 0.7, support: [support('t_9', 9, 40), support('t_2', 2, 10), support('t_9', 9, 40), support('t_3', 2, 5)] },
      trace,
    });
    expect(answer.support.map((s) => [s.page, s.node_id])).toEqual([
      [2, 't_3'],
      [2, 't_2'],
      [9, 't_9'],
    ]);
    expect(answer.pages).toEqual([2, 9]);
    expect(answer.answer).toEqual(['b', 'a']);
    expect(answer.confidence).toBe(0.7);
  });

  it('normalises formats: numeric strings, non-integer Ints, None, and lowers the confidence of a failed verdict', () => {
    const s = [support('t_1', 1, 0)];
    expect(finalizeAnswer({ read: { answer: '(1,482)', answer_format: 'Int', confidence: 0.8, support: s }, trace })).toMatchObject({ answer: -1482, answer_format: 'Int' });
    expect(finalizeAnswer({ read: { answer: 5.99, answer_format: 'Int', confidence: 0.8, support: s }, trace })).toMatchObject({ answer: 5.99, answer_format: 'Float' });
    expect(finalizeAnswer({ read: { answer: 'about 12', answer_format: 'Float', confidence: 0.8, support: s }, trace })).toMatchObject({ answer: 'about 12', answer_format: 'Str' });
    expect(finalizeAnswer({ read: { answer: 'x', answer_format: 'None', confidence: 0.4, support: s }, trace })).toMatchObject({
      answer: 'Not answerable',
      support: [],
      pages: [],
      confidence: 0.4,
    });
    const failed = finalizeAnswer({
      read: { answer: 3, answer_format: 'Int', confidence: 0.8, support: s },
      verdict: { pass: false, score: 0.3, failures: [{ check: 'time', severity: 'major', message: 'other year' }], action: 'replan', judge: 'rules-v1' },
      trace,
    });
    expect(failed.confidence).toBeCloseTo((0.6 * 0.8 + 0.4 * 0.3) * 0.6, 6);
  });

  it('refuses inputs that cannot make a valid Answer', () => {
    let error: unknown;
    try {
      finalizeAnswer({ read: { answer: 1, answer_format: 'Int', confidence: 0.5, support: [] }, trace: { ...trace, version: 2 } as unknown as Trace });
    } catch (e) {
      error = e;
    }
    expect(DocTreeError.isInstance(error) && error.code).toBe('SCHEMA_INVALID');
  });
});
