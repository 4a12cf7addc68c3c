import { sentenceSpans, splitSentences } from './sentences.js';

const sentences = (text: string, options?: Parameters<typeof sentenceSpans>[1]): string[] => sentenceSpans(text, options).map((s) => text.slice(s.start, s.end));

describe('sentences', () => {
  it('splits at sentence ends before capitals, digits and quotes', () => {
    expect(splitSentences('Sales rose. 2023 was good! "Next" came? yes.')).toEqual(['Sales rose.', '2023 was good!', '"Next" came? yes.']);
  });

  it('keeps abbreviations and decimals inside a sentence and normalises whitespace', () => {
    expect(splitSentences('See Fig. 3 and e.g. Table 2.\n\nMargins were 4.2 percent. The U.S. grew.')).toEqual([
      'See Fig. 3 and e.g. Table 2.',
      'Margins were 4.2 percent.',
      'The U.S. grew.',
    ]);
    expect(splitSentences('   ')).toEqual([]);
  });

  it('gives exact spans of the text, without surrounding whitespace', () => {
    const text = '  First one.\n  Second one.  ';
    expect(sentenceSpans(text)).toEqual([
      { start: 2, end: 12 },
      { start: 15, end: 26 },
    ]);
  });

  it('splits evidence at line breaks, after closing quotes and before amounts, not after initials or approx.', () => {
    const evidence = { lineBreaks: true, closingQuotes: true, moneyStarts: true, abbreviations: 'evidence', initials: true } as const;
    const text = 'Revenue | 482.6\nJ. Smith said “sales rose.” $5 million was paid for approx. 12 units. See p. 4 next';
    expect(sentences(text, evidence)).toEqual(['Revenue | 482.6', 'J. Smith said “sales rose.”', '$5 million was paid for approx. 12 units.', 'See p. 4 next']);
    expect(sentences(text)).toEqual(['Revenue | 482.6\nJ.', 'Smith said “sales rose.” $5 million was paid for approx. 12 units.', 'See p.', '4 next']);
  });

  it('splits CJK text at full-width stops, keeping the closing brackets after them, only when asked', () => {
    const text = '港口合作社成立了。会员费上涨！为什么？他说：“结束了。”下一句';
    expect(sentences(text, { cjkStops: true })).toEqual(['港口合作社成立了。', '会员费上涨！', '为什么？', '他说：“结束了。”', '下一句']);
    expect(sentences(text)).toEqual([text]);
  });

  it('with anyStart and closing-mark runs, ends a sentence before any word, reading abbreviations before the marks', () => {
    const options = { anyStart: true, closingQuotes: 'runs', abbreviations: 'sources', initials: true } as const;
    const text = 'it rose (see above.)” then fell. and so on (etc.) more. Rs. 40 was paid.';
    expect(sentences(text, options)).toEqual(['it rose (see above.)”', 'then fell.', 'and so on (etc.) more.', 'Rs. 40 was paid.']);
    expect(sentences(text)).toEqual(['it rose (see above.)” then fell. and so on (etc.) more.', 'Rs.', '40 was paid.']);
    expect(sentences('It cost Rs. 40. Next', { abbreviations: 'sources' })).toEqual(['It cost Rs. 40.', 'Next']);
    expect(sentences('It cost Rs. 40. Next')).toEqual(['It cost Rs.', '40.', 'Next']);
  });
});
