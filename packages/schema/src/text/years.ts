/**
 * Years written in text: the one year vocabulary of DocTree (questions, table headers, sentences, file names). Four-digit
 * years 1900–2099 by default (`since: 1800` adds 18xx); the options name what else counts — a fiscal prefix (`FY2023`,
 * `fiscal year 2023`), two-digit fiscal years (`FY23`), year ranges (`2018-19`) and how a bare year is told from an
 * amount. General language only: which words of a field name a period belong to its domain pack.
 */

/** Source of a four-digit year 1900–2099, without groups or anchors, to compose into larger patterns. */
export const YEAR_SOURCE = '(?:19|20)[0-9]{2}';

/** Source of a four-digit year 1800–2099, without groups or anchors. */
export const YEAR_SINCE_1800_SOURCE = '(?:1[89]|20)[0-9]{2}';

/**
 * Words written before a year that belong to its mention:
 * - `none`: the year alone;
 * - `fy`: `FY2023`, `FY 2023`;
 * - `fiscal`: also `FY'2023`, `fiscal 2023`, `fiscal year 2023`;
 * - `period`: `FY`, `fiscal (year)`, `financial year`, `CY`, `calendar year`, any spaces and an apostrophe between.
 * Case is ignored (`fy2023`).
 */
export type YearPrefix = 'none' | 'fy' | 'fiscal' | 'period';

/**
 * How a year without a prefix is told apart from the digits around it:
 * - `word`: a whole word (`\b2023\b`), the default;
 * - `number`: not glued to letters or digits and not part of an amount (`$2023`, `2,023`, `2023.5`, `FY2023` are no
 *   year), unicode-aware — for reading what a question asks against what a document writes;
 * - `amount`: a whole word not after a currency sign or a number and not before a scale or percent word
 *   (`2,000 million`, `2023 units`) — for the years a question asks about;
 * - `digits`: only not glued to other ASCII digits (`report_2023.pdf`, `FY2023`, `v2023b` count; `12023` does not) —
 *   for file names and identifiers.
 */
export type YearBoundary = 'word' | 'number' | 'amount' | 'digits';

/** What {@link yearMentions} and {@link findYears} read as a year. */
export interface YearOptions {
  /** Earliest century: 1900 (`19xx`, `20xx`; default) or 1800 (`18xx` too). */
  since?: 1800 | 1900;
  /** Words before a four-digit year that belong to its mention (default `none`). */
  prefix?: YearPrefix;
  /** Two-digit years after a prefix of this kind (`FY23`, `FY'23` → 2023); off by default. */
  twoDigit?: Exclude<YearPrefix, 'none'> | false;
  /** `2018-19`, `2018/19`, `2018–19`: the end year too (only when it is the next year); off by default. */
  ranges?: boolean;
  /** How a bare year is told from the digits around it (default `word`). */
  boundary?: YearBoundary;
  /**
   * A quarter written with its year belongs to the mention, which then carries it (`quarter`): `Q2 2023`, `Q22023`,
   * `Q2'23`, `Q2 FY23`, `Q2 FY2023`, `2Q23`, `2Q 2023`, `2023Q2`, `2023 Q2`. Off by default.
   */
  quarters?: boolean;
}

/** One year written in a text. */
export interface YearMention {
  /** The year (two-digit years and range ends expanded: `FY23` → 2023). */
  year: number;
  /** Offset of the mention's first character (its prefix, when it has one). */
  start: number;
  /** Offset after its last character. */
  end: number;
  /** The mention as written (`FY 2023`, `2023`, `2018-19` for a range end). */
  text: string;
  /** The quarter written with the year (`Q2 2023` → 2), with the `quarters` option. */
  quarter?: number;
}

const PREFIX_SOURCE: Readonly<Record<Exclude<YearPrefix, 'none'>, string>> = {
  fy: "FY\\s?",
  fiscal: "(?:FY\\s?|fiscal\\s+(?:year\\s+)?)'?",
  period: "(?:FY|fiscal(?:\\s+year)?|financial\\s+year|CY|calendar\\s+year)\\s*'?",
};

const BOUNDARY_SOURCE: Readonly<Record<YearBoundary, (year: string) => [string, string]>> = {
  word: (year) => [`\\b(${year})\\b`, 'g'],
  number: (year) => [`(?<![\\p{L}\\p{N}.,$€£¥])(${year})(?![\\p{N}]|[.,]\\d)`, 'gu'],
  amount: (year) => [`(?<![$€£¥0-9.,])\\b(${year})\\b(?![0-9.,]*\\s*(?:%|percent|million|billion|thousand|units))`, 'gi'],
  digits: (year) => [`(?<![0-9])(${year})(?![0-9])`, 'g'],
};

