/**
 * Sentences of running text: the one sentence splitter of DocTree — the index's (extractive summaries, sentence
 * records), the RAG baseline's chunks and the reader's evidence spans, which differ only by the options below.
 */

/** A half-open `[start, end)` span of a text. */
export interface SentenceSpan {
  start: number;
  end: number;
}

/** How {@link sentenceSpans} splits. The defaults are the index's prose splitter. */
export interface SentenceOptions {
  /** Every line break ends a sentence (table rows, list items), whatever stands before it; default false. */
  lineBreaks?: boolean;
  /** A closing quote or parenthesis may stand between the stop and the space (`… rose.” Next`); default false. */
  closingQuotes?: boolean;
  /** A sentence may also start with `‘`, `$`, `€` or `£` (besides a capital, a digit, `(`, `"` or `“`); default false. */
  moneyStarts?: boolean;
  /**
   * Abbreviations whose period ends no sentence: `common` (`e.g.`, `i.e.`, `etc.`, `vs.`, `Fig.`, `No.`, `Inc.`,
   * `Corp.`, `Ltd.`, `Co.`, `Mr.`, `Dr.`, `U.S.`, `approx.`, `al.` …; default) or `evidence` (also `nr.`, `Ms.`, `ca.`,
   * `max.`, `min.`, `St.`, `p.`, `pp.`, `vol.`, without `U.S.`).
   */
  abbreviations?: 'common' | 'evidence';
  /** A single capital and a period (`J. Smith`) ends no sentence; default false. */
  initials?: boolean;
}

const ABBREVIATIONS: Readonly<Record<'common' | 'evidence', string>> = {
  common: 'e\\.g|i\\.e|etc|vs|fig|figs|eq|no|inc|corp|ltd|co|mr|mrs|dr|u\\.s|approx|al',
  evidence: 'e\\.g|i\\.e|etc|vs|fig|figs|eq|no|nr|inc|corp|ltd|co|mr|mrs|ms|dr|approx|ca|max|min|al|st|p|pp|vol',
};
/** Characters before a stop read for an abbreviation (the longest, `approx.`, and the character before it). */
const ABBREVIATION_WINDOW = 12;

interface CompiledSentenceRules {
  boundary: RegExp;
  abbreviation: RegExp;
}

const COMPILED = new Map<string, CompiledSentenceRules>();

function rulesFor(o: Required<SentenceOptions>): CompiledSentenceRules {
  const key = JSON.stringify(o);
  const cached = COMPILED.get(key);
  if (cached) return cached;
  const stop = o.closingQuotes ? '(?<=[.!?]["”’)]?)' : '(?<=[.!?])';
  const starts = o.moneyStarts ? 'A-Z0-9"“‘($€£' : 'A-Z0-9("“';
  const rules = {
    boundary: new RegExp(`${stop}\\s+(?=[${starts}])${o.lineBreaks ? '|\\s*\\n\\s*' : ''}`, 'g'),
    abbreviation: new RegExp(`(?:\\b(?:${ABBREVIATIONS[o.abbreviations]})\\.${o.initials ? '|\\b[A-Z]\\.' : ''})$`, 'i'),
  };
  COMPILED.set(key, rules);
  return rules;
}

/**
 * Sentence spans of `text` (offsets into `text`, surrounding whitespace excluded, never empty): a sentence ends at `.`,
 * `!` or `?` and the whitespace after it when the next sentence starts with a capital, a digit, `(` or a quote;
 * abbreviations and decimals do not end one. See {@link SentenceOptions} for line breaks, closing quotes and the rest.
 *
 * @example
 * ```ts
 * const text = 'Sales rose (see Fig. 3). Costs fell.';
 * sentenceSpans(text).map((s) => text.slice(s.start, s.end)); // ['Sales rose (see Fig. 3).', 'Costs fell.']
 * ```
 */
export function sentenceSpans(text: string, options: SentenceOptions = {}): SentenceSpan[] {
  const o: Required<SentenceOptions> = { lineBreaks: false, closingQuotes: false, moneyStarts: false, abbreviations: 'common', initials: false, ...options };
  const { boundary, abbreviation } = rulesFor(o);
  const out: SentenceSpan[] = [];
  let start = 0;
  const push = (end: number): void => {
    let s = start;
    let e = end;
    while (s < e && /\s/.test(text[s]!)) s++;
    while (e > s && /\s/.test(text[e - 1]!)) e--;
    if (e > s) out.push({ start: s, end: e });
  };
  for (const m of text.matchAll(boundary)) {
    const breaksLine = o.lineBreaks && m[0].includes('\n');
    if (!breaksLine && abbreviation.test(text.slice(Math.max(start, m.index - ABBREVIATION_WINDOW), m.index))) continue;
    push(m.index);
    start = m.index + m[0].length;
  }
  push(text.length);
  return out;
}

/**
 * Splits text into sentences, keeping abbreviations (`e.g.`, `Fig.`, `U.S.`) and decimals intact, whitespace normalised
 * to single spaces: {@link sentenceSpans} with the default options, as strings.
 *
 * @example
 * ```ts
 * splitSentences('Sales rose 4.2% (see Fig. 3). Costs fell.'); // ['Sales rose 4.2% (see Fig. 3).', 'Costs fell.']
 * ```
 */
export function splitSentences(text: string): string[] {
  return sentenceSpans(text).map((s) => text.slice(s.start, s.end).replace(/\s+/g, ' '));
}
