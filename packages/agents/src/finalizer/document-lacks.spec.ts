import fc from 'fast-check';
import { DocumentWords, datesIn, documentLacks, namesIn, numbersIn, phrasesIn, yearsIn } from './document-lacks.js';

describe('documentLacks', () => {
  const words = new DocumentWords('Northwind Traders opened the Rotterdam centre in 2021. The X-200 sensor line (Coca-Cola\'s supplier) grew 8% in 2023.');

  it('lists the names and years the question asks about that the document never writes', () => {
    expect(documentLacks('What did Contoso report for the X-200 in 2022?', words)).toEqual({
      names: ['contoso', 'x-200'],
      missingNames: ['contoso'],
      years: [2022],
      missingYears: [2022],
      pagesOutOfRange: [],
      parts: [],
      missingParts: [],
      phrases: [],
      missingPhrases: [],
      dates: [],
      missingDates: [],
      numbers: [],
      missingNumbers: [],
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

describe('documentLacks: names', () => {
  const words = new DocumentWords('Being the first mover, Northwind Traders (formerly Contoso Foods) opened its Rotterdam hub, being close to buyers. Widgets sold well.');

  it('does not take a lower-case word one typo away for a name (only a name of the document, or a plural)', () => {
    expect(documentLacks('How many units did Beling ship?', words).missingNames).toEqual(['beling']);
    expect(documentLacks('How many units did Nortwind ship from Rotterdam?', words).missingNames).toEqual([]);
    expect(documentLacks('Which Widget sold best?', words).missingNames).toEqual([]);
  });

  it('reads no names in a question written in capitals, nor in a date format mask', () => {
    expect(namesIn('WHICH QUARTER CLOSED THE SUMMARY PERIOD?')).toEqual([]);
    expect(namesIn('When did the hub open? Reply in the form YYYY-MM-DD')).toEqual([]);
  });

  it('a name given with another one is missing only when the document writes neither', () => {
    expect(documentLacks('What did Fabrikam (formerly known as Contoso) report?', words).missingNames).toEqual([]);
    expect(documentLacks('What did Fabrikam (formerly known as Tailspin) report?', words).missingNames).toEqual(['fabrikam', 'tailspin']);
  });
});

describe('documentLacks: labelled parts', () => {
  const paper = new DocumentWords(
    'Figure 1: The pipeline.\nAs Fig. 2 shows, recall rises.\n1 Introduction\nWe study sensors.\n3 Method\n3.2 Results\nTable I: Accuracy.\nTables II–IV list the ablations.\nAppendix C gives the prompts.',
  );

  it('names the figures, tables and sections the document never labels', () => {
    expect(documentLacks('What do Figure 2 and Figure 7 show?', paper)).toMatchObject({ parts: ['Figure 2', 'Figure 7'], missingParts: ['Figure 7'] });
    expect(documentLacks('What is the best score in Table 3?', paper).missingParts).toEqual([]); // inside "Tables II–IV"
    expect(documentLacks('What is the best score in Table 1?', paper).missingParts).toEqual([]); // written "Table I"
    expect(documentLacks('What does Table V report?', paper).missingParts).toEqual(['Table V']);
    expect(documentLacks('Summarise Section 3.2.', paper).missingParts).toEqual([]); // a numbered heading
    expect(documentLacks('Summarise Section 5.4.', paper).missingParts).toEqual(['Section 5.4']);
    expect(documentLacks('What prompts does Appendix C give? And Appendix F?', paper).missingParts).toEqual(['Appendix F']);
  });

  it('does not call a part missing when the document labels nothing of its kind (its captions may be images)', () => {
    const brochure = new DocumentWords('Northwind opened a hub in Rotterdam. The chart below shows sales.');
    expect(documentLacks('What does Figure 4 show?', brochure)).toMatchObject({ parts: ['Figure 4'], missingParts: [] });
  });
});

describe('documentLacks: multi-word names', () => {
  const words = new DocumentWords(
    'The Oregon Bureau of Forestry and the Office of Energy signed with Northwind Trading Companies. Fisheries Park hosts the lab. ' +
      'Its interest coverage ratio rose.\n| Service | Northwind |\n| Component Type | 2021 |',
  );

  it('names a name whose words the document writes, but never together', () => {
    expect(phrasesIn('Where is the Oregon Bureau of Fisheries based?')).toEqual([['oregon', 'bureau', 'of', 'fisheries']]);
    expect(documentLacks('Where is the Oregon Bureau of Fisheries based?', words).missingPhrases).toEqual(['oregon bureau of fisheries']);
    expect(documentLacks('Where is the Oregon Bureau of Forestry based?', words).missingPhrases).toEqual([]);
  });

  it('tolerates case, plurals, line breaks and a table header wrapped over two rows', () => {
    expect(documentLacks('Who signed with Northwind Trading Company?', words).missingPhrases).toEqual([]);
    expect(documentLacks('What is the Service Component Type of the lab?', words).missingPhrases).toEqual([]);
  });

  it('leaves out title-cased terms the document writes in lower case, and runs broken by punctuation or a possessive', () => {
    expect(documentLacks('What was the Interest Coverage Ratio?', words).phrases).toEqual([]);
    expect(phrasesIn("What did Northwind's Science Park build, and where?")).toEqual([['science', 'park']]);
  });
});

describe('documentLacks: numbers and dates', () => {
  const words = new DocumentWords('Revised May 2016. Error 414 means a blocked valve; 1,577 units shipped; 350K users joined in 2018. Survey of March 2 - March 9, 2019; audit 2017-03-04.');

  it('names the numbers a question quotes that the document never writes, but not years, labels or small counts', () => {
    expect(numbersIn('Which errors are 414 and 515 in Figure 14 on page 30, and what are the top 3 in 2019?')).toEqual(['414', '515']);
    expect(documentLacks('What do errors 414 and 515 mean?', words).missingNumbers).toEqual(['515']);
    expect(documentLacks('When were 1577 units shipped and did users pass 350,000?', words).missingNumbers).toEqual([]);
  });

  it('names the months of years the document never writes a date in', () => {
    expect(datesIn('Who revised it on May 2018, and what happened on 4 March 2017?').map((d) => d.text)).toEqual(['2018-05', '2017-03']);
    expect(documentLacks('Who revised the document in May 2018?', words)).toMatchObject({ dates: ['2018-05'], missingDates: ['2018-05'], missingYears: [] });
    expect(documentLacks('Who revised the document in May 2016?', words).missingDates).toEqual([]);
    expect(documentLacks('What did the survey of March 2 - March 9, 2019 find?', words).missingDates).toEqual([]);
    expect(documentLacks('What did the audit of March 2017 find?', words).missingDates).toEqual([]); // written 2017-03-04
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