/**
 * A quarter and its year (see {@link YearOptions.quarters}): groups 1–2 `Q2 2023` / `Q2'23` / `Q2 FY23`, 3–4 `2Q23` /
 * `2Q 2023`, 5–6 `2023Q2` / `2023 Q2`. A two-digit year only right after the quarter's `Q`, an apostrophe or `FY`.
 */
function quarterSource(year: string): string {
  const between = `\\s?(?:FY\\s?|')?`;
  return [
    `\\bQ([1-4])${between}(${year}|(?<=(?:'|FY\\s?))[0-9]{2})\\b`,
    `\\b([1-4])Q${between}(${year}|(?<=(?:Q|'|FY\\s?))[0-9]{2})\\b`,
    `\\b(${year})\\s?Q([1-4])\\b`,
  ].join('|');
}

type YearPatterns = { bare: RegExp; prefixed?: RegExp; twoDigit?: RegExp; range?: RegExp; quarter?: RegExp };

/** Compiled patterns per option set (a handful of option sets exist; patterns are stateless apart from lastIndex). */
const PATTERNS = new Map<string, YearPatterns>();

function patternsFor(options: YearOptions): YearPatterns {
  const since = options.since ?? 1900;
  const prefix = options.prefix ?? 'none';
  const twoDigit = options.twoDigit ?? false;
  const boundary = options.boundary ?? 'word';
  const key = `${since}|${prefix}|${twoDigit}|${options.ranges === true}|${boundary}|${options.quarters === true}`;
  const cached = PATTERNS.get(key);
  if (cached) return cached;
  const year = since === 1800 ? YEAR_SINCE_1800_SOURCE : YEAR_SOURCE;
  const [bare, flags] = BOUNDARY_SOURCE[boundary](year);
  const compiled = {
    bare: new RegExp(bare, flags),
    ...(prefix !== 'none' ? { prefixed: new RegExp(`\\b${PREFIX_SOURCE[prefix]}(${year})\\b`, 'gi') } : {}),
    ...(twoDigit !== false ? { twoDigit: new RegExp(`\\b${PREFIX_SOURCE[twoDigit]}([0-9]{2})\\b`, 'gi') } : {}),
    ...(options.ranges === true ? { range: /\b(19|20)([0-9]{2})\s*[-/–]\s*([0-9]{2})\b/g } : {}),
    ...(options.quarters === true ? { quarter: new RegExp(quarterSource(year), 'gi') } : {}),
  };
  PATTERNS.set(key, compiled);
  return compiled;
}

/**
 * Every year written in `text`, in text order (repeats kept). A bare year inside a prefixed mention (`2023` of
 * `FY 2023`) is one mention, the prefixed one.
 *
 * @example
 * ```ts
 * yearMentions('Sales in FY 2022 and 2023').map((m) => m.text); // ['2022', '2023']
 * yearMentions('Sales in FY 2022 and 2023', { prefix: 'fy' }).map((m) => m.text); // ['FY 2022', '2023']
 * yearMentions('FY23 against 2018-19', { twoDigit: 'fy', ranges: true }).map((m) => m.year); // [2023, 2018, 2019]
 * ```
 */
export function yearMentions(text: string, options: YearOptions = {}): YearMention[] {
  const patterns = patternsFor(options);
  const prefixed: YearMention[] = [];
  const mention = (m: RegExpMatchArray, year: number): YearMention => ({ year, start: m.index!, end: m.index! + m[0].length, text: m[0] });
  if (patterns.prefixed) for (const m of text.matchAll(patterns.prefixed)) prefixed.push(mention(m, Number(m[1])));
  if (patterns.twoDigit) for (const m of text.matchAll(patterns.twoDigit)) prefixed.push(mention(m, 2000 + Number(m[1])));
  const quarters: YearMention[] = [];
  if (patterns.quarter) {
    for (const m of text.matchAll(patterns.quarter)) {
      const [quarter, year] = m[1] !== undefined ? [m[1], m[2]!] : m[3] !== undefined ? [m[3], m[4]!] : [m[6]!, m[5]!];
      quarters.push({ ...mention(m, year.length === 2 ? 2000 + Number(year) : Number(year)), quarter: Number(quarter) });
    }
  }
  const within = (m: YearMention, list: readonly YearMention[]): boolean => list.some((p) => p !== m && p.start <= m.start && m.end <= p.end);
  // A prefixed year inside a quarter's mention (`FY23` of `Q2 FY23`) is that mention.
  prefixed.splice(0, prefixed.length, ...prefixed.filter((p) => !within(p, quarters)), ...quarters);
  const inside = (m: YearMention): boolean => within(m, prefixed);
  const out = [...prefixed];
  for (const m of text.matchAll(patterns.bare)) {
    const bare = mention(m, Number(m[1]));
    // The match of the `number` / `amount` boundaries is the year itself: its lookarounds take no characters.
    if (!inside(bare)) out.push(bare);
  }
  if (patterns.range) {
    for (const m of text.matchAll(patterns.range)) {
      const start = Number(m[1]! + m[2]!);
      const end = Number(m[1]! + m[3]!);
      if (end === start + 1) out.push(mention(m, end));
    }
  }
  return out.sort((a, b) => a.start - b.start || b.end - a.end);
}

