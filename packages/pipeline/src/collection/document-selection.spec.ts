import type { CollectionDocument } from '@doctree/schema';
import { extractMetadata, METADATA_EXTRACTOR_VERSION, metadataFromFilename, periodFromText } from './document-metadata.js';
import { bm25Scores, matchesFilters, namedMetadata, nodeDocScores, periodFit, rankDocuments } from './document-selection.js';

const row = (doc_id: string, metadata: CollectionDocument['metadata']): CollectionDocument => ({
  doc_id,
  path: `${doc_id}.pdf`,
  kind: 'pdf',
  sha256: 'c'.repeat(64),
  size: 1,
  mtime: '2024-01-01T00:00:00.000Z',
  build_id: 'b',
  pages: 1,
  ingest_warnings: [],
  indexed_at: '2024-01-01T00:00:00.000Z',
  created_at: '2024-01-01T00:00:00.000Z',
  updated_at: '2024-01-01T00:00:00.000Z',
  description: '',
  metadata,
});

describe('document metadata', () => {
  it('reads company, year (with a quarter) and form from file names, and nothing from names without them', () => {
    expect(metadataFromFilename('Northwind_Traders_2022_10K.pdf')).toEqual({ company: 'Northwind Traders', year: 2022, form: '10-K' });
    expect(metadataFromFilename('ACME_2023Q2_10Q.pdf')).toEqual({ company: 'ACME', year: 2023, quarter: 'Q2', form: '10-Q' });
    // The first token names the company even when it looks like a form.
    expect(metadataFromFilename('2B_2019_10K.pdf')).toEqual({ company: '2B', year: 2019, form: '10-K' });
    expect(metadataFromFilename('ACME_2023_8K_dated-2023-07-01.pdf')).toEqual({ company: 'ACME', year: 2023, form: '8-K' });
    expect(metadataFromFilename('user-manual.pdf')).toEqual({});
    expect(metadataFromFilename('e79deb02a0c0e87511080836c5d4347b.pdf')).toEqual({});
  });

  it('fills gaps from the cover page and keeps fields a person edited', () => {
    const text = 'UNITED STATES\nFORM 10-K\nfor the fiscal year ended December 31, 2021\nHarbor Tools Inc.\n(Exact name of registrant as specified in its charter)';
    const extractor = METADATA_EXTRACTOR_VERSION;
    expect(extractMetadata({ filename: 'report.pdf', text, title: 'Annual Report' })).toEqual({ company: 'Harbor Tools Inc.', year: 2021, period_end: '2021-12-31', form: '10-K', title: 'Annual Report', edited: [], extractor });
    const kept = extractMetadata({ filename: 'report.pdf', text }, { company: 'Harbor', edited: ['company', 'title'] });
    expect(kept).toEqual({ company: 'Harbor', year: 2021, period_end: '2021-12-31', form: '10-K', edited: ['company', 'title'], extractor });
  });

  it('reads the period a report covers: the latest end date of its opening, a fiscal year only when it says so', () => {
    expect(periodFromText('FORM 10-Q\nFor the Quarterly Period Ended December 31, 2022')).toEqual({ end: '2022-12-31', fiscalYear: false });
    // Comparative columns name earlier periods first.
    expect(periodFromText('Twelve Months Ended June 30, 2022 | Twelve Months Ended June 30, 2023')).toEqual({ end: '2023-06-30', fiscalYear: false });
    expect(periodFromText('for the fiscal year ended Sept. 2, 2023')).toEqual({ end: '2023-09-02', fiscalYear: true });
    expect(periodFromText('we ended the year with a smile; period ended Smarch 40, 2023')).toBeUndefined();
    // A quarterly report keeps its file name's fiscal year and quarter; its period end adds the calendar year.
    const quarterly = extractMetadata({ filename: 'Harbor_2023Q2_10Q.pdf', text: 'For the quarterly period ended December 31, 2022' });
    expect(quarterly).toMatchObject({ company: 'Harbor', year: 2023, quarter: 'Q2', period_end: '2022-12-31', form: '10-Q' });
  });
});

