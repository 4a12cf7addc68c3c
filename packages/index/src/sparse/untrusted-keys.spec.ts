import type { SparseDoc } from '@doctree/schema';
import { SPARSE_FIELDS } from '@doctree/schema';

import { MiniSearchSparseIndex } from './minisearch-sparse-index.js';
import { analyzeQuery, analyzeText } from './sparse-analyzer.js';
import { loadSparseIndex } from './sparse-index-io.js';

// Document and question words that name properties of Object.prototype are terms like any other: the analyser looks
// its tables up with Maps, and the index reads MiniSearch's per-result `match` object by own properties only.
const PROTO_WORDS = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', 'prototype', 'isPrototypeOf', '__defineGetter__'];

const DOCS: SparseDoc[] = [
  { id: 'proto', role: 'paragraph', heading: 'Constructor', body: `The constructor of the bridge. ${PROTO_WORDS.join(' ')} Table constructor, Figure valueOf.`, filters: { page_idx: 1 } },
  { id: 'revenue', role: 'paragraph', heading: 'Results', body: 'Revenue rose in every region; margins held steady.', filters: { page_idx: 0 } },
  { id: 'labels', role: 'table', title: 'Table 2: constructor toString', labels: 'Table 2', table_schema: 'constructor; __proto__; valueOf', filters: { page_idx: 2 } },
];

describe('sparse analyser: Object.prototype names are plain words', () => {
  it('gives string terms only, the same way in documents and queries', () => {
    const terms = analyzeText(PROTO_WORDS.join(' '));
    expect(terms).toEqual(['constructor', 'proto', 'tostr', 'hasownproperti', 'valueof', 'prototyp', 'isprototypeof', 'definegetter']);
    for (const term of terms) expect(typeof term).toBe('string');
    expect(analyzeQuery('Constructor CONSTRUCTOR constructors')).toEqual(['constructor']);
  });

  it('neither expands them as abbreviations nor takes them for label words or symbols', () => {
    expect(analyzeText('constructor 3')).toEqual(['constructor', '3']);
    expect(analyzeText('toString 2 and 3, valueOf IV')).toEqual(['tostr', '2', '3', 'valueof', 'iv']);
    expect(analyzeText('hasOwnProperty B')).toEqual(['hasownproperti', 'b']);
    // Real label words and abbreviations still work next to them.
    expect(analyzeText('Fig. 3 constructor')).toEqual(['figur', 'figure_3', '3', 'constructor']);
    expect(analyzeText('Table IV of the constructor: 12% pct')).toEqual(['tabl', 'table_4', 'constructor', '12', 'percent', 'percent']);
  });
});

describe('MiniSearchSparseIndex: documents and queries made of Object.prototype names', () => {
  const index = new MiniSearchSparseIndex();
  index.add(DOCS);

  it('indexes them (no "key must be a string") and finds each one', () => {
    expect(index.size).toBe(3);
    for (const word of PROTO_WORDS) {
      const hits = index.search(word, { k: 3 });
      expect(hits.map((h) => h.id)).toContain('proto');
      for (const hit of hits) {
        for (const [field, terms] of Object.entries(hit.matched)) {
          expect(SPARSE_FIELDS).toContain(field);
          for (const term of terms) expect(typeof term).toBe('string');
        }
      }
    }
  });

  it('a query mixing them with other words ranks partial matches without reading inherited properties', () => {
    // `revenue` matches only the doc without any prototype word: its `match` lacks `constructor`, `valueof`…
    const hits = index.search('constructor revenue valueOf toString', { k: 5 });
    expect(hits.map((h) => h.id)).toEqual(expect.arrayContaining(['proto', 'revenue', 'labels']));
    const revenue = hits.find((h) => h.id === 'revenue')!;
    expect(revenue.matched).toEqual({ body: ['revenu'] });
    const labels = hits.find((h) => h.id === 'labels')!;
    expect(labels.matched).toEqual({ title: ['constructor', 'tostr'], table_schema: ['constructor', 'valueof'] });
    expect(index.search('constructor revenue', { k: 5, combineWith: 'and' })).toEqual([]);
  });

  it('survives a round trip through JSON (the lazily restored term index too)', () => {
    const loaded = loadSparseIndex(JSON.parse(JSON.stringify(index)));
    for (const word of PROTO_WORDS) expect(loaded.search(word, { k: 3 })).toEqual(index.search(word, { k: 3 }));
    expect(loaded.search('constructor revenue', { k: 5 })).toEqual(index.search('constructor revenue', { k: 5 }));
  });

  it('doc ids and filter values named after them are data too', () => {
    const named = new MiniSearchSparseIndex({ storeText: true });
    named.add([
      { id: 'constructor', role: 'paragraph', body: 'alpha constructor', filters: { page_idx: 0 } },
      { id: '__proto__', role: 'paragraph', body: 'alpha beta', filters: { page_idx: 1, parent_section: 'toString' } },
    ]);
    expect(named.has('constructor')).toBe(true);
    expect(named.has('__proto__')).toBe(true);
    expect(named.has('toString')).toBe(false);
    expect(named.search('alpha', { k: 5 }).map((h) => h.id)).toEqual(['constructor', '__proto__']);
    expect(named.search('alpha', { k: 5, filter: (doc) => doc.filters.parent_section === 'toString' }).map((h) => h.id)).toEqual(['__proto__']);
    const loaded = loadSparseIndex(JSON.parse(JSON.stringify(named)));
    expect(loaded.search('beta constructor', { k: 5 }).map((h) => h.id).sort()).toEqual(['__proto__', 'constructor']);
  });
});
