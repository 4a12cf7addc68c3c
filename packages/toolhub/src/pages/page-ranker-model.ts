import type { PageRankerModel } from './page-ranker-schema.js';

/**
 * The page ranker's default model. Written by `node tools/fit/fit-page-ranker.mjs --write-default` (do not edit by
 * hand): `fitted` records the questions, folds and cross-validated metrics the weights came from.
 */
export const DEFAULT_PAGE_RANKER_MODEL: PageRankerModel = {
  "format": "doctree.page-ranker",
  "version": 1,
  "weights": {
    "page_text_rr": 0.2294,
    "page_text_norm": 0.2697,
    "page_structure_rr": 0.1617,
    "page_structure_norm": 0.1854,
    "page_dense_rr": 0.148,
    "page_dense_norm": 0.1514,
    "bm25_node_rr": 0.2612,
    "dense_rr": 0.2026,
    "table_rr": 0.0679,
    "chart_rr": 0.0057,
    "locator_rr": 0.0202,
    "figure_rr": 0,
    "other_lane_rr": 0,
    "fused_rr": 0.2271,
    "lanes_top5": 0.2514,
    "pack": 0.2277,
    "support": 0.1316,
    "hint": 0.0208,
    "coverage": 0.1368,
    "year_match": 0.0285,
    "neighbor_text_rr": 0.0538,
    "neighbor_dense_rr": 0.0402,
    "early_page": 0.0172
  },
  "fitted": {
    "script": "tools/fit/fit-page-ranker.mjs",
    "commit": "b16e4fe",
    "questions": [
      "../shared/data/eval/dev/questions.jsonl",
      "../shared/data/eval/wide/questions.jsonl"
    ],
    "n_questions": 285,
    "n_documents": 61,
    "folds": 5,
    "seed": 1,
    "router": "rules",
    "l2": 1,
    "l2_grid": [
      0.003,
      0.03,
      0.3,
      1
    ],
    "l2_per_fold": [
      1,
      0.003,
      0.003,
      0.3,
      1
    ],
    "cv": {
      "r1": 0.3543,
      "r5": 0.719,
      "r10": 0.831,
      "mrr": 0.6242
    },
    "bm25_pages": {
      "r1": 0.3139,
      "r5": 0.5963,
      "r10": 0.698,
      "mrr": 0.5448
    }
  }
};