describe('document selection scoring', () => {
  it('finds the company, year and form a question names, with or without spaces, short names only as words', () => {
    const northwind = row('u', { company: 'NORTHWINDFOODS', year: 2023, form: '10-K', edited: [] });
    expect(namedMetadata('What did Northwind Foods report for FY2023 in its 10-K?', northwind, { years: [2023] })).toEqual(['company', 'year', 'form']);
    const short = row('m', { company: '7K', year: 2018, edited: [] });
    expect(namedMetadata('How did 7K do in 2018?', short, { years: [2018] })).toEqual(['company', 'year']);
    expect(namedMetadata('Revenue was $17K in 20180', short)).toEqual([]);
    expect(matchesFilters(northwind, { company: 'Northwind Foods', year: 2023 })).toBe(true);
    expect(matchesFilters(northwind, { form: '10-Q' })).toBe(false);
    const second = row('q', { company: 'Northwind Foods', year: 2023, form: '10-Q', quarter: 'Q2', edited: [] });
    expect(matchesFilters(second, { quarter: 'q2' })).toBe(true);
    expect(matchesFilters(second, { quarter: 'Q3' })).toBe(false);
    expect(matchesFilters(northwind, { quarter: 'Q2' })).toBe(false);
  });

  it('scores documents by 1/sqrt(N+1) times the sum of their node hits', () => {
    const scores = nodeDocScores([
      { doc_id: 'a', node_id: 'n1', score: 0.9 },
      { doc_id: 'a', node_id: 'n2', score: 0.6 },
      { doc_id: 'a', node_id: 'n3', score: -0.2 },
      { doc_id: 'b', node_id: 'n1', score: 0.95 },
    ]);
    expect(scores.get('a')!.score).toBeCloseTo(1.5 / Math.sqrt(4));
    expect(scores.get('a')!.hits).toBe(3);
    expect(scores.get('b')!.score).toBeCloseTo(0.95 / Math.sqrt(2));
    expect(scores.get('b')!.best).toEqual({ node_id: 'n1', score: 0.95 });
  });

  it('ranks a document the question names above one that matches its words better, and fuses the rest', () => {
    const v = (x: number, y: number) => Float32Array.from([x, y]);
    const candidates = [
      { row: row('granite', { company: 'Quarry', year: 2021, edited: [] }), profile: 'Quarry stoneworks granite bridges', profileVector: v(1, 0) },
      { row: row('lenses', { company: 'Lumen', year: 2023, edited: [] }), profile: 'Lumen camera lenses optics', profileVector: v(0, 1) },
    ];
    const unnamed = rankDocuments('granite for bridges', candidates, v(1, 0), [{ doc_id: 'granite', node_id: 'n', score: 0.8 }]);
    expect(unnamed.map((s) => s.doc_id)).toEqual(['granite', 'lenses']);
    expect(unnamed[0]!.fused).toBeGreaterThan(unnamed[1]!.fused);
    expect(unnamed[0]!.lexical).toBeGreaterThan(0);
    const named = rankDocuments('granite bridges at Lumen', candidates, v(1, 0), [{ doc_id: 'granite', node_id: 'n', score: 0.8 }]);
    expect(named[0]).toMatchObject({ doc_id: 'lenses', metadata: ['company'], tier: 100 });
    expect(bm25Scores('granite', ['granite granite', 'nothing here'])[1]).toBe(0);
  });

  it('reads the periods of a company\'s filings: year and quarter first, then the nearest later report, never a later one of an unnamed company', () => {
    const annual = row('harbor_2021_10k', { company: 'Harbor', year: 2021, form: '10-K', period_end: '2021-12-31', edited: [] });
    const quarterly = row('harbor_2023q2_10q', { company: 'Harbor', year: 2023, quarter: 'Q2', form: '10-Q', period_end: '2022-12-31', edited: [] });
    const release = row('harbor_2023q4_release', { company: 'Harbor', year: 2023, quarter: 'Q4', edited: [] });
    const other = row('lumen_2024_10k', { company: 'Lumen', year: 2024, edited: [] });
    expect(periodFit({ years: [2023], quarter: 'Q2' }, quarterly)).toBe(3);
    expect(periodFit({ years: [2023], quarter: 'Q2' }, release)).toBe(1);
    expect(periodFit({ years: [2022] }, quarterly)).toBe(2); // the calendar year its period ends in
    expect(periodFit({ years: [2020, 2021] }, annual)).toBe(2);
    expect(periodFit({ years: [2019] }, annual)).toBeGreaterThan(periodFit({ years: [2019] }, quarterly));
    expect(periodFit({ years: [2025] }, annual)).toBe(0);
    expect(periodFit({ years: [], quarter: 'Q4' }, release)).toBe(1);

    // The profiles and hits favour the quarterly report everywhere: only the periods tell the filings apart.
    const v = (x: number, y: number) => Float32Array.from([x, y]);
    const candidates = [annual, quarterly, release, other].map((r, i) => ({ row: r, profile: `${r.metadata.company} report ${i === 1 ? 'cash cash' : ''}`, profileVector: i === 1 ? v(1, 0) : v(0, 1) }));
    const hits = [{ doc_id: 'harbor_2023q2_10q', node_id: 'n', score: 0.9 }];
    const order = (question: string, periods: { years: number[]; quarter?: string }) => rankDocuments(question, candidates, v(1, 0), hits, periods).map((s) => s.doc_id);
    expect(order('Harbor cash in FY21 against FY20?', { years: [2020, 2021] })[0]).toBe('harbor_2021_10k');
    expect(order('Harbor cash in 2019?', { years: [2019] })[0]).toBe('harbor_2021_10k');
    expect(order('Harbor cash in Q4 FY2023?', { years: [2023], quarter: 'Q4' })[0]).toBe('harbor_2023q4_release');
    const ranked = rankDocuments('Harbor cash in Q2 of fiscal 2023?', candidates, v(1, 0), hits, { years: [2023], quarter: 'Q2' });
    expect(ranked[0]).toMatchObject({ doc_id: 'harbor_2023q2_10q', metadata: ['company', 'year', 'quarter'], period: 3 });
    // A question naming no company gives no credit for being later: the words decide.
    expect(order('cash in 2019?', { years: [2019] })[0]).toBe('harbor_2023q2_10q');
  });
});
