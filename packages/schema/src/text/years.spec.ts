import { authorYearCitations, cellYear, findYears, withoutYears, yearMentions } from './years.js';

describe('years', () => {
  it('reads whole-word years 1900–2099 by default, not FY-glued ones, 18xx only when asked', () => {
    expect(findYears('Sales 2023 and 1999 rose from 1850; FY2020; 21000; 2023.')).toEqual([1999, 2023]);
    expect(findYears('Founded in 1850, listed in 2001', { since: 1800, boundary: 'number' })).toEqual([1850, 2001]);
  });

  it('takes a fiscal prefix into the mention, so a year next to FY is one mention', () => {
    expect(yearMentions('FY 2022 and fy2023 and 2024', { prefix: 'fy' }).map((m) => [m.text, m.year])).toEqual([
      ['FY 2022', 2022],
      ['fy2023', 2023],
      ['2024', 2024],
    ]);
    expect(findYears("fiscal year 2021, FY'2022, fiscal 2023", { prefix: 'fiscal' })).toEqual([2021, 2022, 2023]);
    expect(findYears('calendar year 2019 vs financial year 2020', { prefix: 'period' })).toEqual([2019, 2020]);
  });

  it('expands two-digit fiscal years and year ranges only when asked', () => {
    expect(findYears('FY23 and FY 22')).toEqual([]);
    expect(findYears("FY23 and FY '22", { twoDigit: 'fy' })).toEqual([2023]);
    expect(findYears("FY23 and FY '22", { twoDigit: 'fiscal' })).toEqual([2022, 2023]);
    expect(findYears('the 2018-19 season', { ranges: true })).toEqual([2018, 2019]);
    expect(findYears('the 2018-21 plan', { ranges: true })).toEqual([2018]);
  });

  it('reads a quarter written with its year as one mention carrying the quarter, only when asked', () => {
    const read = (text: string): Array<[string, number, number | undefined]> => yearMentions(text, { prefix: 'period', twoDigit: 'period', quarters: true }).map((m) => [m.text, m.year, m.quarter]);
    expect(read('Q2 2023, Q32022 and Q4\'21')).toEqual([
      ['Q2 2023', 2023, 2],
      ['Q32022', 2022, 3],
      ["Q4'21", 2021, 4],
    ]);
    expect(read('Q1 FY24 against 3Q23 and 2Q 2020')).toEqual([
      ['Q1 FY24', 2024, 1],
      ['3Q23', 2023, 3],
      ['2Q 2020', 2020, 2],
    ]);
    expect(read('2019Q4 then 2020 Q1')).toEqual([
      ['2019Q4', 2019, 4],
      ['2020 Q1', 2020, 1],
    ]);
    // Two digits after a space are no year, and there is no fifth quarter.
    expect(read('Q2 23 units, Q5 2023')).toEqual([['2023', 2023, undefined]]);
    expect(findYears('Q32022 and 3Q23')).toEqual([]);
    expect(findYears('Q32022 and 3Q23', { quarters: true })).toEqual([2022, 2023]);
  });

  it('tells years from amounts with the number and amount boundaries', () => {
    const text = 'We paid $2019, sold 2,020 units, kept 2021.5 tonnes and 2022 million, in 2023';
    expect(findYears(text)).toEqual([2019, 2021, 2022, 2023]);
    expect(findYears(text, { boundary: 'number' })).toEqual([2022, 2023]);
    expect(findYears(text, { boundary: 'amount' })).toEqual([2021, 2023]);
    expect(findYears('FY2018 and 2019', { boundary: 'number' })).toEqual([2019]);
  });

  it('keeps text order and repeats in mentions, with offsets into the text', () => {
    const text = 'In 2020 (FY 2021) and 2020 again';
    const mentions = yearMentions(text, { prefix: 'fy' });
    expect(mentions.map((m) => m.year)).toEqual([2020, 2021, 2020]);
    for (const m of mentions) expect(text.slice(m.start, m.end)).toBe(m.text);
  });

  it('removes years to leave quantities', () => {
    expect(withoutYears('In 2023 sales rose 12%')).toBe('In   sales rose 12%');
    expect(withoutYears('2023: 12', '')).toBe(': 12');
  });

  it('reads whole cells and tokens, with the prefix and suffix asked for', () => {
    expect(cellYear('2018')).toBe(2018);
    expect(cellYear('FY2018')).toBeUndefined();
    expect(cellYear('FY 2018', { prefix: 'fy' })).toBe(2018);
    expect(cellYear('2019E', { suffix: 'letter' })).toBe(2019);
    expect(cellYear('2023Q2', { suffix: 'quarter' })).toBe(2023);
    expect(cellYear('2018 vs 2017', { prefix: 'fy' })).toBeUndefined();
    expect(cellYear(' 2018 ')).toBeUndefined();
  });

  it('reads a year glued to letters or underscores, not to digits, with the digits boundary (file names)', () => {
    const first = (name: string): string | undefined => yearMentions(name, { boundary: 'digits' })[0]?.text;
    expect(first('harbour_report_2021_final.pdf')).toBe('2021');
    expect(first('FY2022-summary.pdf')).toBe('2022');
    expect(first('scan12023.pdf')).toBeUndefined();
    expect(findYears('harbour_report_2021', { boundary: 'word' })).toEqual([]);
  });

  it('finds author-year citations with the year they cite', () => {
    const text = 'As (Moreau, 2018) and (Okafor et al., 2020b) argue, unlike (Lind and Haas 2019); not (see 2019) or [4].';
    expect(authorYearCitations(text).map((c) => [c.year, c.text])).toEqual([
      [2018, '(Moreau, 2018)'],
      [2020, '(Okafor et al., 2020b)'],
      [2019, '(Lind and Haas 2019)'],
    ]);
    const first = authorYearCitations(text)[0]!;
    expect(text.slice(first.start, first.end)).toBe('(Moreau, 2018)');
  });
});
