import { collectionDocUid, syncCollectionSources, type CollectionSourceDocument, type SourceRecord } from './sources.js';

const now = new Date('2026-01-02T03:04:05Z');
const doc = (doc_id: string, sha: string, extra: Partial<CollectionSourceDocument> = {}): CollectionSourceDocument => ({ doc_id, path: `/data/in/${doc_id}.pdf`, sha256: sha.repeat(64), bytes: 100, ...extra });

describe('syncCollectionSources', () => {
  it('registers collection documents as citable evidence that keeps its collection id', () => {
    const scan = syncCollectionSources([], [doc('ferry_2022_report', 'a', { title: 'Ferry report', year: 2022 })], now);
    expect(scan.added).toEqual(['ferry_2022_report']);
    expect(scan.sources[0]).toMatchObject({ doc_uid: 'ferry_2022_report', collection_doc_id: 'ferry_2022_report', source_type: 'evidence', source_subtype: 'collection', citable: true, title: 'Ferry report', published_date: '2022', raw_path: '/data/in/ferry_2022_report.pdf', citation_key: 'ferry2022Report' });
  });

  it('keeps what the user set, updates a changed document and marks a removed one not present', () => {
    const first = syncCollectionSources([], [doc('ferry', 'a'), doc('orchestra', 'b')], now).sources;
    const edited: SourceRecord[] = first.map((s) => (s.doc_uid === 'ferry' ? { ...s, citable: false, citation_key: 'ferryKey', revision: 2 } : s));
    const scan = syncCollectionSources(edited, [doc('ferry', 'c')], now);
    expect(scan).toMatchObject({ added: [], changed: ['ferry'], missing: ['orchestra'] });
    expect(scan.sources.find((s) => s.doc_uid === 'ferry')).toMatchObject({ citable: false, citation_key: 'ferryKey', sha256: 'c'.repeat(64), revision: 3, present: true });
    expect(scan.sources.find((s) => s.doc_uid === 'orchestra')).toMatchObject({ present: false });
    // Nothing changed: nothing to save.
    const again = syncCollectionSources(scan.sources, [doc('ferry', 'c')], now);
    expect(again.added.length + again.changed.length + again.missing.length).toBe(0);
  });

  it('gives a collection document whose id is taken or not a valid doc_uid a fresh one, and leaves other sources alone', () => {
    const own = { ...syncCollectionSources([], [doc('ferry', 'a')], now).sources[0]!, collection_doc_id: undefined, raw_path: 'raw/evidence/ferry.pdf' } as SourceRecord;
    delete (own as { collection_doc_id?: string }).collection_doc_id;
    const scan = syncCollectionSources([own], [doc('ferry', 'b'), doc('-odd id', 'c')], now);
    expect(scan.sources[0]).toBe(own);
    expect(scan.added).toEqual(['ferry-2', 'odd-id']);
    expect(collectionDocUid('ok.id_1', new Set())).toBe('ok.id_1');
  });
});
