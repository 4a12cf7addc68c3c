import type { Candidate, EvidenceSet } from './evidence-model.js';
import { questionParts } from './list-candidates.js';
import { findNumbers, isYearLike, type NumberMention } from './numbers.js';
import { clip, scoreSentences } from './sentence-scoring.js';

/** Sentences (best first) searched for values stated together. */
const SENTENCES_READ = 5;

/** What a sentence stating exactly the asked number of values together gains over reading each value on its own. */
const TOGETHER_BONUS = 0.1;

/** Text between two values of one enumeration: a comma, a semicolon or a conjunction, nothing else. */
const JOIN = /^\s*(?:[,;]\s*(?:and\s+|&\s*)?|,?\s*(?:and|&)\s+)$/i;

/** The join holds a conjunction (the last join of "A, B and C"). */
const CONJUNCTION = /\b(?:and)\b|&/i;

/** Two values are of one kind: both percentages or neither, the same currency. */
const sameKind = (a: NumberMention, b: NumberMention): boolean => a.percent === b.percent && a.currency === b.currency;

/**
 * Runs of values a sentence states as one enumeration ("5.3% and 5.2%", "12, 40 and 7"): consecutive numbers (years
 * left out) of one kind joined only by commas, semicolons or "and", the last join a conjunction.
 */
export function valueRuns(text: string): NumberMention[][] {
  const numbers = findNumbers(text).filter((m) => !isYearLike(m));
  const runs: NumberMention[][] = [];
  let run: NumberMention[] = [];
  const close = (): void => {
    if (run.length >= 2 && CONJUNCTION.test(text.slice(run[run.length - 2]!.end, run[run.length - 1]!.start))) runs.push(run);
    run = [];
  };
  for (const m of numbers) {
    const prev = run[run.length - 1];
    if (prev && JOIN.test(text.slice(prev.end, m.start)) && sameKind(prev, m)) run.push(m);
    else {
      close();
      run = [m];
    }
  }
  close();
  return runs;
}

/** A list read item by item took one of the run's values from the node that states the run. */
function agrees(candidate: Candidate, run: readonly NumberMention[], nodeId: string): boolean {
  if (!Array.isArray(candidate.answer) || !candidate.support.some((s) => s.node_id === nodeId)) return false;
  const values = new Set(run.map((m) => String(m.value)));
  return candidate.answer.some((a) => values.has(String(a)));
}

/**
 * One value per item the question enumerates ("for the east and west depots respectively"), read from a
 * sentence that states exactly that many values together ("in the first two quarters growth was 5.3% and 5.2%"),
 * in the sentence's order. Values are strings as written. None when the question enumerates nothing.
 *
 * `read` are the lists answered item by item: when one of them took a value from that same sentence, the sentence's
 * enumeration answers every item, so it outranks that list (which read the other items elsewhere or twice).
 */
export function enumeratedValueCandidates(evidence: EvidenceSet, read: readonly Candidate[] = []): Candidate[] {
  const asked = questionParts(evidence.profile.question);
  if (!asked) return [];
  const count = asked.parts.length;
  const out: Candidate[] = [];
  for (const s of scoreSentences(evidence).slice(0, SENTENCES_READ)) {
    for (const run of valueRuns(s.text)) {
      if (run.length !== count) continue;
      const first = run[0]!;
      const last = run[run.length - 1]!;
      out.push({
        answer: run.map((m) => m.raw),
        format: 'List',
        score: Math.max(s.score, ...read.filter((c) => agrees(c, run, s.entry.observation.node_id)).map((c) => c.score)) + TOGETHER_BONUS,
        support: [clip(s.entry, s.span, { start: s.span.start + first.start, end: s.span.start + last.end })],
        notes: [`${count} values stated together for ${asked.parts.join(' / ')} in ${s.entry.observation.node_id}`],
      });
    }
  }
  return out.sort((a, b) => b.score - a.score).slice(0, 2);
}
