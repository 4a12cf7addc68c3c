import { MONTH_NAMES, MONTH_WORDS, monthNumber, monthWordSource } from './months.js';

describe('month vocabulary', () => {
  it('reads full names, three-letter abbreviations and sept, in any case', () => {
    expect(MONTH_NAMES).toHaveLength(12);
    expect(monthNumber('March')).toBe(3);
    expect(monthNumber('SEPT')).toBe(9);
    expect(monthNumber('dec')).toBe(12);
    expect(monthNumber('may')).toBe(5);
    expect(monthNumber('mayday')).toBeUndefined();
    expect(MONTH_WORDS.size).toBe(24);
  });

  it('gives an alternation that finds the longest word of a month first', () => {
    expect(monthWordSource(9)).toBe('september|sept|sep');
    expect(new RegExp(`^(?:${monthWordSource()})$`, 'i').test('November')).toBe(true);
    expect(new RegExp(`\\b(${monthWordSource()})\\b`, 'i').exec('due by September 30')?.[1]).toBe('September');
  });
});
