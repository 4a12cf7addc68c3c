import { DocTreeError } from '@doctree/schema';
import type { Hit, RetrieveRequest } from '@doctree/schema';

import { analyzeQuery, analyzeText } from '../sparse/sparse-analyzer.js';
import { runRetrieverConformance } from '../testing/retriever-conformance.js';
import type { ConformanceDocument } from '../testing/retriever-conformance.js';
import { BaseRetriever } from './base-retriever.js';
import type { RetrievalRecord } from './base-retriever.js';

const hit = (node_id: string, score: number, page_idx = 0, role = 'paragraph'): Hit => ({
  eid: `e:${node_id}`,
  doc_id: 'doc',
  page_idx,
  node_id,
  modality: role === 'table' ? 'table' : 'text',
  snippet: node_id,
  bbox: null,
  score_raw: score,
  method: 'whatever',
  extra: { role },
});

/** Term-overlap retriever over the conformance corpus (stemmed terms, idf-weighted). */
class OverlapRetriever extends BaseRetriever {
  readonly name = 'overlap.search';
  private readonly terms: Array<{ doc: ConformanceDocument; terms: Set<string> }>;
  private readonly idf = new Map<string, number>();

  constructor(corpus: readonly ConformanceDocument[], onRetrieve?: (record: RetrievalRecord) => void) {
    super(onRetrieve ? { onRetrieve } : {});
    this.terms = corpus.map((doc) => ({ doc, terms: new Set(analyzeText(doc.text)) }));
    for (const { terms } of this.terms) for (const t of terms) this.idf.set(t, (this.idf.get(t) ?? 0) + 1);
    for (const [t, n] of this.idf) this.idf.set(t, Math.log(1 + corpus.length / n));
  }

  protected async _retrieve(request: RetrieveRequest): Promise<Hit[]> {
    const query = new Set(analyzeQuery(request.query));
    return this.terms
      .map(({ doc, terms }) => ({ doc, score: [...query].reduce((sum, t) => sum + (terms.has(t) ? (this.idf.get(t) ?? 0) : 0), 0) }))
      .filter((row) => row.score > 0)
      .map(({ doc, score }) => hit(doc.node_id, score, doc.page_idx, doc.role));
  }
}

runRetrieverConformance('term overlap (reference)', (corpus) => new OverlapRetriever(corpus));

class ScriptedRetriever extends BaseRetriever {
  readonly name = 'scripted.search';
  constructor(private readonly reply: unknown) {
    super();
  }
  protected async _retrieve(): Promise<Hit[]> {
    return this.reply as Hit[];
  }
}

describe('BaseRetriever', () => {
  it('sorts, de-duplicates, filters and cuts what the hook returns, and names the method', async () => {
    const retriever = new ScriptedRetriever([hit('a', 1), hit('b', 3, 2, 'table'), hit('a', 0.5), hit('c', 2, 1), hit('d', 5, 1)]);
    const all = await retriever.retrieve({ query: 'q', k: 3 });
    expect(all.map((h) => [h.node_id, h.method])).toEqual([
      ['d', 'scripted.search'],
      ['b', 'scripted.search'],
      ['c', 'scripted.search'],
    ]);
    expect((await retriever.retrieve({ query: 'q', k: 10, roles: ['table'] })).map((h) => h.node_id)).toEqual(['b']);
    expect((await retriever.retrieve({ query: 'q', k: 10, pageIdx: [1] })).map((h) => h.node_id)).toEqual(['d', 'c']);
  });

  it('rejects a malformed hit naming the field', async () => {
    const bad = { ...hit('a', 1), page_idx: -1 };
    const error = await new ScriptedRetriever([bad]).retrieve({ query: 'q', k: 1 }).catch((e: unknown) => e);
    expect(DocTreeError.isInstance(error) && error.code).toBe('INTERNAL');
    expect((error as Error).message).toMatch(/scripted\.search.*page_idx/);
  });

  it('rejects 1-based or negative page filters with a hint', async () => {
    const error = await new ScriptedRetriever([]).retrieve({ query: 'q', k: 1, pageIdx: [-1] }).catch((e: unknown) => e);
    expect(DocTreeError.isInstance(error) && error.code).toBe('USAGE');
  });

  it('reports each retrieval without the signal', async () => {
    const records: RetrievalRecord[] = [];
    const retriever = new OverlapRetriever([{ node_id: 't_1', page_idx: 0, role: 'paragraph', text: 'net sales grew' }], (r) => records.push(r));
    await retriever.retrieve({ query: 'net sales', k: 2, signal: new AbortController().signal });
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ retriever: 'overlap.search', request: { query: 'net sales', k: 2 } });
    expect(Object.keys(records[0]!.request)).not.toContain('signal');
    expect(records[0]!.hits.map((h) => h.node_id)).toEqual(['t_1']);
  });
});
