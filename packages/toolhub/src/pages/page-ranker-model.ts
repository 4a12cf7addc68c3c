import type { PageRankerModel } from './page-ranker.js';

/**
 * The page ranker's default model. Written by `node tools/fit/fit-page-ranker.mjs --write-default` (do not edit by
 * hand): `fitted` records the questions, folds and cross-validated metrics the weights came from.
 */
export const DEFAULT_PAGE_RANKER_MODEL: PageRankerModel = {
  format: 'doctree.page-ranker',
  version: 1,
  weights: { page_text_rr: 1, page_dense_rr: 1, bm25_node_rr: 1, dense_rr: 1, table_rr: 1, fused_rr: 1, support: 0.5, hint: 1 },
  fitted: { note: 'unfitted prior: equal weights on the main lanes' },
};
