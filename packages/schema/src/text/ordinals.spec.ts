import { ordinalValue, ordinalWordSource } from './ordinals.js';

describe('ordinals', () => {
  it('reads ordinal words up to twentieth and digit ordinals', () => {
    expect(ordinalValue('First')).toBe(1);
    expect(ordinalValue('twentieth')).toBe(20);
    expect(ordinalValue('41st')).toBe(41);
    expect(ordinalValue('3th')).toBe(3);
    expect(ordinalValue('constructor')).toBeUndefined();
  });

  it('limits words and checks digit suffixes when asked', () => {
    expect(ordinalValue('twelfth', { maxWord: 10 })).toBeUndefined();
    expect(ordinalValue('3th', { digits: 'strict' })).toBeUndefined();
    expect(ordinalValue('11th', { digits: 'strict' })).toBe(11);
    expect(ordinalValue('22nd', { digits: 'strict' })).toBe(22);
    expect(ordinalValue('2nd', { digits: 'none' })).toBeUndefined();
  });

  it('gives a pattern source of the words up to a bound', () => {
    const quarter = new RegExp(`\\b(${ordinalWordSource(4)})\\s+quarter\\b`, 'i');
    expect(quarter.exec('in the Third quarter')?.[1]).toBe('Third');
    expect(quarter.test('in the fifth quarter')).toBe(false);
  });
});
