import { yearMentions } from '@doctree/schema';
import type { Candidate, EvidenceSet } from './evidence-model.js';
import { clip, scoreSentences } from './sentence-scoring.js';

/** Years named in the best sentences, for questions asking in what year. */

/** Years named in the best sentences (for "in what year…" questions). */
export function yearCandidates(evidence: EvidenceSet): Candidate[] {
  const { profile } = evidence;
  const out: Candidate[] = [];
  for (const s of scoreSentences(evidence).slice(0, 20)) {
    for (const m of yearMentions(s.text)) {
      const year = m.year;
      if (profile.years.includes(year)) continue;
      const d = s.termPositions.length > 0 ? Math.min(...s.termPositions.map((p) => Math.abs(p - m.start))) : 200;
      out.push({
        answer: year,
        format: 'Int',
        score: s.score + 0.1 / (1 + d / 40),
        support: [clip(s.entry, s.span, { start: s.span.start + m.start, end: s.span.start + m.start + 4 })],
        notes: [`year ${year} in ${s.entry.observation.node_id}`],
      });
    }
  }
  return out.sort((a, b) => b.score - a.score).slice(0, 3);
}
