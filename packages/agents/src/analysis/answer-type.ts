import { ordinalValue, ordinalWordSource } from '@doctree/schema';
import { askingSentence } from './question-analysis.js';

/**
 * What kind of short text answers a question, read from its wording with general English rules only (no field
 * words): the reader's candidate generators keep the spans of that kind. Part of the one question analysis.
 */

/**
 * The type of a short text answer:
 * - `person` — "who …";
 * - `organization` — "which company / organisation / agency / institution …";
 * - `place` — "where …", "which city / country / location …";
 * - `name` — "what is the name / title of …";
 * - `expansion` — "what does ABC stand for", "the full form of ABC";
 * - `code` — "what is the code / ID / number / telephone / model / version of …" (a token with digits);
 * - `definition` — "how does the document define X", "what does X mean" (the statement that defines X);
 * - `phrase` — any other "what is the X of Y" (a short phrase, not a sentence).
 */
export type TextAnswerType = 'person' | 'organization' | 'place' | 'name' | 'expansion' | 'code' | 'definition' | 'phrase';

/** How a choice question decides among the options it names. */
export type ChoiceBasis =
  /** "Is A before or after B?": the order in which the document mentions A and B. */
  | 'order'
  /** "Which has more …, A or B?": the values the evidence gives each option. */
  | 'compare'
  /** Any other choice: the option the evidence supports best. */
  | 'pick';

/** The options a question names for its answer ("A or B"), and how to decide among them. */
export interface ChoiceOptions {
  /** The options, as the question writes them (at least two). */
  options: string[];
  basis: ChoiceBasis;
  /** `order`: the two things whose order is asked ("is A before or after B" → A, B). */
  subjects?: [string, string];
  /** `compare`: whether the larger (`max`) or the smaller (`min`) value wins. */
  extreme?: 'max' | 'min';
  /** The options are a pair of opposite words ("higher or lower"), not things the document names. */
  opposite?: boolean;
}

/** Pairs of opposite words a question offers as its answer ("before or after", "higher or lower"). */
const OPPOSITES: ReadonlyArray<readonly [string, string, ChoiceBasis]> = [
  ['before', 'after', 'order'],
  ['earlier', 'later', 'order'],
  ['above', 'below', 'order'],
  ['higher', 'lower', 'compare'],
  ['more', 'less', 'compare'],
  ['more', 'fewer', 'compare'],
  ['larger', 'smaller', 'compare'],
  ['bigger', 'smaller', 'compare'],
  ['greater', 'smaller', 'compare'],
  ['increase', 'decrease', 'pick'],
  ['increased', 'decreased', 'pick'],
  ['up', 'down', 'pick'],
  ['positive', 'negative', 'pick'],
];

/** Comparative and superlative words, and which end they ask for. */
const MAX_WORDS = /\b(?:more|most|higher|highest|larger|largest|bigger|biggest|greater|greatest|longer|longest|maximum|many|much)\b/i;
const MIN_WORDS = /\b(?:less|least|fewer|fewest|lower|lowest|smaller|smallest|shorter|shortest|minimum)\b/i;

const QUOTED = /["“‘'`]([^"”’'`]{1,60})["”’'`]/g;

/** Cleans an option: surrounding articles, quotes and punctuation off. */
function cleanOption(text: string): string {
  return text
    .trim()
    .replace(/^["“‘'`]+|["”’'`]+$/g, '')
    .replace(/[?.!,;:]+$/, '')
    .replace(/^(?:the|a|an)\s+/i, '')
    .trim();
}

/** Splits "A, B, or C" / "A or B" / "A, B and C" into its items (undefined when it is not such a run). */
function splitAlternatives(text: string, conjunction: 'or' | 'and|or'): string[] | undefined {
  const last = new RegExp(`^(.*\\S)\\s*,?\\s+(?:${conjunction})\\s+(\\S.*)$`, 'i').exec(text);
  if (!last) return undefined;
  const head = last[1]!.split(/\s*,\s*/);
  const items = [...head, last[2]!].map(cleanOption).filter((s) => s !== '');
  if (items.length < 2 || items.some((s) => s.split(/\s+/).length > 8)) return undefined;
  return items;
}

/**
 * The options a question names for its answer, or undefined when it names none:
 * - an instruction quoting them ("Answer 'A' or 'B'.");
 * - a pair of opposite words ("is A before or after B?", "higher or lower than …");
 * - alternatives closing a which-question ("Which one has more pages, A or B?") or introduced before it
 *   ("Among A, B and C, which …?", "Of the three methods: A, B, and C, which …?").
 * Yes/no questions name no options ("yes or no" is no choice).
 *
 * @example
 * ```ts
 * choiceOptions('Which plant produced more units, the north plant or the south plant?');
 * // { options: ['north plant', 'south plant'], basis: 'compare', extreme: 'max' }
 * choiceOptions('Does "Filling" come before or after "Sealing"?');
 * // { options: ['before', 'after'], basis: 'order', opposite: true, subjects: ['Filling', 'Sealing'] }
 * ```
 */
