import { ownTable, setOwn } from './own-keys.js';

describe('own-key dictionaries', () => {
  it('ownTable answers only its own entries, whatever word is looked up, and cannot be changed', () => {
    const table = ownTable({ '%': 'percent' });
    expect(table['%']).toBe('percent');
    for (const word of ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf']) expect(table[word]).toBeUndefined();
    expect(Object.isFrozen(table)).toBe(true);
  });

  it('setOwn stores __proto__ and other Object.prototype names as own data, leaving the prototype alone', () => {
    const map: Record<string, string> = {};
    for (const word of ['__proto__', 'constructor', 'toString']) setOwn(map, word, `id-${word}`);
    expect(Object.getPrototypeOf(map)).toBe(Object.prototype);
    expect(Object.keys(map)).toEqual(['__proto__', 'constructor', 'toString']);
    expect(JSON.parse(JSON.stringify(map))).toEqual({ ['__proto__']: 'id-__proto__', constructor: 'id-constructor', toString: 'id-toString' });
  });
});
