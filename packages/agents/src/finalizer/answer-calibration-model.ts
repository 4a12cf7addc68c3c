import type { AnswerCalibrationModel } from './answer-calibration-schema.js';

/**
 * The answer calibration's default model. Written by `node tools/fit/fit-answer-calibration.mjs --write-default` (do
 * not edit by hand): `fitted` records the questions, folds and cross-validated metrics the weights came from.
 */
export const DEFAULT_ANSWER_CALIBRATION_MODEL: AnswerCalibrationModel = {
  "format": "doctree.answer-calibration",
  "version": 1,
  "answer": {
    "bias": -1.9893,
    "weights": {
      "reader_confidence": 0.4943,
      "judge_score": 0,
      "judge_failed": -0.7651,
      "reader_refused": 0,
      "format_number": -1.1454,
      "format_list": -1.8945,
      "format_text": -0.1868,
      "support_rank": 0,
      "support_count": 0.6467,
      "page_top_score": 0,
      "page_margin": 0.835,
      "best_coverage": 0,
      "missing_terms": 0,
      "missing_years": -0.8026,
      "missing_names": -1.0235,
      "page_out_of_range": -0.2742,
      "replans": -0.9421,
      "type_lookup": -0.5743,
      "type_table": 0.4173,
      "type_visual": -2.1456,
      "type_multi": -0.7543,
      "type_unanswerable": -0.2742,
      "computed_answer": 2.5561
    }
  },
  "refuse": {
    "bias": -0.6923,
    "weights": {
      "reader_confidence": -0.3554,
      "judge_score": -0.5769,
      "judge_failed": 0.5945,
      "reader_refused": 0,
      "format_number": 0.2327,
      "format_list": 0.3058,
      "format_text": 0.293,
      "support_rank": 0.5999,
      "support_count": -0.6736,
      "page_top_score": 0,
      "page_margin": -0.6974,
      "best_coverage": -0.3454,
      "missing_terms": 0,
      "missing_years": 2.4845,
      "missing_names": 1.3776,
      "page_out_of_range": 0.5468,
      "replans": -0.2386,
      "type_lookup": -0.2661,
      "type_table": -0.8694,
      "type_visual": -0.3362,
      "type_multi": 0.4504,
      "type_unanswerable": 0.5468,
      "computed_answer": -1.2858
    }
  },
  "refuse_margin": 0.21,
  "reader": "extractive",
  "fitted": {
    "script": "tools/fit/fit-answer-calibration.mjs",
    "commit": "75b9394",
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
      0.001
    ],
    "max_answerable_refused": 0.25,
    "cv": {
      "accuracy": 0.1769,
      "ece": 0.0382,
      "auroc": 0.7637,
      "unanswerable_refused": 0.48,
      "answerable_refused": 0.2289
    }
  }
};
