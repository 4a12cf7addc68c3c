import { escapeRegExp } from '@doctree/schema';
import type { ChoiceOptions } from '../analysis/answer-type.js';
import type { Candidate, EvidenceEntry, EvidenceSet } from './evidence-model.js';
import { findNumbers } from './numbers.js';
import { clip, scoreSentences, textEntries } from './sentence-scoring.js';
import { sentenceSpans, wordTokens, type TextSpan } from './text-spans.js';

/**
 * Answers to choice questions, always one of the options the question names ("A or B", "before or after"): by the
 * order the document mentions two things in, by the values the evidence gives each option, or by the option the
 * evidence supports best.
 */

/** Score of a choice decided by the evidence (an order, values for every option). */
const DECIDED = 0.75;
/** Score of a choice made by support alone (one option better covered than the others). */
const SUPPORTED = 0.45;
/** Score of a choice the evidence barely separates. */
const GUESS = 0.3;

const stemsOf = (text: string): string[] => [...new Set(wordTokens(text).map((t) => t.stem))];

/**
 * The options without the words they all start with ("to remove the crisper" / "to remove the trim" → "crisper" /
 * "trim"): the part that tells them apart is the answer.
 */
export function distinctOptions(options: readonly string[]): string[] {
  const words = options.map((o) => o.split(/\s+/));
  let shared = 0;
  while (words.every((w) => w.length > shared + 1 && w[shared]!.toLowerCase() === words[0]![shared]!.toLowerCase())) shared++;
  return words.map((w) => w.slice(shared).join(' '));
}

/** Where a phrase is first mentioned in the evidence: the entry, the offset, and its page. */
interface Mention {
  entry: EvidenceEntry;
  at: number;
  end: number;
}


