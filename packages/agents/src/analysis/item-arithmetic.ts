import { askingSentence } from './question-analysis.js';

/**
 * Arithmetic over items a question names: "how many more X did A have than B" (A − B), "how many fewer … A than B"
 * (B − A), "the gap between A and B" (|A − B|), "the total X of A, B and C" / "A and B in total" (A + B + C), "how many
 * times larger is A than B" and "what multiple of A was reached in B" (ratios), "the X of A and B respectively" (one
 * value per item, in order). Read from the wording with general
 * English rules only (no field words); the reader finds each item as a row or column label in the evidence, reads
 * its value with its own support and computes. Part of the one question analysis.
 */

/**
 * How named items combine: `difference` (first − second), `gap` (|first − second|), `sum`, `ratio` (first / second),
 * `list` (each item's value, in the order asked: "… of A and B respectively").
 */
export type ItemOperation = 'difference' | 'gap' | 'sum' | 'ratio' | 'list';

/** One operand of an item computation, in operand order. */
export interface ItemOperand {
  /** The words of the question that name the item. */
  text: string;
  /**
   * `true` when `text` is the item itself (an enumerated or quoted item); `false` when the item is named somewhere
   * inside `text` together with other words (the clause before "than", which also holds what is measured).
   */
  whole: boolean;
}

/** An arithmetic question over named items. */
export interface ItemArithmetic {
  operation: ItemOperation;
  /** Operands in operand order (two for a difference, gap or ratio; two or more for a sum). */
  operands: ItemOperand[];
}

/** Longest asking sentence read (the patterns below are linear, the bound keeps them cheap). */
const MAX_CHARS = 400;

const MORE_THAN =
  /\bhow\s+(?:many|much)\s+(more|fewer|less|higher|lower|greater|larger|bigger|smaller)\b([^?]{1,200}?)\s(?:than|compared\s+(?:to|with)|versus|vs\.?)\s+([^?;]{1,120})/i;
const TIMES_THAN =
  /\bhow\s+many\s+times\s+(?:more|larger|higher|greater|bigger|as\s+(?:many|much|large|high|big)(?:\s+as)?)\b([^?]{1,200}?)\s(?:than|as|compared\s+(?:to|with))\s+([^?;]{1,120})/i;
