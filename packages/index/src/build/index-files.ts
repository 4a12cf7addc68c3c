/** File names inside `<doc_dir>/index/` (seed 000 §10.2). */
export const INDEX_FILES = {
  manifest: 'manifest.json',
  summary: 'summary.json',
  denseCoarse: 'dense_coarse.jsonl',
  denseLeaf: 'dense_leaf.jsonl',
  sparseCoarse: 'sparse_coarse.jsonl',
  sparseLeaf: 'sparse_leaf.jsonl',
  edges: 'graph_edges.jsonl',
  idMaps: 'id_maps.json',
  bm25Coarse: 'bm25_coarse.json',
  bm25Leaf: 'bm25_leaf.json',
} as const;

/** The three vector views: coarse (sections/figures/tables), leaf (contextual leaf view), leaf_raw (leaf raw text). */
export const VECTOR_VIEWS = ['coarse', 'leaf', 'leaf_raw'] as const;
export type VectorView = (typeof VECTOR_VIEWS)[number];

/** Vector file name of a view for a backend: `<view>.faiss` (faiss-node) or `<view>.vectors` (exact). */
export function vectorFileName(view: VectorView, backend: 'faiss' | 'exact'): string {
  return `${view}.${backend === 'faiss' ? 'faiss' : 'vectors'}`;
}

/** The folder of a document's index. */
export const INDEX_DIR = 'index';
