import { phraseStems, type Candidate, type EvidenceSet } from './evidence-model.js';
import { supportFor } from './observation-text.js';
import { columnYears, scoreTableCells, tableRowSupport } from './table-candidates.js';
import { scoreSentences } from './sentence-scoring.js';
import { windowAround, wordTokens } from './text-spans.js';

/** Words that deny what stands near them. */
const NEGATION = /\b(?:not|no|never|neither|nor|none|without|cannot|can't|didn't|doesn't|don't|isn't|wasn't|weren't|aren't|hasn't|haven't|hadn't|won't|wouldn't|fails? to|failed to|unable|absence of|lack of|lacks?)\b/gi;

/** How far (characters) a negation may stand from a claimed term and still deny it. */
const NEGATION_REACH = 40;

/** A direction of change a question asks about or a sentence states. */
type Direction = 'up' | 'down';

/** Words of a change upwards / downwards (comparatives such as "more than" are not changes). */
const UP = /\b(?:increas(?:e|ed|es|ing)|grow(?:s|n|ing|th)?|grew|improv(?:e|ed|es|ing|ement)|ris(?:e|es|ing)|rose|gain(?:ed|s)?|expand(?:ed|s|ing)?)\b/i;
const DOWN = /\b(?:decreas(?:e|ed|es|ing)|declin(?:e|ed|es|ing)|reduc(?:e|ed|es|ing|tion)|fall(?:s|ing)?|fell|drop(?:ped|s)?|shrank|shrink(?:s|ing)?|worsen(?:ed|s|ing)?|deteriorat(?:e|ed|es|ing))\b/i;

/** The direction a text names (one of them only), else undefined. */
function directionOf(text: string): Direction | undefined {
  const up = UP.test(text);
  const down = DOWN.test(text);
  return up === down ? undefined : up ? 'up' : 'down';
}

const SUBJECT_SKIP = /^(?:its|the|their|his|her|a|an|our|your|any|total|overall)$/i;
const SUBJECT_STOP = /^(?:on|in|between|from|for|as|during|over|since|than|to|at|by|compared|year|years|period|versus|vs|and|or|with|of)$/i;

/**
 * Stems of what the question says changed: the words right after the change word ("increased its debt on…" → debt;
 * "a shrinking order backlog" → order backlog), else the words between the question's verb and the
 * change word ("Did revenue increase…" → revenue).
 */
function changedSubject(claim: string): Set<string> {
  const m = UP.exec(claim) ?? DOWN.exec(claim);
  if (!m) return new Set();
  const words = (text: string): string[] => text.split(/[^A-Za-z0-9&'’-]+/).filter(Boolean);
  const after: string[] = [];
  for (const w of words(claim.slice(m.index + m[0].length))) {
    if (after.length === 0 && SUBJECT_SKIP.test(w)) continue;
    if (SUBJECT_STOP.test(w) || /^\d/.test(w)) break;
    after.push(w);
  }
  const chosen = after.length > 0 ? after : words(claim.slice(0, m.index)).slice(1).filter((w) => !SUBJECT_SKIP.test(w));
  return new Set(chosen.flatMap((w) => wordTokens(w).map((t) => t.stem)));
}

/** What each further piece of evidence adds to (or, against, takes from) a verdict, and the caps of both. */
const VOTE_STEP = 0.03;
const VOTE_CAP = 0.1;
const AGAINST_CAP = 0.06;

/** Verb forms that carry no claim of their own. */
const AUXILIARY = /^(?:had|has|have|having|been|being|did|does|doing|done|get|gets|got|make|makes|made)$/i;

/** Share of the words of what changed that a table row's label must hold to stand for it. */
const MIN_SUBJECT_SHARE = 0.5;

/** Share of the asked thing's terms that must be missing from the evidence before their absence answers No. */
const MIN_ABSENT_SHARE = 0.5;

const THING_STOP = /^(?:present|on|in|at|of|that|which|who|whose|with|from|for|to|than|more|less|by|during|shown|listed|mentioned|included|contained|between|as|and|or|is|are|was|were)$/i;

/**
 * Stems of the thing an existence question asks about: the words after "there (are) (any)" or after "have / contain
 * / include / mention (any)" up to a preposition or relative word ("Is there a stamp shown on…" → stamp).
 */
function askedThing(claim: string): Set<string> {
  const m = /\bthere\b|\b(?:have|has|contain|contains|include|includes|mention|mentions|show|shows|list|lists|report|reports)\b/i.exec(claim.replace(/^\s*\w+/, ''));
  if (!m) return new Set();
  const rest = claim.replace(/^\s*\w+/, '').slice(m.index + m[0].length);
  const words: string[] = [];
  for (const w of rest.split(/[^A-Za-z0-9&'’-]+/).filter(Boolean)) {
    if (words.length === 0 && /^(?:is|are|was|were|be|been|any|a|an|the|some|its|their|his|her|such)$/i.test(w)) continue;
    if (THING_STOP.test(w)) break;
    words.push(w);
  }
  return new Set(words.flatMap((w) => wordTokens(w).map((t) => t.stem)));
}

/** Questions that ask whether something exists or is present ("Is there…", "Are there any…", "Does it contain…"). */
const EXISTENCE = /^\s*(?:is|are|was|were)\s+there\b|^\s*(?:does|do|did|has|have|had)\b[^?]*\b(?:have|has|contain|contains|include|includes|mention|mentions|show|shows|list|lists|report|reports|any)\b/i;

/** True when a negation stands within {@link NEGATION_REACH} characters before one of `positions` in `text`. */
function negatedNear(text: string, positions: readonly number[]): boolean {
  if (positions.length === 0) return false;
  NEGATION.lastIndex = 0;
  for (const m of text.matchAll(NEGATION)) {
    const at = m.index;
    if (positions.some((p) => (at <= p && p - (at + m[0].length) <= NEGATION_REACH) || (at > p && at - p <= NEGATION_REACH / 2))) return true;
  }
  return false;
}

/** Question with its answer instruction removed ("Directly answer 'yes' or 'no'."). */
function claimOf(question: string): string {
  // Found first, then widened to its sentence (a pattern starting with `[^.?!]*` would retry from every position).
  const m = /\banswer\W+yes\W+or\W+no\b/i.exec(question);
  if (!m) return question.trim();
  const start = Math.max(question.lastIndexOf('.', m.index), question.lastIndexOf('?', m.index), question.lastIndexOf('!', m.index)) + 1;
  const after = question.slice(m.index + m[0].length).search(/[.?!]/);
  const end = after < 0 ? question.length : m.index + m[0].length + after + 1;
  return `${question.slice(0, start)} ${question.slice(end)}`.trim();
}

const answerOf = (agree: boolean): 'Yes' | 'No' => (agree ? 'Yes' : 'No');

/**
 * A change over time the question asks about ("Did X grow between 2021 and 2022?", "Has X increased…?", "Does X show
 * a shrinking backlog in 2023?") checked against the best-matching table row: the newer of the two compared years
 * against the older. Yes when the values moved the way the question says, No when they moved the other way.
 */
function tableDirectionCandidates(evidence: EvidenceSet, asked: Direction, subject: ReadonlySet<string>): Candidate[] {
  const { profile } = evidence;
  // The row must name what changed (its label holds most words of the subject), best share of the subject first.
  const share = (label: string): number => (subject.size === 0 ? 0 : [...subject].filter((stem) => phraseStems(label).has(stem)).length / subject.size);
  const cells = scoreTableCells(evidence)
    .filter((c) => c.rowScore >= 0.2 && share(c.label) >= MIN_SUBJECT_SHARE)
    .sort((a, b) => share(b.label) - share(a.label) || b.score - a.score);
  for (const best of cells.slice(0, 10)) {
    const p = best.entry.observation.payload;
    if (p.kind !== 'table') continue;
    const row = cells.filter((c) => c.entry === best.entry && c.row === best.row);
    const byYear = new Map<number, (typeof row)[number]>();
    for (const c of row) for (const y of columnYears(p.columns[c.col] ?? '')) if (!byYear.has(y)) byYear.set(y, c);
    if (byYear.size < 2) continue;
    const available = [...byYear.keys()].sort((a, b) => a - b);
    let years: number[];
    if (profile.years.length >= 2) years = [profile.years[0]!, profile.years[profile.years.length - 1]!];
    else if (profile.years.length === 1) years = [profile.years[0]! - 1, profile.years[0]!];
    else years = available.slice(-2);
    if (!years.every((y) => byYear.has(y))) continue;
    const older = byYear.get(years[0]!)!;
    const newer = byYear.get(years[1]!)!;
    if (older.parsed.value === newer.parsed.value) continue;
    const moved: Direction = newer.parsed.value > older.parsed.value ? 'up' : 'down';
    const answer = answerOf(moved === asked);
    return [
      {
        answer,
        format: 'Str',
        score: Math.max(...row.map((c) => c.score)) + 0.1,
        support: [tableRowSupport(best.entry, best.label, older.cell), tableRowSupport(best.entry, best.label, newer.cell)],
        notes: [`${answer}: "${best.label}" went ${moved} from ${older.cell} (${years[0]}) to ${newer.cell} (${years[1]}); the question asks whether it went ${asked}`],
      },
    ];
  }
  return [];
}

/**
 * Yes/No decided from the evidence:
 * - a change the question asks about ("did X increase…") against a table row's values over the years compared, or
 *   against the direction a sentence about X states (increased / declined);
 * - otherwise the best sentence holding the claim's terms: Yes when it states them, No when a negation stands next to
 *   them (unless the question itself is negated the same way);
 * - a question whether something exists ("Is there a signature…?") whose main terms appear nowhere in the evidence: No.
 * The score is the support of the deciding evidence (term coverage), so a weak match gives a weak confidence.
 */
export function yesNoCandidates(evidence: EvidenceSet): Candidate[] {
  const { profile } = evidence;
  const claim = claimOf(profile.question);
  const asked = directionOf(claim);
  const out: Candidate[] = [];
  const subject = changedSubject(claim);
  if (asked) out.push(...tableDirectionCandidates(evidence, asked, subject));
  const questionNegated = negatedNear(claim, wordTokens(claim).map((t) => t.start));
  const sentences = scoreSentences(evidence).slice(0, 5);
  for (const [i, s] of sentences.entries()) {
    // A sentence states a change of the subject when it names the subject and one direction.
    const stated = asked && [...subject].some((stem) => phraseStems(s.text).has(stem)) ? directionOf(s.text) : undefined;
    if (stated) {
      const answer = answerOf((stated === asked) !== questionNegated);
      out.push({
        answer,
        format: 'Str',
        score: s.score - 0.05 * i,
        support: [clipSentence(s)],
        notes: [`${answer}: a sentence of ${s.entry.observation.node_id} says it went ${stated}; the question asks ${asked}`],
      });
      continue;
    }
    const negated = negatedNear(s.text, s.termPositions);
    const answer = answerOf(negated === questionNegated);
    out.push({
      answer,
      format: 'Str',
      score: s.score - 0.1 - 0.05 * i,
      support: [clipSentence(s)],
      notes: [`${answer}: a sentence of ${s.entry.observation.node_id} ${negated ? 'denies' : 'states'} the question's terms${questionNegated ? ' (the question is negated)' : ''}`],
    });
  }
  // "Is there X?" with X nowhere in the evidence: the main terms the evidence lacks decide, weighted by their share.
  if (EXISTENCE.test(claim) && !questionNegated) {
    const thing = askedThing(claim);
    const key = profile.terms.filter((t) => t.weight >= 1 && !AUXILIARY.test(t.word) && (thing.size === 0 || thing.has(t.stem)));
    const absent = key.filter((t) => !evidence.terms.some((e) => e.stem === t.stem && e.weight === t.weight));
    const first = evidence.entries[0];
    const share = absent.length / Math.max(1, key.length);
    // Only when a substantial part of the claim is missing (a missing adjective alone decides nothing).
    if (share >= MIN_ABSENT_SHARE && first) {
      const text = first.text.text;
      const span = windowAround(text, { start: 0, end: text.length }, { start: 0, end: 0 }, 160);
      out.push({
        answer: 'No',
        format: 'Str',
        score: 0.3 + 0.3 * share,
        support: [supportFor(first.observation, span.start, span.end, first.text)],
        notes: [`No: the evidence never mentions ${absent.map((t) => `"${t.word}"`).join(', ')}`],
      });
    }
  }
  // One verdict per answer: its best support, plus a little for each further piece of evidence agreeing, minus a
  // little for each against; the answer with more left wins.
  if (out.length === 0) return [];
  const verdicts = (['Yes', 'No'] as const).flatMap((answer) => {
    const mine = out.filter((c) => c.answer === answer).sort((a, b) => b.score - a.score);
    const best = mine[0];
    if (!best) return [];
    const against = out.length - mine.length;
    const score = best.score + Math.min(VOTE_CAP, VOTE_STEP * (mine.length - 1)) - Math.min(AGAINST_CAP, VOTE_STEP * against);
    return [{ ...best, score, notes: [...best.notes, `${mine.length - 1} more piece(s) of evidence agree, ${against} disagree`] }];
  });
  verdicts.sort((a, b) => b.score - a.score);
  return [verdicts[0]!];
}

function clipSentence(s: ReturnType<typeof scoreSentences>[number]): ReturnType<typeof supportFor> {
  const text = s.entry.text.text;
  const focus = s.termPositions.length > 0 ? { start: s.span.start + Math.min(...s.termPositions), end: s.span.start + Math.min(...s.termPositions) } : { start: s.span.start, end: s.span.start };
  const span = windowAround(text, s.span, focus, 280);
  return supportFor(s.entry.observation, span.start, span.end, s.entry.text);
}