export function choiceOptions(question: string): ChoiceOptions | undefined {
  const asking = askingSentence(question);
  const extreme = MIN_WORDS.test(asking) && !MAX_WORDS.test(asking) ? 'min' : MAX_WORDS.test(asking) ? 'max' : undefined;
  // An instruction quoting the options ("Directly answer 'A' or 'B'.").
  const instruction = /\b(?:answer|respond|reply|choose|select|pick)\b[^.?!]*?["“‘'`]([^"”’'`]{1,60})["”’'`]\s*,?\s*or\s*["“‘'`]([^"”’'`]{1,60})["”’'`]/i.exec(question);
  if (instruction) {
    const options = [cleanOption(instruction[1]!), cleanOption(instruction[2]!)];
    if (!options.every((o) => /^(?:yes|no|true|false)$/i.test(o)) && options[0]!.toLowerCase() !== options[1]!.toLowerCase()) {
      return { options, basis: extreme ? 'compare' : 'pick', ...(extreme ? { extreme } : {}) };
    }
  }
  const lower = asking.toLowerCase();
  for (const [a, b, basis] of OPPOSITES) {
    const m = new RegExp(`\\b(${a}|${b})\\s+or\\s+(${a}|${b})\\b`, 'i').exec(asking);
    if (!m || m[1]!.toLowerCase() === m[2]!.toLowerCase()) continue;
    // Opposites keep their pair's order: an order question's options are [the "first" word, the "second" word].
    const options = [a, b];
    if (basis === 'order') {
      const quoted = [...asking.matchAll(QUOTED)].map((q) => q[1]!.trim()).filter((q) => q.toLowerCase() !== a && q.toLowerCase() !== b);
      const subjects: [string, string] | undefined = quoted.length >= 2 ? [quoted[quoted.length - 2]!, quoted[quoted.length - 1]!] : undefined;
      return { options, basis, opposite: true, ...(subjects ? { subjects } : {}) };
    }
    return { options, basis, opposite: true };
  }
  if (!/^\s*(?:which|who|what)\b|,\s*(?:which|who|what)\b/i.test(lower) && !/\b(?:which|who)\b/i.test(lower)) return undefined;
  // "Which …, A or B?": the alternatives after the last comma or colon of the asking sentence.
  const tail = /[,:]\s*([^,:]+?(?:\s*,\s*[^,:]+?)*)\s*\?\s*$/.exec(asking);
  if (tail && /\b(?:which|who)\b/i.test(asking.slice(0, tail.index))) {
    const options = splitAlternatives(tail[1]!, 'or');
    if (options) return { options, basis: extreme ? 'compare' : 'pick', ...(extreme ? { extreme } : {}) };
  }
  // "Among A, B and C, which …?" / "Of the three X: A, B, and C, which …?".
  const lead = /^\s*(?:among|between|of|from)\s+(?:the\s+(?:\w+\s+){0,3}?)?(?:[^:,?]*:\s*)?([^?]+?),\s*(?:which|who|what)\b/i.exec(asking) ?? /(?:^|[.?!]\s+)(?:among|between|of|from)\s+(?:the\s+(?:\w+\s+){0,3}?)?(?:[^:,?]*:\s*)?([^?]+?),\s*(?:which|who|what)\b/i.exec(question);
  if (lead) {
    const options = splitAlternatives(lead[1]!, 'and|or');
    if (options) return { options, basis: extreme ? 'compare' : 'pick', ...(extreme ? { extreme } : {}) };
  }
  return undefined;
}

/**
 * The type of a short text answer a question asks for ({@link TextAnswerType}), or undefined when the question asks
 * no short text (a number, a date, a list, a yes/no, a description or an explanation).
 *
 * @example
 * ```ts
 * textAnswerType('Who signed the lease on behalf of the tenant?'); // 'person'
 * textAnswerType('What does ESD stand for?');                       // 'expansion'
 * textAnswerType('What is the serial number of the pump?');         // 'code'
 * ```
 */
export function textAnswerType(question: string): TextAnswerType | undefined {
  // The asking words, after a leading phrase that sets the scene ("In this report, who …").
  const q = askingSentence(question)
    .toLowerCase()
    .replace(/^\s*(?:in|according\s+to|for|from|based\s+on|as\s+per|on|at|within|throughout)\b[^,?]{0,80},\s*/, '');
  if (/\bstand(?:s)?\s+for\b|\bfull\s+(?:form|name)\s+of\b|\babbreviation\s+(?:of|for)\b|\bacronym\b/.test(q)) return 'expansion';
  if (/\bdefin(?:e|es|ed|ition\s+of)\b|\bwhat\s+(?:does|do)\s+.+\s+mean\b|\bmeaning\s+of\b/.test(q)) return 'definition';
  if (/^\s*(?:why|how)\b/.test(q) || /\b(?:describe|explain|summari[sz]e)\b/.test(q)) return undefined;
  if (/^\s*(?:who|whom|whose)\b|\b(?:by|to|from|with)\s+whom\b/.test(q)) return 'person';
  if (/^\s*where\b/.test(q) || /\b(?:which|what)\s+(?:city|country|countries|state|town|region|location|place|address)\b/.test(q)) return 'place';
  if (/\b(?:which|what)\s+(?:company|companies|organi[sz]ations?|agency|agencies|institutions?|institutes?|universit(?:y|ies)|firms?|banks?|department|ministry|authority|publisher|brand|manufacturer|vendor|supplier)\b/.test(q)) return 'organization';
  if (/\b(?:telephone|phone|fax|code|id|identifier|serial|model|version|part|reference|registration|license|licence|account|case|order|item|catalog(?:ue)?)\s+(?:no\.?|nos?|numbers?|#|codes?|ids?)\b|\b(?:what|which)\s+(?:is|was|are)\s+the\s+(?:\w+\s+)?(?:code|id|identifier|model|version)\b/.test(q)) return 'code';
  if (/\b(?:what|which)\s+(?:is|was|are|were)\s+(?:the\s+)?(?:name|title|heading)s?\b|\bname\s+of\s+the\b|\bwhat\s+is\s+\w+\s+called\b|\bcalled\s*\?|\bnamed\s*\?/.test(q)) return 'name';
  if (/^\s*(?:what|which)\b/.test(q)) return 'phrase';
  return undefined;
}

/** An item asked by its position in a list ("the fourth tip", "the 3rd objective", "the last step"). */
export interface OrdinalItem {
  /** 1-based position; with `fromEnd`, counted from the end (1 = the last). */
  position: number;
  fromEnd: boolean;
  /** The word naming what is listed (`tip`, `objective`, `step`). */
  noun: string;
}

/** Things a question names by position that are not list items (pages, figures, periods). */
const NOT_ITEMS = /^(?:page|pages|slide|slides|figure|figures|fig|table|tables|chart|charts|image|picture|photo|chapter|section|part|appendix|year|years|quarter|half|month|week|day|time|place|paragraph|column|author|edition|volume|row|rows)$/i;

const FUNCTION_WORD = /^(?:and|or|as|of|for|in|on|to|at|by|with|the|a|an|is|are|was|were|be|that|which|than|time|times)$/i;

const ORDINAL_ITEM = new RegExp(`\\b(?:the\\s+)?(${ordinalWordSource(20)}|[0-9]{1,2}(?:st|nd|rd|th)|last|final)\\s+((?:[a-z][\\w-]*\\s+){0,2}?[a-z][\\w-]*)\\b`, 'i');

/**
 * The list item a question asks by its position ("What is the fourth tip under Storage?"), or undefined:
 * an ordinal (`second`, `2nd`, `last`) before up to three words naming what is listed, not a page, figure, table or
 * period. Only for questions asking "what" or "which".
 *
 * @example
 * ```ts
 * ordinalItem('What is the third step of the descaling procedure?'); // { position: 3, fromEnd: false, noun: 'step' }
 * ```
 */
export function ordinalItem(question: string): OrdinalItem | undefined {
  const asking = askingSentence(question);
  if (!/\b(?:what|which)\b/i.test(asking)) return undefined;
  const m = ORDINAL_ITEM.exec(asking);
  if (!m) return undefined;
  const words = m[2]!.split(/\s+/);
  // What is listed: the last word before a preposition ("fourth maintenance tip for winter" → tip).
  const stop = words.findIndex((w) => /^(?:of|for|in|on|under|from|to|at|by|with|that|which|is|are|was|were)$/i.test(w));
  const noun = (stop > 0 ? words.slice(0, stop) : stop === 0 ? [] : words).pop();
  // A function word ("the first and second …") or a name ("1st July") lists nothing.
  if (!noun || NOT_ITEMS.test(noun) || FUNCTION_WORD.test(noun) || (/^\p{Lu}\p{Ll}/u.test(noun) && asking !== asking.toUpperCase())) return undefined;
  const word = m[1]!.toLowerCase();
  if (word === 'last' || word === 'final') return { position: 1, fromEnd: true, noun };
  const position = ordinalValue(word);
  return position !== undefined && position >= 1 ? { position, fromEnd: false, noun } : undefined;
}
