import type { DocTree } from '@doctree/schema';
import { sampleDocTree } from '../testing/sample-doc-tree.js';

/** The 10-K-like sample tree of the index tests (see {@link sampleDocTree}). */
export function sampleTree(): DocTree {
  return sampleDocTree();
}
