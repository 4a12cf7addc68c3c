import { AnswerSchema, type Answer, type Support } from '@doctree/schema';
import { DocumentWords, documentLacks } from './document-lacks.js';
import { CALIBRATION_FEATURES, parseAnswerCalibrationModel, type AnswerCalibrationModel } from './answer-calibration-schema.js';
import { AnswerCalibrator, calibratedAnswer, type CalibrationInput } from './answer-calibrator.js';
import { DEFAULT_ANSWER_CALIBRATION_MODEL } from './answer-calibration-model.js';

const support: Support = { node_id: 't_3', page: 4, bbox: null, char_start: 10, char_end: 30, snippet: 'Revenue was $4.2 billion' };
const input = (over: Partial<CalibrationInput> = {}): CalibrationInput => ({
  read: { answer: 4.2, answer_format: 'Float', confidence: 0.8, support: [support] },
  verdict: { pass: true, score: 0.9 },
  queryType: 'table_number',
  pages: [
    { page: 4, score: 3, features: { coverage: 0.8 } },
    { page: 9, score: 1, features: { coverage: 0.4 } },
  ],
  absence: { missingTerms: 0, missingYears: 0, pagesOutOfRange: 0 },
  replans: 0,
  ...over,
});
const model = (over: Partial<AnswerCalibrationModel> = {}): AnswerCalibrationModel => ({
  format: 'doctree.answer-calibration',
  version: 1,
  reader: 'extractive',
  answer: { bias: -1, weights: { reader_confidence: 3 } },
  refuse: { bias: -3, weights: { missing_terms: 8 } },
  refuse_margin: 0,
  ...over,
});
const answer = (): Answer => ({
  answer: 4.2,
  answer_format: 'Float',
  display: '$4.2 billion',
  confidence: 0.8,
  support: [support],
  pages: [4],
  trace: { format: 'doctree.trace', version: 1, trace_id: 't', doc_id: 'd', question: 'q', started_at: new Date(0).toISOString(), mode: 'offline', events: [], llm: { calls: 0, prompt_tokens: 0, completion_tokens: 0, cost_usd: null }, replans: 0 },
});