const MULTIPLE_OF = /\bwhat\s+multiple\s+of\s+([^?]{1,120}?)\s+(?:was|were|is|are|has|have|had)\s+([^?;]{1,120})/i;
const GAP_BETWEEN = /\b(difference|gap)\s+between\s+([^?]{1,120}?)\s+and\s+([^?;]{1,120})/i;
const TOTAL_WORD = /\b(?:in\s+total|total|combined|altogether|sum\s+of|together)\b/i;
const QUOTED = /["“`']([^"”`']{1,60})["”`']/g;

/** Words that end an enumerated item (prepositions, relative and copular words, "total"). */
const ITEM_STOP = new Set(
  'of for in on at to from by with about among between within during that which who whom whose what how many much is are was were be been do does did have has had respectively total combined together altogether attributed according based'.split(' '),
);
const LOWER_ARTICLE = /^(?:the|an|a)\s+/;

/** Trims an item: leading lowercase articles and possessives, surrounding punctuation. */
function cleanItem(text: string): string {
  let t = text.trim().replace(/^[\s"“'`(]+|[\s"”'`),.;:]+$/g, '');
  while (LOWER_ARTICLE.test(t)) t = t.replace(LOWER_ARTICLE, '');
  return t.trim();
}

const words = (text: string): Array<{ word: string; start: number; end: number }> => [...text.matchAll(/[^\s,;:]+/g)].map((m) => ({ word: m[0], start: m.index, end: m.index + m[0].length }));

/**
 * The items a sentence enumerates ("A, B and C", "Recruiter A and B"): each item as written, an elided item completed
 * from the first ("Recruiter A and B" → "Recruiter B"). Quoted items ("`x` and `y`") are read as quoted. Undefined when
 * the sentence enumerates fewer than two items.
 */
export function enumeratedItems(sentence: string): string[] | undefined {
  const quoted = [...sentence.matchAll(QUOTED)].map((m) => cleanItem(m[1]!)).filter(Boolean);
  if (quoted.length >= 2 && /\band\b/i.test(sentence)) return quoted;
  const text = sentence.split('?')[0] ?? sentence;
  let last: RegExpMatchArray | undefined;
  for (const m of text.matchAll(/,?\s+and\s+/gi)) last = m;
  if (!last || last.index === undefined) return undefined;
  const afterAt = last.index + last[0].length;
  const tail: string[] = [];
  for (const w of words(text.slice(afterAt).split(/[,;:.]/)[0] ?? '')) {
    if (ITEM_STOP.has(w.word.toLowerCase()) && tail.length > 0) break;
    tail.push(w.word);
    if (tail.length > 5) return undefined;
  }
  const items: string[] = [];
  const segments = text.slice(0, last.index).split(',');
  for (let i = segments.length - 1; i >= 0; i--) {
    const ws = words(segments[i]!);
    let from = 0;
    ws.forEach((w, k) => {
      if (ITEM_STOP.has(w.word.toLowerCase())) from = k + 1;
    });
    const kept = ws.slice(from).map((w) => w.word);
    if (kept.length === 0 || kept.length > 5) break;
    items.unshift(kept.join(' '));
    if (from > 0) break;
  }
  const cleaned = [...items, tail.join(' ')].map(cleanItem).filter(Boolean);
  if (cleaned.length < 2) return undefined;
  // An elided item: "Recruiter A and B" names "Recruiter B" (the first item's words before its last one); "the north
  // and south plants" names the north plant (single words share the last item's final word).
  const first = cleaned[0]!.split(/\s+/);
  const lastWords = cleaned[cleaned.length - 1]!.split(/\s+/);
  const shared = cleaned.slice(0, -1).every((item) => !item.includes(' ')) && lastWords.length === 2 ? lastWords[1]! : undefined;
  return cleaned.map((item, i) => {
    if (i > 0 && first.length > 1 && !item.includes(' ') && item.length <= 3 && first[first.length - 1]!.length <= 3) return [...first.slice(0, -1), item].join(' ');
    if (shared && i < cleaned.length - 1) return `${item} ${shared}`;
    return item;
  });
}

/**
 * The arithmetic a question asks over items it names, or undefined. Periods alone are left to the computations over
 * years ("the total of 2019 and 2020" names no items here); the items of a "how many more … in 2015 than 2014"
 * question are named inside its clauses, and the reader matches years there to year columns.
 *
 * @example
 * ```ts
 * itemArithmetic('How many more seats did the East wing have than the West wing?');
 * // { operation: 'difference', operands: [{ text: 'seats did the East wing have', whole: false }, { text: 'the West wing', whole: false }] }
 * itemArithmetic('What is the total number of visits for Clinic A and B?');
 * // { operation: 'sum', operands: [{ text: 'Clinic A', whole: true }, { text: 'Clinic B', whole: true }] }
 * ```
 */
export function itemArithmetic(question: string): ItemArithmetic | undefined {
  const asking = askingSentence(question).slice(0, MAX_CHARS);
  const clause = (text: string): ItemOperand => ({ text: text.trim().replace(/[\s.,;:!]+$/, ''), whole: false });
  const times = TIMES_THAN.exec(asking);
  if (times) return { operation: 'ratio', operands: [clause(times[1]!), clause(times[2]!)] };
  const more = MORE_THAN.exec(asking);
  if (more) {
    const reversed = /^(?:fewer|less|lower|smaller)$/i.test(more[1]!);
    const [a, b] = [clause(more[2]!), clause(more[3]!)];
    return { operation: 'difference', operands: reversed ? [b, a] : [a, b] };
  }
  const multiple = MULTIPLE_OF.exec(asking);
  if (multiple) return { operation: 'ratio', operands: [clause(multiple[2]!), clause(multiple[1]!)] };
  const gap = GAP_BETWEEN.exec(asking);
  const period = (text: string): boolean => /^(?:(?:the\s+)?(?:FY|fiscal(?:\s+year)?|year)\s*)?'?\d{2,4}$/i.test(text.trim());
  if (gap && !(period(gap[2]!) && period(gap[3]!.replace(/[\s.,;:!]+$/, '')))) return { operation: gap[1]!.toLowerCase() === 'gap' ? 'gap' : 'difference', operands: [clause(gap[2]!), clause(gap[3]!)] };
  if (/\brespectively\b/i.test(asking)) {
    const items = enumeratedItems(asking);
    return items && items.length >= 2 ? { operation: 'list', operands: items.map((text) => ({ text, whole: true })) } : undefined;
  }
  if (TOTAL_WORD.test(asking)) {
    const items = enumeratedItems(asking);
    if (items && items.length >= 2 && !items.every((i) => /^(?:FY\s*)?'?\d{2,4}$/i.test(i))) return { operation: 'sum', operands: items.map((text) => ({ text, whole: true })) };
  }
  return undefined;
}
