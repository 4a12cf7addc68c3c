import { findYears, yearMentions } from '@doctree/schema';
import type { Candidate, EvidenceSet } from './evidence-model.js';
import { findNumbers, findStatedScale, isYearLike, type NumberMention } from './numbers.js';
import { numericAnswer } from './table-candidates.js';
import { stemWord, wordTokens } from './text-spans.js';
import { clip, scoreSentences, type ScoredSentence } from './sentence-scoring.js';

/** Numbers written in the best-scoring sentences, as answer candidates (the clause, year and unit each number belongs to). */

/**
 * Short forms of measurement units (`16 g` answers "how many grams"). A Map: it is looked up with the question's word
 * ("how many constructors" must find nothing, not `Object.prototype.constructor`).
 */
const UNIT_ABBREVIATIONS: ReadonlyMap<string, readonly string[]> = new Map(
  Object.entries({
    gram: ['g', 'gr'], kilogram: ['kg'], milligram: ['mg'], liter: ['l', 'ltr'], litre: ['l', 'ltr'], milliliter: ['ml'], millilitre: ['ml'],
    meter: ['m'], metre: ['m'], centimeter: ['cm'], centimetre: ['cm'], millimeter: ['mm'], millimetre: ['mm'], kilometer: ['km'], kilometre: ['km'],
    second: ['s', 'sec', 'secs'], minute: ['min', 'mins'], hour: ['h', 'hr', 'hrs'], day: ['d'], degree: ['°', '°c', '°f'], watt: ['w'], volt: ['v'],
    percent: ['%'], percentage: ['%'], pound: ['lb', 'lbs'], ounce: ['oz'], inch: ['in', '"'], foot: ['ft'], feet: ['ft'], byte: ['b'],
  }),
);

/**
 * True when the words right after a number name what the question measures (`16 g` for grams, `9 steps`, `7 grind
 * fineness levels` for levels): the measure among the next four words of the clause.
 */
function measuredBy(after: string, measure: string): boolean {
  const next = /^\s*([^\s,.;:)]+)(?:\s+([^\s,.;:)]+))?(?:\s+([^\s,.;:)]+))?(?:\s+([^\s,.;:)]+))?/.exec(after);
  if (!next) return false;
  const singular = measure.replace(/(?:es|s)$/, '');
  const all = [next[1], next[2], next[3], next[4]].filter((w): w is string => Boolean(w)).map((w) => w.toLowerCase());
  // Up to the next number ("3 of the 9 steps": steps are what 9 counts).
  const cut = all.findIndex((w) => /^[0-9]/.test(w));
  const words = cut >= 0 ? all.slice(0, cut) : all;
  const short = UNIT_ABBREVIATIONS.get(singular) ?? UNIT_ABBREVIATIONS.get(measure) ?? [];
  return words.some((w) => stemWord(w) === stemWord(measure) || w.replace(/(?:es|s)$/, '') === singular || short.includes(w));
}

/** Words that join a number to the previous one without naming anything new. */
const CONNECTOR_WORDS = new Set(
  'to from of by at or and in on for the a an as compared comparison with versus vs than million millions billion billions thousand thousands reaching totaling totalling respectively fiscal year years prior previous last same period up down'.split(' '),
);

/** Words that end a clause inside a sentence. */
const CLAUSE_BREAK = /[;:]|,\s+(?:and|but|while|whereas|compared|versus)\b|\s(?:and|but|while|whereas|compared\s+(?:with|to)|versus|vs\.?)\s/gi;

/**
 * The words a number belongs to: the text between the previous number (or the start of its clause) and the number —
 * "Net cash … was $92.8 million and capital expenditures were $37.5 million": `capital expenditures were` for $37.5
 * million — plus, after it, a complement introduced by `of` / `in` / `for` up to the next number or clause
 * ("$37.5 million of capital expenditures").
 */