/**
 * The years written in `text`, sorted and unique (see {@link YearOptions} for what counts).
 *
 * @example
 * ```ts
 * findYears('Revenue grew from 2021 to 2023; FY2020 was flat'); // [2021, 2023]
 * findYears('Revenue grew from 2021 to 2023; FY2020 was flat', { prefix: 'fy' }); // [2020, 2021, 2023]
 * ```
 */
export function findYears(text: string, options: YearOptions = {}): number[] {
  return [...new Set(yearMentions(text, options).map((m) => m.year))].sort((a, b) => a - b);
}

/**
 * `text` with every year mention (whole-word years 1900–2099 by default, see {@link YearOptions}) replaced by
 * `replacement` (default a space): the numbers left are quantities, not years. Range ends are not replaced.
 *
 * @example
 * ```ts
 * withoutYears('In 2023 sales rose 12%'); // 'In   sales rose 12%'
 * withoutYears('FY 2023 sales', '', { prefix: 'fy' }); // ' sales'
 * ```
 */
export function withoutYears(text: string, replacement = ' ', options: YearOptions = {}): string {
  let out = '';
  let at = 0;
  for (const m of yearMentions(text, { ...options, ranges: false })) {
    if (m.start < at) continue;
    out += text.slice(at, m.start) + replacement;
    at = m.end;
  }
  return out + text.slice(at);
}

/**
 * An author-year citation in parentheses — `(Smith, 2020)`, `(Smith 2020a)`, `(Smith et al., 2019)`,
 * `(Smith and Jones, 2018)` — with the year it cites.
 */
const AUTHOR_YEAR = new RegExp(`\\([A-Z][A-Za-z'’-]+(?: et al\\.?| and [A-Z][A-Za-z'’-]+)?,? (${YEAR_SOURCE})[a-z]?\\)`, 'g');

/**
 * The author-year citations of `text` (`(Smith et al., 2019)`), in text order, each as the year it cites with the
 * whole parenthesis as its text: how a writer's exemplar cites, next to numeric `[12]` citations.
 *
 * @example
 * ```ts
 * authorYearCitations('As shown (Smith et al., 2019) and (Lee 2021b).').map((m) => m.year); // [2019, 2021]
 * ```
 */
export function authorYearCitations(text: string): YearMention[] {
  return [...text.matchAll(AUTHOR_YEAR)].map((m) => ({ year: Number(m[1]), start: m.index, end: m.index + m[0].length, text: m[0] }));
}

/**
 * Regex source of the words a {@link YearPrefix} puts before a year (`FY\\s?` for `fy`), without a group, for patterns
 * that name a period inside a longer phrase (`from FY2021 to FY2023`).
 */
export function yearPrefixSource(prefix: Exclude<YearPrefix, 'none'>): string {
  return PREFIX_SOURCE[prefix];
}

/** What a whole cell or token may hold besides the year ({@link cellYear}). */
export interface CellYearOptions {
  /** Words before the year: `none` (default), or a {@link YearPrefix} (`FY2018`, `FY 2018`). */
  prefix?: YearPrefix;
  /** What may follow the year: nothing (default), one letter (`2018A`, `2019E`) or a quarter (`2023Q2`). */
  suffix?: 'none' | 'letter' | 'quarter';
}

const CELL_PATTERNS = new Map<string, RegExp>();

/**
 * The year a whole cell or token is (`2018`, `FY2018` with `prefix: 'fy'`, `2023Q2` with `suffix: 'quarter'`), else
 * undefined. The cell is not trimmed: trim it first where spaces do not matter.
 *
 * @example
 * ```ts
 * cellYear('2018'); // 2018
 * cellYear('FY 2018', { prefix: 'fy' }); // 2018
 * cellYear('2018 vs 2017'); // undefined
 * ```
 */
export function cellYear(cell: string, options: CellYearOptions = {}): number | undefined {
  const prefix = options.prefix ?? 'none';
  const suffix = options.suffix ?? 'none';
  const key = `${prefix}|${suffix}`;
  let pattern = CELL_PATTERNS.get(key);
  if (!pattern) {
    const after = suffix === 'letter' ? '[A-Z]?' : suffix === 'quarter' ? '(?:Q[1-4])?' : '';
    pattern = new RegExp(`^${prefix === 'none' ? '' : `(?:${PREFIX_SOURCE[prefix]})?`}(${YEAR_SOURCE})${after}$`, 'i');
    CELL_PATTERNS.set(key, pattern);
  }
  const m = pattern.exec(cell);
  return m ? Number(m[1]) : undefined;
}
