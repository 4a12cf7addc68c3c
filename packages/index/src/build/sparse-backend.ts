import type { SparseDoc, SparseIndex } from '@doctree/schema';
import { canonicalJson } from './canonical-json.js';
import { MiniSearchSparseIndex, type MiniSearchSparseIndexOptions } from '../sparse/minisearch-sparse-index.js';
import { SPARSE_ANALYZER_VERSION } from '../sparse/sparse-analyzer.js';
import { loadSparseIndex } from '../sparse/sparse-index-io.js';
/** How the index builder creates and the loader restores sparse indexes (minisearch BM25F by default). */
export interface SparseBackend {
  /** Identifier recorded in the manifest config hash (changes when scoring/analysis changes). */
  readonly id: string;
  build(docs: readonly SparseDoc[]): SparseIndex;
  /**
   * Restores an index from its JSON form. `validation: 'fast'` may skip checks of files a manifest vouches for;
   * damaged input must still end in `INDEX_CORRUPT` (at load or at search time), never a raw error.
   */
  load(json: unknown, file: string, options?: { validation?: 'fast' | 'full' }): SparseIndex;
}


/** The default sparse backend: BM25F over minisearch with DocTree's analyser. */
export function minisearchSparseBackend(options: MiniSearchSparseIndexOptions = {}): SparseBackend {
  return {
    id: `minisearch-bm25f:analyzer-${SPARSE_ANALYZER_VERSION}:${canonicalJson(options)}`,
    build(docs) {
      const index = new MiniSearchSparseIndex(options);
      index.add(docs);
      return index;
    },
    load(json, file, loadOptions = {}) {
      return loadSparseIndex(json, { file, ...(loadOptions.validation ? { validation: loadOptions.validation } : {}) });
    },
  };
}
