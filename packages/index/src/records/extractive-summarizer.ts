import { splitSentences } from '@doctree/schema';
import { cosine, estimateTokens, termFrequencies } from './text-features.js';

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

/**
 * Extractive summary by maximal marginal relevance over the text's own sentences: each step picks the sentence
 * most similar to the whole text (plus focus) and least similar to what was already picked, until 80–150 tokens.
 * Sentences are returned in their original order. Deterministic; no model.
 */
export function mmrSummary(text: string, options: MmrSummaryOptions = {}): string {
  const opts = { ...DEFAULTS, ...options };
  const sentences = splitSentences(text).filter((s) => s.length >= 20 || /[a-z]/i.test(s));
  if (sentences.length === 0) return text.trim().slice(0, opts.maxTokens * 4);
  const centroid = termFrequencies(`${opts.focus ?? ''} ${opts.focus ?? ''} ${text}`);
  const vectors = sentences.map((s) => termFrequencies(s));
  const relevance = vectors.map((v) => cosine(v, centroid));
  const picked: number[] = [];
  let tokens = 0;
  while (picked.length < sentences.length) {
    let best = -1;
    let bestScore = -Infinity;
    for (let i = 0; i < sentences.length; i++) {
      if (picked.includes(i)) continue;
      const redundancy = picked.length === 0 ? 0 : Math.max(...picked.map((j) => cosine(vectors[i]!, vectors[j]!)));
      const score = opts.lambda * relevance[i]! - (1 - opts.lambda) * redundancy - (i === 0 ? 0 : 0.0001 * i);
      if (score > bestScore) {
        bestScore = score;
        best = i;
      }
    }
    const cost = estimateTokens(sentences[best]!);
    if (tokens + cost > opts.maxTokens && tokens >= opts.minTokens) break;
    if (tokens + cost > opts.maxTokens && picked.length > 0) break;
    picked.push(best);
    tokens += cost;
    if (tokens >= opts.maxTokens) break;
  }
  const summary = picked
    .sort((a, b) => a - b)
    .map((i) => sentences[i]!)
    .join(' ');
  return summary.length > opts.maxTokens * 4 * 1.5 ? `${summary.slice(0, opts.maxTokens * 4).replace(/\s+\S*$/, '')}…` : summary;
}
