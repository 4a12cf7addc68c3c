import type { QuestionAnalysis } from '@doctree/schema';
import { numberWordValue } from '@doctree/schema';

/**
 * What a "how many …" question counts — part of the one question analysis ({@link countAnalysis} reads an
 * analysis's question once and keeps the result with it). General English phrasing rules only: the counted noun
 * phrase and its head, whether the head names a kind of document object (figures, tables, charts, images, equations,
 * headings that start with a word such as "Appendix"), whether pages holding such objects are counted, the words
 * that narrow what is counted and the section or pages the count is limited to.
 */

/** Kinds of document object a count question can name (counted from the DocTree instead of read from the text). */
export type CountedObject = 'figure' | 'chart' | 'image' | 'table' | 'equation' | 'heading';

/** What a count question counts. */
export interface CountAnalysis {
  /** The counted noun phrase as written, lower case ("connection graphs", "key steps"). */
  phrase: string;
  /** Its head noun, lower case ("graphs", "steps"). */
  noun: string;
  /** Words written before the head ("connection", "key"), lower case, counting words (`distinct`, `total`) left out. */
  modifiers: string[];
  /** The kind of document object the head names, when it names one. */
  object?: CountedObject;
  /** For `heading`: the word such headings start with, singular and lower case (`appendix`, `chapter`). */
  headingWord?: string;
  /** Pages that hold the object are counted ("how many slides include charts"), not the objects. */
  perPage: boolean;
  /** "distinct / different / unique" was asked: equal items count once. */
  distinct: boolean;
  /** "How many more / fewer …": a difference of two counts is asked, not a count of items. */
  comparative: boolean;
  /** Quoted words or phrases each counted object must contain ("tables that include "F1""). */
  required: string[];
  /**
   * Words that narrow what is counted: the head's modifiers and the content words of the clause after it ("related
   * to the merger", "that show revenue") — scope words (`in the report`, `in the section on X`) left out, and the
   * clause left out when it quotes a required word.
   */
  qualifiers: string[];
  /** The section the count is limited to, as the question names it ("Appendix B", "3.2", "risk factors"). */
  section?: string;
}

/** Heads that name document objects, singular → kind. */
const OBJECT_NOUNS: ReadonlyMap<string, CountedObject> = new Map([
  ['figure', 'figure'], ['fig', 'figure'], ['diagram', 'figure'], ['illustration', 'figure'], ['drawing', 'figure'], ['schematic', 'figure'],
  ['image', 'image'], ['picture', 'image'], ['photo', 'image'], ['photograph', 'image'], ['screenshot', 'image'],
  ['chart', 'chart'], ['graph', 'chart'], ['plot', 'chart'], ['histogram', 'chart'],
  ['table', 'table'],
  ['equation', 'equation'], ['formula', 'equation'],
]);

/** Heads that name headings that start with the word ("Appendix C", "Chapter 4"). */
const HEADING_NOUNS: ReadonlyMap<string, string> = new Map([
  ['appendix', 'appendix'], ['appendices', 'appendix'], ['appendixes', 'appendix'], ['annex', 'annex'], ['annexes', 'annex'],
  ['chapter', 'chapter'], ['chapters', 'chapter'], ['exhibit', 'exhibit'], ['exhibits', 'exhibit'], ['schedule', 'schedule'], ['schedules', 'schedule'],
]);

/** Plural nouns without a final s. */
const IRREGULAR_PLURALS = new Set(['people', 'men', 'women', 'children', 'data', 'criteria', 'media', 'feet', 'teeth', 'mice', 'geese', 'staff', 'personnel', 'phenomena', 'appendices']);

/** Words that end the counted noun phrase: function words, auxiliaries and verbs that relate it to something. */
const PHRASE_END = new Set(
  `a an the this that these those there here it its their his her our your my of in on at by for from with within without into onto to about
  among between during per than as if or and but nor which who whom whose what when where why how are is was were be been being do does did
  done has have had can could will would should shall may might must appear appears appeared exist exists contain contains contained containing
  include includes included including show shows shown showing list lists listed present presents presented mention mentions mentioned
  use uses used feature features featured depict depicts depicted illustrate illustrates illustrated describe describes described give gives given
  provide provides provided need needed needs required require requires go goes went get gets got make makes made take takes took say says said
  related relating according regarding concerning not no any all each every some total them they those us you he she we i`
    .split(/\s+/)
    .filter(Boolean),
);

/** Words skipped before the phrase ("how many of the …"). */
const LEADING = new Set(['a', 'an', 'the', 'of', 'these', 'those', 'such', 'all', 'any', 'total']);

