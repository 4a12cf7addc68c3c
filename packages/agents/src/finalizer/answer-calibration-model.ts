import type { AnswerCalibrationModel } from './answer-calibration-schema.js';

/**
 * The answer calibration's default model. Written by `node tools/fit/fit-answer-calibration.mjs --write-default` (do
 * not edit by hand): `fitted` records the questions, folds and cross-validated metrics the weights came from.
 */
export const DEFAULT_ANSWER_CALIBRATION_MODEL: AnswerCalibrationModel = {
  "format": "doctree.answer-calibration",
  "version": 1,
  "answer": {
    "bias": -2.5989,
    "weights": {
      "reader_confidence": 0.0932,
      "judge_score": -0.3478,
      "judge_failed": -0.1064,
      "reader_refused": 0,
      "format_number": -0.1764,
      "format_list": -0.298,
      "format_text": 0.1771,
      "support_rank": 0.3231,
      "support_count": -0.1603,
      "page_top_score": -0.2226,
      "page_margin": 0.2343,
      "best_coverage": -0.2705,
      "missing_terms": 0.0398,
      "missing_years": -0.0994,
      "missing_names": 0.7959,
      "page_out_of_range": -0.0285,
      "replans": -0.2189,
      "type_lookup": 0.034,
      "type_table": 0.5639,
      "type_visual": -0.4784,
      "type_multi": -0.3802,
      "type_unanswerable": -0.0285
    }
  },
  "refuse": {
    "bias": -1.1781,
    "weights": {
      "reader_confidence": -0.0552,
      "judge_score": -0.0811,
      "judge_failed": 0.0873,
      "reader_refused": 0.0997,
      "format_number": -0.1334,
      "format_list": -0.0227,
      "format_text": 0.0101,
      "support_rank": 0.2909,
      "support_count": -0.2068,
      "page_top_score": 0.0223,
      "page_margin": -0.1317,
      "best_coverage": -0.2792,
      "missing_terms": 0.1497,
      "missing_years": 0.9971,
      "missing_names": -0.1465,
      "page_out_of_range": 0.147,
      "replans": -0.0092,
      "type_lookup": -0.007,
      "type_table": -0.4237,
      "type_visual": -0.1836,
      "type_multi": 0.421,
      "type_unanswerable": 0.147
    }
  },
  "refuse_margin": 1,
  "reader": "extractive",
  "fitted": {
    "script": "tools/fit/fit-answer-calibration.mjs",
    "commit": "b16e4fe",
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
      0.001,
      0.01,
      0.01,
      0.01,
      0.001
    ],
    "max_answerable_refused": 0.25,
    "cv": {
      "accuracy": 0.1157,
      "ece": 0.0239,
      "auroc": 0.7212,
      "unanswerable_refused": 0.3467,
      "answerable_refused": 0.2852
    }
  }
};
