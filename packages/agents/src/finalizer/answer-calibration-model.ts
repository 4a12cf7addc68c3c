import type { AnswerCalibrationModel } from './answer-calibrator.js';

/**
 * The answer calibration's default model. Written by `node tools/fit/fit-answer-calibration.mjs --write-default` (do
 * not edit by hand): `fitted` records the questions, folds and cross-validated metrics the weights came from.
 */
export const DEFAULT_ANSWER_CALIBRATION_MODEL: AnswerCalibrationModel = {
  format: 'doctree.answer-calibration',
  version: 1,
  answer: { bias: -2, weights: { reader_confidence: 2, judge_score: 1 } },
  refuse: { bias: -3, weights: { missing_terms: 4, missing_years: 3, page_out_of_range: 5 } },
  fitted: { note: 'unfitted prior' },
};
