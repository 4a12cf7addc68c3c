import type { PageRankerModel } from './page-ranker.js';

/**
 * The page ranker's default model. Written by `node tools/fit/fit-page-ranker.mjs --write-default` (do not edit by
 * hand): `fitted` records the questions, folds and cross-validated metrics the weights came from.
 */
export const DEFAULT_PAGE_RANKER_MODEL: PageRankerModel = {
  "format": "doctree.page-ranker",
  "version": 1,
  "weights": {
    "page_text_rr": 0.2757,
    "page_text_norm": 0.4956,
    "page_structure_rr": 0.025,
    "page_structure_norm": 0.6257,
    "page_dense_rr": -0.5826,
    "page_dense_norm": 1.0469,
    "bm25_node_rr": 0.5533,
    "dense_rr": 0.8333,
    "table_rr": 1.3542,
    "chart_rr": 0.0384,
    "locator_rr": 1.1482,
    "figure_rr": 0,
    "other_lane_rr": 0,
    "fused_rr": 0.1153,
    "lanes_top5": 1.0004,
    "pack": 0.2772,
    "support": 0.3297,
    "hint": 1.0763,
    "coverage": 2.5806,
    "year_match": 1.0172,
    "neighbor_text_rr": 0.5238,
    "neighbor_dense_rr": -0.0226,
    "early_page": 0.1738
  },
  "fitted": {
    "script": "tools/fit/fit-page-ranker.mjs",
    "commit": "10b4021",
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
      0.3,
      0.003,
      0.03,
      1,
      0.3
    ],
    "cv": {
      "r1": 0.3438,
      "r5": 0.7271,
      "r10": 0.8335,
      "mrr": 0.6173
    },
    "bm25_pages": {
      "r1": 0.3139,
      "r5": 0.5963,
      "r10": 0.698,
      "mrr": 0.5448
    }
  }
};
