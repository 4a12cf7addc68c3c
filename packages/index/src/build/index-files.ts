/** File names inside `<doc_dir>/index/` (docs/design/index-features.md §2). */
export const INDEX_FILES = {
  manifest: 'manifest.json',
  summary: 'summary.json',
  denseCoarse: 'dense_coarse.jsonl',
  denseLeaf: 'dense_leaf.jsonl',
  sparseCoarse: 'sparse_coarse.jsonl',
  sparseLeaf: 'sparse_leaf.jsonl',
  /** One BM25F document per page with text (`P<1-based page>`), see `buildPageRecords`. */
  sparsePages: 'sparse_pages.jsonl',
  edges: 'graph_edges.jsonl',
  idMaps: 'id_maps.json',
  bm25Coarse: 'bm25_coarse.json',
  bm25Leaf: 'bm25_leaf.json',
  /** The BM25F index over `sparse_pages.jsonl`. */
  bm25Pages: 'bm25_pages.json',
  /** `doctree.pages`: the pages with a page document and the years written on each. */
  pages: 'pages.json',
} as const;

/** The three vector views: coarse (sections/figures/tables), leaf (contextual leaf view), leaf_raw (leaf raw text). */
export const VECTOR_VIEWS = ['coarse', 'leaf', 'leaf_raw'] as const;
export type VectorView = (typeof VECTOR_VIEWS)[number];

/** Vector file name of a view for a backend: `<view>.faiss` (faiss-node) or `<view>.vectors` (exact). */
export function vectorFileName(view: VectorView, backend: 'faiss' | 'exact'): string {
  return `${view}.${backend === 'faiss' ? 'faiss' : 'vectors'}`;
}

/** Vector file name of a view built by a vector index factory of your own (`BuildDocIndexOptions.vectorIndex`). */
export function customVectorFileName(view: VectorView): string {
  return `${view}.custom-vectors`;
}

/** The folder of a document's index. */
export const INDEX_DIR = 'index';
