import fc from 'fast-check';
import { analyzeQuery, analyzeText } from './sparse-analyzer.js';

// Generous bound: the machine is slow and shared; linear runs take milliseconds.
const FAST_MS = 5000;

const timed = (run: () => void): number => {
  const start = Date.now();
  run();
  return Date.now() - start;
};

/** Random text, long runs (letters, digits, spaces, punctuation), RTL text, combining marks and Object.prototype names. */
const hostile = fc.oneof(
  fc.string({ maxLength: 200 }),
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc
    .tuple(fc.constantFrom('a', '1', ' ', '.', '-', ',', "'", '&', '1.', 'a-', 'a.', '1,', 'ب', 'ש', 'e\u0301', '漢', '$', 'ii '), fc.integer({ min: 1, max: 20_000 }))
    .map(([c, n]) => c.repeat(n)),
  fc
    .array(fc.constantFrom('constructor', '__proto__', 'toString', 'valueOf', 'hasOwnProperty', 'Table', 'II', 'Fig.', '3a', 'مرحبا', 'שלום', 'e\u0301', '%', '1,482.5'), { maxLength: 40 })
    .map((words) => words.join(' ')),
);

describe('sparse analyzer on hostile text', () => {
  it('analyses a 1,000,000-letter word in linear time, as one term', () => {
    const word = 'a'.repeat(1_000_000);
    let terms: string[] = [];
    let query: string[] = [];
    const ms = timed(() => {
      terms = analyzeText(`Revenue ${word} grew`);
      query = analyzeQuery(word);
    });
    expect(ms).toBeLessThan(FAST_MS);
    expect(terms).toHaveLength(3);
    expect(terms[1]).toHaveLength(1_000_000);
    expect(query).toEqual([word]);
  });

  it('stays linear on a million characters of digits, dotted numbers, hyphenated pieces, acronyms and RTL letters', () => {
    for (const run of ['1'.repeat(1_000_000), '1.'.repeat(500_000) + 'a', 'a-'.repeat(500_000), 'a.'.repeat(500_000) + '1', 'ب'.repeat(1_000_000), ' '.repeat(1_000_000)]) {
      const ms = timed(() => {
        expect(analyzeText(run)).toEqual(expect.any(Array));
        expect(analyzeQuery(run)).toEqual(expect.any(Array));
      });
      expect(ms).toBeLessThan(FAST_MS);
    }
  });

  it('never throws, returns strings and stays fast on random, long, RTL, combining and prototype-named text', () => {
    fc.assert(
      fc.property(hostile, (text) => {
        let terms: string[] = [];
        let query: string[] = [];
        const ms = timed(() => {
          terms = analyzeText(text);
          query = analyzeQuery(text);
        });
        expect(ms).toBeLessThan(FAST_MS);
        expect(terms.every((t) => typeof t === 'string' && t.length > 0)).toBe(true);
        expect(query.every((t) => typeof t === 'string' && t.length > 0)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('treats Object.prototype names as plain words', () => {
    expect(analyzeText('constructor __proto__ toString')).toEqual(expect.arrayContaining(['constructor']));
    expect(() => analyzeQuery('__proto__ hasOwnProperty valueOf')).not.toThrow();
  });
});
