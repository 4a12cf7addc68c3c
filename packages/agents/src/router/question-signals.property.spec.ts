import fc from 'fast-check';
import { extractSignals, operandSides } from './question-signals.js';

// Generous bound: the machine is slow and shared.
const FAST_MS = 5000;

/** Random questions, long runs (letters, digits, spaces, punctuation), RTL text, combining marks, prototype names. */
const hostile = fc.oneof(
  fc.string({ maxLength: 300 }),
  fc.string({ unit: 'binary', maxLength: 300 }),
  fc
    // fast-check found `statement of ` × 20,000 (260k chars) taking over 5 s: `operandSides` tried
    // `\b(.+?)\s+as\s+an?\s+…` from every word start; a linear check for the phrase now comes first.
    .tuple(fc.constantFrom('a', '1', ' ', '.', '-', ',', '%', 'page ', 'table ', 'fig.', '1-', 'statement of ', 'ب', 'ש', 'e\u0301'), fc.integer({ min: 1, max: 20_000 }))
    .map(([c, n]) => c.repeat(n)),
  fc
    .array(fc.constantFrom('constructor', '__proto__', 'toString', 'valueOf', 'page', '3', 'to', '5', 'Table', 'II', 'last', 'slide', '%', 'millions', 'round', 'two', 'decimal', 'places', 'مرحبا', 'שלום', 'e\u0301'), { maxLength: 40 })
    .map((words) => words.join(' ')),
);

describe('extractSignals on hostile questions', () => {
  it('never throws and stays fast', () => {
    fc.assert(
      fc.property(hostile, fc.option(fc.integer({ min: 0, max: 500 }), { nil: undefined }), (question, pageCount) => {
        const start = Date.now();
        const signals = extractSignals(question, pageCount === undefined ? {} : { pageCount });
        expect(Date.now() - start).toBeLessThan(FAST_MS);
        expect(Array.isArray(signals.page_hints)).toBe(true);
        expect(Array.isArray(signals.keywords)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('reads a long many-word question fast (the counterexample fast-check found), and still finds `A as a share of B`', () => {
    const start = Date.now();
    expect(extractSignals('statement of '.repeat(20_000)).page_hints).toEqual([]);
    expect(Date.now() - start).toBeLessThan(FAST_MS);
    expect(operandSides('What was R&D expense as a percentage of revenue in 2023?')).toEqual({ operation: 'percent', sides: ['R&D expense', 'revenue'] });
  });

  it('handles a 1,000,000-letter question in linear time', () => {
    const start = Date.now();
    const signals = extractSignals(`What is on page 3 of ${'a'.repeat(1_000_000)}?`);
    expect(Date.now() - start).toBeLessThan(FAST_MS);
    expect(signals.page_hints).toEqual([3]);
  });
});
