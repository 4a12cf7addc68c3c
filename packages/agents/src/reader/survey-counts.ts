import type { Observation, Support } from '@doctree/schema';
import { MONTH_WORDS } from '@doctree/schema';
import type { Candidate, EvidenceEntry, EvidenceSet } from './evidence-model.js';
import { findNumbers, parseNumberCell } from './numbers.js';
import { observationText, supportFor } from './observation-text.js';
import { tableRowSupport } from './table-candidates.js';
import { stemWord, wordTokens } from './text-spans.js';

/**
 * Survey and poll reports: how many people of a group did something, and what share of a group did it.
 *
 * A report of a survey states its bases — the whole sample ("a survey of 1,503 adults", "N = 2,596") and per-group
 * sample sizes (a methodology table `Group | Unweighted sample size`, labels written with their base such as
 * `Men (n=612)`) — and the share of each group giving an answer (a table or chart row per group, or a sentence
 * "18% of Democrats say …"). "How many <group> <did something>" is the group's share of that answer times the group's
 * base; "what percentage of <group> <did something>" is the share itself. These are general rules of statistical
 * reporting (sampling words, `n=`, percent signs), not words of one field.
 */

/** A base of the survey: how many people a group (or the whole sample) counts, and where the document says it. */
export interface SurveyBase {
  /** The group as the document names it (`Dem/Lean Dem`, `Total sample`, `adults`). */
  label: string;
  /** Number of people. */
  n: number;
  /** The whole sample rather than a subgroup. */
  total: boolean;
  support: Support;
}

/** A share of a group giving the answer asked, and where the document says it. */
export interface GroupShare {
  /** Percent (0–100). */
  percent: number;
  /** What the value stands beside: a row label and column header, or the words it is attached to in a sentence. */
  about: string;
  /** How well the place matches what is asked, 0–1. */
  score: number;
  support: Support;
}

/** A question about a group of people: who (the group's words) and what (the clause asked about them). */
export interface GroupQuestion {
  /** A count of the group's people ("how many …") or the group's share ("what percentage of …", "how many percent of …"). */
  asks: 'count' | 'share';
  /** Lower-case words of the group phrase (`democratic`, `people`). */
  group: string[];
  /** Content words of what the group did or said (stems), instructions and scope words of the question left out. */
  clause: string[];
  /** How the count is to be rounded ("to the nearest hundred" → 100), when the question says. */
  roundTo?: number;
}

/**
 * Words of a search for the report's bases (the planner's extra retrieval for a count of people): the words
 * methodology sections and sample tables use.
 */
export const SURVEY_BASE_QUERY = 'sample size unweighted respondents interviews survey conducted among adults margin of error methodology';

/** Nouns that name people in general: a group named only with them is the whole sample. */
const PEOPLE_WORDS = new Set(['people', 'persons', 'person', 'adults', 'adult', 'respondents', 'respondent', 'participants', 'individuals', 'interviewees', 'public', 'population']);

/** Words of a group phrase that do not narrow the group ("all valid respondents", "the total sample"). */
const GROUP_FILLER = new Set(['the', 'all', 'total', 'valid', 'surveyed', 'overall', 'whole', 'entire', 'sample', 'those', 'of', 'and', 'group', 'age', 'a', 'an']);

/** Words that end a group phrase after "how many" / "percentage of". */
const GROUP_END = new Set(
  `in of on at by for from with without who whom whose that which what when where whether than as if or but nor about among between during within
  said say says think thinks thought believe believes believed feel feels felt want wants wanted favor favors support supports oppose opposes
  are is was were be been being do does did have has had would will can could should may might must not no
  use uses used go goes went rate rates rated see sees saw view views viewed agree agrees agreed report reports reported`
    .split(/\s+/)
    .filter(Boolean),
);

