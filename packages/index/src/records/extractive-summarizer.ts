import { splitSentences } from '@doctree/schema';
import { cosineWithNorms, estimateTokens, squaredNorm, termFrequencies } from './text-features.js';

/** Options of {@link mmrSummary}. */
export interface MmrSummaryOptions {
  /** Relevance/diversity trade-off (docs/design/index-features.md §6: λ ≈ 0.72). */
  lambda?: number;
  /** Stop adding sentences past this many tokens. Default 150. */
  maxTokens?: number;
  /** Try to reach at least this many tokens when the text allows. Default 80. */
  minTokens?: number;
  /** Extra text that defines what is relevant (e.g. the section title). */
  focus?: string;
}

const DEFAULTS: Required<Omit<MmrSummaryOptions, 'focus'>> = { lambda: 0.72, maxTokens: 150, minTokens: 80 };

/** Term frequencies of a sentence and their squared norm. */
interface SentenceTerms {
  tf: Map<string, number>;
  norm: number;
}

/**
 * Term frequencies of sentences, by sentence text: the summaries of one document read the same sentences again and
 * again (a section summarised by its subtree holds the sentences of its sub-sections), so each is counted once. The
 * maps are shared: callers never change them. Bounded: cleared past `limit` sentences.
 */
export class SentenceTermCache {
  /**
   * Whether sentences counted from now on are kept (default true). Sentences read once only (a section's own text,
   * which no later section holds) need not be: fewer long-lived maps, less work for the garbage collector.
   */
  remember = true;
  readonly #entries = new Map<string, SentenceTerms>();

  constructor(private readonly limit = 200_000) {}

  get(sentence: string): SentenceTerms {
    let entry = this.#entries.get(sentence);
    if (entry === undefined) {
      const tf = termFrequencies(sentence);
      entry = { tf, norm: squaredNorm(tf) };
      if (this.remember) {
        if (this.#entries.size >= this.limit) this.#entries.clear();
        this.#entries.set(sentence, entry);
      }
    }
    return entry;
  }
}

/**
 * Extractive summary by maximal marginal relevance over the text's own sentences: each step picks the sentence
 * most similar to the whole text (plus focus) and least similar to what was already picked, until 80–150 tokens.
 * Sentences are returned in their original order. Deterministic; no model.
 */
export function mmrSummary(text: string, options: MmrSummaryOptions = {}): string {
  return mmrSummaryWith(text, options, new SentenceTermCache());
}

/**
 * {@link mmrSummary} reading sentence term frequencies through `cache` (one per document). Same result, cheaper:
 * - The relevance centroid, the term frequencies of `focus focus text`, is summed from those of the focus and of every
 *   sentence: the sentences cover every character of the text but whitespace, and no term spans whitespace, so the
 *   counts are the ones a pass over the whole text gives (whole numbers, so sums and dot products are exact).
 * - Each candidate's redundancy (its greatest similarity to a picked sentence) is updated with the last pick only,
 *   instead of being recomputed over every pick at every step; norms are computed once.
 */
export function mmrSummaryWith(text: string, options: MmrSummaryOptions, cache: SentenceTermCache): string {
  const opts = { ...DEFAULTS, ...options };
  const all = splitSentences(text);
  const sentences = all.filter((s) => s.length >= 20 || /[a-z]/i.test(s));
  if (sentences.length === 0) return text.trim().slice(0, opts.maxTokens * 4);
  const centroid = termFrequencies(`${opts.focus ?? ''} ${opts.focus ?? ''}`);
  for (const sentence of all) for (const [term, count] of cache.get(sentence).tf) centroid.set(term, (centroid.get(term) ?? 0) + count);
  const centroidNorm = squaredNorm(centroid);
  const vectors = sentences.map((s) => cache.get(s));
  const relevance = vectors.map((v) => cosineWithNorms(v.tf, v.norm, centroid, centroidNorm));
  const redundancy = new Float64Array(sentences.length);
  const isPicked = new Uint8Array(sentences.length);
  const picked: number[] = [];
  let tokens = 0;
  while (picked.length < sentences.length) {
    const last = picked.length > 0 ? vectors[picked[picked.length - 1]!]! : undefined;
    let best = -1;
    let bestScore = -Infinity;
    for (let i = 0; i < sentences.length; i++) {
      if (isPicked[i]) continue;
      const v = vectors[i]!;
      // Similarities are never negative, so the running maximum starting at 0 is the maximum over the picks.
      if (last !== undefined) redundancy[i] = Math.max(redundancy[i]!, cosineWithNorms(v.tf, v.norm, last.tf, last.norm));
      const score = opts.lambda * relevance[i]! - (1 - opts.lambda) * redundancy[i]! - (i === 0 ? 0 : 0.0001 * i);
      if (score > bestScore) {
        bestScore = score;
        best = i;
      }
    }
    const cost = estimateTokens(sentences[best]!);
    if (tokens + cost > opts.maxTokens && tokens >= opts.minTokens) break;
    if (tokens + cost > opts.maxTokens && picked.length > 0) break;
    picked.push(best);
    isPicked[best] = 1;
    tokens += cost;
    if (tokens >= opts.maxTokens) break;
  }
  const summary = picked
    .sort((a, b) => a - b)
    .map((i) => sentences[i]!)
    .join(' ');
  return summary.length > opts.maxTokens * 4 * 1.5 ? `${summary.slice(0, opts.maxTokens * 4).replace(/\s+\S*$/, '')}…` : summary;
}
