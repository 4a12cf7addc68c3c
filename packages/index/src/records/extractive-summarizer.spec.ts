import fc from 'fast-check';
import { splitSentences } from '@doctree/schema';
import { mmrSummary, mmrSummaryWith, SentenceTermCache, type MmrSummaryOptions } from './extractive-summarizer.js';
import { cosine, estimateTokens, termFrequencies } from './text-features.js';

/** mmrSummary as first written (centroid over the whole text, redundancy recomputed over every pick): the oracle. */
function referenceMmr(text: string, options: MmrSummaryOptions = {}): string {
  const opts = { lambda: 0.72, maxTokens: 150, minTokens: 80, ...options };
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

const SENTENCES = [
  'Revenue grew 10% in 2018.',
  'Revenue grew 10% in 2018 again.',
  'Operating margin improved to 21% on lower costs.',
  'The company’s state-of-the-art plant in İzmir opened (see Fig. 3).',
  'Cash flow from operations was $1,482.5 million.',
  'AT&T and R&D spending rose.',
  'e.g. a note.',
  '12.',
  '— 3 —',
  'K',
  'Net income fell, e.g. by 3%, vs. the prior year.',
  'ΣΑΣ results were final.',
  'Item 7. Management’s Discussion and Analysis.',
];

const text = fc
  .array(fc.tuple(fc.constantFrom(...SENTENCES), fc.constantFrom(' ', '  ', '\n', '\n\n', '\t')), { minLength: 1, maxLength: 40 })
  .map((parts) => parts.map(([s, gap]) => `${s}${gap}`).join(''));

describe('mmrSummary', () => {
  it('picks the same sentences as the original selection, with or without a shared sentence cache', () => {
    const shared = new SentenceTermCache(8); // small: the cache is cleared during the run, too
    fc.assert(
      fc.property(
        text,
        fc.constantFrom('', 'revenue margin', 'Cash', 'İ K'),
        fc.constantFrom<MmrSummaryOptions>({}, { maxTokens: 14, minTokens: 5 }, { maxTokens: 40, minTokens: 10, lambda: 0.5 }, { maxTokens: 3, minTokens: 1 }),
        fc.boolean(),
        (body, focus, bounds, remember) => {
          const options = { ...bounds, focus };
          shared.remember = remember;
          const expected = referenceMmr(body, options);
          expect(mmrSummary(body, options)).toBe(expected);
          expect(mmrSummaryWith(body, options, shared)).toBe(expected);
        },
      ),
      { numRuns: 400 },
    );
  });
});
