import { accuracyAndF1, anls, cleanAnswerString, isDeclinedAnswer, isExactMatchAnswer, isFloatEqual, levenshteinDistance, scoreMmLongBenchAnswer } from './mmlongbench-score.js';
import { pyFloat, pyFloatRepr, pyRound, pyStr } from './python-compat.js';

describe('Python compatibility helpers', () => {
  it('prints floats like Python str(float)', () => {
    expect(pyFloatRepr(93)).toBe('93.0');
    expect(pyFloatRepr(0.1)).toBe('0.1');
    expect(pyFloatRepr(-0.5)).toBe('-0.5');
    expect(pyFloatRepr(1e-5)).toBe('1e-05');
    expect(pyFloatRepr(1.5e-5)).toBe('1.5e-05');
    expect(pyFloatRepr(0.0001)).toBe('0.0001');
    expect(pyFloatRepr(1e16)).toBe('1e+16');
    expect(pyFloatRepr(123456789012345.6)).toBe('123456789012345.6');
  });

  it('rounds half to even on the exact binary value, like Python round()', () => {
    expect(pyRound(0.125, 2)).toBe(0.12);
    expect(pyRound(0.375, 2)).toBe(0.38);
    expect(pyRound(2.675, 2)).toBe(2.67); // 2.675 is stored as 2.67499999…
    expect(pyRound(-1.005, 2)).toBe(-1); // -1.00499999…
    expect(pyRound(2.5, 0)).toBe(2);
    expect(pyRound(3.5, 0)).toBe(4);
  });

  it('parses numbers like Python float()', () => {
    expect(pyFloat(' 12 ')).toBe(12);
    expect(pyFloat('1_000.5')).toBe(1000.5);
    expect(pyFloat('.5')).toBe(0.5);
    expect(pyFloat('5.')).toBe(5);
    expect(pyFloat('-inf')).toBe(-Infinity);
    expect(pyFloat('1,000')).toBeUndefined();
    expect(pyFloat('')).toBeUndefined();
    expect(pyFloat('12%')).toBeUndefined();
  });

  it('prints lists like Python str(list)', () => {
    expect(pyStr(['a', 2, 0.5, "it's"])).toBe(`['a', 2, 0.5, "it's"]`);
  });
});

describe('MMLongBench-Doc string rules', () => {
  it('computes Levenshtein distances and ANLS with the 0.5 threshold', () => {
    expect(levenshteinDistance('kitten', 'sitting')).toBe(3);
    expect(levenshteinDistance('', 'abc')).toBe(3);
    expect(anls('abc', 'abd')).toBeCloseTo(2 / 3, 10);
    expect(anls('abcd', 'ab')).toBe(0); // exactly 0.5 is not above the threshold
    expect(anls('ab', 'cd')).toBe(0);
    expect(anls('', '')).toBe(1);
    expect(anls('Abc', 'abc')).toBeCloseTo(2 / 3, 10); // case-sensitive: callers clean first
  });

  it('cleans answers like get_clean_string (units are not stripped, as upstream)', () => {
    expect(cleanAnswerString(' "$1,482 (millions)" ')).toBe('1,482');
    expect(cleanAnswerString('12.5%')).toBe('12.5');
    expect(cleanAnswerString("'Cold Brew'")).toBe('cold brew');
    expect(cleanAnswerString('375 miles')).toBe('375 miles');
    expect(cleanAnswerString('5 million')).toBe('5 million');
    expect(cleanAnswerString('$$5%%')).toBe('5');
    expect(cleanAnswerString(42)).toBe('42');
  });

  it('recognises the answers that need an exact match', () => {
    for (const s of ['https://w.wiki/6gb', 'workshop.ipynb', 'run.py', 'page 5', '12', '2015-2016', '555 1234', '10:30 a.m.', '2023-06-30', '2023-06', 'team@example.org']) {
      expect({ s, exact: isExactMatchAnswer(s) }).toEqual({ s, exact: true });
    }
    for (const s of ['cold brew', '12.5', '1,482', '2015 - 2016']) expect({ s, exact: isExactMatchAnswer(s) }).toEqual({ s, exact: false });
  });

  it('compares floats by precision, percentage and 1 % tolerance like is_float_equal', () => {
    expect(isFloatEqual(18.29, 0.1829, { includePercentage: true })).toBe(true);
    expect(isFloatEqual(18.29, 0.1829)).toBe(false);
    expect(isFloatEqual(93, 93.4)).toBe(false); // both round to 2 decimals: 93.0 vs 93.4
    expect(isFloatEqual(93, 93.4, { isClose: true })).toBe(true); // within 1 %
    expect(isFloatEqual(3.14159, 3.14)).toBe(true); // precision of the shorter one (2)
    expect(isFloatEqual(0.125, 0.12)).toBe(true); // round(0.125, 2) == 0.12 in Python
    expect(isFloatEqual(1.5, 'abc')).toBe(false);
  });
});