describe('AnswerCalibrator', () => {
  it('computes every feature in 0..1 from the reader, the judger, the page ranking and what the document lacks', () => {
    const f = new AnswerCalibrator().features(input({ absence: { missingTerms: 0.4, missingYears: 1, pagesOutOfRange: 0 }, replans: 1 }));
    expect(Object.keys(f)).toEqual([...CALIBRATION_FEATURES]);
    for (const v of Object.values(f)) expect(v >= 0 && v <= 1).toBe(true);
    expect(f).toMatchObject({ reader_confidence: 0.8, judge_score: 0.9, format_number: 1, support_rank: 1, missing_terms: 0.4, missing_years: 1, replans: 0.5, type_table: 1 });
    expect(f.page_margin).toBeCloseTo(2 / 3, 6);
  });

  it('answers when the answer is the likelier right output, and its confidence is that probability', () => {
    const c = new AnswerCalibrator({ model: model() }).calibrate(input());
    expect(c.refused).toBe(false);
    expect(c.confidence).toBeCloseTo(1 / (1 + Math.exp(-(-1 + 3 * 0.8))), 9);
    expect(c.reason).toBeUndefined();
  });

  it('declines when the document never mentions what the question names, and says so', () => {
    const c = new AnswerCalibrator({ model: model() }).calibrate(input({ absence: { missingTerms: 0.9, missingYears: 0, pagesOutOfRange: 0 } }));
    expect(c.refused).toBe(true);
    expect(c.confidence).toBe(c.pRefuse);
    expect(c.reason).toMatch(/never mentions 90 %/);
  });

  it('always declines a question about a page the document does not have', () => {
    const c = new AnswerCalibrator({ model: model({ refuse: { bias: -9, weights: {} } }) }).calibrate(input({ absence: { missingTerms: 0, missingYears: 0, pagesOutOfRange: 1 } }));
    expect(c.refused).toBe(true);
    expect(c.reason).toMatch(/page the document does not have/);
  });

  it('a declined answer is "Not answerable" with the withheld answer, its probability and the evidence kept', () => {
    const c = new AnswerCalibrator({ model: model() }).calibrate(input({ absence: { missingTerms: 0.9, missingYears: 0, pagesOutOfRange: 0 } }));
    const declined = calibratedAnswer(answer(), c);
    expect(AnswerSchema.parse(declined)).toEqual(declined);
    expect(declined).toMatchObject({ answer: 'Not answerable', answer_format: 'None', support: [], pages: [] });
    expect(declined.display).toBeUndefined();
    expect(declined.abstention).toMatchObject({ withheld: { answer: 4.2, answer_format: 'Float' }, evidence: [support] });
    expect(declined.abstention!.withheld!.confidence).toBeCloseTo(c.pAnswer, 9);
    const kept = calibratedAnswer(answer(), new AnswerCalibrator({ model: model() }).calibrate(input()));
    expect(kept.answer).toBe(4.2);
    expect(kept.abstention).toBeUndefined();
  });

  it('declines a question about a name or year the document never mentions, and says which', () => {
    const words = new DocumentWords('Northwind Traders opened the Rotterdam centre. The X-200 sensor line grew 8% in 2023.');
    const sure = model({ refuse: { bias: -9, weights: {} } });
    const ask = (question: string) =>
      new AnswerCalibrator({ model: sure }).calibrate(input({ absence: { missingTerms: 0, missingYears: 0, pagesOutOfRange: 0, lacks: documentLacks(question, words) } }));
    expect(ask('How much did the X-200 line grow at Northwind in 2023?').refused).toBe(false);
    expect(ask('How much did the Z-900 line grow at Contoso?')).toMatchObject({ refused: true, reason: 'the document never mentions "z-900", "contoso"' });
    expect(ask('How much did the sensor line grow in 2019?')).toMatchObject({ refused: true, reason: 'the document never mentions 2019' });
    // A typo of a name the document writes is not a missing name.
    expect(ask('What did Nortwind open in Roterdam?').refused).toBe(false);
  });

  it('declines a question about a figure the document never labels, or a month it never dates, and says which', () => {
    const words = new DocumentWords('Figure 1: Sensor sales. Figure 2: Plants.\nRevised March 2021 by Northwind. Sales rose in 2022.');
    const sure = model({ refuse: { bias: -9, weights: {} } });
    const ask = (question: string) =>
      new AnswerCalibrator({ model: sure }).calibrate(input({ absence: { missingTerms: 0, missingYears: 0, pagesOutOfRange: 0, lacks: documentLacks(question, words) } }));
    expect(ask('What does Figure 2 show?').refused).toBe(false);
    expect(ask('What does Figure 6 show?')).toMatchObject({ refused: true, reason: 'the document has no Figure 6', features: { missing_parts: 1 } });
    expect(ask('Who revised the report in May 2021?')).toMatchObject({ refused: true, reason: 'the document never writes a date in 2021-05', features: { missing_dates: 1 } });
    expect(ask('Who revised the report in March 2021?').refused).toBe(false);
  });

  it('declines a question about a multi-word name the document writes only as separate words, and says which', () => {
    const words = new DocumentWords('The Harbor Transit Authority runs the ferries. Bridge Works builds the piers. Ferry fares rose in 2022.');
    const sure = model({ refuse: { bias: -9, weights: {} } });
    const ask = (question: string) =>
      new AnswerCalibrator({ model: sure }).calibrate(input({ absence: { missingTerms: 0, missingYears: 0, pagesOutOfRange: 0, lacks: documentLacks(question, words) } }));
    expect(ask('Who runs the ferries of the Harbor Transit Authority?').refused).toBe(false);
    expect(ask('Who funds the Harbor Bridge Authority?')).toMatchObject({ refused: true, reason: 'the document never writes "harbor bridge authority" (only their words apart)' });
  });

  it('a model fitted before a feature existed (no weight for it) loads and weighs it 0', () => {
    const old = model({ answer: { bias: -1, weights: { reader_confidence: 3, missing_names: -2 } } });
    const words = new DocumentWords('Northwind Trading Company sold 1,200 sensors.');
    const lacks = documentLacks('How many sensors did Northwind Trading Company sell, of the 1,500 planned?', words);
    expect(lacks.missingNumbers).toEqual(['1500']);
    const c = new AnswerCalibrator({ model: old }).calibrate(input({ absence: { missingTerms: 0, missingYears: 0, pagesOutOfRange: 0, lacks } }));
    expect(c.features.missing_numbers).toBe(1);
    expect(c.pAnswer).toBeCloseTo(1 / (1 + Math.exp(-(-1 + 3 * 0.8))), 9);
  });

  it('a positive refuse margin answers more often', () => {
    const doubtful = input({ absence: { missingTerms: 0.6, missingYears: 0, pagesOutOfRange: 0 } });
    expect(new AnswerCalibrator({ model: model() }).calibrate(doubtful).refused).toBe(true);
    expect(new AnswerCalibrator({ model: model({ refuse_margin: 0.5 }) }).calibrate(doubtful).refused).toBe(false);
  });

  it('validates models: the shipped default, unknown features and other versions refused', () => {
    expect(parseAnswerCalibrationModel(DEFAULT_ANSWER_CALIBRATION_MODEL).format).toBe('doctree.answer-calibration');
    expect(() => parseAnswerCalibrationModel({ ...model(), answer: { bias: 0, weights: { toString: 1 } } })).toThrow(/unknown calibration feature/);
    expect(() => parseAnswerCalibrationModel({ ...model(), version: 2 })).toThrow(/not an answer calibration model/);
    expect(() => new AnswerCalibrator({ mode: 'sometimes' as 'apply' })).toThrow(/apply, lacks or record/);
  });
});
