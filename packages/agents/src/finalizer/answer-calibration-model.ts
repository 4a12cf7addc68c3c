import type { AnswerCalibrationModel } from './answer-calibration-schema.js';

/**
 * The answer calibration's default model. Written by `node tools/fit/fit-answer-calibration.mjs --write-default` (do
 * not edit by hand): `fitted` records the questions, folds and cross-validated metrics the weights came from.
 */
export const DEFAULT_ANSWER_CALIBRATION_MODEL: AnswerCalibrationModel = {
  "format": "doctree.answer-calibration",
  "version": 1,
  "answer": {
    "bias": -2.4311,
    "weights": {
      "reader_confidence": 1.2136,
      "judge_score": 0,
      "judge_failed": -0.2108,
      "reader_refused": 0,
      "format_number": -1.2114,
      "format_list": -2.239,
      "format_text": -0.2098,
      "support_rank": 0.0386,
      "support_count": 3.1586,
      "page_top_score": 0,
      "page_margin": 1.2216,
      "best_coverage": 0,
      "missing_terms": 0,
      "missing_years": -0.9115,
      "missing_names": -1.2444,
      "page_out_of_range": -0.4592,
      "replans": -1.0753,
      "type_lookup": -0.6546,
      "type_table": -0.2045,
      "type_visual": -1.0027,
      "type_multi": -1.4944,
      "type_unanswerable": -0.4592,
      "computed_answer": 1.5897
    }
  },
  "refuse": {
    "bias": -0.6109,
    "weights": {
      "reader_confidence": -0.0856,
      "judge_score": -0.4827,
      "judge_failed": 0.3457,
      "reader_refused": 0,
      "format_number": 0.2295,
      "format_list": 0.3712,
      "format_text": 0.3806,
      "support_rank": 0.2056,
      "support_count": -1.0688,
      "page_top_score": 0,
      "page_margin": -0.5188,
      "best_coverage": -0.4453,
      "missing_terms": 0,
      "missing_years": 2.4465,
      "missing_names": 1.3713,
      "page_out_of_range": 0.5198,
      "replans": -0.2408,
      "type_lookup": -0.2574,
      "type_table": -0.9068,
      "type_visual": -0.2851,
      "type_multi": 0.5125,
      "type_unanswerable": 0.5198,
      "computed_answer": -1.1327
    }
  },
  "refuse_margin": 0.18,
  "reader": "extractive",
  "fitted": {
    "script": "tools/fit/fit-answer-calibration.mjs",
    "commit": "53b435f",
    "questions": [
      "../shared/data/eval/dev/questions.jsonl",
      "../shared/data/eval/wide/questions.jsonl"
    ],
    "n_questions": 359,
    "n_documents": 61,
    "folds": 5,
    "seed": 1,
    "l2": 0.001,
    "l2_per_fold": [
      0.001,
      0.1,
      0.001,
      0.1,
      0.001
    ],
    "max_answerable_refused": 0.25,
    "cv": {
      "accuracy": 0.2132,
      "ece": 0.0741,
      "auroc": 0.652,
      "unanswerable_refused": 0.4933,
      "answerable_refused": 0.2289
    }
  }
};