describe('scoreMmLongBenchAnswer', () => {
  it('Int: int(gold) == int(float(prediction))', () => {
    expect(scoreMmLongBenchAnswer('6', '6', 'Int')).toEqual({ score: 1, rule: 'int' });
    expect(scoreMmLongBenchAnswer('6', '6.7', 'Int').score).toBe(1); // truncation, as upstream
    expect(scoreMmLongBenchAnswer('6', 6, 'Int').score).toBe(1);
    expect(scoreMmLongBenchAnswer('6', '7', 'Int').score).toBe(0);
    expect(scoreMmLongBenchAnswer('6', 'six', 'Int').score).toBe(0);
    expect(scoreMmLongBenchAnswer('6', '6 figures', 'Int').score).toBe(0);
    expect(scoreMmLongBenchAnswer('6.0', '6', 'Int').score).toBe(0); // int('6.0') raises upstream
  });

  it('Float: cleaned, with percentages and 1 % tolerance', () => {
    expect(scoreMmLongBenchAnswer('$1482.00', '1482', 'Float')).toEqual({ score: 1, rule: 'float' });
    expect(scoreMmLongBenchAnswer('18.29%', '0.1829', 'Float').score).toBe(1);
    expect(scoreMmLongBenchAnswer('-3.85%', '-3.85', 'Float').score).toBe(1);
    expect(scoreMmLongBenchAnswer('-3.85%', '-3.8%', 'Float').score).toBe(0); // 1.3 % off, and 2-decimal rounding differs
    expect(scoreMmLongBenchAnswer('93', '93.5', 'Float').score).toBe(1); // 0.54 % off
    expect(scoreMmLongBenchAnswer('93', '1,482', 'Float').score).toBe(0); // not a float after cleaning
  });

  it('Float with a gold that is no number falls back to the Str rule (upstream crashes)', () => {
    expect(scoreMmLongBenchAnswer('1,482', '1,482', 'Float')).toEqual({ score: 1, rule: 'float-as-str' });
  });

  it('Str and None: exact match for exact-match answers, ANLS otherwise', () => {
    expect(scoreMmLongBenchAnswer('Cold brew', 'COLD BREW', 'Str')).toEqual({ score: 1, rule: 'str-anls' });
    expect(scoreMmLongBenchAnswer('Cold brew', 'Cold brews', 'Str').score).toBeCloseTo(0.9, 10);
    expect(scoreMmLongBenchAnswer('2015-2016', '2015–2016', 'Str')).toEqual({ score: 0, rule: 'str-exact' });
    expect(scoreMmLongBenchAnswer('https://w.wiki/6gb', 'https://w.wiki/6gB', 'Str').score).toBe(1); // lower-cased
    expect(scoreMmLongBenchAnswer('Not answerable', 'not answerable', 'None')).toEqual({ score: 1, rule: 'none-anls' });
    expect(scoreMmLongBenchAnswer('Not answerable', 'The report does not say', 'None').score).toBe(0);
  });

  it('List: literals parsed, lengths compared, items sorted, numbers exact, strings by the minimum ANLS', () => {
    expect(scoreMmLongBenchAnswer("['Circle', 'Rectangle']", ['rectangle', 'circle'], 'List')).toEqual({ score: 1, rule: 'list-anls' });
    expect(scoreMmLongBenchAnswer("['3', '2', '3']", "['3', '3', '2']", 'List')).toEqual({ score: 1, rule: 'list-exact' });
    expect(scoreMmLongBenchAnswer("['3', '2', '3']", "['3', '2', '2']", 'List').score).toBe(0);
    expect(scoreMmLongBenchAnswer("['3', '2']", "['3']", 'List')).toEqual({ score: 0, rule: 'list-length' });
    const partial = scoreMmLongBenchAnswer("['Industrial Business', 'Consumer Business']", ['Industrial Busines', 'Consumer Business'], 'List');
    expect(partial.score).toBeCloseTo(1 - 1 / 19, 10);
    expect(scoreMmLongBenchAnswer("['5.3%', '5.2%']", ['5.2', '5.3'], 'List').score).toBe(1); // % stripped by cleaning
    expect(scoreMmLongBenchAnswer('[]', [], 'List').score).toBe(1); // upstream IndexError
    expect(scoreMmLongBenchAnswer('Circle', 'circle', 'List').score).toBe(1); // a non-list is a one-item list
    expect(scoreMmLongBenchAnswer("['a', 'b']", "['a', 'b'", 'List').score).toBe(0); // not a literal: one item
  });
});

describe('accuracyAndF1', () => {
  it('matches eval_acc_and_f1 on a hand-computed case', () => {
    const { accuracy, f1 } = accuracyAndF1([
      { score: 1, goldAnswerable: true, predictionAnswered: true },
      { score: 0, goldAnswerable: true, predictionAnswered: true },
      { score: 1, goldAnswerable: false, predictionAnswered: false },
      { score: 0.5, goldAnswerable: true, predictionAnswered: false },
    ]);
    expect(accuracy).toBeCloseTo(0.625, 10); // 2.5 / 4
    // recall = 1.5 / 3 = 0.5, precision = 1.5 / 2 = 0.75, F1 = 2·0.5·0.75 / 1.25 = 0.6
    expect(f1).toBeCloseTo(0.6, 10);
  });

  it('gives F1 0 when nothing was answered or nothing is answerable, and zeros for no samples', () => {
    expect(accuracyAndF1([{ score: 1, goldAnswerable: false, predictionAnswered: false }])).toEqual({ accuracy: 1, f1: 0 });
    expect(accuracyAndF1([{ score: 0, goldAnswerable: true, predictionAnswered: false }])).toEqual({ accuracy: 0, f1: 0 });
    expect(accuracyAndF1([])).toEqual({ accuracy: 0, f1: 0 });
  });

  it('treats "Not answerable" in any case, quoted or with a full stop as declining', () => {
    expect(isDeclinedAnswer('Not answerable')).toBe(true);
    expect(isDeclinedAnswer('"not answerable."')).toBe(true);
    expect(isDeclinedAnswer('It is not answerable from page 3')).toBe(false);
  });
});