/** Mentions of a phrase (case and spacing ignored) in the evidence, in evidence order. */
function mentionsOf(evidence: EvidenceSet, phrase: string): Mention[] {
  const words = phrase.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [];
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])${words.map(escapeRegExp).join('\\s+')}(?![\\p{L}\\p{N}])`, 'giu');
  const out: Mention[] = [];
  for (const entry of evidence.entries) {
    for (const m of entry.text.text.matchAll(pattern)) out.push({ entry, at: m.index, end: m.index + m[0].length });
  }
  return out;
}

/** Position of a mention in the document: its page, then its offset in the document's text when anchored. */
function documentPosition(m: Mention): [number, number] {
  const anchor = m.entry.text.anchor;
  return [m.entry.observation.page, anchor && m.at < anchor.length ? anchor.start + m.at : Number.NaN];
}

/** "Is A before or after B?": which of the two the document mentions first. */
function orderCandidates(evidence: EvidenceSet, choice: ChoiceOptions): Candidate[] {
  const [a, b] = choice.subjects ?? [];
  if (!a || !b) return [];
  const first = mentionsOf(evidence, a);
  const second = mentionsOf(evidence, b);
  // The same observation holding both decides best; else the pages (or document offsets) of their first mentions.
  for (const ma of first) {
    const mb = second.find((m) => m.entry === ma.entry);
    if (!mb) continue;
    const aFirst = ma.at < mb.at;
    const span = { start: Math.min(ma.at, mb.at), end: Math.max(ma.end, mb.end) };
    return [orderAnswer(choice, aFirst, DECIDED, ma.entry, span, `"${a}" is mentioned ${aFirst ? 'before' : 'after'} "${b}" in ${ma.entry.observation.node_id}`)];
  }
  const ma = first[0];
  const mb = second[0];
  if (!ma || !mb) return [];
  const [pa, oa] = documentPosition(ma);
  const [pb, ob] = documentPosition(mb);
  const aFirst = pa !== pb ? pa < pb : !Number.isNaN(oa) && !Number.isNaN(ob) ? oa < ob : undefined;
  if (aFirst === undefined) return [];
  return [orderAnswer(choice, aFirst, SUPPORTED, ma.entry, { start: ma.at, end: ma.end }, `"${a}" (page ${pa}) comes ${aFirst ? 'before' : 'after'} "${b}" (page ${pb})`)];
}

function orderAnswer(choice: ChoiceOptions, aFirst: boolean, score: number, entry: EvidenceEntry, span: TextSpan, note: string): Candidate {
  // Options of an order question are [the "first" word, the "second" word] ("before", "after").
  const answer = aFirst ? choice.options[0]! : choice.options[1]!;
  const sentence = entry.sentences.find((s) => s.start <= span.start && s.end >= span.start) ?? span;
  return { answer, format: 'Str', score, support: [clip(entry, { start: Math.min(sentence.start, span.start), end: Math.max(sentence.end, span.end) }, span)], notes: [`${answer}: ${note}`] };
}

/** The value the evidence gives an option: the number nearest a mention of it in the sentence or table row that best covers the question. */
function valueOf(evidence: EvidenceSet, option: string, optionStems: ReadonlySet<string>): { value: number; entry: EvidenceEntry; span: TextSpan; focus: TextSpan; score: number } | undefined {
  const asked = new Set(evidence.profile.questionNumbers);
  let best: { value: number; entry: EvidenceEntry; span: TextSpan; focus: TextSpan; score: number } | undefined;
  for (const m of mentionsOf(evidence, option)) {
    const text = m.entry.text.text;
    // Sentences, and rows of a table (one line each).
    const span = sentenceSpans(text).find((s) => s.start <= m.at && s.end >= m.end) ?? { start: m.at, end: m.end };
    const sentence = text.slice(span.start, span.end);
    // The sentence names what is compared (a question word that is no option's), not just the option.
    const cover = evidence.coverage(sentence, m.entry.contextStems);
    if (!cover.matched.some((t) => !optionStems.has(t.stem))) continue;
    // A quantity near the mention: not a number of the question, not a year, not inside the option.
    const numbers = findNumbers(sentence).filter((n) => {
      const at = n.start + span.start;
      return !asked.has(Math.abs(n.value)) && !isYear(n.value, n.raw) && !(at >= m.at && at < m.end) && Math.min(Math.abs(at - m.end), Math.abs(m.at - at)) <= MAX_VALUE_DISTANCE;
    });
    if (numbers.length === 0) continue;
    const near = numbers.sort((x, y) => Math.abs(x.start + span.start - m.at) - Math.abs(y.start + span.start - m.at))[0]!;
    const score = cover.score;
    if (!best || score > best.score) best = { value: near.value, entry: m.entry, span, focus: { start: span.start + near.start, end: span.start + near.start + near.raw.length }, score };
  }
  return best;
}

/** Farthest (characters) a value may stand from the mention of its option. */
const MAX_VALUE_DISTANCE = 80;

/** A four-digit whole number between 1900 and 2100 written without separators: a year, not a quantity. */
const isYear = (value: number, raw: string): boolean => Number.isInteger(value) && value >= 1900 && value <= 2100 && /^\d{4}$/.test(raw.trim());

/** "Which has more …, A or B?": the option whose value is largest (or smallest). */
function compareCandidates(evidence: EvidenceSet, choice: ChoiceOptions, shown: readonly string[]): Candidate[] {
  const optionStems = new Set(choice.options.flatMap(stemsOf));
  const values = choice.options.map((o, i) => valueOf(evidence, o, optionStems) ?? (shown[i] !== o ? valueOf(evidence, shown[i]!, optionStems) : undefined));
  if (values.some((v) => v === undefined) || new Set(values.map((v) => v!.value)).size < values.length) return [];
  const order = values.map((v, i) => ({ v: v!, i })).sort((x, y) => (choice.extreme === 'min' ? x.v.value - y.v.value : y.v.value - x.v.value));
  const win = order[0]!;
  return [
    {
      answer: shown[win.i]!,
      format: 'Str',
      score: DECIDED,
      support: order.map(({ v }) => clip(v.entry, v.span, v.focus)),
      notes: [`${shown[win.i]}: ${order.map(({ v, i }) => `${shown[i]} ${v.value}`).join(' vs ')} (${choice.extreme === 'min' ? 'smallest' : 'largest'} wins)`],
    },
  ];
}

/** The option the evidence supports best: the best-covered sentence naming it, plus a little for each further mention. */
function supportCandidates(evidence: EvidenceSet, choice: ChoiceOptions, shown: readonly string[]): Candidate[] {
  const sentences = scoreSentences(evidence, textEntries(evidence));
  const scored = choice.options.map((option, i) => {
    const stems = stemsOf(shown[i]!);
    const naming = stems.length === 0 ? [] : sentences.filter((s) => {
      const have = new Set(wordTokens(s.text).map((t) => t.stem));
      return stems.every((stem) => have.has(stem));
    });
    const best = naming[0];
    return { option, i, best, score: (best?.score ?? 0) + 0.02 * Math.min(10, naming.length) };
  });
  scored.sort((a, b) => b.score - a.score);
  const win = scored[0]!;
  const runnerUp = scored[1]!;
  if (!win.best) return [];
  const clear = win.score - runnerUp.score >= 0.05;
  return [
    {
      answer: shown[win.i]!,
      format: 'Str',
      score: (clear ? SUPPORTED : GUESS) + 0.2 * Math.min(1, win.best.score),
      support: [clip(win.best.entry, win.best.span)],
      notes: [`${shown[win.i]}: the evidence names it best (${scored.map((s) => `${shown[s.i]} ${s.score.toFixed(2)}`).join(', ')})`],
    },
  ];
}

/** A direction or comparison word offered as the answer ("higher or lower"): the one the best sentences use. */
function wordCandidates(evidence: EvidenceSet, choice: ChoiceOptions): Candidate[] {
  const sentences = scoreSentences(evidence).slice(0, 5);
  const votes = choice.options.map((option) => {
    const pattern = new RegExp(`\\b${escapeRegExp(option)}\\b`, 'i');
    const hits = sentences.filter((s) => pattern.test(s.text));
    return { option, hits, score: hits.reduce((sum, s) => sum + s.score, 0) };
  });
  votes.sort((a, b) => b.score - a.score);
  const win = votes[0]!;
  const first = win.hits[0];
  if (!first || win.score === votes[1]!.score) return [];
  return [{ answer: win.option, format: 'Str', score: GUESS + 0.1 * Math.min(1, first.score), support: [clip(first.entry, first.span)], notes: [`${win.option}: the best sentences say so`] }];
}

/**
 * Candidates of a choice question, each one of the options (the part that tells the options apart, as the question
 * writes it): `order` — which of the two things the question quotes the document mentions first; `compare` — the
 * option with the largest (smallest) value near its mention, else the better supported option; `pick` — the option
 * the evidence names best. Empty when the evidence tells nothing about the options.
 */
export function choiceCandidates(evidence: EvidenceSet, choice: ChoiceOptions): Candidate[] {
  if (choice.options.length < 2) return [];
  if (choice.basis === 'order') return orderCandidates(evidence, choice);
  // Opposite words ("higher or lower") are not things the evidence names: the words the best sentences use decide.
  if (choice.opposite) return wordCandidates(evidence, choice);
  const shown = distinctOptions(choice.options);
  if (choice.basis === 'compare') {
    const compared = compareCandidates(evidence, choice, shown);
    if (compared.length > 0) return compared;
  }
  return supportCandidates(evidence, choice, shown);
}
