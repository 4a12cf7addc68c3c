import fc from 'fast-check';
import { ENGLISH_STOPWORDS, PLAIN_SEPARATORS, normalizeNumber, normalizeText, tokenize, wordTokens } from './text-normalize.js';

/** wordTokens without the plain-text path: the definition the word vectors were built with. */
const referenceWordTokens = (text: string): string[] =>
  Array.from(normalizeText(text).replace(/’/g, "'").matchAll(/\p{L}+(?:['’-]\p{L}+)*|\p{N}+(?:[.,]\p{N}+)*|[%$]/gu), (m) => m[0]);

describe('text normalisation', () => {
  it('lower-cases, strips accents and folds compatibility forms', () => {
    expect(normalizeText('Café DÉJÀ ﬁnal Ｆｕｌｌ')).toBe('cafe deja final full');
  });

  it('keeps numbers as normalised tokens and keeps % and $', () => {
    expect(tokenize('Net sales: $1,482.00 million, up 5.0% (2018)')).toEqual(['net', 'sales', '$', '1482', 'million', 'up', '5', '%', '2018']);
    expect(tokenize('Form 10-K, Q4 FY2023')).toEqual(['form', '10', 'k', 'q', '4', 'fy', '2023']);
    expect(normalizeNumber('12.50')).toBe('12.5');
    expect(normalizeNumber('1.2.3')).toBe('1.2.3');
    expect(normalizeNumber('0.0')).toBe('0');
  });

  it('tokenises nothing from empty or punctuation-only text', () => {
    expect(tokenize('')).toEqual([]);
    expect(tokenize(' —, .; ')).toEqual([]);
  });

  it('keeps hyphenated words and clitics for word-vector lookup', () => {
    expect(wordTokens("The company’s state-of-the-art plant isn't new")).toEqual(['the', "company's", 'state-of-the-art', 'plant', "isn't", 'new']);
  });

  it('has an English stopword list', () => {
    expect(ENGLISH_STOPWORDS.has('the')).toBe(true);
    expect(ENGLISH_STOPWORDS.has('revenue')).toBe(false);
  });

  it('reads plain text (ASCII and a few separators) by lower-casing alone, with the same tokens', () => {
    // Each plain separator (and ’, read as an apostrophe) is its own NFKD form, no mark, its own lower case, and no letter, number or pattern character.
    for (const c of [...PLAIN_SEPARATORS, '’']) {
      expect(c.normalize('NFKD')).toBe(c);
      expect(c.toLowerCase()).toBe(c);
      expect(/\p{M}/u.test(c)).toBe(false);
      expect(/[\p{L}\p{N}'\-.,%$]/u.test(c)).toBe(false);
    }
    const pieces = fc.constantFrom('Revenue', 'ÉTÉ', 'ﬁnal', 'e\u0301', 'İ', 'K', 'company’s', "isn't", 'state-of-the-art', '1,482.50', '$', '%', ' ', '\n', ...PLAIN_SEPARATORS, '\u00a0', '…', '™', 'ǅ', '²');
    fc.assert(
      fc.property(fc.oneof(fc.array(pieces, { maxLength: 30 }).map((p) => p.join('')), fc.string({ maxLength: 100 })), (text) => {
        expect(wordTokens(text)).toEqual(referenceWordTokens(text));
      }),
      { numRuns: 3000 },
    );
  });
});

