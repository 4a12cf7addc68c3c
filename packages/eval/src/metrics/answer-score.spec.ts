import { extractAnswerForFormat, scoreAnswer, scoreOpenAnswer } from './answer-score.js';

describe('extractAnswerForFormat (rule-based stand-in for the LLM extraction step)', () => {
  it('takes the first number of a sentence for Int and Float, and number words up to twenty for Int', () => {
    expect(extractAnswerForFormat('There are 6 figures.', 'Int')).toBe('6');
    expect(extractAnswerForFormat('six', 'Int')).toBe('6');
    expect(extractAnswerForFormat('1,482 million', 'Float')).toBe('1482');
    expect(extractAnswerForFormat('Capex was (1,482)', 'Float')).toBe('1482'); // accounting parentheses: magnitude
    expect(extractAnswerForFormat('a decline of -3.85%', 'Float')).toBe('-3.85');
    expect(extractAnswerForFormat('12.5%', 'Float')).toBe('12.5%'); // already a number after cleaning: unchanged
    expect(extractAnswerForFormat(7, 'Int')).toBe(7);
    expect(extractAnswerForFormat('no number here', 'Int')).toBe('no number here');
  });

  it('splits plain-text lists and leaves literals, arrays, strings and refusals alone', () => {
    expect(extractAnswerForFormat('Circle, Rectangle and Triangle', 'List')).toEqual(['Circle', 'Rectangle', 'Triangle']);
    expect(extractAnswerForFormat('1,482; 2,000', 'List')).toEqual(['1,482', '2,000']);
    expect(extractAnswerForFormat("['a', 'b']", 'List')).toBe("['a', 'b']");
    expect(extractAnswerForFormat(['a'], 'List')).toEqual(['a']);
    expect(extractAnswerForFormat('Cold brew, mostly', 'Str')).toBe('Cold brew, mostly');
    expect(extractAnswerForFormat('Not answerable', 'Int')).toBe('Not answerable');
  });
});

describe('scoreOpenAnswer (FinanceBench-style)', () => {
  it('numeric golds: some number of the prediction must match with units and scale, years ignored', () => {
    expect(scoreOpenAnswer('$1482.00', '1,482 million')).toEqual({ score: 1, rule: 'numeric' });
    expect(scoreOpenAnswer('$1482.00', '1.482 billion').score).toBe(1);
    expect(scoreOpenAnswer('$1482.00', 'Capital expenditure was $1,482 million in FY2018.').score).toBe(1);
    expect(scoreOpenAnswer('$1482.00', 'In 2018 it was 1,291 million').score).toBe(0);
    expect(scoreOpenAnswer('$1482.00', 'Not answerable').score).toBe(0);
    expect(scoreOpenAnswer('2019', 'The plan started in 2019').score).toBe(1); // a year gold compares years
  });

  it('yes/no golds compare the leading word', () => {
    expect(scoreOpenAnswer('No, the company is managing its CAPEX efficiently', 'No. Capex is 5% of revenue.')).toEqual({ score: 1, rule: 'yes-no' });
    expect(scoreOpenAnswer('Yes, gross margin rose', 'No').score).toBe(0);
    expect(scoreOpenAnswer('Yes, gross margin rose', 'Gross margin rose').score).toBe(0);
  });

  it('sentence golds with amounts need every amount (not years) in the prediction', () => {
    const gold = "Northwind's Adj. EBITDA was $1,847mn in FY 2023";
    expect(scoreOpenAnswer(gold, 'Adjusted EBITDA: $1.847 billion')).toEqual({ score: 1, rule: 'key-numbers' });
    expect(scoreOpenAnswer(gold, 'It was 1,847 in 2023').score).toBe(1); // gold scale implicit on the prediction side
    expect(scoreOpenAnswer(gold, 'Adjusted EBITDA grew in FY 2023').score).toBe(0);
    expect(scoreOpenAnswer('Margins were 38.0% and 41.2%', 'margin went from 38% to 41.2%').score).toBe(1);
    expect(scoreOpenAnswer('Margins were 38.0% and 41.2%', 'margin reached 41.2%').score).toBe(0);
  });

  it('other golds: whole-word containment, else ANLS', () => {
    expect(scoreOpenAnswer('flat', 'Real growth was flat year over year')).toEqual({ score: 1, rule: 'text' });
    expect(scoreOpenAnswer('flat', 'inflation')).toEqual({ score: 0, rule: 'text' });
    expect(scoreOpenAnswer('The Organic Volume was flat in FY 2023 vs FY 2022.', 'The organic volume was flat in FY 2023 vs FY 2022').score).toBeGreaterThan(0.9);
  });
});

describe('scoreAnswer', () => {
  it('dispatches on the answer format, extracts first, and reports whether the prediction declined', () => {
    expect(scoreAnswer({ answer: '6', answer_format: 'Int' }, 'There are 6 figures')).toEqual({ score: 1, rule: 'int', scoredAnswer: '6', answered: true });
    expect(scoreAnswer({ answer: '6', answer_format: 'Int' }, 'There are 6 figures', { extract: false }).score).toBe(0);
    expect(scoreAnswer({ answer: '$1482.00', answer_format: null }, '1.482 billion')).toMatchObject({ score: 1, rule: 'numeric' });
    expect(scoreAnswer({ answer: 'Not answerable', answer_format: 'None', answerable: false }, 'Not answerable')).toEqual({ score: 1, rule: 'none-anls', scoredAnswer: 'Not answerable', answered: false });
    expect(scoreAnswer({ answer: 'Not answerable', answer_format: 'None', answerable: false }, '42').score).toBe(0);
    expect(scoreAnswer({ answer: "['Circle', 'Rectangle']", answer_format: 'List' }, 'rectangle and circle').score).toBe(1);
  });

  it('scores an unanswerable open question with the None rule', () => {
    expect(scoreAnswer({ answer: 'Not answerable', answer_format: null, answerable: false }, 'not answerable')).toMatchObject({ score: 1, rule: 'none-anls', answered: false });
  });
});
