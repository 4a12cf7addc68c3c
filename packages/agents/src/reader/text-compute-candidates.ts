import type { Candidate, EvidenceSet } from './evidence-model.js';
import { findNumbers, isYearLike, type NumberMention } from './numbers.js';
import { comparedYears } from './question-profile.js';
import { clip, scoreSentences } from './sentence-scoring.js';
import { attachedYear } from './text-number-candidates.js';

/** Answers computed from numbers written in the evidence text (a difference or change the question asks for). */

/**
 * Changes over time stated in running text: "costs totaled $372 million in 2018, $389 million in 2017 and $361
 * million in 2016" answers the growth rate of 2018 (−4.37%), the change from 2016 to 2018, or their sum / average.
 * The years are those asked, or the year asked and the one before it for a growth rate or change; each year's value
 * is the number stated for it in one of the best sentences ({@link attachedYear}). Cited by that sentence.
 */
export function textComputeCandidates(evidence: EvidenceSet): Candidate[] {
  const { profile } = evidence;
  const op = profile.operations.find((o) => o === 'percent_change' || o === 'difference' || o === 'sum' || o === 'average');
  if (!op) return [];
  const years = comparedYears(profile, op);
  if (years.length < 2) return [];
  const out: Candidate[] = [];
  for (const s of scoreSentences(evidence).slice(0, 10)) {
    // The sentence must be about what the question asks (as computed table rows must).
    if (s.score < 0.3) continue;
    const mentions = findNumbers(s.text);
    const byYear = new Map<number, NumberMention>();
    for (const [i, m] of mentions.entries()) {
      if (isYearLike(m) || m.percent) continue;
      const year = attachedYear(s.text, mentions, i);
      if (year !== undefined && years.includes(year) && !byYear.has(year)) byYear.set(year, m);
    }
    if (!years.every((y) => byYear.has(y))) continue;
    const values = years.map((y) => byYear.get(y)!.value);
    const first = values[0]!;
    const last = values[values.length - 1]!;
    let value: number;
    if (op === 'percent_change') {
      if (first === 0) continue;
      value = ((last - first) / Math.abs(first)) * 100;
    } else if (op === 'difference') value = last - first;
    else if (op === 'sum') value = values.reduce((a, b) => a + b, 0);
    else value = values.reduce((a, b) => a + b, 0) / values.length;
    value = Math.round(value * 1e4) / 1e4;
    const firstMention = byYear.get(years[0]!)!;
    const lastMention = byYear.get(years[years.length - 1]!)!;
    const focus = { start: s.span.start + Math.min(firstMention.start, lastMention.start), end: s.span.start + Math.max(firstMention.end, lastMention.end) };
    out.push({
      answer: value,
      format: Number.isInteger(value) && profile.format !== 'Float' ? 'Int' : 'Float',
      score: s.score + 0.3,
      support: [clip(s.entry, s.span, focus)],
      computed: true,
      notes: [`${op} over ${years.join(', ')} from ${s.entry.observation.node_id}: ${values.join(', ')} → ${value}${op === 'percent_change' ? '%' : ''}`],
    });
  }
  return out.sort((a, b) => b.score - a.score).slice(0, 2);
}
