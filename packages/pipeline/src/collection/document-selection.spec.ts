import type { CollectionDocument } from '@doctree/schema';
import { extractMetadata, metadataFromFilename } from './document-metadata.js';
import { bm25Scores, matchesFilters, namedMetadata, nodeDocScores, rankDocuments } from './document-selection.js';

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
    expect(metadataFromFilename('ACME_2023Q2_10Q.pdf')).toEqual({ company: 'ACME', year: 2023, form: '10-Q' });
    expect(metadataFromFilename('ACME_2023_8K_dated-2023-07-01.pdf')).toEqual({ company: 'ACME', year: 2023, form: '8-K' });
    expect(metadataFromFilename('user-manual.pdf')).toEqual({});
    expect(metadataFromFilename('e79deb02a0c0e87511080836c5d4347b.pdf')).toEqual({});
  });

  it('fills gaps from the cover page and keeps fields a person edited', () => {
    const text = 'UNITED STATES\nFORM 10-K\nfor the fiscal year ended December 31, 2021\nHarbor Tools Inc.\n(Exact name of registrant as specified in its charter)';
    expect(extractMetadata({ filename: 'report.pdf', text, title: 'Annual Report' })).toEqual({ company: 'Harbor Tools Inc.', year: 2021, form: '10-K', title: 'Annual Report', edited: [] });
    const kept = extractMetadata({ filename: 'report.pdf', text }, { company: 'Harbor', edited: ['company', 'title'] });
    expect(kept).toEqual({ company: 'Harbor', year: 2021, form: '10-K', edited: ['company', 'title'] });
  });
});

describe('document selection scoring', () => {
  it('finds the company, year and form a question names, with or without spaces, short names only as words', () => {
    const northwind = row('u', { company: 'NORTHWINDFOODS', year: 2023, form: '10-K', edited: [] });
    expect(namedMetadata('What did Northwind Foods report for FY2023 in its 10-K?', northwind)).toEqual(['company', 'year', 'form']);
    const short = row('m', { company: '7K', year: 2018, edited: [] });
    expect(namedMetadata('How did 7K do in 2018?', short)).toEqual(['company', 'year']);
    expect(namedMetadata('Revenue was $17K in 20180', short)).toEqual([]);
    expect(matchesFilters(northwind, { company: 'Northwind Foods', year: 2023 })).toBe(true);
    expect(matchesFilters(northwind, { form: '10-Q' })).toBe(false);
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
    expect(named[0]).toMatchObject({ doc_id: 'lenses', metadata: ['company'], tier: 4 });
    expect(bm25Scores('granite', ['granite granite', 'nothing here'])[1]).toBe(0);
  });
});