export function ownClause(sentence: string, mentions: readonly NumberMention[], i: number): string {
  const m = mentions[i]!;
  const prevEnd = i > 0 ? mentions[i - 1]!.end : 0;
  let before = sentence.slice(prevEnd, m.start);
  // "Revenue rose 12.4% to $482.6 million in 2023, compared with $429.4 million in 2022": a number joined to the
  // previous one by connectors, comparisons and periods only shares the previous number's subject.
  if (i > 0 && (before.toLowerCase().match(/[a-z0-9&']+/g) ?? []).every((w) => CONNECTOR_WORDS.has(w) || /^(?:fy)?'?\d{2,4}$|^q[1-4]$|^h[12]$/.test(w))) {
    return ownClause(sentence, mentions, i - 1);
  }
  // Keep what follows the last clause break of that stretch, unless the break is all there is.
  let lastBreak = -1;
  for (const b of before.matchAll(CLAUSE_BREAK)) if (b.index + b[0].length < before.length) lastBreak = b.index + b[0].length;
  if (lastBreak > 0 && before.slice(lastBreak).trim() !== '') before = before.slice(lastBreak);
  const nextStart = i + 1 < mentions.length ? mentions[i + 1]!.start : sentence.length;
  let after = sentence.slice(m.end, nextStart);
  const complement = /^\s*(?:(?:thousand|million|billion)s?\s+)?(?:of|in|for|on|from|spent\s+on)\s/i.exec(after);
  if (complement) {
    CLAUSE_BREAK.lastIndex = 0;
    const cut = after.slice(complement[0].length).search(/[;:,]|\s(?:and|but|while|whereas)\s/i);
    after = cut >= 0 ? after.slice(0, complement[0].length + cut) : after;
  } else after = '';
  return `${before} ${after}`;
}

/**
 * The year a number is stated for: written right after it ("$372 million in 2018", "$389 million for fiscal 2017"),
 * else the last year between the previous number and it ("In 2018, sales were $4.2 billion"); undefined otherwise.
 */
export function attachedYear(sentence: string, mentions: readonly NumberMention[], i: number): number | undefined {
  const m = mentions[i]!;
  const isYear = (n: NumberMention): boolean => isYearLike(n);
  const next = mentions[i + 1];
  if (next !== undefined && isYear(next) && next.start - m.end < 40) {
    const between = sentence.slice(m.end, next.start);
    if (/^\s*(?:(?:thousand|million|billion)s?\s+)?(?:in|for|during|at|as\s+of|by|of|,)?\s*(?:(?:the\s+)?(?:fiscal(?:\s+year)?|fy|year|calendar\s+year)\s*)?'?$/i.test(between)) return next.value;
  }
  let prev = i - 1;
  while (prev >= 0 && isYear(mentions[prev]!)) {
    const between = sentence.slice(mentions[prev]!.end, m.start);
    if (!/[;.]/.test(between) && between.length < 80) return mentions[prev]!.value;
    prev--;
  }
  return undefined;
}

/** The year written closest to `[start, end)` of a sentence (gap between the spans). */
function nearestYear(sentence: string, start: number, end: number): number | undefined {
  let best: { d: number; y: number } | undefined;
  for (const m of yearMentions(sentence, { prefix: 'fy' })) {
    if (m.start === start) continue;
    const d = m.start >= end ? m.start - end : start - m.end;
    if (!best || d < best.d) best = { d, y: m.year };
  }
  return best?.y;
}

/** A negated action in a question: "who do not use …", "that have never visited …" (the verb after the negation). */
const NEGATED_ACTION = /\b(?:(?:do|does|did|are|is|was|were|have|has|had|can|could|would|will)(?:\s+not|n't)|never)\s+(?:(?:yet|ever|been)\s+)?([a-z]+)/i;

/** A negation in a clause. */
const NEGATION = /\b(?:not|never|no|none|neither|nor)\b|n't\b/i;

/** How much the complement of a share gains over the share as written when the question asks the negated share. */
const COMPLEMENT_BONUS = 0.05;

/**
 * The verb a percentage question negates ("what share of adults do not own a car" → `own`), when it asks a share;
 * undefined otherwise.
 */
export function negatedShareVerb(question: string, wantsPercent: boolean): string | undefined {
  if (!wantsPercent) return undefined;
  const m = NEGATED_ACTION.exec(question);
  return m ? stemWord(m[1]!.toLowerCase()) : undefined;
}

/** Numbers in the best-scoring sentences, scored by sentence coverage, closeness to question terms, year and unit. */
export function textNumberCandidates(evidence: EvidenceSet, options: { integersOnly?: boolean; limit?: number } = {}): Candidate[] {
  const { profile } = evidence;
  const sentences = scoreSentences(evidence).slice(0, 40);
  const measure = profile.measure;
  const scored: Array<{ s: ScoredSentence; m: NumberMention; score: number; stated: boolean; complement?: boolean }> = [];
  // "What percentage … do not own a car?" against "62% own a car": the share asked is what the rest make up.
  const negated = negatedShareVerb(profile.question, profile.wantsPercent);
  for (const s of sentences) {
    const mentions = findNumbers(s.text, { words: options.integersOnly === true });
    const sentenceYears = new Set(findYears(s.text));
    for (const [i, m] of mentions.entries()) {
      if (isYearLike(m) && profile.kind !== 'year') continue;
      if (profile.questionNumbers.has(Math.abs(m.value)) && !m.percent && !m.currency) continue;
      if (options.integersOnly && (!Number.isInteger(m.value) || m.percent || m.currency)) continue;
      // Labels and enumerations: `Item 7`, `Note 3`, `Figure 2`, `(1)`.
      const before = s.text.slice(Math.max(0, m.start - 12), m.start);
      if (/\b(?:item|note|figure|fig\.|table|section|page|chapter|part|exhibit|appendix|step|phase)\s*$/i.test(before)) continue;
      let score = s.score;
      if (s.termPositions.length > 0) {
        const d = Math.min(...s.termPositions.map((p) => (p < m.start ? m.start - p : p - m.end)).map(Math.abs));
        score += 0.15 / (1 + d / 40);
      }
      // The number's own clause names what it measures: "A was $92.8 million and B were $37.5 million" gives B
      // $37.5 million, however close "B" stands to $92.8 million.
      score += 0.3 * evidence.coverage(ownClause(s.text, mentions, i)).primary;
      if (profile.years.length > 0) {
        const contextYears = new Set([...sentenceYears, ...wordTokens(s.entry.observation.payload.kind === 'text' ? s.entry.observation.payload.heading_path.join(' ') : '').map((t) => Number(t.word)).filter((n) => n >= 1900 && n <= 2099)]);
        if (profile.years.some((y) => contextYears.has(y))) {
          score += 0.15;
          const near = attachedYear(s.text, mentions, i) ?? nearestYear(s.text, m.start, m.end);
          if (near !== undefined && profile.years.includes(near)) score += 0.1;
          else if (near !== undefined) score -= 0.1;
        } else if (contextYears.size > 0) score -= 0.3;
      }
      if (profile.wantsPercent) score += m.percent ? 0.15 : -0.3;
      else if (m.percent && (profile.wantsAmount || profile.kind === 'count')) score -= 0.3;
      if (profile.wantsCurrency && (m.currency || m.scale)) score += 0.05;
      const stated = measure !== undefined && measuredBy(s.text.slice(m.end, m.end + 40), measure);
      if (stated) score += 0.3;
      scored.push({ s, m, score, stated });
      if (negated !== undefined && m.percent && m.value > 0 && m.value < 100) {
        const clause = ownClause(s.text, mentions, i);
        if (!NEGATION.test(clause) && wordTokens(clause).some((t) => t.stem === negated)) scored.push({ s, m, score: score + COMPLEMENT_BONUS, stated, complement: true });
      }
    }
  }
  scored.sort((a, b) => b.score - a.score);
  return scored.slice(0, options.limit ?? 3).map(({ s, m, score, stated, complement }) => {
    const headingScale = s.entry.observation.payload.kind === 'text' ? findStatedScale(s.entry.observation.payload.heading_path.join(' ')) : undefined;
    const rest = complement ? Math.round((100 - m.value) * 1e6) / 1e6 : undefined;
    const read = rest !== undefined ? { ...m, value: rest, raw: `${rest}%` } : m;
    const value = numericAnswer(profile, read, m.scale ?? headingScale, { label: s.text.slice(0, Math.max(0, m.start)).slice(-60) });
    if (complement) value.notes.unshift(`the share asked is the rest of the ${m.raw} the sentence states (100 − ${m.value})`);
    const focus = { start: s.span.start + m.start, end: s.span.start + m.end };
    return {
      answer: value.answer,
      format: profile.kind === 'count' ? 'Int' : value.format,
      score,
      support: [clip(s.entry, s.span, focus)],
      notes: [`sentence in ${s.entry.observation.node_id}: number ${m.raw}`, ...value.notes],
      ...(profile.kind !== 'count' && value.display !== undefined ? { display: value.display } : {}),
      ...(m.percent ? { statedPercent: true } : {}),
      ...(stated ? { stated: true } : {}),
    };
  });
}
