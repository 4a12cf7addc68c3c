import { analyzeQuery } from '@doctree/index';
import { sentenceSpans } from './chunking.js';
import { CITATION_SUPPORT_MODEL, type CitationSupportModel } from './citation-support-model.js';

/** What a passage says of a claim, each in [0, 1]. */
export interface SupportFeatures {
  /** Share of the claim's terms in the best window (one to three consecutive sentences) of the passage. */
  recall: number;
  /** 1 when the window contains every number of the claim (or the claim has none), else 0: one changed figure is a different claim. */
  numbers: number;
  /** 1 when the window contains every capitalised name of the claim (or it has none), else 0. */
  entities: number;
  /** Cosine of claim and passage vectors (0 when not given). */
  dense: number;
}

/** Names of the features, in the order of the model's weights. */
export const SUPPORT_FEATURES = ['recall', 'numbers', 'entities', 'dense'] as const;

const NUMBER = /[0-9]+(?:[.,][0-9]+)*/g;
const NAME = /\b[A-Z][A-Za-z0-9&'-]*[A-Za-z0-9]\b/g;

function numbersOf(text: string): string[] {
  return [...new Set((text.match(NUMBER) ?? []).map((n) => n.replace(/,(?=[0-9]{3}\b)/g, '')))];
}

function namesOf(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(NAME)) {
    if (m.index === 0) continue; // the first word of a sentence is capitalised anyway
    out.add(m[0]);
  }
  return [...out];
}

/** Features of `claim` against `passage` (see {@link SupportFeatures}). */
export function supportFeatures(claim: string, passage: string, dense = 0): SupportFeatures {
  const claimTerms = [...new Set(analyzeQuery(claim))];
  const claimNumbers = numbersOf(claim);
  const claimNames = namesOf(claim);
  const spans = sentenceSpans(passage);
  const windows: string[] = [];
  for (let i = 0; i < spans.length; i++) {
    for (let w = 1; w <= 3 && i + w <= spans.length; w++) windows.push(passage.slice(spans[i]!.start, spans[i + w - 1]!.end));
  }
  if (windows.length === 0) windows.push(passage);
  let best: SupportFeatures = { recall: 0, numbers: claimNumbers.length === 0 ? 1 : 0, entities: claimNames.length === 0 ? 1 : 0, dense: Math.max(0, dense) };
  let bestKey = -1;
  for (const window of windows) {
    const terms = new Set(analyzeQuery(window));
    const recall = claimTerms.length === 0 ? 0 : claimTerms.filter((t) => terms.has(t)).length / claimTerms.length;
    const windowNumbers = new Set(numbersOf(window));
    const numbers = claimNumbers.every((n) => windowNumbers.has(n)) ? 1 : 0;
    const entities = claimNames.every((n) => window.includes(n)) ? 1 : 0;
    const key = recall + numbers + entities + recall * (numbers + entities);
    if (key > bestKey) {
      bestKey = key;
      best = { recall, numbers, entities, dense: Math.max(0, dense) };
    }
  }
  return best;
}

/** The support score in [0, 1]: the fitted logistic model over {@link SupportFeatures}. */
export function supportScore(features: SupportFeatures, model: CitationSupportModel = CITATION_SUPPORT_MODEL): number {
  let z = model.intercept;
  SUPPORT_FEATURES.forEach((name, i) => {
    z += model.weights[i]! * features[name];
  });
  return 1 / (1 + Math.exp(-z));
}
