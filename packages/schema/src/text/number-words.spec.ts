import { NUMBER_WORDS, numberWordSource, numberWordValue, numberWordsBetween } from './number-words.js';

describe('number words', () => {
  it('reads zero to twenty, the tens and hundred in any case', () => {
    expect(numberWordValue('Zero')).toBe(0);
    expect(numberWordValue('SEVENTEEN')).toBe(17);
    expect(numberWordValue('forty')).toBe(40);
    expect(numberWordValue('hundred')).toBe(100);
    expect(NUMBER_WORDS.size).toBe(29);
  });

  it('never answers a property of Object.prototype', () => {
    for (const word of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) expect(numberWordValue(word)).toBeUndefined();
  });

  it('lists a range of words in value order, as words or as a pattern source', () => {
    expect(numberWordsBetween(2, 5)).toEqual(['two', 'three', 'four', 'five']);
    const pattern = new RegExp(`\\b(${numberWordSource(1, 20)})\\b`, 'i');
    expect(pattern.exec('page Fourteen of the deck')?.[1]).toBe('Fourteen');
    expect(pattern.test('zero pages')).toBe(false);
  });
});
