import type { DocIndex } from '@doctree/index';
import { navigatorFor, pageViewFor } from '@doctree/toolhub';

import { DocumentWords } from '../finalizer/document-lacks.js';
import type { CooperativePause } from './cooperative.js';

/** Documents whose per-document structures are built, with their words (kept while the index lives). */
const WARMED = new WeakMap<DocIndex, DocumentWords>();

/**
 * Builds, in slices with `await pause()` between them, the per-document structures a question would otherwise build
 * in one blocking stretch on first use: the navigator's node surfaces and analysed title / path / schema terms, the
 * parsed grids of every table, the page view, and the document's words for absence checks. Done once per index (the
 * structures are cached by the index's navigator and page view); later calls return the words at once. A cancelled
 * warm-up leaves what it built in the caches and is resumed by the next call.
 *
 * @throws DocTreeError `CANCELLED` from `pause` when the question's signal aborts.
 */
export async function warmDocument(index: DocIndex, pause: CooperativePause): Promise<DocumentWords> {
  const done = WARMED.get(index);
  if (done !== undefined) return done;
  const nav = navigatorFor(index);
  await pause();
  for (const node of index.tree.nodes) {
    if (node.role === 'table') nav.table(node);
    nav.terms(node, 'title');
    nav.terms(node, 'path');
    nav.terms(node, 'schema');
    await pause();
  }
  pageViewFor(index);
  await pause();
  const words = await DocumentWords.create(index.tree.text, pause);
  WARMED.set(index, words);
  return words;
}
