import { claimTypes, draftSentences, draftStem, suggestedQuery } from './draft.js';
import { bibtexEntry, cslItem } from './export-sources.js';
import type { SourceRecord } from './sources.js';

describe('draftSentences', () => {
  it('collects {#doc_uid} markers, also one standing after the full stop, and skips headings and code', () => {
    const draft = '# Title\n\nFees rose to 240 euros {#harbor}. Energy was the largest cost. {#harbor}{#rail}\n\n```\nnot {#code}\n```\n- A list item cites {#rail}.\n';
    const sentences = draftSentences(draft);
    expect(sentences.map((s) => [s.text, s.cites])).toEqual([
      ['Fees rose to 240 euros.', ['harbor']],
      ['Energy was the largest cost.', ['harbor', 'rail']],
      ['A list item cites.', ['rail']],
    ]);
    expect(sentences[0]!.line).toBe(3);
  });
});

describe('claimTypes', () => {
  it.each([
    ['Fees rose because the compressor failed.', 'causal'],
    ['Ridership was higher than in any earlier year.', 'comparative'],
    ['The store handled 18,400 tonnes.', 'quantitative'],
    ['All members always vote.', 'generalising'],
    ['The board should build a second array.', 'recommendation'],
    ['It was the largest cost of the cooperative.', 'superlative'],
    ['由于暴风雨，港口关闭了九天。', 'causal'],
  ])('%s → %s', (sentence, type) => {
    expect(claimTypes(sentence)).toContain(type);
  });

  it('finds no claim in a plain statement, and a year alone is not a quantity', () => {
    expect(claimTypes('The cooperative runs a market hall in 2021.')).toEqual([]);
  });

  it('suggests a query of the claim content words', () => {
    expect(suggestedQuery('The board should build a second solar array on the roof.')).toBe('board build second solar array roof');
    expect(draftStem('My Draft v2.md')).toBe('my-draft-v2');
  });
});

describe('reference manager exports', () => {
  const source: SourceRecord = {
    doc_uid: 'harbor-review', raw_path: 'raw/evidence/harbor-review.pdf', sha256: 'a'.repeat(64), bytes: 1, source_type: 'evidence', source_subtype: 'document',
    citable: true, citation_key: 'harborReview', title: 'Annual Review {draft} 50% done', authors: ['Ana Diaz'], publisher: 'Harbor Light', url: 'https://example.org/r.pdf',
    captured_at: '2024-01-01T00:00:00.000Z', accessed_at: '2024-03-01', published_date: '2022-05', present: true, revision: 2,
  };
  it('writes BibTeX with escaped braces and percent signs, urldate and year', () => {
    const bib = bibtexEntry(source);
    expect(bib).toContain('@misc{harborReview,');
    expect(bib).toContain('title = {Annual Review \\{draft\\} 50\\% done}');
    expect(bib).toContain('urldate = {2024-03-01}');
    expect(bib).toContain('year = {2022}');
  });
  it('writes CSL-JSON with date parts', () => {
    expect(cslItem(source)).toMatchObject({ id: 'harborReview', issued: { 'date-parts': [[2022, 5]] }, accessed: { 'date-parts': [[2024, 3, 1]] }, author: [{ literal: 'Ana Diaz' }] });
  });
});
