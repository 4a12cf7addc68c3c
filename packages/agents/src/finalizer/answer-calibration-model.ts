import type { AnswerCalibrationModel } from './answer-calibration-schema.js';

/**
 * The answer calibration's default model. Written by `node tools/fit/fit-answer-calibration.mjs --write-default` (do
 * not edit by hand): `fitted` records the questions, folds and cross-validated metrics the weights came from.
 */
export const DEFAULT_ANSWER_CALIBRATION_MODEL: AnswerCalibrationModel = {
  "format": "doctree.answer-calibration",
  "version": 1,
  "answer": {
    "bias": -2.3861,
    "weights": {
      "reader_confidence": 1.5598,
      "judge_score": 0,
      "judge_failed": 0,
      "reader_refused": 0,
      "format_number": -1.3123,
      "format_list": -1.715,
      "format_text": -0.3461,
      "support_rank": 0.2206,
      "support_count": 2.9017,
      "page_top_score": 0,
      "page_margin": 0.9427,
      "best_coverage": 0,
      "missing_terms": 0,
      "missing_years": -0.99,
      "missing_names": -1.2997,
      "page_out_of_range": -0.5075,
      "replans": -1.2831,
      "type_lookup": -0.7211,
      "type_table": -0.1675,
      "type_visual": -1.0498,
      "type_multi": -1.1436,
      "type_unanswerable": -0.5075,
      "computed_answer": 1.4295
    }
  },
  "refuse": {
    "bias": -0.5855,
    "weights": {
      "reader_confidence": -0.1375,
      "judge_score": -0.4556,
      "judge_failed": 0.3221,
      "reader_refused": 0,
      "format_number": 0.2014,
      "format_list": 0.3593,
      "format_text": 0.3726,
      "support_rank": 0.0622,
      "support_count": -0.7255,
      "page_top_score": 0,
      "page_margin": -0.4135,
      "best_coverage": -0.4633,
      "missing_terms": 0,
      "missing_years": 2.4101,
      "missing_names": 1.3663,
      "page_out_of_range": 0.5116,
      "replans": -1.1921,
      "type_lookup": -0.2649,
      "type_table": -0.8905,
      "type_visual": -0.2503,
      "type_multi": 0.5028,
      "type_unanswerable": 0.5116,
      "computed_answer": -1.2008
    }
  },
  "refuse_margin": 0.16,
  "reader": "extractive",
  "fitted": {
    "script": "tools/fit/fit-answer-calibration.mjs",
    "commit": "4aa39c9",
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
      0.01,
      0.001,
      0.1,
      0.01
    ],
    "max_answerable_refused": 0.25,
    "cv": {
      "accuracy": 0.2215,
      "ece": 0.0571,
      "auroc": 0.6606,
      "unanswerable_refused": 0.4933,
      "answerable_refused": 0.2289
    }
  }
};
