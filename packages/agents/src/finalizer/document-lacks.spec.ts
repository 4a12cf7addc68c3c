import fc from 'fast-check';
import { DocumentWords, documentLacks, namesIn, yearsIn } from './document-lacks.js';

describe('documentLacks', () => {
  const words = new DocumentWords('Northwind Traders opened the Rotterdam centre in 2021. The X-200 sensor line (Coca-Cola\'s supplier) grew 8% in 2023.');

  it('lists the names and years the question asks about that the document never writes', () => {
    expect(documentLacks('What did Contoso report for the X-200 in 2022?', words)).toEqual({
      names: ['contoso', 'x-200'],
      missingNames: ['contoso'],
      years: [2022],
      missingYears: [2022],
      pagesOutOfRange: [],
    });
  });

  it('does not take periods, document parts, unit codes or known vocabulary for names', () => {
    expect(namesIn('What was the FY2023 Q3 EBITDA in USD shown in Table 2 of the 10K, on the 1st page?', new Set(['ebitda']))).toEqual([]);
  });

  it('finds names written with a typo, a possessive or a hyphen', () => {
    expect(documentLacks("Where is Nortwind's centre, and who supplies Coca Cola?", words).missingNames).toEqual([]);
  });

  it('leaves example years of format instructions out', () => {
    expect(yearsIn("Which years does the chart show? Format them like ['2006', '2007'].")).toEqual([]);
    expect(yearsIn('How did FY22 compare with 2019?')).toEqual([2019, 2022]);
  });

  it('names pages beyond the document', () => {
    expect(documentLacks('What is on page 12 and page 3?', words, { pages: [12, 3], pageCount: 10 }).pagesOutOfRange).toEqual([12]);
  });
});

describe('documentLacks on hostile questions', () => {
  const words = new DocumentWords(`${'Alpha Beta Gamma Delta '.repeat(20_000)}Northwind 2023`);

  it('never throws and stays bounded on random, long, RTL, combining and prototype-named questions', () => {
    const hostile = fc.oneof(
      fc.string({ maxLength: 300 }),
      fc.tuple(fc.constantFrom('Aaaaaaa ', 'X-1 ', 'Ω ', 'שלום ', 'e\u0301 ', 'Constructor ', '__proto__ '), fc.integer({ min: 1, max: 20_000 })).map(([c, n]) => `What is ${c.repeat(n)}?`),
    );
    fc.assert(
      fc.property(hostile, (question) => {
        const start = Date.now();
        const lacks = documentLacks(question, words, { pages: [1], pageCount: 3 });
        expect(Date.now() - start).toBeLessThan(5000);
        expect(lacks.names.length).toBeLessThanOrEqual(24);
      }),
      { numRuns: 60 },
    );
  });
});
