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

describe('DocumentWords of a long document', () => {
  it('built in slices (with a pause between them) knows the same words and years as built in one go', async () => {
    const pieces = ['Rotterdam', 'ΣΟΦΟΣ', 'Coca-Cola’s', '1999', '$2019', '2,020', 'FY2018', '(2021)', '2022.', '1850s', 'x'];
    const spaces = [' ', '\n', '  \t', '\n\n   '];
    let text = '';
    for (let i = 0; text.length < 400_000; i++) text += pieces[(i * 5) % pieces.length]! + spaces[(i * 3) % spaces.length]!;
    text += 'Zephyrine 2024';
    let pauses = 0;
    const sliced = await DocumentWords.create(text, async () => {
      pauses++;
    });
    const whole = new DocumentWords(text);
    expect(pauses).toBeGreaterThan(2 * Math.floor(400_000 / 65_536));
    for (const word of ['rotterdam', 'σοφος', 'σοφοσ', "coca-cola's", 'coca', 'zephyrine', 'zephyrin', 'fy2018', 'amsterdam']) expect(sliced.has(word)).toBe(whole.has(word));
    expect(sliced.has('zephyrine')).toBe(true);
    const lacks = (words: DocumentWords) => documentLacks('What happened in 1850, 1999, 2018, 2019, 2020, 2021, 2022 and 2024 at Zephyrine?', words);
    expect(lacks(sliced)).toEqual(lacks(whole));
    expect(lacks(whole).missingYears).toEqual([2018, 2019, 2020]); // `1850s` writes 1850; `$2019`, `2,020`, `FY2018` are no years
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