/** Function and instruction words left out of the clause. */
const CLAUSE_STOP = new Set(
  `a an the this that these those it its their his her our your my of in on at by for from with to into onto about among between during per than as if or and
  but nor which who whom whose what when where why how many much are is was were be been being do does did has have had can could will would should shall may might
  must not any all each every some more less please answer write give format integer float number exact ratio nearest hundred thousand ten such percent
  percentage share proportion people persons adults respondents said say says survey surveyed poll report conducted only about`
    .split(/\s+/)
    .filter(Boolean)
    .concat([...MONTH_WORDS.keys()]),
);

/** A header of a column of sample sizes. */
const SAMPLE_HEADER = /\b(?:sample|unweighted|base|bases|respondents|interviews)\b|^\s*n\s*$/i;

/** A group written with its base: `Men (n=612)`, `Total for all 65+ (n = 1,526)`. */
const LABEL_WITH_N = /([^()|\n]{1,60}?)\s*\(\s*n\s*=\s*(\d[\d,]*)\s*\)/gi;

/** The whole sample in a sentence: "a survey of 1,503 adults", "interviews … among a sample of 6,010 adults". */
const SAMPLE_SENTENCE = /\b(?:sample|survey|poll|interviews?|questionnaires?)\b[^.;]{0,120}?\b(?:of|among|with|from)\s+(?:a\s+(?:total\s+of\s+|sample\s+of\s+|national\s+sample\s+of\s+)?)?(\d{1,3}(?:,\d{3})+|\d{3,})\s+([A-Za-z][A-Za-z-]+)/gi;

