import type { Candidate, EvidenceSet } from './evidence-model.js';
import { wordTokens } from './text-spans.js';
import { clip, scoreSentences } from './sentence-scoring.js';
import { STRICT_TEXT_TYPES, typedSpanCandidates } from './typed-span-candidates.js';
import { ordinalItemCandidates } from './list-candidates.js';

/** Names and descriptive clauses from the best sentences, for questions asking who or what. */

/** Most words of a descriptive answer clause. */
const MAX_CLAUSE_WORDS = 30;

const COPULA = /\b(?:is|was|are|were|named|called|titled|entitled|by|of|to|from|at|in)\b\s+|:\s*|[–—-]\s+/gi;

/**
 * Short strings (names, titles, places): the words after the last question term and a linking word in the best
 * sentence (`… was founded by <answer>`), else the capitalised phrase nearest the question terms, else the sentence.
 * For descriptive questions ("what does the company make?") the answer runs to the end of that clause (at most 30
 * words) instead of stopping at the first preposition.
 */
export function entityCandidates(evidence: EvidenceSet): Candidate[] {
  // A short text of a known type (a name, a code, the words an abbreviation stands for): spans of that type only.
  const typed = typedSpanCandidates(evidence);
  // The item a question asks by its position ("the second step") in the lists of the evidence.
  const items = ordinalItemCandidates(evidence);
  const out: Candidate[] = [...typed, ...items];
  // Clauses and whole sentences weigh less when the question asks a span of a known type or a list item.
  const untyped = items.length > 0 || (typed.length > 0 && STRICT_TEXT_TYPES.has(evidence.profile.textType ?? '')) ? 0.3 : 0;
  const questionStems = new Set(wordTokens(evidence.profile.question).map((t) => t.stem));
  const descriptive = evidence.profile.kind === 'text';
  for (const s of scoreSentences(evidence).slice(0, 5)) {
    const lastTerm = s.termPositions.length > 0 ? Math.max(...s.termPositions) : -1;
    let extracted: { start: number; end: number } | undefined;
    if (lastTerm >= 0) {
      const tail = s.text.slice(lastTerm);
      COPULA.lastIndex = 0;
      const link = COPULA.exec(tail);
      if (link) {
        const from = lastTerm + link.index + link[0].length;
        const rest = s.text.slice(from);
        // Names end at the first preposition or clause; a descriptive answer ("what does X do") is the rest of the clause.
        const stop = rest.search(descriptive ? /[;(]\s|[.;]\s|[,;.]$|\s(?:which|while|whereas|because|although)\s/ : /[;.(]\s|[,;.]$|,\s(?![A-Z])|\s(?:which|who|that|and|in|on|for|with|as|since|because)\s/);
        const phrase = (stop > 0 ? rest.slice(0, stop) : rest).trim().replace(/[,;:.]+$/, '');
        const words = phrase.split(/\s+/);
        const fresh = wordTokens(phrase).some((t) => !questionStems.has(t.stem));
        if (phrase && words.length <= (descriptive ? MAX_CLAUSE_WORDS : 12) && fresh) {
          const at = s.text.indexOf(phrase, from);
          extracted = { start: at, end: at + phrase.length };
        }
      }
    }
    if (!extracted && descriptive && lastTerm >= 0) {
      // "What industry does it operate in?" → the phrase holding the focus word, to the end of its clause:
      // "… operates in [the packaging industry, making containers for food]."
      let lead = 0;
      for (const m of s.text.slice(0, lastTerm).matchAll(/\s(?:in|into|of|as|is|are|was|were|on|at)\s|,\s/gi)) lead = m.index + m[0].length;
      const rest = s.text.slice(lastTerm);
      const stop = rest.search(/[;(]\s|[.;]\s|[,;.]$|\s(?:which|while|whereas|because|although)\s/);
      const phrase = s.text.slice(lead, stop > 0 ? lastTerm + stop : s.text.length).trim().replace(/[,;:.]+$/, '');
      if (phrase.split(/\s+/).length <= MAX_CLAUSE_WORDS && wordTokens(phrase).some((t) => !questionStems.has(t.stem))) {
        const at = s.text.indexOf(phrase, lead);
        extracted = { start: at, end: at + phrase.length };
      }
    }
    if (!extracted) {
      for (const m of s.text.matchAll(/\b[A-Z][A-Za-z0-9&.'-]*(?:\s+(?:of|and|the|for|&|de)?\s*[A-Z][A-Za-z0-9&.'-]*)*/g)) {
        if (m.index === 0 && m[0].split(/\s+/).length === 1) continue;
        if (wordTokens(m[0]).every((t) => questionStems.has(t.stem))) continue;
        extracted = { start: m.index, end: m.index + m[0].length };
        break;
      }
    }
    if (extracted) {
      const answer = s.text.slice(extracted.start, extracted.end);
      out.push({
        answer,
        format: 'Str',
        score: s.score - untyped,
        support: [clip(s.entry, s.span, { start: s.span.start + extracted.start, end: s.span.start + extracted.end })],
        notes: [`phrase in ${s.entry.observation.node_id}`],
      });
    }
    const whole = clip(s.entry, s.span);
    out.push({ answer: whole.snippet, format: 'Str', score: s.score - 0.15 - untyped, support: [whole], notes: [`whole sentence of ${s.entry.observation.node_id}`] });
  }
  return out.sort((a, b) => b.score - a.score).slice(0, 3);
}
