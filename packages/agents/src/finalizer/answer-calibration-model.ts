import type { AnswerCalibrationModel } from './answer-calibrator.js';

/**
 * The answer calibration's default model. Written by `node tools/fit/fit-answer-calibration.mjs --write-default` (do
 * not edit by hand): `fitted` records the questions, folds and cross-validated metrics the weights came from.
 */
export const DEFAULT_ANSWER_CALIBRATION_MODEL: AnswerCalibrationModel = {
  "format": "doctree.answer-calibration",
  "version": 1,
  "answer": {
    "bias": -2.462,
    "weights": {
      "reader_confidence": 0.2185,
      "judge_score": -0.3366,
      "judge_failed": -0.1047,
      "reader_refused": 0,
      "format_number": -0.1348,
      "format_list": -0.3037,
      "format_text": 0.1479,
      "support_rank": 0.1946,
      "support_count": -0.1599,
      "page_top_score": -0.2827,
      "page_margin": 0.2148,
      "best_coverage": -0.4626,
      "missing_terms": 0.1425,
      "missing_years": -0.1024,
      "missing_names": 0.7139,
      "page_out_of_range": -0.0308,
      "replans": -0.1658,
      "type_lookup": 0.085,
      "type_table": 0.4923,
      "type_visual": -0.4566,
      "type_multi": -0.373,
      "type_unanswerable": -0.0308
    }
  },
  "refuse": {
    "bias": -1.1222,
    "weights": {
      "reader_confidence": -0.0302,
      "judge_score": -0.0847,
      "judge_failed": 0.0891,
      "reader_refused": 0.1042,
      "format_number": -0.1175,
      "format_list": -0.0275,
      "format_text": -0.0095,
      "support_rank": 0.2473,
      "support_count": -0.2119,
      "page_top_score": -0.0581,
      "page_margin": -0.1321,
      "best_coverage": -0.2495,
      "missing_terms": 0.136,
      "missing_years": 0.9866,
      "missing_names": -0.1379,
      "page_out_of_range": 0.1452,
      "replans": -0.0243,
      "type_lookup": -0.0082,
      "type_table": -0.4255,
      "type_visual": -0.1774,
      "type_multi": 0.4158,
      "type_unanswerable": 0.1452
    }
  },
  "refuse_margin": 1,
  "fitted": {
    "script": "tools/fit/fit-answer-calibration.mjs",
    "commit": "ed7badf",
    "questions": [
      "../shared/data/eval/dev/questions.jsonl",
      "../shared/data/eval/wide/questions.jsonl"
    ],
    "n_questions": 359,
    "n_documents": 61,
    "folds": 5,
    "seed": 1,
    "l2": 0.01,
    "l2_per_fold": [
      0.1,
      0.01,
      0.01,
      0.01,
      0.001
    ],
    "max_answerable_refused": 0.25,
    "cv": {
      "accuracy": 0.1157,
      "ece": 0.0272,
      "auroc": 0.69,
      "unanswerable_refused": 0.36,
      "answerable_refused": 0.2923
    }
  }
};