/** "N = 1,503" written alone (the whole sample). */
const N_EQUALS = /(?:^|[\s(])N\s*=\s*(\d{1,3}(?:,\d{3})+|\d{2,})\b/g;

/** Where the question says the answer is ("in the 2013 tracking survey", "according to the report"): not what is asked. */
const SCOPE_PHRASE = /\b(?:in|from|according\s+to|by)\s+(?:the|this|a|an|its)?\s*[^?]{0,80}?\b(?:survey|poll|report|study|research|paper|document)\b/gi;

/** "to the nearest hundred / thousand / ten". */
const NEAREST = /\bnearest\s+(ten|hundred|thousand)\b/i;
const NEAREST_STEP: ReadonlyMap<string, number> = new Map([
  ['ten', 10],
  ['hundred', 100],
  ['thousand', 1000],
]);

const wordsOf = (text: string): string[] => (text.toLowerCase().match(/[a-z0-9][a-z0-9+'’-]*/g) ?? []).map((w) => w.replace(/[’']s$/, ''));

/** A plural-looking word (ends in s, not ss/us/is) or "people". */
const pluralWord = (w: string): boolean => w === 'people' || (/[^su]s$/.test(w) && !/(?:ss|us|is)$/.test(w));

/**
 * Reads "how many <group> <clause>" or "what percentage / share of <group> <clause>" from a question; undefined when it
 * asks neither. The group phrase runs to its last plural head within six words before a function word, a verb or
 * punctuation ("how many weekday/weekend riders (…) prefer …", "how many drivers rated …").
 */
export function groupQuestion(question: string): GroupQuestion | undefined {
  const asking = question.split(/\?/)[0] ?? question;
  const start = /\bhow\s+many\s+(?:(percentage|percent|%)\s+of\s+(?:the\s+)?)?|\b(?:what|which)\s+(percentage|percent|share|proportion)\s+of\s+(?:the\s+)?/i.exec(asking);
  if (!start) return undefined;
  const asks = start[1] !== undefined || start[2] !== undefined ? 'share' : 'count';
  const rest = asking.slice(start.index + start[0].length);
  const phrase = /^[^(),;:]*/.exec(rest)?.[0] ?? '';
  const words = phrase.split(/\s+/).filter(Boolean);
  const run: string[] = [];
  let headAt = -1;
  for (const raw of words.slice(0, 8)) {
    const word = raw.toLowerCase().replace(/[’']s$/, '').replace(/[^a-z0-9+/-]/g, '');
    if (!word) continue;
    if (GROUP_END.has(word) && run.length > 0) break;
    if (run.length > 0 && pluralWord(run[run.length - 1]!) && /(?:ed|ing)$/.test(word)) break;
    run.push(word);
    if (pluralWord(word) && run.length <= 6) headAt = run.length - 1;
  }
  if (headAt < 0) return undefined;
  const groupWords = run.slice(0, headAt + 1).flatMap((w) => w.split('/')).filter(Boolean);
  // The clause: what follows the group phrase in the asking sentence, parentheses left out.
  const groupEnd = start.index + start[0].length + phraseEnd(rest, run.slice(0, headAt + 1));
  const clauseText = asking.slice(groupEnd).replace(/\([^)]*\)/g, ' ').replace(SCOPE_PHRASE, ' ');
  const group = new Set(groupWords.map(stemWord));
  const clause = [...new Set(wordsOf(clauseText).filter((w) => !CLAUSE_STOP.has(w) && !/^\d/.test(w)).map(stemWord))].filter((s) => s.length > 1 && !group.has(s));
  const nearest = NEAREST.exec(question)?.[1]?.toLowerCase();
  const roundTo = nearest !== undefined ? NEAREST_STEP.get(nearest) : undefined;
  return { asks, group: groupWords, clause, ...(roundTo !== undefined ? { roundTo } : {}) };
}

/** Offset in `rest` just after the last of the phrase's words. */
function phraseEnd(rest: string, phraseWords: readonly string[]): number {
  let at = 0;
  const lower = rest.toLowerCase();
  for (const w of phraseWords) {
    const i = lower.indexOf(w.split('/')[0]!, at);
    if (i < 0) break;
    at = i + w.length;
  }
  return at;
}

/** Group words that narrow it (fillers and people nouns left out). */
const specificWords = (group: readonly string[]): string[] => group.filter((w) => !GROUP_FILLER.has(w) && !PEOPLE_WORDS.has(w));

/** True when two words differ by at most one inserted, deleted, replaced or swapped letter. */
function withinOneEdit(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const rest = (x: string, from: number): string => x.slice(from);
  const swapped = a[i] === b[i + 1] && a[i + 1] === b[i] && rest(a, i + 2) === rest(b, i + 2);
  return swapped || rest(a, i + 1) === rest(b, i + 1) || rest(a, i + 1) === rest(b, i) || rest(a, i) === rest(b, i + 1);
}

/** Least stem length at which a one-letter slip (a typing error in the question) still names the word. */
const SLIP_MIN_LENGTH = 6;

/**
 * Whether a label word names a group word: same stem, one is an abbreviation (prefix of three letters or more) of the
 * other, or their stems (six letters or more) differ by one letter.
 */
function namesWord(label: string, word: string): boolean {
  const [ls, ws] = [stemWord(label), stemWord(word)];
  if (label === word || ls === ws) return true;
  if (Math.min(ls.length, ws.length) >= SLIP_MIN_LENGTH) {
    // A slip, in the word or in its first letters ("demoncratic" names "Democrats").
    const [short, long] = ls.length <= ws.length ? [ls, ws] : [ws, ls];
    if (withinOneEdit(short, long) || withinOneEdit(short, long.slice(0, short.length + 1))) return true;
  }
  if (/^\d/.test(label) || /^\d/.test(word)) return label.replace(/\+$/, '') === word.replace(/\+$/, '');
  return (label.length >= 3 && word.startsWith(label)) || (word.length >= 3 && label.startsWith(word));
}

/**
 * How well a document label names a group, 0–1: the share of the label's words that name a group word times the
 * share of the group's narrowing words the label names (square-rooted). 0 unless the label's words are at least half
 * named and the group's narrowing words more than half ("retired cyclists" is not "Cyclists").
 */
export function groupLabelMatch(group: readonly string[], label: string): number {
  const specific = specificWords(group);
  const labelWords = [...new Set(wordsOf(label).flatMap((w) => w.split('/')).filter((w) => w && !GROUP_FILLER.has(w) && !CLAUSE_STOP.has(w)))];
  if (specific.length === 0 || labelWords.length === 0) return 0;
  const labelShare = labelWords.filter((l) => specific.some((g) => namesWord(l, g))).length / labelWords.length;
  const groupShare = specific.filter((g) => labelWords.some((l) => namesWord(l, g))).length / specific.length;
  if (labelShare < 0.5 || groupShare <= 0.5) return 0;
  return labelShare * Math.sqrt(groupShare);
}

/** A label that names the whole sample (`Total`, `Total sample`, `All adults`). */
const TOTAL_LABEL = /^\s*(?:total|all)\b/i;

/** Integer count of people in a cell or a mention (`1,503`); undefined for percentages, decimals and small values. */
function countValue(raw: string): number | undefined {
  const parsed = parseNumberCell(raw);
  if (!parsed || parsed.percent || parsed.currency || parsed.decimals > 0 || !Number.isInteger(parsed.value) || parsed.value < 10) return undefined;
  return parsed.value;
}

/** Header text of each column: the column label and the cells above the first row holding a number. */
function columnHeaders(payload: { columns: readonly string[]; rows: readonly (readonly string[])[] }): { headers: string[]; bodyStart: number } {
  const width = Math.max(payload.columns.length, ...payload.rows.map((r) => r.length));
  const headers = Array.from({ length: width }, (_, c) => payload.columns[c] ?? '');
  let bodyStart = 0;
  for (; bodyStart < payload.rows.length; bodyStart++) {
    const row = payload.rows[bodyStart]!;
    if (row.some((cell) => cell && parseNumberCell(cell) !== null)) break;
    row.forEach((cell, c) => (headers[c] = `${headers[c] ?? ''} ${cell}`.trim()));
  }
  return { headers, bodyStart };
}

/** Non-numeric cells before a row's first value: its label (text beside a table can share its first column). */
function rowLabelCells(row: readonly string[]): string[] {
  const parts: string[] = [];
  for (const cell of row) {
    if (cell && parseNumberCell(cell) !== null) break;
    if (cell.trim()) parts.push(cell.trim());
  }
  return parts;
}

/** The label of a row: its label cell nearest the values. */
const rowLabelOf = (row: readonly string[]): string => rowLabelCells(row).pop() ?? '';

/**
 * The bases a report states in the observations: rows of a sample-size table (a column headed `sample size`,
 * `unweighted`, `base`, `n`…), labels written with `(n=…)`, and the whole sample in a sentence ("a survey of 1,503
 * adults", "N = 2,596"). Each with the span that states it.
 */
export function surveyBases(observations: readonly Observation[]): SurveyBase[] {
  const out: SurveyBase[] = [];
  for (const observation of observations) {
    const p = observation.payload;
    if (p.kind === 'table') {
      const { headers, bodyStart } = columnHeaders(p);
      const sizeColumn = headers.findIndex((h) => SAMPLE_HEADER.test(h));
      if (sizeColumn >= 0) {
        for (const row of p.rows.slice(bodyStart)) {
          const cell = row[sizeColumn] ?? '';
          const n = countValue(cell.replace(/^\s*at\s+least\s+/i, '~'));
          const label = rowLabelOf(row.slice(0, sizeColumn));
          if (n === undefined || !label) continue;
          out.push({ label, n, total: TOTAL_LABEL.test(label), support: rowSupport(observation, label, cell) });
        }
      }
    }
    const text = observationText(observation).text;
    for (const m of text.matchAll(LABEL_WITH_N)) {
      const label = m[1]!.replace(/^.*(?:\||[.;:!?](?=\s))\s*/, '').replace(/^[a-z]\s+(?=[A-Z0-9<$])/, '').trim().split(/\s+/).slice(-6).join(' ');
      const n = countValue(m[2]!);
      if (n === undefined || !/[A-Za-z0-9]/.test(label)) continue;
      const at = m.index + (m[0].length - m[0].trimStart().length);
      out.push({ label, n, total: TOTAL_LABEL.test(label), support: supportFor(observation, at, m.index + m[0].length) });
    }
    for (const m of text.matchAll(SAMPLE_SENTENCE)) {
      const n = countValue(m[1]!);
      if (n === undefined) continue;
      out.push({ label: m[2]!.toLowerCase(), n, total: true, support: supportFor(observation, m.index, m.index + m[0].length) });
    }
    for (const m of text.matchAll(N_EQUALS)) {
      const n = countValue(m[1]!);
      const before = text.slice(Math.max(0, m.index - 80), m.index);
      // "(n=…)" after a label is a group's base (read above); a bare "N = …" near survey words is the whole sample.
      if (n === undefined || /\(\s*$/.test(text.slice(0, m.index + 1)) || !/\b(?:sample|survey|respondents|total)\b/i.test(before + m[0])) continue;
      out.push({ label: 'total', n, total: true, support: supportFor(observation, m.index, m.index + m[0].length) });
    }
  }
  return out;
}

/** Support of a table row (its label to the cell). */
function rowSupport(observation: Observation, label: string, cell: string): Support {
  return tableRowSupport({ observation, text: observationText(observation) } as Pick<EvidenceEntry, 'observation' | 'text'> as EvidenceEntry, label, cell);
}

/**
 * The base of a group: the best-matching subgroup base; for a group named only with words for people in general
 * ("adults", "respondents"), the whole sample (a sentence base naming the same noun first, then a `Total` row).
 * Undefined when the group names something no base covers (never the whole sample for a narrower group).
 */
export function baseOfGroup(group: readonly string[], bases: readonly SurveyBase[]): SurveyBase | undefined {
  const specific = specificWords(group);
  if (specific.length === 0) {
    const nouns = new Set(group.filter((w) => PEOPLE_WORDS.has(w)).map(stemWord));
    const sentence = bases.find((b) => b.total && nouns.has(stemWord(b.label)));
    return sentence ?? bases.find((b) => b.total && TOTAL_LABEL.test(b.label)) ?? bases.find((b) => b.total);
  }
  let best: { base: SurveyBase; score: number } | undefined;
  for (const base of bases) {
    const score = groupLabelMatch(group, base.label);
    if (score > 0 && (!best || score > best.score)) best = { base, score };
  }
  return best?.base;
}

/**
 * True when a group is the whole sample: named only with words for people in general, or with the noun the report's
 * whole sample is counted in ("a survey of 2,400 residents" → "residents").
 */
export function wholeSample(group: readonly string[], bases: readonly SurveyBase[]): boolean {
  const specific = specificWords(group);
  if (specific.length === 0) return true;
  const nouns = new Set(bases.filter((b) => b.total && !TOTAL_LABEL.test(b.label)).map((b) => stemWord(b.label)));
  return specific.every((w) => nouns.has(stemWord(w)));
}

/** Share of the clause's stems found among some stems. */
function clauseCoverage(clause: readonly string[], stems: ReadonlySet<string>): number {
  if (clause.length === 0) return 0;
  return clause.filter((s) => stems.has(s)).length / clause.length;
}

const stemSet = (text: string): Set<string> => new Set(wordTokens(text).map((t) => t.stem));

/** Least share of the clause a sentence (with the one before it) or a column header must hold. */
const MIN_CLAUSE_COVERAGE = 0.4;

/** Stems found in most observations (boilerplate such as source lines): they say nothing about where an answer is. */
function commonStems(evidence: EvidenceSet): Set<string> {
  const counts = new Map<string, number>();
  for (const e of evidence.entries) for (const s of e.stems) counts.set(s, (counts.get(s) ?? 0) + 1);
  const n = evidence.entries.length;
  return n < 5 ? new Set() : new Set([...counts].filter(([, c]) => c / n > 0.5).map(([s]) => s));
}

/**
 * Shares of a group giving the answer asked, best first: cells at the group's row (its `Total` row for people in
 * general) under the column whose header holds most of the clause, and percentages in sentences holding most of
 * the clause that are attached to the group ("Democrats (18%)", "18% of Democrats") or, for people in general, to
 * the answer the clause names ("… or poor (36%)").
 */
export function groupShares(evidence: EvidenceSet, ask: GroupQuestion, whole = wholeSample(ask.group, surveyBases(evidence.entries.map((e) => e.observation)))): GroupShare[] {
  const common = commonStems(evidence);
  const clause = ask.clause.filter((s) => !common.has(s));
  if (clause.length === 0) return [];
  const general = whole;
  const rowMatches = (label: string): number => (general ? (TOTAL_LABEL.test(label) ? 1 : 0) : groupLabelMatch(ask.group, label));
  const out: GroupShare[] = [];
  for (const entry of evidence.entries) {
    const p = entry.observation.payload;
    if (p.kind === 'table') {
      const { headers, bodyStart } = columnHeaders(p);
      const headerCoverage = headers.map((h) => clauseCoverage(clause, stemSet(h)));
      for (const row of p.rows.slice(bodyStart)) {
        // The label cell that names the group best.
        let label = '';
        let match = 0;
        for (const cell of rowLabelCells(row)) {
          const m = rowMatches(cell);
          if (m > match) [label, match] = [cell, m];
        }
        if (match === 0) continue;
        row.forEach((cell, c) => {
          const parsed = cell ? parseNumberCell(cell) : null;
          const coverage = headerCoverage[c] ?? 0;
          if (!parsed || parsed.value < 0 || parsed.value > 100 || parsed.currency || coverage < MIN_CLAUSE_COVERAGE) return;
          out.push({ percent: parsed.value, about: `${label} × ${headers[c]!.trim()}`, score: 0.5 * coverage + 0.5 * match, support: tableRowSupport(entry, label, cell) });
        });
      }
      continue;
    }
    out.push(...sentenceShares(entry, ask, clause, general));
  }
  return out.sort((a, b) => b.score - a.score);
}

/** Words right before "(p%)" or right after "p% of" (at most four), and the one next to the value. */
function attachedWords(sentence: string, start: number, end: number): { text: string; nearest: string } | undefined {
  const before = sentence.slice(0, start);
  if (/\(\s*$/.test(before)) {
    const words = before.replace(/\(\s*$/, '').split(/[,;:()]/).pop()!.trim().split(/\s+/).slice(-4);
    return words.length > 0 && words[0] ? { text: words.join(' '), nearest: words[words.length - 1]! } : undefined;
  }
  const after = /^\s*of\s+(?:the\s+)?([^,;:()]+)/i.exec(sentence.slice(end));
  const words = after ? after[1]!.trim().split(/\s+/).slice(0, 4) : [];
  return words.length > 0 ? { text: words.join(' '), nearest: words[0]! } : undefined;
}

/** "Among <group>," opening a statement about a group. */
const AMONG = /\bamong\s+([^,;:()%]{2,60}),/i;

/** Whether a phrase names every narrowing word of a group. */
function namesAllOf(group: readonly string[], phrase: string): boolean {
  const specific = specificWords(group);
  const words = wordsOf(phrase).flatMap((w) => w.split('/'));
  return specific.length > 0 && specific.every((g) => words.some((w) => namesWord(w, g)));
}

function sentenceShares(entry: EvidenceEntry, ask: GroupQuestion, clause: readonly string[], general: boolean): GroupShare[] {
  const out: GroupShare[] = [];
  const text = entry.text.text;
  entry.sentences.forEach((span, i) => {
    const sentence = text.slice(span.start, span.end);
    const previous = i > 0 ? text.slice(entry.sentences[i - 1]!.start, entry.sentences[i - 1]!.end) : '';
    const coverage = clauseCoverage(clause, stemSet(`${previous} ${sentence}`));
    if (coverage < MIN_CLAUSE_COVERAGE) return;
    const among = AMONG.exec(sentence);
    const percents = findNumbers(sentence).filter((m) => m.percent && m.value >= 0 && m.value <= 100);
    // "Among <group>, p% say …": the first percentage after the group phrase is the group's.
    const first = among ? percents.find((m) => m.start >= among.index + among[0].length) : undefined;
    if (among && first && !general && namesAllOf(ask.group, among[1]!)) {
      out.push({ percent: first.value, about: `among ${among[1]!.trim()}`, score: 0.5 * coverage + 0.5, support: supportFor(entry.observation, span.start, span.end, entry.text) });
    }
    for (const m of percents) {
      const attached = attachedWords(sentence, m.start, m.end);
      if (!attached) continue;
      // The whole sample: the value stands by the answer the clause names ("… or poor (24%)") or by people in general.
      const nearest = stemWord(attached.nearest.replace(/[^A-Za-z0-9'’-]/g, ''));
      const match = general ? (clause.includes(nearest) || wordsOf(attached.text).some((w) => PEOPLE_WORDS.has(w)) ? 1 : 0) : groupLabelMatch(ask.group, attached.text);
      if (match === 0) continue;
      out.push({ percent: m.value, about: attached.text, score: 0.5 * coverage + 0.5 * match, support: supportFor(entry.observation, span.start, span.end, entry.text) });
    }
  });
  return out;
}

/** Least score of a share that answers (clause and group both matched well). */
const MIN_SHARE_SCORE = 0.6;

/** How a count from a share and a base scores against the reader's other candidates (above a number read as written). */
const SURVEY_COUNT_SCORE = 1.1;

/**
 * "How many <group> <did something>" in a survey report: the group's share of the answer (row × column or a sentence)
 * times the group's base (sample-size table, `(n=…)`, the whole sample), rounded to a whole number (or as the
 * question asks: "to the nearest hundred"). Both operands are cited, the formula is in the notes. None unless both
 * are found.
 */
export function surveyCountCandidates(evidence: EvidenceSet): Candidate[] {
  const ask = groupQuestion(evidence.profile.question);
  if (ask?.asks !== 'count') return [];
  const bases = surveyBases(evidence.entries.map((e) => e.observation));
  const base = baseOfGroup(ask.group, bases);
  if (!base) return [];
  const share = groupShares(evidence, ask, base.total && wholeSample(ask.group, bases))[0];
  if (!share || share.score < MIN_SHARE_SCORE) return [];
  const exact = (share.percent / 100) * base.n;
  const step = ask.roundTo ?? 1;
  const answer = Math.round(exact / step) * step;
  return [
    {
      answer,
      format: 'Int',
      score: SURVEY_COUNT_SCORE * share.score,
      support: [share.support, base.support],
      computed: true,
      notes: [
        `survey count: ${share.percent}% (${share.about}, page ${share.support.page}) × ${base.n.toLocaleString('en-US')} (${base.label}, page ${base.support.page}) = ${Math.round(exact * 100) / 100} → ${answer}`,
      ],
    },
  ];
}

/**
 * "What percentage of <group> <did something>" in a survey report: the group's share read at its row and the column
 * the question names, or from a sentence that attaches it to the group. None unless the group and the clause match.
 */
export function groupShareCandidates(evidence: EvidenceSet): Candidate[] {
  const ask = groupQuestion(evidence.profile.question);
  if (ask?.asks !== 'share') return [];
  return groupShares(evidence, ask)
    .filter((s) => s.score >= MIN_SHARE_SCORE)
    .slice(0, 2)
    .map((s) => ({ answer: s.percent, format: Number.isInteger(s.percent) ? 'Int' : 'Float', display: `${s.percent}%`, statedPercent: true, score: SURVEY_COUNT_SCORE * s.score, support: [s.support], notes: [`share of the group: ${s.percent}% (${s.about})`] }));
}
