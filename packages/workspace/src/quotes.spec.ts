import { isVerbatimQuote, MAX_QUOTE_WORDS, selectQuote, verbatimForm } from './quotes.js';
import { parseFilters } from './evidence.js';
import { DocTreeError } from '@doctree/schema';

describe('selectQuote', () => {
  it('takes the sentence that shares most of the question, verbatim', () => {
    const text = 'The board met twice.\n\nMembership fees rose to 240 euros per household. The market opens on Saturdays.';
    const quote = selectQuote(text, 'Why did membership fees rise?')!;
    expect(quote.text).toBe('Membership fees rose to 240 euros per household.');
    expect(text.slice(quote.start, quote.end)).toBe(quote.text);
  });

  it('cuts a long sentence to at most 60 words around the question terms', () => {
    const words = Array.from({ length: 150 }, (_, i) => (i === 120 ? 'compressor' : `w${i}`));
    const text = `${words.join(' ')}.`;
    const quote = selectQuote(text, 'compressor')!;
    expect(quote.text.split(' ').length).toBeLessThanOrEqual(MAX_QUOTE_WORDS);
    expect(quote.text).toContain('compressor');
    expect(isVerbatimQuote(quote.text, text)).toBe(true);
  });

  it('avoids a sentence with glyphs the text layer could not map when another one shares the question', () => {
    const text = 'The \u0019INANCIAL RESULTS show export sales of 52 crore.\nExport sales reached 52 crore in the year.';
    expect(selectQuote(text, 'export sales crore financial results')!.text).toBe('Export sales reached 52 crore in the year.');
    // With no clean sentence sharing the question, the best one is still quoted (and the pack warns).
    expect(selectQuote('Net sales \ue0b7 rose.', 'net sales')!.text).toBe('Net sales \ue0b7 rose.');
  });

  it('compares with another reading of the page after NFKC, soft hyphens out and whitespace collapsed', () => {
    expect(verbatimForm('the ﬁnal  re\u00adport\n of  the board ')).toBe('the final report of the board');
  });

  it('rejects a quote that is not in the source or too long', () => {
    expect(isVerbatimQuote('fees rose to 250 euros', 'fees rose to 240 euros')).toBe(false);
    expect(isVerbatimQuote(Array.from({ length: 61 }, () => 'a').join(' '), Array.from({ length: 61 }, () => 'a').join(' '))).toBe(false);
  });
});

describe('parseFilters', () => {
  it('reads years, ranges and several values', () => {
    expect(parseFilters('year=2019-2021,source_type=evidence,doc_uid=a|b')).toEqual({ year: { from: 2019, to: 2021 }, source_type: ['evidence'], doc_uid: ['a', 'b'] });
  });
  it('refuses an unknown key or a bad year with a usage error', () => {
    for (const bad of ['colour=red', 'year=20x1', 'year=2021-2019', 'source_type=']) {
      let error: unknown;
      try {
        parseFilters(bad);
      } catch (e) {
        error = e;
      }
      expect(DocTreeError.isInstance(error) && error.code === 'USAGE').toBe(true);
    }
  });
});