/** Words before the head that say how to count rather than what. */
const COUNTING_MODIFIERS = new Set(['distinct', 'different', 'unique', 'separate', 'individual', 'total', 'overall', 'entire', 'whole', 'more', 'fewer', 'less', 'other']);

/** Words of a clause that name the document or the act of showing rather than what is counted. */
const SCOPE_WORDS = new Set(
  `document documents report reports paper papers article articles guidebook guide guides manual manuals handbook brochure brochures booklet slides slide deck
  presentation file book text main body whole entire total overall altogether appear appears appeared shown show shows presented present presents contained
  contain contains included include includes given listed mentioned used provided there here page pages section sections chapter part appendix`
    .split(/\s+/)
    .filter(Boolean),
);

/** Function words of a clause (kept out of qualifiers). */
const CLAUSE_STOP = new Set(
  `a an the this that these those it its their his her our your my of in on at by for from with within without into onto to about among between during per than as if or and
  but nor which who whom whose what when where why how are is was were be been being do does did has have had can could will would should shall may might must
  related relating according regarding concerning not no any all each every some more less many much times time please answer write format integer int
  number numbers list respectively`
    .split(/\s+/)
    .filter(Boolean),
);

const WORD = /[A-Za-z][A-Za-z0-9&'’-]*|\d[\d.,]*\+?/g;

/** Plural-looking word: ends in s (not ss / us / is) or an irregular plural. */
const plural = (w: string): boolean => IRREGULAR_PLURALS.has(w) || (/[^su]s$/.test(w) && !/(?:ss|us|is)$/.test(w));

/** Singular of a plural noun (`appendices` → `appendix`, `graphs` → `graph`, `photos` → `photo`). */
export function singularNoun(word: string): string {
  const w = word.toLowerCase();
  if (/ices$/.test(w) && HEADING_NOUNS.has(w)) return HEADING_NOUNS.get(w)!;
  if (/(?:ches|shes|sses|xes)$/.test(w)) return w.slice(0, -2);
  if (/[^aeiou]ies$/.test(w)) return `${w.slice(0, -3)}y`;
  if (/[^s]s$/.test(w)) return w.slice(0, -1);
  return w;
}

/** Where the counted phrase starts: after "how many", "the number of", "count (of|the)". */
const COUNT_START = /\bhow\s+many\s+|\b(?:the\s+)?(?:total\s+)?number\s+of\s+(?:the\s+)?|\bcount\s+(?:of\s+)?(?:the\s+)?/i;

/** "how many pages / slides (that) contain (any) tables". */
const PAGES_HOLDING = /\bhow\s+many\s+(?:of\s+the\s+)?(?:pages|slides)\s+(?:that\s+|which\s+)?(?:contain|contains|include|includes|have|has|show|shows|hold|holds|feature|features|with|are\s+with)\s+(?:a\s+|an\s+|any\s+|at\s+least\s+one\s+)?([a-z]+)/i;

/** A section named as the count's scope. */
const SECTION_SCOPES: RegExp[] = [
  /\b(?:[Ii]n|[Ww]ithin|[Uu]nder|[Ff]rom)\s+(?:the\s+)?((?:[Aa]ppendix|[Aa]nnex|[Cc]hapter|[Ss]ection|[Pp]art|APPENDIX|ANNEX|CHAPTER|SECTION|PART)\s+(?:[A-Z]|[0-9]+(?:\.[0-9]+)*|[IVX]+))\b/,
  /\b(?:in|within|under|of|from)\s+(?:the\s+)?(?:section|chapter|part)\s+(?:(?:titled|entitled|called|named|headed|about|on|of)\s+)?["“']?([A-Za-z][\w&'’ -]{0,60}?)["”']?(?=\s*(?:[?,;]|\.(?!\d)|$|\b(?:are|is|was|were|do|does|did|have|has|in|of|on)\b))/i,
  /\b(?:in|within|under|from)\s+(?:the\s+)?["“']?([A-Za-z][\w&'’ -]{1,48}?)["”']?\s+(?:section|chapter|part)\b/i,
  /\b(?:in|within|under)\s+(?:the\s+)?(?:heading|title)\s+["“']([^"”']{2,60})["”']/i,
];

const QUOTED = /["“'‘]([^"”'’]{1,40})["”'’]/g;

const memo = new WeakMap<QuestionAnalysis, CountAnalysis | null>();

/**
 * What a count question counts, or undefined when the analysis is not a count (`count` false) or names nothing
 * countable. Read once per analysis (the result is kept with it).
 *
 * @example
 * ```ts
 * const c = countAnalysis(analyzeQuestion('How many pages contain photos?'));
 * // { noun: 'pages', object: 'image', perPage: true, … }
 * countAnalysis(analyzeQuestion('How many tables in the appendix report "recall"?'))?.required; // ['recall']
 * ```
 */
export function countAnalysis(analysis: QuestionAnalysis): CountAnalysis | undefined {
  if (memo.has(analysis)) return memo.get(analysis) ?? undefined;
  const read = analysis.count ? readCount(analysis.asking || analysis.question) : undefined;
  memo.set(analysis, read ?? null);
  return read;
}

function readCount(question: string): CountAnalysis | undefined {
  const start = COUNT_START.exec(question);
  if (!start) return undefined;
  const rest = question.slice(start.index + start[0].length);
  const words = [...rest.matchAll(WORD)].map((m) => ({ word: m[0].toLowerCase(), start: m.index, end: m.index + m[0].length }));
  // The noun phrase: words up to the first function word, verb or punctuation (at most five words).
  const run: typeof words = [];
  for (const w of words) {
    if (run.length > 0 && /[?,.;:!()]/.test(rest.slice(run[run.length - 1]!.end, w.start))) break;
    if (PHRASE_END.has(w.word) && run.length > 0) break;
    if (LEADING.has(w.word)) continue;
    if (PHRASE_END.has(w.word)) break;
    // "adults rated …", "tweets referencing …": a verb form after a plural noun starts its clause.
    if (run.length > 0 && plural(run[run.length - 1]!.word) && /(?:ed|ing)$/.test(w.word)) break;
    if (/^\d/.test(w.word) && numberWordValue(w.word) === undefined && run.length === 0) continue;
    run.push(w);
    if (run.length >= 5) break;
  }
  if (run.length === 0) return undefined;
  let headAt = -1;
  for (let i = run.length - 1; i >= 0; i--) {
    if (plural(run[i]!.word) || HEADING_NOUNS.has(run[i]!.word)) {
      headAt = i;
      break;
    }
  }
  if (headAt < 0) headAt = run.length - 1;
  const phraseWords = run.slice(0, headAt + 1);
  const noun = phraseWords[phraseWords.length - 1]!.word;
  const before = phraseWords.slice(0, -1).map((w) => w.word);
  const distinct = before.some((w) => w === 'distinct' || w === 'different' || w === 'unique');
  const comparative = before.some((w) => w === 'more' || w === 'fewer' || w === 'less');
  const modifiers = before.filter((w) => !COUNTING_MODIFIERS.has(w) && !/^\d/.test(w));
  const singular = singularNoun(noun);
  let object: CountedObject | undefined = OBJECT_NOUNS.get(singular);
  const headingWord = object === undefined ? HEADING_NOUNS.get(noun) ?? HEADING_NOUNS.get(singular) : undefined;
  if (headingWord !== undefined) object = 'heading';
  // "How many slides include charts?": the pages holding that object.
  let perPage = false;
  const holding = PAGES_HOLDING.exec(question);
  if (holding) {
    const held = OBJECT_NOUNS.get(singularNoun(holding[1]!));
    if (held !== undefined) {
      object = held;
      perPage = true;
    }
  }
  const section = SECTION_SCOPES.map((p) => p.exec(question)?.[1]?.trim()).find((s) => s !== undefined && s !== '' && !/^(?:this|that|same|following|previous|next|whole|entire)$/i.test(s));
  const required = [...question.matchAll(QUOTED)].map((m) => m[1]!.trim()).filter((q) => q.length > 0);
  // Qualifiers: the head's modifiers and the content words after the phrase, without the scope.
  const afterPhrase = rest.slice(phraseWords[phraseWords.length - 1]!.end);
  const withoutScope = section ? afterPhrase.replace(section, ' ') : afterPhrase;
  const clauseWords = [...withoutScope.matchAll(WORD)].map((m) => m[0].toLowerCase()).filter((w) => !CLAUSE_STOP.has(w) && !SCOPE_WORDS.has(w) && !/^\d/.test(w) && w.length > 1);
  const heldWord = holding ? holding[1]!.toLowerCase() : undefined;
  // A quoted word is the criterion; the clause around it describes it ("tables that report "latency" per request").
  const qualifiers = [...new Set([...modifiers, ...(required.length > 0 ? [] : clauseWords)])].filter((w) => w !== heldWord && singularNoun(w) !== singular && !required.some((r) => r.toLowerCase() === w));
  return {
    phrase: phraseWords.map((w) => w.word).join(' '),
    noun,
    modifiers,
    ...(object !== undefined ? { object } : {}),
    ...(headingWord !== undefined ? { headingWord } : {}),
    perPage,
    distinct,
    comparative,
    required,
    qualifiers,
    ...(section !== undefined ? { section } : {}),
  };
}
