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
  /** Every line break ends a sentence (table rows, list items, the lines of a PDF block), whatever stands before it; default false. */
  lineBreaks?: boolean;
  /**
   * Closing marks that may stand between the stop and the space (`… rose.” Next`): `true` one of `"”’)`, `runs` any
   * run of `"'”’)]` (`(see above.)” Next`) with an abbreviation before them still ending no sentence; default false.
   */
  closingQuotes?: boolean | 'runs';
  /** A sentence may also start with `‘`, `$`, `€` or `£` (besides a capital, a digit, `(`, `"` or `“`); default false. */
  moneyStarts?: boolean;
  /**
   * Anything may start the next sentence: `.`, `!` or `?` (and closing marks) followed by whitespace or the end of the
   * text end one, also before a lower-case word or a bullet; default false (see {@link SentenceOptions.moneyStarts}).
   */
  anyStart?: boolean;
  /**
   * Abbreviations whose period ends no sentence: `common` (`e.g.`, `i.e.`, `etc.`, `vs.`, `Fig.`, `No.`, `Inc.`,
   * `Corp.`, `Ltd.`, `Co.`, `Mr.`, `Dr.`, `U.S.`, `approx.`, `al.` …; default), `evidence` (also `nr.`, `Ms.`, `ca.`,
   * `max.`, `min.`, `St.`, `p.`, `pp.`, `vol.`, without `U.S.`) or `sources` (the common ones and `Ms.`, `St.`, `p.`,
   * `pp.`, `vol.`, `Rs.`, `Nos.`, `FY.` — the source documents of the evidence workspace).
   */
  abbreviations?: 'common' | 'evidence' | 'sources';
  /** A single capital and a period (`J. Smith`) ends no sentence; default false. */
  initials?: boolean;
  /**
   * The full-width stops of Chinese and Japanese text (`。！？；`, closing marks `”’」』）)` after them kept) end a
   * sentence whatever follows them; default false.
   */
  cjkStops?: boolean;
}

const ABBREVIATIONS: Readonly<Record<NonNullable<SentenceOptions['abbreviations']>, string>> = {
  common: 'e\\.g|i\\.e|etc|vs|fig|figs|eq|no|inc|corp|ltd|co|mr|mrs|dr|u\\.s|approx|al',
  evidence: 'e\\.g|i\\.e|etc|vs|fig|figs|eq|no|nr|inc|corp|ltd|co|mr|mrs|ms|dr|approx|ca|max|min|al|st|p|pp|vol',
  sources: 'e\\.g|i\\.e|etc|vs|fig|figs|eq|no|inc|corp|ltd|co|mr|mrs|ms|dr|st|u\\.s|approx|al|p|pp|vol|rs|nos?|fy',
};
/** Closing marks allowed between a stop and the whitespace after it, per {@link SentenceOptions.closingQuotes}. */
const CLOSING_MARKS = { none: '', one: '["”’)]?', runs: '["\'”’)\\]]*' } as const;
/** Characters before the end of a stop read for an abbreviation (the longest, `approx.`, and the character before it). */
const ABBREVIATION_WINDOW = 12;

interface CompiledSentenceRules {
  /** Groups: `stop` (`.`, `!`, `?`), `close` (closing marks), `gap` (whitespace after), or `cjk`; else a line break. */
  boundary: RegExp;
  abbreviation: RegExp;
}

const COMPILED = new Map<string, CompiledSentenceRules>();

function rulesFor(o: Required<SentenceOptions>): CompiledSentenceRules {
  const key = JSON.stringify(o);
  const cached = COMPILED.get(key);
  if (cached) return cached;
  const close = CLOSING_MARKS[o.closingQuotes === 'runs' ? 'runs' : o.closingQuotes ? 'one' : 'none'];
  const starts = o.moneyStarts ? 'A-Z0-9"“‘($€£' : 'A-Z0-9("“';
  const gap = o.anyStart ? '\\s+|$' : `\\s+(?=[${starts}])`;
  const alternatives = [`(?<stop>[.!?])(?<close>${close})(?<gap>${gap})`];
  if (o.cjkStops) alternatives.push('(?<cjk>[。！？；][”’」』）)]*)');
  if (o.lineBreaks) alternatives.push('\\s*\\n\\s*');
  const rules = {
    boundary: new RegExp(alternatives.join('|'), 'g'),
    abbreviation: new RegExp(`(?:\\b(?:${ABBREVIATIONS[o.abbreviations]})\\.${o.initials ? '|\\b[A-Z]\\.' : ''})$`, 'i'),
  };
  COMPILED.set(key, rules);
  return rules;
}

/**
 * Sentence spans of `text` (offsets into `text`, surrounding whitespace excluded, never empty): a sentence ends at `.`,
 * `!` or `?` and the whitespace after it when the next sentence starts with a capital, a digit, `(` or a quote;
 * abbreviations and decimals do not end one. See {@link SentenceOptions} for line breaks, closing quotes, CJK stops and
 * the rest.
 *
 * @example
 * ```ts
 * const text = 'Sales rose (see Fig. 3). Costs fell.';
 * sentenceSpans(text).map((s) => text.slice(s.start, s.end)); // ['Sales rose (see Fig. 3).', 'Costs fell.']
 * const cjk = '会员费上涨。为什么？';
 * sentenceSpans(cjk, { cjkStops: true }).map((s) => cjk.slice(s.start, s.end)); // ['会员费上涨。', '为什么？']
 * ```
 */
export function sentenceSpans(text: string, options: SentenceOptions = {}): SentenceSpan[] {
  const o: Required<SentenceOptions> = { lineBreaks: false, closingQuotes: false, moneyStarts: false, anyStart: false, abbreviations: 'common', initials: false, cjkStops: false, ...options };
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
    const { stop, close, gap } = m.groups ?? {};
    let end = m.index;
    if (stop !== undefined) {
      end = m.index + stop.length + close!.length;
      // The abbreviation is read up to the closing marks (`runs`) or through them; a line break ends the sentence anyway.
      const read = o.closingQuotes === 'runs' ? m.index + stop.length : end;
      const breaksLine = o.lineBreaks && gap!.includes('\n');
      if (!breaksLine && abbreviation.test(text.slice(Math.max(start, read - ABBREVIATION_WINDOW), read))) continue;
    } else if (m.groups?.['cjk'] !== undefined) {
      end = m.index + m[0].length;
    }
    push(end);
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
