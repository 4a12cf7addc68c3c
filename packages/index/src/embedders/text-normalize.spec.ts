import { ENGLISH_STOPWORDS, normalizeNumber, normalizeText, tokenize, wordTokens } from './text-normalize.js';

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
});
