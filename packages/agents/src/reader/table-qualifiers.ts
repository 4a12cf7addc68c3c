/**
 * The names a question selects a table's column (or row) by — a code (`XR-200`, `MMLU`, `50-shot`), a capitalised
 * name (`Hillside`), a quoted label, a year — and whether a table read for the answer has them. A table that lacks
 * every name of a kind the question writes while it names other things of that kind (other datasets, other years)
 * does not hold what the question asks: reading its first value column instead would answer another question.
 */
import { yearMentions } from '@doctree/schema';
import type { QuestionProfile } from './question-profile.js';

/** The kinds of names a question selects a column or row by. */
export type QualifierKind = 'year' | 'code' | 'name';

/** A name the question writes that should select the column (or row) of a table reading. */
export interface Qualifier {
  /** As the question writes it. */
  text: string;
  kind: QualifierKind;
  /** Compared form: lower case, letters and digits only (`CoNLL-03` and `conll03` are the same name). */
  key: string;
}

/** What a table holds, as read for a ranking or a cell: the text of its selectors and all of its text. */
export interface TableNames {
  /** Every text of the table: caption, header lines, row labels, cells. */
  all: string;
  /** The texts that select among its values for this reading (column headers and caption; row labels when items run across). */
  selectors: string;
  /** The selecting headers one by one (column headers, or row labels when items run across). */
  headers?: readonly string[];
}

/** Why a table reading gives no answer: the kind and the names the question writes that the table lacks. */
export interface MissingQualifier {
  kind: QualifierKind;
  names: string[];
  /** The question's names of that kind. */
  qualifiers: Qualifier[];
  /** A note for the trace: "the table has no column for X". */
  note: string;
}

