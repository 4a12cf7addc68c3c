import type { Candidate, EvidenceSet } from './evidence-model.js';
import { clip, scoreSentences } from './sentence-scoring.js';
import { yearCandidates } from './year-candidates.js';

/** Dates written in the best sentences, for questions asking when. */

const MONTH = '(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)';
const DATE_RE = new RegExp(
  `\\b${MONTH}\\.?\\s+\\d{1,2}(?:st|nd|rd|th)?,?\\s+\\d{4}\\b|\\b\\d{1,2}(?:st|nd|rd|th)?\\s+${MONTH}\\.?,?\\s+\\d{4}\\b|\\b\\d{4}-\\d{2}-\\d{2}\\b|\\b\\d{1,2}/\\d{1,2}/\\d{2,4}\\b|\\b${MONTH}\\s+\\d{4}\\b`,
  'g',
);

/** Dates written in the best sentences (for "when…" / "what date…" questions); years when no full date is found. */
export function dateCandidates(evidence: EvidenceSet): Candidate[] {
  const out: Candidate[] = [];
  for (const s of scoreSentences(evidence).slice(0, 20)) {
    for (const m of s.text.matchAll(DATE_RE)) {
      const d = s.termPositions.length > 0 ? Math.min(...s.termPositions.map((p) => Math.abs(p - m.index))) : 200;
      out.push({
        answer: m[0],
        format: 'Str',
        score: s.score + 0.1 / (1 + d / 40),
        support: [clip(s.entry, s.span, { start: s.span.start + m.index, end: s.span.start + m.index + m[0].length })],
        notes: [`date "${m[0]}" in ${s.entry.observation.node_id}`],
      });
    }
  }
  if (out.length === 0) return yearCandidates(evidence).map((c) => ({ ...c, score: c.score - 0.05 }));
  return out.sort((a, b) => b.score - a.score).slice(0, 3);
}
