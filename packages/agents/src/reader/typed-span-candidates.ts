import type { Candidate, EvidenceEntry, EvidenceSet } from './evidence-model.js';
import { parseNumberCell } from './numbers.js';
import { clip, scoreSentences } from './sentence-scoring.js';
import { tableRowSupport } from './table-candidates.js';
import { wordTokens, type TextSpan } from './text-spans.js';

/**
 * Short spans of the type a question asks ({@link TextAnswerType} of the question analysis): the words an
 * abbreviation stands for, names (capitalised runs) of people, organisations and places, codes and numbers written
 * with letters or separators, and text cells of tables at the row and column the question names. General rules of
 * written English only.
 */

/** Types whose spans are the answer's shape: clauses and sentences lose against them. */
export const STRICT_TEXT_TYPES: ReadonlySet<string> = new Set(['person', 'organization', 'place', 'name', 'expansion', 'code', 'definition']);

/** Words an abbreviation's letters skip ("Department of Space" → DOS keeps the "of"; "Bank of India" → BI skips it). */
const CONNECTOR = /^(?:of|and|for|the|on|in|at|to|de|du|des|la|le|&|a|an|with|von|van|der)$/i;

/** Most words a name answer holds. */
const MAX_NAME_WORDS = 8;

/** Leading rows of a table that may hold its header lines. */
const HEADER_ROWS = 6;

/** Sentences looked at for names and codes. */
const TOP_SENTENCES = 8;

/** Abbreviations written in the question (`NARL`, `R&D`): two or more capitals, letters and digits. */
function questionAbbreviations(question: string): string[] {
  return [...new Set([...question.matchAll(/(?<![\p{L}\p{N}])([A-Z][A-Za-z0-9&]{1,11})(?![\p{L}\p{N}])/gu)].map((m) => m[1]!).filter((w) => (w.match(/[A-Z]/g) ?? []).length >= 2 && w.replace(/[^A-Za-z]/g, '').length >= 2))];
}

/** Initial letters of words (parts of hyphenated words too), connectors skipped or kept. */
function initials(words: readonly string[], keepConnectors: boolean): string {
  return words
    .flatMap((w) => w.split(/[-‐–]/))
    .filter((w) => w !== '' && (keepConnectors || !CONNECTOR.test(w)))
    .map((w) => w[0]!)
    .join('')
    .toLowerCase();
}

const ESCAPE = /[.*+?^${}()|[\]\\]/g;

/**
 * "What does ABC stand for?": the words before "(ABC)" whose initials spell it ("Alpha Beta Council (ABC)"), or the
 * words in parentheses after it ("ABC (Alpha Beta Council)").
 */
