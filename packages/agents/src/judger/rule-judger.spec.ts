import type { Observation, ReadResult, RouterDecision } from '@doctree/schema';
import { FakeChatClient } from '../__fixtures__/fake-chat-client.js';
import { reportIndex } from '../__fixtures__/report-tree.js';
import { Observer } from '../observer/observe.js';
import { ExtractiveReader } from '../reader/extractive-reader.js';
import { supportFor } from '../reader/observation-text.js';
import type { JudgeEvent } from './answer-judger.js';
import { LlmJudger } from './llm-judger.js';
import { RuleJudger } from './rule-judger.js';
import { runJudgerConformance } from '../testing/judger-conformance.js';

runJudgerConformance('RuleJudger', (options) => new RuleJudger(options));

const index = reportIndex();
const CAPEX_2018 = 'What is the FY2018 capital expenditure amount (in USD millions)?';

function decision(expected: RouterDecision['signals']['expected_format']): RouterDecision {
  return {
    query_type: 'table_number',
    candidates: [{ type: 'table_number', score: 1 }],
    signals: { page_hints: [], objects: [], units: [], years: [], operations: [], expected_format: expected, keywords: [], entities: [] },
    risk: { level: 'low', reasons: [] },
    constraints: [],
    sub_questions: [],
    confidence: 1,
    source: 'rules',
  };
}

/** A read result citing `snippet` of an observation. */
function citing(observation: Observation, snippet: string, answer: ReadResult['answer'], format: ReadResult['answer_format']): ReadResult {
  const text = observation.payload.kind === 'table' ? observation.payload.text! : observation.payload.kind === 'text' ? observation.payload.text : '';
  const at = text.indexOf(snippet);
  if (at < 0) throw new Error(`snippet not in ${observation.node_id}`);
  return { answer, answer_format: format, confidence: 0.8, support: [supportFor(observation, at, at + snippet.length)] };
}

describe('RuleJudger', () => {
  let table: Observation;
  let paragraph: Observation;
  const events: JudgeEvent[] = [];
  const judger = new RuleJudger({ onJudge: (e) => events.push(e) });
  beforeAll(async () => {
    const observed = await new Observer().observe(['tab_1', 't_1'], index);
    table = observed[0]!;
    paragraph = observed[1]!;
  });

  it('accepts a well-formed, supported answer from the right year column', async () => {
    const read = await new ExtractiveReader().read({ question: CAPEX_2018, observations: [table] });
    const verdict = await judger.judge({ question: CAPEX_2018, observations: [table], result: read });
    expect(verdict).toMatchObject({ pass: true, score: 1, action: 'accept', failures: [], judge: 'rules-v1' });
    expect(events.at(-1)?.verdict).toEqual(verdict);
  });

  it('catches the wrong format: Int expected, text given', async () => {
    const result = citing(table, 'Purchases of property, plant and equipment (PP&E)', 'Purchases of property, plant and equipment', 'Str');
    const verdict = await judger.judge({ question: CAPEX_2018, decision: decision('Int'), observations: [table], result });
    expect(verdict.pass).toBe(false);
    expect(verdict.action).toBe('fallback');
    expect(verdict.failures.map((f) => f.check)).toContain('format');
  });

  it('catches a unit mismatch: a percentage asked, an amount of money answered', async () => {
    const result = citing(paragraph, '$28,436 million in 2018', 28436, 'Int');
    const verdict = await judger.judge({ question: 'By what percentage did net sales grow in 2018?', observations: [paragraph], result });
    expect(verdict.failures).toContainEqual(expect.objectContaining({ check: 'unit', severity: 'major' }));
    expect(verdict.pass).toBe(false);
  });

  it('catches support from another year column and asks for a REPLAN', async () => {
    const result = citing(table, 'Purchases of property, plant and equipment (PP&E) | (1,482)', 1482, 'Int');
    const verdict = await judger.judge({ question: 'What is the FY2017 capital expenditure amount (in USD millions)?', observations: [table], result });
    expect(verdict.failures).toContainEqual(expect.objectContaining({ check: 'time', severity: 'major' }));
    expect(verdict.action).toBe('replan');
    const rightYear = citing(table, 'Purchases of property, plant and equipment (PP&E) | (1,482) | (1,291)', 1291, 'Int');
    expect((await judger.judge({ question: 'What is the FY2017 capital expenditure amount (in USD millions)?', observations: [table], result: rightYear })).pass).toBe(true);
  });

  it('catches answers not entailed by their support, supports that do not quote, and a None that needs more evidence', async () => {
    const wrongNumber = citing(table, 'Purchases of property, plant and equipment (PP&E) | (1,482)', 1600, 'Int');
    expect((await judger.judge({ question: CAPEX_2018, observations: [table], result: wrongNumber })).failures.map((f) => f.check)).toContain('entailment');
    const words = citing(paragraph, 'Net sales increased 4.2%', 'Revenue fell sharply', 'Str');
    expect((await judger.judge({ question: 'What happened to net sales?', observations: [paragraph], result: words })).failures.map((f) => f.check)).toContain('entailment');
    const forged: ReadResult = { ...wrongNumber, answer: 1482, support: [{ ...wrongNumber.support[0]!, snippet: 'Capital expenditure: 1,482' }] };
    const forgedVerdict = await judger.judge({ question: CAPEX_2018, observations: [table], result: forged });
    expect(forgedVerdict.failures.map((f) => f.check)).toContain('support');
    expect(forgedVerdict.action).toBe('replan');
    const none: ReadResult = { answer: 'Not answerable', answer_format: 'None', confidence: 0.6, support: [] };
    expect(await judger.judge({ question: CAPEX_2018, observations: [table], result: none })).toMatchObject({ pass: false, action: 'replan' });
    expect(await judger.judge({ question: CAPEX_2018, decision: decision('None'), observations: [table], result: none })).toMatchObject({ pass: true, action: 'accept' });
  });
});

describe('LlmJudger', () => {
  let table: Observation;
  beforeAll(async () => {
    table = (await new Observer().observe(['tab_1'], index))[0]!;
  });

  it('adds the model’s failures to the rule checks and keeps the rules when the model replies badly', async () => {
    const read = await new ExtractiveReader().read({ question: CAPEX_2018, observations: [table] });
    const approving = new FakeChatClient([JSON.stringify({ pass: true, score: 0.9, failures: [] })]);
    const ok = await new LlmJudger({ client: approving }).judge({ question: CAPEX_2018, observations: [table], result: read });
    expect(ok).toMatchObject({ pass: true, action: 'accept', judge: 'llm:fake-model', score: 0.9 });
    expect(approving.requests[0]!.purpose).toBe('judge');
    expect(approving.requests[0]!.messages[1]!.content).toContain('<<<EVIDENCE');

    const objecting = new FakeChatClient([JSON.stringify({ pass: false, score: 0.2, failures: [{ check: 'time', message: 'the quoted value is for another year' }] })]);
    expect(await new LlmJudger({ client: objecting }).judge({ question: CAPEX_2018, observations: [table], result: read })).toMatchObject({ pass: false, action: 'replan' });

    const broken = await new LlmJudger({ client: new FakeChatClient(['{"pass": yes}']) }).judge({ question: CAPEX_2018, observations: [table], result: read });
    expect(broken).toMatchObject({ pass: true, judge: 'rules-v1' });
    expect(broken.notes?.[0]).toMatch(/model judge failed \(LLM_BAD_OUTPUT/);
  });
});
