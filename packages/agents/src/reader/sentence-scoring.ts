import type { Support } from '@doctree/schema';
import type { EvidenceEntry, EvidenceSet } from './evidence-model.js';
import { supportFor } from './observation-text.js';
import type { TextSpan } from './text-spans.js';

/** Sentences of the evidence scored against the question, and supports clipped around what matched: the ground every text generator of the extractive reader stands on. */

/** A sentence of an observation scored against the question. */
export interface ScoredSentence {
  entry: EvidenceEntry;
  span: TextSpan;
  text: string;
  score: number;
  /** Offsets of matched question terms in `text` (sentence-relative). */
  termPositions: number[];
}

/** Longest snippet quoted for a sentence. */
const MAX_SNIPPET = 280;

/** Support for a sentence span of an entry, clipped to at most 280 characters around `focus`. */
export function clip(entry: EvidenceEntry, span: TextSpan, focus?: TextSpan): Support {
  let { start, end } = span;
  if (end - start > MAX_SNIPPET) {
    const f = focus ?? { start, end: start };
    const half = Math.floor((MAX_SNIPPET - (f.end - f.start)) / 2);
    start = Math.max(span.start, Math.min(f.start - Math.max(0, half), span.end - MAX_SNIPPET));
    end = Math.min(span.end, start + MAX_SNIPPET);
    const text = entry.text.text;
    while (start > span.start && start < f.start && /\S/.test(text[start - 1]!)) start++;
    while (end < span.end && end > f.end && /\S/.test(text[end]!)) end--;
  }
  return supportFor(entry.observation, start, end, entry.text);
}

/** Text-bearing entries (text payloads, figure descriptions; tables only through their own generators). */
export function textEntries(evidence: EvidenceSet): EvidenceEntry[] {
  return evidence.entries.filter((e) => e.observation.payload.kind !== 'table');
}

/** Every sentence scored by weighted term coverage (plus half the coverage of its heading path / caption). */
export function scoreSentences(evidence: EvidenceSet, entries: readonly EvidenceEntry[] = textEntries(evidence)): ScoredSentence[] {
  const out: ScoredSentence[] = [];
  for (const entry of entries) {
    for (const span of entry.sentences) {
      const text = entry.text.text.slice(span.start, span.end);
      const cov = evidence.coverage(text, entry.contextStems);
      if (cov.primary <= 0) continue;
      const termPositions = evidence.termPositions(entry, span, cov.matched).map((p) => p - span.start);
      out.push({ entry, span, text, score: cov.score - 0.01 * entry.rank, termPositions });
    }
  }
  return out.sort((a, b) => b.score - a.score);
}
