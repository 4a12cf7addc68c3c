import type { EvidencePack, Hit, Support } from '@doctree/schema';
import { rankedPages } from './doctree-agent.js';

const hit = (pageIdx: number, nodeId = `t_${pageIdx}`): Hit => ({
  eid: nodeId,
  doc_id: 'doc',
  page_idx: pageIdx,
  node_id: nodeId,
  modality: 'text',
  snippet: '',
  bbox: null,
  score_raw: 1,
  method: 'bm25_node.search',
  extra: {},
});
const support = (page: number): Support => ({ node_id: `t_${page - 1}`, page, bbox: null, char_start: 0, char_end: 1, snippet: 'x' });
const pack = (pages: number[]): EvidencePack =>
  ({ items: pages.map((page) => ({ node_id: `n${page}`, page, role: 'paragraph', text: 'x', tokens: 1, score: 1, via: [] })), total_tokens: pages.length, budget_tokens: 1500, coverage: 1, needs_covered: [], needs_missing: [] }) as unknown as EvidencePack;

describe('rankedPages', () => {
  it('ranks the answer’s pages first, then the retrieval ranking, then the packed context and the expanded candidates', () => {
    // Hits (best first) are on pages 9, 3, 9, 4; the MMR pack holds an expansion neighbour (page 12) before them.
    const pages = rankedPages({ support: [support(4)] }, { hits: [hit(8), hit(2), hit(8), hit(3)], pack: pack([12, 9, 4]), candidates: [hit(20), hit(2)] });
    expect(pages).toEqual([4, 9, 3, 12, 21]);
  });

  it('gives 1-based unique pages without a support', () => {
    expect(rankedPages({ support: [] }, { hits: [hit(0), hit(0)], pack: pack([1, 2]), candidates: [] })).toEqual([1, 2]);
  });
});
