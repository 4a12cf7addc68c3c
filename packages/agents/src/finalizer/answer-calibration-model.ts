import type { AnswerCalibrationModel } from './answer-calibration-schema.js';

/**
 * The answer calibration's default model. Written by `node tools/fit/fit-answer-calibration.mjs --write-default` (do
 * not edit by hand): `fitted` records the questions, folds and cross-validated metrics the weights came from.
 */
export const DEFAULT_ANSWER_CALIBRATION_MODEL: AnswerCalibrationModel = {
  "format": "doctree.answer-calibration",
  "version": 1,
  "answer": {
    "bias": -3.0024,
    "weights": {
      "reader_confidence": 1.0534,
      "judge_score": 0,
      "judge_failed": 0,
      "reader_refused": 0,
      "format_number": -0.0273,
      "format_list": -0.4658,
      "format_text": 0.4171,
      "support_rank": 0.388,
      "support_count": 1.0438,
      "page_top_score": 0,
      "page_margin": 0.1893,
      "best_coverage": 0,
      "missing_terms": 0,
      "missing_years": -0.0996,
      "missing_names": -0.4333,
      "page_out_of_range": -0.0817,
      "replans": -0.2236,
      "type_lookup": 0.0276,
      "type_table": 0.4511,
      "type_visual": -0.2671,
      "type_multi": -0.2004,
      "type_unanswerable": -0.0817,
      "computed_answer": 0.8138,
      "missing_parts": -0.0273,
      "missing_phrases": -0.2223,
      "missing_numbers": -0.1415,
      "missing_dates": -0.0631
    }
  },
  "refuse": {
    "bias": -0.9429,
    "weights": {
      "reader_confidence": -0.2904,
      "judge_score": -0.0598,
      "judge_failed": 0.0671,
      "reader_refused": 0.1301,
      "format_number": -0.133,
      "format_list": -0.0156,
      "format_text": -0.004,
      "support_rank": -0.0789,
      "support_count": -0.2829,
      "page_top_score": 0,
      "page_margin": -0.0604,
      "best_coverage": -0.1963,
      "missing_terms": 0,
      "missing_years": 0.8342,
      "missing_names": 1.0518,
      "page_out_of_range": 0.1554,
      "replans": -0.1567,
      "type_lookup": -0.0608,
      "type_table": -0.4842,
      "type_visual": -0.1085,
      "type_multi": 0.4751,
      "type_unanswerable": 0.1554,
      "computed_answer": -0.3969,
      "missing_parts": 0.2218,
      "missing_phrases": 0.3829,
      "missing_numbers": 0.4147,
      "missing_dates": 0.8474
    }
  },
  "refuse_margin": 0.13,
  "reader": "extractive",
  "fitted": {
    "script": "tools/fit/fit-answer-calibration.mjs",
    "commit": "e64872c",
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
      0.001,
      0.001
    ],
    "max_answerable_refused": 0.25,
    "cv": {
      "accuracy": 0.2661,
      "ece": 0.0886,
      "auroc": 0.6994,
      "unanswerable_refused": 0.6,
      "answerable_refused": 0.2218
    }
  }
};
