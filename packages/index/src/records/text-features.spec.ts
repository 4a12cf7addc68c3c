import fc from 'fast-check';
import { contentWords, cosine, cosineWithNorms, keywordsOfFrequencies, SliceTermCounter, squaredNorm, termFrequencies, topKeywords } from './text-features.js';

// The one-pass readers must give exactly what the definitions below give: index files are compared byte for byte.

/** termFrequencies as defined before the one-pass reader: content words without number tokens. */
function referenceTermFrequencies(text: string): Map<string, number> {
  const tf = new Map<string, number>();
  for (const w of contentWords(text)) if (!/^[0-9.,]+$/.test(w)) tf.set(w, (tf.get(w) ?? 0) + 1);
  return tf;
}

/** topKeywords as defined before the top-k selection: every term scored and sorted. */
function referenceKeywords(tf: Map<string, number>, k: number, df?: Map<string, number>, docs = 1): string[] {
  return [...tf]
    .map(([w, f]) => [w, (1 + Math.log(f)) * Math.log(1 + docs / (1 + (df?.get(w) ?? 0)))] as const)
    .sort((x, y) => y[1] - x[1] || x[0].localeCompare(y[0]))
    .slice(0, k)
    .map(([w]) => w);
}

/** Text made of pieces that sit on the edges of the term pattern: inner `&'-`, numbers, upper case, non-ASCII letters. */
const wordyText = fc
  .array(
    fc.oneof(
      fc.constantFrom('Revenue', 'the', 'AT&T', "company's", 'state-of-the-art', 'a-', "b'", '-c', 'x&', '10-K', '3M', 'Q4', 'FY2023', 'e.g.', '1,482.50', '1.2.3'),
      fc.constantFrom('İstanbul', 'K', 'Å', 'ß', 'Σ', 'ﬁnal', 'café', 'naïve', 'Ⅻ', '²', 'ǅ', 'ﬀ'),
      fc.constantFrom(' ', '\n', '\t', '.', ',', ';', '(', ')', '’', '—', '\u00a0', '&', "'", '-'),
      fc.string({ maxLength: 8 }),
    ),
    { maxLength: 60 },
  )
  .map((parts) => parts.join(''));

describe('termFrequencies', () => {
  it('counts the content words of the pattern, numbers left out, keys in order of first occurrence', () => {
    expect([...termFrequencies('Revenue of AT&T grew; revenue 1,482.5 in FY2023 (state-of-the-art-)')]).toEqual([
      ['revenue', 2],
      ['at&t', 1],
      ['grew', 1],
      ['fy2023', 1],
      ['state-of-the-art', 1],
    ]);
  });

  it('gives exactly the pattern-based counts on random and edge-case text', () => {
    fc.assert(
      fc.property(fc.oneof(wordyText, fc.string({ maxLength: 200 }), fc.string({ unit: 'binary', maxLength: 200 })), (text) => {
        expect([...termFrequencies(text)]).toEqual([...referenceTermFrequencies(text)]);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('cosine with known norms', () => {
  it('is the same number as cosine, in both directions', () => {
    fc.assert(
      fc.property(wordyText, wordyText, (x, y) => {
        const a = termFrequencies(x);
        const b = termFrequencies(y);
        expect(cosineWithNorms(a, squaredNorm(a), b, squaredNorm(b))).toBe(cosine(a, b));
        expect(cosineWithNorms(b, squaredNorm(b), a, squaredNorm(a))).toBe(cosine(b, a));
      }),
      { numRuns: 500 },
    );
  });
});

describe('keywords', () => {
  it('ranks by tf-idf, ties by word', () => {
    const df = new Map([['revenue', 9]]);
    expect(topKeywords('revenue revenue margin cash cash cash', 2, df, 10)).toEqual(['cash', 'margin']);
  });

  it('keeps the first k of a stable sort of every term, ties and odd k included', () => {
    const words = fc.constantFrom('alpha', 'beta', 'gamma', 'delta', 'a-b', "o'neil", 'r&d', 'zeta', 'eta', 'theta', 'iota', 'kappa', 'Beta', 'b');
    fc.assert(
      fc.property(
        fc.array(fc.tuple(words, fc.integer({ min: 1, max: 4 })), { maxLength: 30 }),
        fc.array(fc.tuple(words, fc.integer({ min: 0, max: 3 })), { maxLength: 10 }),
        fc.constantFrom(0, 1, 3, 8, 50, -2, 2.5, Infinity),
        fc.integer({ min: 1, max: 20 }),
        (entries, dfEntries, k, docs) => {
          const tf = new Map(entries);
          const df = new Map(dfEntries);
          expect(keywordsOfFrequencies(tf, k, df, docs)).toEqual(referenceKeywords(tf, k, df, docs));
          expect(keywordsOfFrequencies(tf, k)).toEqual(referenceKeywords(tf, k));
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe('term frequencies of slices of one text', () => {
  it('relies on lower-casing keeping positions: only İ changes length, and no character shrinks', () => {
    const changed: number[] = [];
    for (let c = 0; c <= 0x10ffff; c++) {
      if (c >= 0xd800 && c <= 0xdfff) continue;
      const s = String.fromCodePoint(c);
      if (s.toLowerCase().length !== s.length) changed.push(c);
    }
    expect(changed).toEqual([0x130]);
  });

  it('gives termFrequencies of every slice, cut anywhere (clean cuts read from the whole text, others alone)', () => {
    fc.assert(
      fc.property(fc.oneof(wordyText, fc.string({ maxLength: 120 })), fc.array(fc.tuple(fc.nat(), fc.nat()), { minLength: 1, maxLength: 12 }), (text, cuts) => {
        const counter = new SliceTermCounter(text);
        for (const [a, b] of cuts) {
          const start = a % (text.length + 2);
          const end = start + (b % (text.length + 2));
          expect([...counter.termFrequencies(start, end)]).toEqual([...termFrequencies(text.slice(start, end))]);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('reads nested sections of a long text from one pass', () => {
    const text = 'Revenue grew. Costs fell (AT&T). '.repeat(50);
    const counter = new SliceTermCounter(text);
    expect([...counter.termFrequencies(0, text.length)]).toEqual([...termFrequencies(text)]);
    expect([...counter.termFrequencies(14, 33)]).toEqual([
      ['costs', 1],
      ['fell', 1],
      ['at&t', 1],
    ]);
  });
});
