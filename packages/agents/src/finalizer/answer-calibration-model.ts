import type { AnswerCalibrationModel } from './answer-calibration-schema.js';

/**
 * The answer calibration's default model. Written by `node tools/fit/fit-answer-calibration.mjs --write-default` (do
 * not edit by hand): `fitted` records the questions, folds and cross-validated metrics the weights came from.
 */
export const DEFAULT_ANSWER_CALIBRATION_MODEL: AnswerCalibrationModel = {
  "format": "doctree.answer-calibration",
  "version": 1,
  "answer": {
    "bias": -1.1379,
    "weights": {
      "reader_confidence": 1.0841,
      "judge_score": -0.7046,
      "judge_failed": -0.8432,
      "reader_refused": 0,
      "format_number": -0.6171,
      "format_list": -1.5183,
      "format_text": 0.4863,
      "support_rank": -0.0849,
      "support_count": 0.8182,
      "page_top_score": -0.8894,
      "page_margin": 1.0872,
      "best_coverage": -2.1404,
      "missing_terms": 0.0239,
      "missing_years": -0.6942,
      "missing_names": -1.1276,
      "page_out_of_range": -0.1993,
      "replans": -0.7678,
      "type_lookup": -0.0109,
      "type_table": 0.7364,
      "type_visual": -1.857,
      "type_multi": -0.3174,
      "type_unanswerable": -0.1993,
      "computed_answer": 2.2299
    }
  },
  "refuse": {
    "bias": -0.4172,
    "weights": {
      "reader_confidence": -0.2905,
      "judge_score": -0.4405,
      "judge_failed": 0.8097,
      "reader_refused": -0.4621,
      "format_number": -0.0177,
      "format_list": 0.0876,
      "format_text": 0.0574,
      "support_rank": 0.5492,
      "support_count": -0.857,
      "page_top_score": 0.2487,
      "page_margin": -0.686,
      "best_coverage": -0.7375,
      "missing_terms": -0.5325,
      "missing_years": 2.497,
      "missing_names": 1.478,
      "page_out_of_range": 0.569,
      "replans": -0.2625,
      "type_lookup": -0.2135,
      "type_table": -0.8274,
      "type_visual": -0.2544,
      "type_multi": 0.4993,
      "type_unanswerable": 0.569,
      "computed_answer": -1.2909
    }
  },
  "refuse_margin": 0.21,
  "reader": "extractive",
  "fitted": {
    "script": "tools/fit/fit-answer-calibration.mjs",
    "commit": "b78aedc",
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
      0.001,
      0.01
    ],
    "max_answerable_refused": 0.25,
    "cv": {
      "accuracy": 0.1714,
      "ece": 0.0353,
      "auroc": 0.7733,
      "unanswerable_refused": 0.44,
      "answerable_refused": 0.2042
    }
  }
};
