import { extractNumberMentions, numbersMatch, parseNumericAnswer } from './numeric-match.js';

const one = (text: string) => {
  const m = parseNumericAnswer(text);
  if (!m) throw new Error(`not numeric: ${text}`);
  return m;
};

describe('extractNumberMentions', () => {
  it('reads currency, scale words, percents and accounting negatives, and skips years-in-words and codes', () => {
    const mentions = extractNumberMentions('FY2023 Q4 revenue of $2.1B, up 5% from 2022; capex (1,482) and -3.85% margin; 2M sold 2,018mn units');
    expect(mentions.map((m) => ({ text: m.text, value: m.value, percent: m.percent, year: m.yearLike }))).toEqual([
      { text: '$2.1B', value: 2.1e9, percent: false, year: false },
      { text: '5%', value: 5, percent: true, year: false },
      { text: '2022', value: 2022, percent: false, year: true },
      { text: '(1,482)', value: -1482, percent: false, year: false },
      { text: '-3.85%', value: -3.85, percent: true, year: false },
      { text: '2,018mn', value: 2.018e9, percent: false, year: false },
    ]);
  });

  it('does not read a range hyphen as a minus sign', () => {
    expect(extractNumberMentions('2015-2016').map((m) => m.value)).toEqual([2015, 2016]);
    expect(extractNumberMentions('pages 5 – 6').map((m) => m.value)).toEqual([5, 6]);
  });

  it('recognises a single-number answer and refuses a sentence with more', () => {
    expect(one('$1482.00').value).toBe(1482);
    expect(one('1.482 billion USD').value).toBeCloseTo(1.482e9, 0);
    expect(one('approximately 12.7%').percent).toBe(true);
    expect(parseNumericAnswer('Revenue grew 5% to $3 billion')).toBeUndefined();
    expect(parseNumericAnswer('The Real Growth was flat')).toBeUndefined();
  });
});

describe('numbersMatch', () => {
  it('matches $1482.00 with 1,482 million and 1.482 billion (implicit scale on the gold)', () => {
    expect(numbersMatch(one('$1482.00'), one('1,482 million'))).toBe(true);
    expect(numbersMatch(one('$1482.00'), one('$1.482 billion'))).toBe(true);
    expect(numbersMatch(one('$1482.00'), one('1482'))).toBe(true);
    expect(numbersMatch(one('1,482 million'), one('1.482 billion'))).toBe(true);
  });

  it('respects the relative tolerance (1 % by default)', () => {
    expect(numbersMatch(one('$7.90'), one('$7,934 million'))).toBe(true); // 0.43 % off
    expect(numbersMatch(one('$1482.00'), one('1,291 million'))).toBe(false);
    expect(numbersMatch(one('$1482.00'), one('1,504'))).toBe(false); // 1.5 % off
    expect(numbersMatch(one('$1482.00'), one('1,504'), { relativeTolerance: 0.02 })).toBe(true);
  });

  it('requires the same scale when both sides state one', () => {
    expect(numbersMatch(one('1,482 million'), one('1,482 thousand'))).toBe(false);
    expect(numbersMatch(one('$1482.00'), one('1,482 thousand'), { implicitScale: false })).toBe(false);
  });

  it('matches percents with fractions, and accounting parentheses by magnitude but not an explicit minus', () => {
    expect(numbersMatch(one('12.7%'), one('0.127'))).toBe(true);
    expect(numbersMatch(one('12.7%'), one('0.127'), { percentAsFraction: false })).toBe(false);
    expect(numbersMatch(one('$1482.00'), one('(1,482)'))).toBe(true);
    expect(numbersMatch(one('-3.85%'), one('3.85%'))).toBe(false);
  });
});
