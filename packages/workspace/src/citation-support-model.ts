/**
 * The citation support model: a logistic model over `SupportFeatures` mapping a claim and a passage of the cited
 * document to the support score that `verify-citations` compares with T (0.55 by default). Written by
 * `packages/workspace/fit/fit-citation-support.mjs --write-default`; never edit by hand.
 */
export interface CitationSupportModel {
  format: 'doctree.citation-support-model';
  version: 1;
  /** Weights of recall, numbers, entities, dense. */
  weights: readonly [number, number, number, number];
  intercept: number;
  /** How and on what it was fitted. */
  fitted: string;
}

/** The shipped model. */
export const CITATION_SUPPORT_MODEL: CitationSupportModel = {
  format: 'doctree.citation-support-model',
  version: 1,
  weights: [6, 4, 2, 1],
  intercept: -9.5,
  fitted: 'not fitted yet: run fit-citation-support.mjs --write-default',
};
