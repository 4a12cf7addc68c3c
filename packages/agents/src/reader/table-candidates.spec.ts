import { columnYears } from './table-candidates.js';

describe('columnYears', () => {
  it('reads the years a column header names, with a fiscal prefix written together or apart', () => {
    expect(columnYears('2018')).toEqual([2018]);
    expect(columnYears('FY2018')).toEqual([2018]);
    expect(columnYears("FY '19")).toEqual([2019]);
    expect(columnYears('fiscal 2020 vs fiscal year 2019')).toEqual([2020, 2019]);
    expect(columnYears('FY22 (restated)')).toEqual([2022]);
  });

  it('names no year for amounts, codes or other numbers', () => {
    expect(columnYears('Units (000s)')).toEqual([]);
    expect(columnYears('Q3 21000')).toEqual([]);
    expect(columnYears('Model X2019')).toEqual([]);
  });
});
