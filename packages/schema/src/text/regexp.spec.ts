import { escapeRegExp } from './regexp.js';

describe('escapeRegExp', () => {
  it('makes a phrase with metacharacters match itself and nothing looser', () => {
    const phrase = 'Cost (net) + tax [2.5%] ^a|b$ \\ {x}?*';
    const pattern = new RegExp(`^${escapeRegExp(phrase)}$`);
    expect(pattern.test(phrase)).toBe(true);
    expect(new RegExp(escapeRegExp('a.b')).test('axb')).toBe(false);
  });
});
