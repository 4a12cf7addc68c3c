import type { PageRankerModel } from './page-ranker.js';

/**
 * The page ranker's default model. Written by `node tools/fit/fit-page-ranker.mjs --write-default` (do not edit by
 * hand): `fitted` records the questions, folds and cross-validated metrics the weights came from.
 */
export const DEFAULT_PAGE_RANKER_MODEL: PageRankerModel = {
  "format": "doctree.page-ranker",
  "version": 1,
  "weights": {
    "page_text_rr": 0.287,
    "page_text_norm": 0.486,
    "page_structure_rr": 0.0547,
    "page_structure_norm": 0.5865,
    "page_dense_rr": -0.5834,
    "page_dense_norm": 1.0358,
    "bm25_node_rr": 0.5821,
    "dense_rr": 0.8284,
    "table_rr": 1.3504,
    "chart_rr": 0.0638,
    "locator_rr": 1.1491,
    "figure_rr": 0,
    "other_lane_rr": 0,
    "fused_rr": 0.0807,
    "lanes_top5": 1.0129,
    "pack": 0.2824,
    "support": 0.3232,
    "hint": 1.0728,
    "coverage": 2.2734,
    "year_match": 1.0368,
    "neighbor_text_rr": 0.5494,
    "neighbor_dense_rr": -0.0171,
    "early_page": 0.1453
  },
  "fitted": {
    "script": "tools/fit/fit-page-ranker.mjs",
    "commit": "618ba30",
    "questions": [
      "../shared/data/eval/dev/questions.jsonl",
      "../shared/data/eval/wide/questions.jsonl"
    ],
    "n_questions": 285,
    "n_documents": 61,
    "folds": 5,
    "seed": 1,
    "router": "rules",
    "l2": 0.003,
    "l2_grid": [
      0.003,
      0.03,
      0.3,
      1
    ],
    "l2_per_fold": [
      1,
      0.003,
      0.03,
      0.3,
      0.3
    ],
    "cv": {
      "r1": 0.3438,
      "r5": 0.7236,
      "r10": 0.83,
      "mrr": 0.6182
    },
    "bm25_pages": {
      "r1": 0.3139,
      "r5": 0.5963,
      "r10": 0.698,
      "mrr": 0.5448
    }
  }
};
