import { splitSentences } from './sentences.js';

describe('splitSentences', () => {
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
});
