/** Folder of a document's RAG baseline index, next to DocTree's `index/`: `<doc_dir>/rag/`. */
export const RAG_DIR = 'rag';

/** File names inside `<doc_dir>/rag/` (packages/rag-baseline/README.md: parents, chunks, a manifest with hashes, the vectors). */
export const RAG_FILES = {
  manifest: 'manifest.json',
  parents: 'parents.jsonl',
  chunks: 'chunks.jsonl',
} as const;

/** Vector file of the chunks for a backend: `chunks.faiss` (faiss-node, with a `.vectors` sidecar) or `chunks.vectors` (exact). */
export function ragVectorFileName(backend: 'faiss' | 'exact'): string {
  return backend === 'faiss' ? 'chunks.faiss' : 'chunks.vectors';
}
