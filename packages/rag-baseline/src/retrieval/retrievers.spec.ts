import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HashingEmbedder } from '@doctree/index';
import { runRetrieverConformance } from '@doctree/index/testing';
import { DocTreeError, type DocTree, type Hit } from '@doctree/schema';
import { conformanceTree, generatedReport, treeFromSpecs, type NodeSpec } from '../__fixtures__/trees.js';
import { buildRagIndex } from '../index/build-rag-index.js';
import { loadRagIndex, type RagIndex } from '../index/load-rag-index.js';
import { PageBm25Retriever } from './page-bm25-retriever.js';
import { RagRetriever } from './rag-retriever.js';
import { aggregatePages } from './ranked-pages.js';

const embedder = new HashingEmbedder({ dimension: 512 });
const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

async function indexOf(tree: DocTree): Promise<RagIndex> {
  const docDir = mkdtempSync(join(tmpdir(), 'doctree-rag-retriever-'));
  dirs.push(docDir);
  writeFileSync(join(docDir, 'doctree.mm.json'), JSON.stringify(tree));
  await buildRagIndex(docDir, { embedder, backend: 'exact' });
  return loadRagIndex(docDir, { embedder });
}

runRetrieverConformance('RagRetriever (dense)', async (corpus) => new RagRetriever(await indexOf(conformanceTree(corpus)), { embedder }));
runRetrieverConformance('RagRetriever (hybrid)', async (corpus) => new RagRetriever(await indexOf(conformanceTree(corpus)), { embedder, hybrid: true }));
runRetrieverConformance('PageBm25Retriever', (corpus) => new PageBm25Retriever(conformanceTree(corpus)), { roles: false });

/**
 * A manual where every page talks about warranty terms of calibration modules, and one page mentions the part number
 * XR-7731 once, in a paragraph about shipping instead. Dense (feature hashing) similarity follows the many shared common words;
 * BM25 weighs the rare part number by its inverse document frequency.
 */
function keywordManual(): DocTree {
  // Page 6 holds only the shipping note with the part number.
  const specs: NodeSpec[] = [];
  for (let page = 0; page < 8; page++) {
    if (page === 5) {
      specs.push({ node_id: 't_99', role: 'paragraph', page, text: 'Spare parts ship within five business days from the regional depot; part XR-7731 ships from the central warehouse only, packed in foam.' });
      continue;
    }
    specs.push({
      node_id: `t_${page * 2 + 1}`,
      role: 'paragraph',
      page,
      text: `The warranty terms for the calibration module cover defects in materials for ${page + 1} years. Warranty terms of each calibration module are listed in the service schedule, and the calibration module warranty terms renew after every repair.`,
    });
    specs.push({
      node_id: `t_${page * 2 + 2}`,
      role: 'paragraph',
      page,
      text: `Spare parts ship within five business days from the regional depot number ${page + 1}, packed in foam.`,
    });
  }
  return treeFromSpecs('manual', 8, specs);
}