function expansionCandidates(evidence: EvidenceSet): Candidate[] {
  const out: Candidate[] = [];
  for (const abbreviation of questionAbbreviations(evidence.profile.question)) {
    const letters = abbreviation.replace(/[^A-Za-z]/g, '').toLowerCase();
    const escaped = abbreviation.replace(ESCAPE, '\\$&');
    const before = new RegExp(`\\(\\s*${escaped}\\s*\\)`, 'g');
    const after = new RegExp(`(?<![\\p{L}\\p{N}])${escaped}\\s*\\(([^()]{3,120})\\)`, 'gu');
    for (const entry of evidence.entries) {
      const text = entry.text.text;
      for (const m of text.matchAll(before)) {
        const lead = text.slice(Math.max(0, m.index - 160), m.index);
        const words = [...lead.matchAll(/[\p{L}\p{N}][\p{L}\p{N}&'’.-]*/gu)];
        for (let k = 1; k <= Math.min(words.length, letters.length * 2 + 2); k++) {
          const run = words.slice(words.length - k);
          const phrase = run.map((w) => w[0]);
          if (!/^\p{Lu}/u.test(phrase[0]!)) continue;
          if (initials(phrase, false) !== letters && initials(phrase, true) !== letters) continue;
          const start = m.index - lead.length + run[0]!.index;
          const end = m.index - lead.length + run[run.length - 1]!.index + run[run.length - 1]![0].length;
          out.push(spanCandidate(entry, { start, end }, 0.9 - 0.01 * entry.rank, `"${abbreviation}" written out in ${entry.observation.node_id}`));
          break;
        }
      }
      for (const m of text.matchAll(after)) {
        const inner = m[1]!.trim();
        const words = inner.split(/\s+/);
        if (initials(words, false) !== letters && initials(words, true) !== letters) continue;
        const start = m.index + m[0].indexOf(inner);
        out.push(spanCandidate(entry, { start, end: start + inner.length }, 0.85 - 0.01 * entry.rank, `"${abbreviation}" written out in ${entry.observation.node_id}`));
      }
    }
  }
  return out;
}

function spanCandidate(entry: EvidenceEntry, span: TextSpan, score: number, note: string): Candidate {
  const sentence = entry.sentences.find((s) => s.start <= span.start && s.end >= span.end) ?? span;
  return { answer: entry.text.text.slice(span.start, span.end), format: 'Str', score, support: [clip(entry, sentence, span)], notes: [note] };
}

/** A capitalised run: words starting with a capital (initials and honorifics too), joined by connectors. */
const NAME_RUN = /(?:\p{Lu}[\p{L}\p{N}&'’.-]*)(?:\s+(?:(?:of|and|for|the|de|du|la|von|van|der|&)\s+)*\p{Lu}[\p{L}\p{N}&'’.-]*)*/gu;

/** Words that precede a place ("in Berlin", "located at …"). */
const PLACE_LEAD = /\b(?:in|at|from|near|to|located|based|held|headquartered)\s+(?:the\s+)?$/i;

/** Names (capitalised runs) in the best sentences, nearest the question's terms first; places after "in / at / from". */
function nameCandidates(evidence: EvidenceSet, type: string): Candidate[] {
  const out: Candidate[] = [];
  const questionStems = new Set(wordTokens(evidence.profile.question).map((t) => t.stem));
  for (const s of scoreSentences(evidence).slice(0, TOP_SENTENCES)) {
    for (const m of s.text.matchAll(NAME_RUN)) {
      let name = m[0].replace(/[.,;:'’-]+$/, (tail) => (/^\.$/.test(tail) && /\b\p{Lu}\.$/u.test(m[0]) ? tail : ''));
      // A place written with its region ("Lakeside, Ontario"): the region closes the clause.
      const region = type === 'place' ? /^,\s*\p{Lu}[\p{L}'’-]*(?:\s+\p{Lu}[\p{L}'’-]*)?(?=\s*(?:[.;,)]|$))/u.exec(s.text.slice(m.index + name.length)) : null;
      if (region) name += region[0];
      const words = name.split(/\s+/);
      if (name.length < 2 || words.length > MAX_NAME_WORDS) continue;
      if (m.index === 0 && words.length === 1) continue;
      const tokens = wordTokens(name);
      if (tokens.length === 0 || tokens.every((t) => questionStems.has(t.stem))) continue;
      // Headings and shouted lines are not names: a run of capitals longer than a few words.
      if (words.length > 4 && name === name.toUpperCase()) continue;
      const distance = s.termPositions.length > 0 ? Math.min(...s.termPositions.map((p) => Math.abs(p - m.index))) : 200;
      let score = s.score + 0.15 / (1 + distance / 40) - 0.03 * tokens.filter((t) => questionStems.has(t.stem)).length;
      if (type === 'place' && PLACE_LEAD.test(s.text.slice(0, m.index))) score += 0.1;
      if (type === 'person' && words.length >= 2) score += 0.05;
      const start = s.span.start + m.index;
      out.push({ answer: name, format: 'Str', score, support: [clip(s.entry, s.span, { start, end: start + name.length })], notes: [`name in ${s.entry.observation.node_id}`] });
    }
  }
  return out;
}

/** A code: letters and digits, or digit groups with separators (`AB-1203`, `P2.4`, `0171 555 0199`). */
const CODE = /(?<![\p{L}\p{N}])(?:\p{Lu}{0,5}[-.]?\d[\dA-Za-z]*(?:[-./]\w+)*(?:\s\d{2,}){0,3})(?![\p{L}\p{N}])/gu;

/** Codes and numbers in the best sentences, nearest the question's terms first; one after a "label:" scores more. */
function codeCandidates(evidence: EvidenceSet): Candidate[] {
  const out: Candidate[] = [];
  for (const s of scoreSentences(evidence).slice(0, TOP_SENTENCES)) {
    for (const m of s.text.matchAll(CODE)) {
      const code = m[0].trim();
      const plain = parseNumberCell(code);
      if (plain && evidence.profile.questionNumbers.has(Math.abs(plain.value))) continue;
      const distance = s.termPositions.length > 0 ? Math.min(...s.termPositions.map((p) => (p <= m.index ? m.index - p : 2 * (p - m.index)))) : 200;
      const labelled = /[:#]\s*$|\bno\.?\s*$/i.test(s.text.slice(0, m.index));
      const start = s.span.start + m.index;
      // A short bare number, or a number counting something ("28 people"), is no code.
      if ((plain !== null && /^\d{1,3}$/.test(code)) || (plain !== null && /^\s+\p{Ll}/u.test(s.text.slice(m.index + m[0].length)))) continue;
      out.push({
        answer: code,
        format: 'Str',
        score: s.score + 0.15 / (1 + distance / 30) + (labelled ? 0.05 : 0),
        support: [clip(s.entry, s.span, { start, end: start + code.length })],
        notes: [`code in ${s.entry.observation.node_id}`],
      });
    }
  }
  out.push(...labelledCodes(evidence));
  return out;
}

/** A field label and its code ("Tel: 0171 555 0199", "Ref. No.: AB-12"). */
const LABELLED = new RegExp(`(?<![\\p{L}])(\\p{L}[\\p{L}.]{1,20})\\s*(?:no\\.?|number)?\\s*[:#]\\s*(${CODE.source})`, 'giu');

/**
 * Codes after a field label that names (or abbreviates: "Tel" for "telephone") a word of the question, anywhere in
 * the evidence: a form's fields rarely hold the question's other words.
 */
function labelledCodes(evidence: EvidenceSet): Candidate[] {
  const out: Candidate[] = [];
  const words = wordTokens(evidence.profile.question).map((t) => ({ word: t.word.toLowerCase(), stem: t.stem }));
  for (const entry of evidence.entries) {
    const text = entry.text.text;
    for (const m of text.matchAll(LABELLED)) {
      const label = m[1]!.replace(/\.$/, '').toLowerCase();
      if (label.length < 3 || !words.some((w) => w.word.length > 3 && (w.word.startsWith(label) || w.stem === label))) continue;
      const code = m[2]!.trim();
      const start = m.index + m[0].lastIndexOf(code);
      out.push(spanCandidate(entry, { start, end: start + code.length }, 0.6 + 0.2 * evidence.coverage(text, entry.contextStems).score - 0.01 * entry.rank, `code labelled "${m[1]}" in ${entry.observation.node_id}`));
    }
  }
  return out;
}

/**
 * Text cells of tables: in the row the question names (by any of its other cells) and the column whose header it
 * names ("the type of service for testing" → the row "testing", the column "Type"). The row and the column both count.
 */
function tableTextCandidates(evidence: EvidenceSet): Candidate[] {
  const out: Candidate[] = [];
  const questionStems = new Set(wordTokens(evidence.profile.question).map((t) => t.stem));
  for (const entry of evidence.entries) {
    const p = entry.observation.payload;
    if (p.kind !== 'table' || p.rows.length === 0) continue;
    // A column's header: its label, plus the short cells above in the first rows (headers split over several rows).
    const headerRows = p.rows.slice(0, HEADER_ROWS);
    p.rows.forEach((row, r) => {
      for (let c = 0; c < row.length; c++) {
        const cell = (row[c] ?? '').trim();
        if (cell === '' || parseNumberCell(cell) !== null || cell.split(/\s+/).length > MAX_NAME_WORDS * 2) continue;
        const above = headerRows.slice(0, r).map((h) => (h[c] ?? '').trim()).filter((h) => h !== '' && h.split(/\s+/).length <= 4);
        // A long column label is an instruction or a note, not a header.
        const label = (p.columns[c] ?? '').split(/\s+/).length <= MAX_NAME_WORDS ? (p.columns[c] ?? '') : '';
        const header = evidence.coverage([label, ...above].join(' '));
        if (header.primary <= 0) continue;
        const tokens = wordTokens(cell);
        if (tokens.length === 0 || tokens.every((t) => questionStems.has(t.stem))) continue;
        const others = row.filter((_, i) => i !== c).join(' ');
        // The row is named by words of the question its column's header does not already hold.
        const headerStems = new Set(header.matched.map((t) => t.stem));
        const rowTerms = evidence.coverage(others).matched.filter((t) => !headerStems.has(t.stem));
        if (rowTerms.length === 0) continue;
        const rowScore = rowTerms.reduce((sum, t) => sum + t.weight, 0) / evidence.totalWeight;
        const rowLabel = row.find((x, i) => i !== c && x.trim() !== '') ?? '';
        out.push({
          answer: cell,
          format: 'Str',
          // A cell made of the question's own words is a label, not the value asked.
          score: 0.6 * rowScore + 0.4 * header.score + 0.1 - 0.2 * (tokens.filter((t) => questionStems.has(t.stem)).length / tokens.length) - 0.01 * entry.rank,
          support: [tableRowSupport(entry, rowLabel, cell)],
          notes: [`cell of column "${p.columns[c] ?? ''}" in the row naming the question's terms in ${entry.observation.node_id}`],
        });
      }
    });
  }
  return out;
}

/** Most words of a title sentence naming the term a definition follows ("Law of closure."). */
const MAX_TITLE_WORDS = 8;

/**
 * The statement that defines what the question asks: the sentence after a title sentence made only of the question's
 * words ("Rule of thirds. Important elements sit on the lines …"), or the rest of a sentence after the term and a
 * defining verb ("A dwell time is the time …").
 */
function definitionCandidates(evidence: EvidenceSet): Candidate[] {
  const out: Candidate[] = [];
  const questionStems = new Set(wordTokens(evidence.profile.question).map((t) => t.stem));
  for (const entry of evidence.entries) {
    if (entry.observation.payload.kind === 'table') continue;
    const text = entry.text.text;
    entry.sentences.forEach((span, i) => {
      const sentence = text.slice(span.start, span.end);
      const tokens = wordTokens(sentence);
      if (tokens.length === 0 || tokens.length > MAX_TITLE_WORDS || !tokens.every((t) => questionStems.has(t.stem))) return;
      const next = entry.sentences[i + 1];
      if (!next) return;
      const cover = evidence.coverage(sentence).score;
      if (cover <= 0) return;
      out.push(spanCandidate(entry, next, 0.5 + 0.5 * cover - 0.01 * entry.rank, `the sentence after the title "${sentence}" in ${entry.observation.node_id}`));
    });
    for (const span of entry.sentences) {
      const sentence = text.slice(span.start, span.end);
      const m = /^(.{2,80}?)\s+(?:is|are|means|refers\s+to|is\s+defined\s+as|describes)\s+(.{8,})$/i.exec(sentence);
      if (!m) continue;
      const term = wordTokens(m[1]!.replace(/^(?:a|an|the)\s+/i, ''));
      if (term.length === 0 || !term.every((t) => questionStems.has(t.stem))) continue;
      const start = span.start + sentence.length - m[2]!.length;
      out.push(spanCandidate(entry, { start, end: span.end }, 0.4 + 0.5 * evidence.coverage(m[1]!).score - 0.01 * entry.rank, `what "${m[1]}" is, in ${entry.observation.node_id}`));
    }
  }
  return out;
}

/**
 * Candidates of the short text type the question asks ({@link QuestionProfile.textType}), best first (at most five):
 * expansions of an abbreviation, names, codes; text cells of tables for any short text. Empty when the question asks
 * no typed span or the evidence has none.
 */
export function typedSpanCandidates(evidence: EvidenceSet): Candidate[] {
  const type = evidence.profile.textType;
  if (!type) return [];
  const out: Candidate[] = [];
  if (type === 'expansion') out.push(...expansionCandidates(evidence));
  if (type === 'person' || type === 'organization' || type === 'place' || type === 'name') out.push(...nameCandidates(evidence, type));
  if (type === 'code') out.push(...codeCandidates(evidence));
  if (type === 'definition') out.push(...definitionCandidates(evidence));
  if (type !== 'expansion' && type !== 'definition') out.push(...tableTextCandidates(evidence));
  return out.sort((a, b) => b.score - a.score).slice(0, 5);
}
