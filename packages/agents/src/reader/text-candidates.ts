import { findYears, yearMentions, type Observation, type Support } from '@doctree/schema';
import type { Candidate, EvidenceEntry, EvidenceSet } from './evidence-model.js';
import { findNumbers, findStatedScale, isYearLike, type NumberMention } from './numbers.js';
import { supportFor } from './observation-text.js';
import { numericAnswer } from './table-candidates.js';
import { comparedYears } from './question-profile.js';
import type { TextSpan } from './text-spans.js';
import { stemWord, wordTokens } from './text-spans.js';

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

/** The year written closest to `[start, end)` of a sentence (gap between the spans). */
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

/** True when the words right after a number name what the question measures (`16 g` for grams, `9 steps`). */
function measuredBy(after: string, measure: string): boolean {
  const next = /^\s*([^\s,.;:)]+)(?:\s+([^\s,.;:)]+))?/.exec(after);
  if (!next) return false;
  const singular = measure.replace(/(?:es|s)$/, '');
  const words = [next[1], next[2]].filter((w): w is string => Boolean(w)).map((w) => w.toLowerCase());
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

function nearestYear(sentence: string, start: number, end: number): number | undefined {
  let best: { d: number; y: number } | undefined;
  for (const m of yearMentions(sentence, { prefix: 'fy' })) {
    if (m.start === start) continue;
    const d = m.start >= end ? m.start - end : start - m.end;
    if (!best || d < best.d) best = { d, y: m.year };
  }
  return best?.y;
}

/** Numbers in the best-scoring sentences, scored by sentence coverage, closeness to question terms, year and unit. */
export function textNumberCandidates(evidence: EvidenceSet, options: { integersOnly?: boolean; limit?: number } = {}): Candidate[] {
  const { profile } = evidence;
  const sentences = scoreSentences(evidence).slice(0, 40);
  const measure = profile.measure;
  const scored: Array<{ s: ScoredSentence; m: NumberMention; score: number; stated: boolean }> = [];
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
    }
  }
  scored.sort((a, b) => b.score - a.score);
  return scored.slice(0, options.limit ?? 3).map(({ s, m, score, stated }) => {
    const headingScale = s.entry.observation.payload.kind === 'text' ? findStatedScale(s.entry.observation.payload.heading_path.join(' ')) : undefined;
    const value = numericAnswer(profile, m, m.scale ?? headingScale, { label: s.text.slice(0, Math.max(0, m.start)).slice(-60) });
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
  const out: Candidate[] = [];
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
        score: s.score,
        support: [clip(s.entry, s.span, { start: s.span.start + extracted.start, end: s.span.start + extracted.end })],
        notes: [`phrase in ${s.entry.observation.node_id}`],
      });
    }
    const whole = clip(s.entry, s.span);
    out.push({ answer: whole.snippet, format: 'Str', score: s.score - 0.15, support: [whole], notes: [`whole sentence of ${s.entry.observation.node_id}`] });
  }
  return out.sort((a, b) => b.score - a.score).slice(0, 3);
}

const COUNT_WORDS = new Set(
  ['figur', 'tabl', 'chart', 'graph', 'plot', 'imag', 'pictur', 'photo', 'photograph', 'diagram', 'illustr', 'show', 'appear', 'present', 'contain', 'includ', 'paper', 'section', 'report', 'document', 'slide', 'there', 'total'].map(stemWord),
);

function countable(observation: Observation, target: string): boolean {
  const m = observation.modality;
  const p = observation.payload;
  if (target === 'table') return m === 'table';
  if (target === 'chart') return m === 'chart' || (p.kind === 'image' && p.chart_type !== undefined && !/photo|diagram/.test(p.chart_type));
  return m === 'image' || m === 'chart';
}

/**
 * "How many figures/tables/charts…": counts the observed nodes of that kind — on the pages the question names, when
 * it names any — restricted to those matching the question's other terms when some do. Each counted node is a support (its caption or description).
 */
export function countObservedCandidates(evidence: EvidenceSet): Candidate[] {
  const { profile } = evidence;
  const target = profile.countTarget;
  if (!target) return [];
  // Only on the pages the question names, when it names any.
  const pages = new Set(profile.pages);
  const pool = evidence.entries.filter((e) => countable(e.observation, target) && (pages.size === 0 || pages.has(e.observation.page)));
  if (pool.length === 0) return [];
  const qualifiers = evidence.terms.filter((t) => !COUNT_WORDS.has(t.stem) && t.weight >= 1);
  let counted = pool;
  let qualified = false;
  if (qualifiers.length > 0) {
    const matching = pool.filter((e) => qualifiers.some((q) => e.stems.has(q.stem) || e.contextStems.has(q.stem)));
    if (matching.length > 0) {
      counted = matching;
      qualified = true;
    }
  }
  const ids = new Set<string>();
  const support: Support[] = [];
  for (const e of counted) {
    if (ids.has(e.observation.node_id)) continue;
    ids.add(e.observation.node_id);
    const firstLine = e.text.text.indexOf('\n');
    const end = firstLine > 0 ? firstLine : Math.min(e.text.text.length, 160);
    // Cite only document text (a caption, a table's rows); a figure without caption is counted but not quoted,
    // since its observation text is a description written by the observer, not words on the page.
    if (e.text.anchor !== undefined && end <= e.text.anchor.length) support.push(supportFor(e.observation, 0, end, e.text));
  }
  return [
    {
      answer: ids.size,
      format: 'Int',
      score: qualified ? 0.7 : qualifiers.length > 0 ? 0.4 : 0.6,
      support,
      notes: [`counted ${ids.size} observed ${target} node(s)${qualified ? ' matching the question terms' : ''}: ${[...ids].join(', ')}`],
    },
  ];
}