const TOKEN_RE = /[\p{L}\p{N}][\p{L}\p{N}.&+'’-]*[\p{L}\p{N}]|[\p{L}\p{N}]/gu;
const YEAR_INSIDE = /(?:19|20)\d{2}(?!\d)/;
const QUOTED_RE = /["“'‘]([^"”'’\n]{2,60})["”'’]/g;

/** Letters and digits only, lower case. */
const keyOf = (text: string): string => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

/** A code: letters with digits (`50-shot`, `M250`, `GPT-4`), two capitals or more (`MMLU`), or a capital inside (`ChatGPT`). */
function isCode(word: string): boolean {
  if (!/\p{L}/u.test(word)) return false;
  if (/\p{N}/u.test(word)) return true;
  return (word.match(/\p{Lu}/gu)?.length ?? 0) >= 2 || /^.\p{Ll}*\p{Lu}/u.test(word);
}

/** A capitalised name (`Hillside`): a capital, then small letters only, three letters or more. */
const isName = (word: string): boolean => /^\p{Lu}\p{Ll}{2,}$/u.test(word);

/** Kind of a word as a selector, or undefined when it is no name (a common word, a number). */
function kindOf(word: string): 'code' | 'name' | undefined {
  if (isCode(word)) return 'code';
  if (isName(word)) return 'name';
  return undefined;
}

/** Years a text names (`2019`, `FY2019`, `fiscal 2019`). */
const yearsIn = (text: string): number[] => yearMentions(text, { prefix: 'fiscal', twoDigit: 'fiscal' }).map((m) => m.year);

/** Whether a word opens a sentence of the question (its capital says nothing). */
function opensSentence(question: string, at: number): boolean {
  const before = question.slice(0, at).trimEnd();
  return before === '' || /[.?!:;]$/.test(before);
}

/**
 * The names a question writes that can select a table's column or row: codes and capitalised names (not a word
 * that opens a sentence, nor one of the question's years), quoted labels by their kind, and the years asked (none for a
 * change between years: each of its years is read on its own).
 */
export function questionQualifiers(profile: Pick<QuestionProfile, 'question' | 'years'>, options: { years?: boolean } = {}): Qualifier[] {
  const q = profile.question;
  const out = new Map<string, Qualifier>();
  const add = (text: string, kind: QualifierKind): void => {
    const key = kind === 'year' ? text : keyOf(text);
    if (key && !out.has(`${kind}\u0000${key}`)) out.set(`${kind}\u0000${key}`, { text, kind, key });
  };
  const yearSpans = yearMentions(q, { prefix: 'fiscal', twoDigit: 'fiscal' }).map((m) => [m.start, m.end] as const);
  for (const m of q.matchAll(TOKEN_RE)) {
    const word = m[0].replace(/[’']s$/u, '');
    if (yearSpans.some(([s, e]) => m.index < e && m.index + m[0].length > s)) continue;
    if (/^\p{N}+(?:[.,]\p{N}+)*%?$/u.test(word)) continue;
    const kind = kindOf(word);
    if (!kind || (kind === 'name' && opensSentence(q, m.index))) continue;
    // A period written as one word (`Q22023`, `H1-2021`) names its year, read with the years, not a code.
    if (kind === 'code' && YEAR_INSIDE.test(word)) continue;
    add(word, kind);
  }
  for (const m of q.matchAll(QUOTED_RE)) {
    const label = m[1]!.trim();
    const kind = label.split(/\s+/).some(isCode) ? 'code' : /^\p{Lu}/u.test(label) ? 'name' : undefined;
    if (kind) add(label, kind);
  }
  if (options.years !== false) for (const y of profile.years) add(String(y), 'year');
  return [...out.values()];
}

/** Whether a text holds a name (its letters and digits, at word bounds) or a year. */
function holds(text: string, qualifier: Qualifier): boolean {
  if (qualifier.kind === 'year') return yearsIn(text).includes(Number(qualifier.key));
  const words = (text.match(TOKEN_RE) ?? []).map(keyOf);
  const parts = qualifier.text.match(TOKEN_RE)?.map(keyOf).filter(Boolean) ?? [];
  if (parts.length === 0) return false;
  // The name's words in a row (`CoNLL 03` holds `CoNLL03` too: the words joined).
  for (let i = 0; i < words.length; i++) {
    let joined = '';
    for (let j = i; j < words.length && joined.length < qualifier.key.length; j++) {
      joined += words[j]!;
      if (joined === qualifier.key) return true;
    }
  }
  return false;
}

/** Names of a kind a text writes (other than the question's own). */
function namesOfKind(text: string, kind: QualifierKind): string[] {
  if (kind === 'year') return yearsIn(text).map(String);
  return (text.match(TOKEN_RE) ?? []).filter((w) => kindOf(w.replace(/[’']s$/u, '')) === kind);
}

/**
 * The kind of name the question writes that the table lacks while its selectors name others of that kind (the
 * question names dataset X, the table has columns for datasets Y and Z only), or undefined when the table holds a
 * name of every kind the question writes, or names nothing of that kind (then the name does not select here).
 * Names of one kind count together: one of them in the table is enough (the others may name the document).
 */
export function missingQualifier(qualifiers: readonly Qualifier[], table: TableNames, what: 'column' | 'row' = 'column'): MissingQualifier | undefined {
  for (const kind of ['year', 'code', 'name'] as const) {
    const asked = qualifiers.filter((q) => q.kind === kind);
    if (asked.length === 0 || asked.some((q) => holds(table.all, q))) continue;
    const keys = new Set(asked.map((q) => q.key));
    // Capitalised words head many columns ("Revenues"): other names count only as whole column headers, two of them
    // at least (row labels are too often single capitalised words to tell a name from a line item).
    const source = kind === 'name' ? (table.headers ?? []).map((h) => h.replace(/\([^()]*\)/g, '').trim()).filter((h) => isName(h)) : namesOfKind(table.selectors, kind);
    const others = source.filter((n) => !keys.has(kind === 'year' ? n : keyOf(n)));
    if (kind === 'name' && (what !== 'column' || new Set(others).size < 2)) continue;
    if (others.length === 0) continue;
    const names = asked.map((q) => q.text);
    return { kind, names, qualifiers: asked, note: `the table has no ${what} for ${names.map((n) => `"${n}"`).join(' or ')} (it names ${[...new Set(others)].slice(0, 4).map((n) => `"${n}"`).join(', ')})` };
  }
  return undefined;
}

/** Notes of the tables a reading skipped, by evidence set (read into the reader's notes). */
const SKIPPED = new WeakMap<object, string[]>();
/** The names a ranking's table lacked, by evidence set: an answer elsewhere must name one of them. */
const RANKING_LACKS = new WeakMap<object, Qualifier[]>();

/**
 * Records why a table reading of this evidence gave no answer (once per note). `ranking`: the table was the one a
 * ranking question ("which … is highest on X") would be read from, and it lacks the names given.
 */
export function noteSkippedTable(evidence: object, note: string, ranking?: readonly Qualifier[]): void {
  const notes = SKIPPED.get(evidence) ?? [];
  if (!notes.includes(note)) notes.push(note);
  SKIPPED.set(evidence, notes);
  if (ranking) RANKING_LACKS.set(evidence, [...(RANKING_LACKS.get(evidence) ?? []), ...ranking]);
}

/**
 * Whether an answer read from these texts may stand when a ranking's table lacked what the question names: the
 * texts must name one of the missing names themselves (a sentence about X may answer; one about Y may not).
 */
export function answersMissingName(evidence: object, texts: readonly string[]): boolean {
  // A capitalised name may name the document's subject rather than a column: only codes and years bind here.
  const lacked = RANKING_LACKS.get(evidence)?.filter((q) => q.kind !== 'name');
  if (!lacked || lacked.length === 0) return true;
  return texts.some((t) => lacked.some((q) => holds(t, q)));
}

/** Why table readings of this evidence gave no answer, in the order found. */
export function skippedTableNotes(evidence: object): readonly string[] {
  return SKIPPED.get(evidence) ?? [];
}