describe('RagRetriever', () => {
  it('with the BM25 hybrid lane, lifts the page with a rare keyword that dense similarity ranks last into the top 3', async () => {
    const index = await indexOf(keywordManual());
    const query = 'warranty terms of the calibration module XR-7731';
    const dense = new RagRetriever(index, { embedder });
    const hybrid = new RagRetriever(index, { embedder, hybrid: true });
    expect(dense.name).toBe('rag_dense.search');
    expect(hybrid.name).toBe('rag_hybrid.search');
    const densePages = (await dense.rankPages(query)).map((p) => p.page);
    const hybridPages = (await hybrid.rankPages(query)).map((p) => p.page);
    expect(densePages.indexOf(6)).toBeGreaterThan(2);
    expect(hybridPages.indexOf(6)).toBeLessThan(3);
    expect(hybridPages).not.toEqual(densePages);
    const keyword = (await hybrid.retrieve({ query, k: 8 })).find((h) => h.page_idx === 5)!;
    expect(keyword).toMatchObject({ extra: { role: 'paragraph', parent_id: 'manual:p006', sparse_rank: 1, dense_rank: 8 } });
    expect(keyword.node_id).toBe('t_99#p006c00');
  });

  it('ranks unique 1-based pages from the aggregated children of a realistic report', async () => {
    const tree = generatedReport(11, 12);
    const index = await indexOf(tree);
    const retriever = new RagRetriever(index, { embedder, candidates: 40 });
    const table = index.chunks.find((c) => c.kind === 'table')!;
    const pages = await retriever.rankPages(table.text, { k: 5 });
    expect(pages[0]).toMatchObject({ page: table.page_idx + 1, page_idx: table.page_idx, parent_id: table.parent_id });
    expect(pages.length).toBeLessThanOrEqual(5);
    expect(new Set(pages.map((p) => p.page)).size).toBe(pages.length);
    for (let i = 1; i < pages.length; i++) expect(pages[i]!.score).toBeLessThanOrEqual(pages[i - 1]!.score);
    const hits = await retriever.retrieve({ query: table.text, k: 3 });
    expect(hits[0]).toMatchObject({ eid: table.chunk_id, modality: 'table', snippet: expect.any(String), extra: { char_span: [table.char_start, table.char_end] } });
  });

  it('refuses an embedder the index was not built with, and bad settings', async () => {
    const index = await indexOf(keywordManual());
    expect(() => new RagRetriever(index, { embedder: new HashingEmbedder({ dimension: 64 }) })).toThrow(expect.objectContaining({ code: 'EMBEDDER_MISMATCH' }));
    expect(() => new RagRetriever(index, { embedder, candidates: 0 })).toThrow(expect.objectContaining({ code: 'CONFIG_INVALID' }));
    expect(() => new RagRetriever(index, { embedder, pageAggregation: 'mean' as 'max' })).toThrow(expect.objectContaining({ code: 'CONFIG_INVALID' }));
  });
});

describe('aggregatePages', () => {
  const hit = (node: string, page: number, score: number): Hit => ({
    eid: node,
    doc_id: 'd',
    page_idx: page,
    node_id: node,
    modality: 'text',
    snippet: '',
    bbox: null,
    score_raw: score,
    method: 'm',
    extra: { parent_id: `d:p${String(page + 1).padStart(3, '0')}` },
  });
  const hits = [hit('a', 0, 0.9), hit('b', 1, 0.8), hit('c', 1, 0.7), hit('d', 2, 0.5)];

  it('scores a page by its best child (max) or all its children (sum)', () => {
    expect(aggregatePages(hits, 'max').map((p) => [p.page, p.score])).toEqual([
      [1, 0.9],
      [2, 0.8],
      [3, 0.5],
    ]);
    const sum = aggregatePages(hits, 'sum');
    expect(sum.map((p) => p.page)).toEqual([2, 1, 3]);
    expect(sum[0]!.score).toBeCloseTo(1.5);
    expect(sum[0]!.node_ids).toEqual(['b', 'c']);
    expect(() => aggregatePages(hits, 'mean' as 'max')).toThrow(DocTreeError);
  });
});

describe('PageBm25Retriever', () => {
  it('ranks whole pages by BM25 and names each hit after the best-matching node of the page', async () => {
    const bm25 = new PageBm25Retriever(keywordManual());
    const pages = await bm25.rankPages('part XR-7731 central warehouse', { k: 3 });
    expect(pages[0]).toMatchObject({ page: 6, page_idx: 5, parent_id: 'manual:p006', node_ids: ['t_99#p006'] });
    const [top] = await bm25.retrieve({ query: 'part XR-7731 central warehouse', k: 1 });
    expect(top).toMatchObject({ modality: 'page', method: 'bm25_page.search', extra: { role: 'page' } });
    expect(top!.snippet).toContain('XR-7731');
  });

  it('loads from a document folder and names a missing tree', async () => {
    const docDir = mkdtempSync(join(tmpdir(), 'doctree-bm25-'));
    dirs.push(docDir);
    await expect(PageBm25Retriever.fromDocDir(docDir)).rejects.toMatchObject({ code: 'INPUT_NOT_FOUND' });
    writeFileSync(join(docDir, 'doctree.mm.json'), JSON.stringify(keywordManual()));
    const bm25 = await PageBm25Retriever.fromDocDir(docDir);
    expect((await bm25.rankPages('depot number 3 foam', { k: 1 }))[0]?.page).toBe(3);
  });
});
