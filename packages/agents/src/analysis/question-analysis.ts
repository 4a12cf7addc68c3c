import { contentWords, findUnits } from '@doctree/index';
import { builtinDomainPack, conceptQueryTerms, conceptsIn } from '@doctree/toolhub';
import type { CompiledDomainPack } from '@doctree/toolhub';
import { YEAR_SOURCE, findPageReferences, numberWordSource, numberWordValue, ordinalValue, ordinalWordSource, yearMentions } from '@doctree/schema';
import type { AnswerFormat, Operation, PageReferenceOptions, QueryObject, QuestionAnalysis, QuestionDefinition, RouterDecision, YearOptions } from '@doctree/schema';

/**
 * The one analysis of a question ({@link analyzeQuestion}): 1-based page references, named objects and sources, units,
 * scale, rounding, years and quarter, operations and their operands, line items, the expected answer format, keywords,
 * entities, the concepts of the domain pack it names, and definitions it gives. General phrasing rules only; what
 * belongs to a field (statement names, concepts, abbreviations, quantity words) comes from the domain pack.
 * The router's signals (`extractSignals`) and the reader's profile (`profileQuestion`) are views of it.
 */

/** The pack of callers written before packs (`extractSignals`, `profileQuestion`, `RuleRouter` without a pack). */
export function legacyDomainPack(): CompiledDomainPack {
  return builtinDomainPack('finance');
}

const MAX_PAGE = 100_000;

/**
 * How a question names pages: `page(s)`, `p.`, `pp.`, `pg.`, `slide(s)`, `page no.`, spelled-out numbers up to twenty,
 * ordinals up to `tenth` / `10th`, the cover, the back and the second to last page.
 */
const QUESTION_PAGES: PageReferenceOptions = { nouns: 'pages-and-slides', numberWords: true, coverAndBack: true, maxOrdinalWord: 10, ordinalDigits: 'strict' };

function findPages(question: string, pageCount: number | undefined): { pages: number[]; last: boolean } {
  const pages: number[] = [];
  let last = false;
  for (const ref of findPageReferences(question, QUESTION_PAGES)) {
    if (ref.page !== undefined) pages.push(ref.page);
    else if (ref.kind === 'last' && pageCount !== undefined) pages.push(pageCount - (ref.fromEnd ?? 0));
    else if (ref.kind === 'last') last = true;
  }
  const valid = pages.filter((p) => Number.isInteger(p) && p >= 1 && p <= MAX_PAGE);
  return { pages: [...new Set(valid)].sort((a, b) => a - b), last };
}

/** Object kinds and the words that name them. */
const LABELLED_OBJECTS: Array<[RegExp, QueryObject['kind'], string]> = [
  [/\b(?:figure|fig\.?|figs\.?)\s*([0-9]+[a-z]?(?:\.[0-9]+)*|[ivx]+)\b/gi, 'figure', 'Figure'],
  [/\b(?:table|tab\.)\s*([0-9]+[a-z]?(?:\.[0-9]+)*|[ivx]+)\b/gi, 'table', 'Table'],
  [/\b(?:chart|graph|plot)\s*([0-9]+[a-z]?)\b/gi, 'chart', 'Chart'],
  [/\b(?:exhibit)\s*([0-9]+[a-z]?(?:\.[0-9]+)*)\b/gi, 'section', 'Exhibit'],
  [/\b(?:appendix)\s+([a-z]|[0-9]+|[ivx]+)\b/gi, 'section', 'Appendix'],
  [/\b(?:section|sec\.|chapter|part)\s*([0-9]+(?:\.[0-9]+)*|[ivx]+)\b/gi, 'section', 'Section'],
  [/\bnote\s+([0-9]+)\b/gi, 'section', 'Note'],
  [/\b(?:equation|eq\.|formula)\s*\(?([0-9]+(?:\.[0-9]+)*)\)?/gi, 'equation', 'Equation'],
];

/** Unlabelled visual / tabular objects a question can name. */
const GENERIC_OBJECTS: Array<[RegExp, QueryObject['kind']]> = [
  [/\b(?:bar|pie|line|donut|doughnut|area|stacked|column)\s+(?:charts?|graphs?|plots?)\b/i, 'chart'],
  [/\b(?:charts?|graphs?|plots?|histograms?|scatter\s*plots?|curves?|diagrams?|infographics?|flow\s*charts?|bar\s+chart)\b/i, 'chart'],
  [/\b(?:figures?|images?|pictures?|photos?|photographs?|illustrations?|icons?|logos?|screenshots?|maps?|drawings?|sketch(?:es)?)\b/i, 'figure'],
  [/\btables?\b/i, 'table'],
];

/** A 'Table 2' style label: kind word + number, normalised. */
function labelledObjects(question: string): QueryObject[] {
  const out: QueryObject[] = [];
  for (const [pattern, kind, word] of LABELLED_OBJECTS) {
    for (const m of question.matchAll(pattern)) {
      const id = /^[ivx]+$/i.test(m[1]!) ? m[1]!.toUpperCase() : m[1]!;
      out.push({ kind, label: `${word} ${id}`, text: m[0]!.trim() });
    }
  }
  return out;
}

function findObjects(question: string, pack: CompiledDomainPack): QueryObject[] {
  const out = labelledObjects(question);
  for (const statement of pack.statements) if (statement.trigger.test(question)) out.push({ kind: 'statement', text: statement.name });
  const labelledKinds = new Set(out.map((o) => o.kind));
  for (const [pattern, kind] of GENERIC_OBJECTS) {
    const m = pattern.exec(question);
    if (m && !labelledKinds.has(kind) && !out.some((o) => o.text.toLowerCase().includes(m[0]!.toLowerCase()))) out.push({ kind, text: m[0]!.toLowerCase() });
  }
  const section = /\b(?:in|under|from|within)\s+(?:the\s+)?["“']?([A-Za-z][\w&'’ -]{2,48}?)["”']?\s+(?:section|chapter|part)\b/i.exec(question);
  if (section && !/^(?:this|that|same|following|previous|next|first|last)$/i.test(section[1]!.trim())) out.push({ kind: 'section', text: section[1]!.trim() });
  const titled = /\b(?:section|chapter|slide|page)\s+(?:titled|entitled|called|named|headed)\s+["“']([^"”']{2,80})["”']/i.exec(question);
  if (titled) out.push({ kind: 'section', text: titled[1]!.trim() });
  return out;
}

function findUnitsInQuestion(question: string): string[] {
  const units = new Set(findUnits(question));
  if (/\bUS\$|\bUSD\b|\bdollars?\b|\$/i.test(question)) units.add('$');
  if (/\bEUR\b|\beuros?\b|€/i.test(question)) units.add('€');
  if (/\bGBP\b|\bpounds?\s+sterling\b|£/i.test(question)) units.add('£');
  if (/\bJPY\b|\byen\b|¥/i.test(question)) units.add('¥');
  if (/\bRMB\b|\bCNY\b|\byuan\b/i.test(question)) units.add('RMB');
  if (/\bpercent(?:age)?s?\b|\bper\s+cent\b|%|\bpct\b/i.test(question)) units.add('%');
  if (/\bbasis\s+points?\b|\bbps\b/i.test(question)) units.add('bps');
  if (/\bmillions?\b|\bmn\b|\$\s?m\b|\bUSD\s?m\b/i.test(question)) units.add('millions');
  if (/\bbillions?\b|\bbn\b|\$\s?b\b/i.test(question)) units.add('billions');
  if (/\bthousands?\b|\$\s?k\b/i.test(question)) units.add('thousands');
  return [...units].sort();
}

/**
 * Years a question asks about: after a period word (`FY2023`, `fiscal year 2023`, `calendar year 2019`, `FY23`),
 * bare years that are not amounts (`2,000 million` is none), both years of `2018-19` / `2018/19`, and the year of a
 * quarter written with it (`Q2 2023`, `3Q23`, `2023Q2`), which also gives the quarter.
 */
const QUESTION_YEARS: YearOptions = { prefix: 'period', twoDigit: 'period', boundary: 'amount', ranges: true, quarters: true };
const QUARTER = new RegExp(`\\b(Q[1-4])\\b|\\b(${ordinalWordSource(4)})\\s+quarter\\b`, 'i');

function findYearsInQuestion(question: string): { years: number[]; quarter?: string } {
  const mentions = yearMentions(question, QUESTION_YEARS);
  const withYear = mentions.find((m) => m.quarter !== undefined)?.quarter;
  const quarter = withYear === undefined ? QUARTER.exec(question) : null;
  const q = withYear !== undefined ? `Q${withYear}` : quarter ? (quarter[1] ? quarter[1].toUpperCase() : `Q${ordinalValue(quarter[2]!)}`) : undefined;
  const years = [...new Set(mentions.map((m) => m.year))].sort((a, b) => a - b);
  return { years, ...(q !== undefined ? { quarter: q } : {}) };
}

/** Operation patterns, tested in order; several may match. */
const OPERATION_PATTERNS: Array<[Operation, RegExp]> = [
  ['count', /\bhow\s+many\b|\bnumber\s+of\b|\bcount\b|\btotal\s+(?:number|count)\b/i],
  ['percent_change', /\b(?:percent(?:age)?|%)\s+(?:change|increase|decrease|growth|decline|drop|rise)\b|\bgrowth\s+rate\b|\b(?:year[\s-]+over[\s-]+year|yoy|y\/y)\b|\b(?:grow|grew|increase[sd]?|decrease[sd]?|decline[sd]?|change[sd]?|rise|rose|fall|fell|drop(?:ped)?)\s+by\s+(?:what|how\s+much)\s+(?:percent|%)|\bcagr\b|\bcompound\s+annual\b/i],
  ['percent', /\bpercent(?:age)?\b|\bproportion\b|\bshare\s+of\b|\bfraction\b|\bmargin\b|%|\bper\s+cent\b/i],
  ['ratio', /\bratio\b|\bdivided\s+by\b|\btimes\s+(?:as|larger|higher|greater|more|bigger|smaller)\b|\bper\s+(?:share|employee|capita|unit|customer|store)\b|\bturnover\b|\bmultiple\s+of\b|\bcoverage\b/i],
  ['difference', /\bdifference\b|\bhow\s+much\s+(?:more|less|higher|lower|greater|smaller|bigger)\b|\b(?:increase|decrease|change|grow|grew|decline|drop)[sd]?\s+(?:of|from)\b|\b(?:increase|decrease|change|grow|grew|decline|drop)[sd]?\s+in\b(?!\s+(?:the\s+)?(?:FY\s*|fiscal\s+(?:year\s+)?)?'?[0-9]{2,4}\b)|\bgap\b|\bminus\b|\bsubtract/i],
  ['sum', /\bsum\b|\bcombined\b|\baltogether\b|\bin\s+total\b|\badd(?:ing)?\s+up\b|\baggregate\b|\btotal\s+of\b/i],
  ['average', /\baverage\b|\bmean\b|\bavg\b|\bper\s+year\s+on\s+average\b/i],
  ['max', /\b(?:highest|largest|biggest|greatest|maximum|max|most|peak|best|longest|tallest)\b|\btop\s+(?:[0-9]+|two|three|four|five|ten)\b|\btop[\s-]ranked\b/i],
  ['min', /\b(?:lowest|smallest|least|fewest|minimum|min|worst|shortest)\b/i],
  ['compare', /\bcompar(?:e|ed|ing|ison)\b|\bversus\b|\bvs\.?\b|\b(?:higher|lower|greater|larger|smaller|more|less|better|worse)\s+than\b|\bwhich\s+(?:one\s+)?(?:is|was|has|had)\s+(?:higher|lower|greater|larger|smaller|more|less|better|worse)\b/i],
  ['trend', new RegExp(String.raw`\btrend\b|\bover\s+(?:time|the\s+(?:years|period|quarters|months))\b|\bfrom\s+${YEAR_SOURCE}\s+(?:to|through|until)\s+${YEAR_SOURCE}\b|\b(?:increasing|decreasing|growing|declining)\b|\bevolv`, 'i')],
  ['list', /\blist\b|\bname\s+(?:all|the|every|each)\b|\benumerate\b|\bwhat\s+are\s+(?:the|all)\b|\bwhich\s+(?:\w+\s+){0,3}(?:are|were)\b|\bwho\s+are\b|\ball\s+the\b/i],
  ['locate', /\b(?:which|what)\s+(?:page|slide|section|chapter|part)\b|\bwhere\s+(?:is|are|was|were|can|does|do|in)\b|\bon\s+which\s+(?:page|slide)\b|\bin\s+which\s+(?:section|chapter|part|page)\b/i],
];

/** Operations that need arithmetic over extracted numbers. */
export const ARITHMETIC_OPERATIONS: ReadonlySet<Operation> = new Set(['sum', 'difference', 'ratio', 'percent', 'percent_change', 'average']);

function findOperations(question: string): Operation[] {
  const ops: Operation[] = [];
  for (const [op, pattern] of OPERATION_PATTERNS) if (pattern.test(question)) ops.push(op);
  // "percent change" is not also a plain percent; "how many" over a percentage is not a count.
  const drop = new Set<Operation>();
  if (ops.includes('percent_change')) drop.add('percent');
  if (/\bhow\s+many\s+(?:percent|percentage\s+points|times|fold|%)/i.test(question)) drop.add('count');
  const kept = ops.filter((op) => !drop.has(op));
  return kept.length > 0 ? kept : ['lookup'];
}

const YES_NO = /^(?:is|are|was|were|does|do|did|has|have|had|can|could|will|would|should|shall|may|might|must|isn't|aren't|doesn't|didn't)\b/i;
const MONEY_OR_QUANTITY = /\bhow\s+many\s+(?:(?:us\s+)?(?:dollars|usd|euros?|pounds|yen|millions?|billions?|thousands?)|(?:kilo)?(?:grams|meters|metres|litres|liters|hours|minutes|seconds|square))\b/i;

function expectedFormat(question: string, ops: readonly Operation[], units: readonly string[], pack: CompiledDomainPack): AnswerFormat {
  const q = question.trim();
  const lower = q.toLowerCase();
  if (YES_NO.test(q) || /\byes\s+or\s+no\b|\btrue\s+or\s+false\b/i.test(q)) return 'Str';
  if (/\bhow\s+many\b/.test(lower)) {
    if (MONEY_OR_QUANTITY.test(q) || /\bhow\s+many\s+(?:percent|percentage\s+points|times|fold)\b/.test(lower)) return 'Float';
    return 'Int';
  }
  if (ops.includes('list')) return 'List';
  if (/\b(?:what|which)\s+(?:is\s+the\s+|was\s+the\s+)?(?:year|fiscal\s+year)\b(?![\s-]+(?:over|on|to)[\s-])|\bin\s+(?:what|which)\s+year\b/.test(lower)) return 'Int';
  if (/\b(?:which|what)\s+(?:page|slide)\s+(?:number\s+)?(?:is|was|has|contains|shows|does|do|mentions|lists)\b|\bon\s+which\s+(?:page|slide)\b|\bwhat\s+is\s+the\s+page\s+number\b/.test(lower)) return 'Int';
  if (ops.some((op) => op === 'percent' || op === 'percent_change' || op === 'ratio' || op === 'average')) return 'Float';
  if (ops.includes('count')) return 'Int';
  if (/\bhow\s+much\b/.test(lower)) return 'Float';
  if ((ops.includes('sum') || ops.includes('difference')) && units.length > 0) return 'Float';
  if (/\bwhat\s+(?:is|was|were)\s+(?:the\s+)?(?:total\s+|net\s+|gross\s+)?(?:amount|value|number|size|price|cost)\b/.test(lower) && units.length > 0) return 'Float';
  if (/^(?:what|how)\b/.test(lower) && units.some((u) => ['$', '€', '£', '¥', 'RMB', 'millions', 'billions', 'thousands'].includes(u))) return 'Float';
  // "What was capex in 2021?", "What is the quick ratio?": a line item or a named measure of the pack asked for its
  // value (not why it changed).
  if (/^(?:what|how\s+much)\s+(?:is|was|were|are)\b/.test(lower) && !/\b(?:why|drove|driv(?:e|en|ing)|reasons?|explain|describe|cause[sd]?|factors?)\b/.test(lower) && (conceptsIn(q, pack.concepts).some((c) => !c.general) || pack.measures.some((m) => m.trigger.test(q)))) {
    return 'Float';
  }
  // The number type the question asks for in so many words ("give the answer as an integer", "in float format").
  const stated = STATED_NUMBER_TYPE.exec(q);
  if (stated) return stated[1] ? 'Int' : 'Float';
  return 'Str';
}

/** A number type named as the answer's form: `as an integer`, `in int format`, `into float format`, `as a decimal number`. */
const STATED_NUMBER_TYPE = /\b(?:as|in|into)\s+(?:an?\s+)?(?:(integer|int|whole[\s-]number)|(float|floating[\s-]point(?:\s+number)?|decimal\s+(?:number|format)))(?:\s+(?:format|form|number|value))?\b/i;

/** Question words and instructions that carry no retrieval signal. */
const NOT_KEYWORDS = new Set(
  (
    'what which who whom whose when where why how many much does did do according based give provide response question details detail shown show shows ' +
    'answer please document report following mentioned use using state stated tell find describe provided given say says said listed list number value amount ' +
    'page pages slide slides figure table chart section p pp fy fiscal year years round decimal places nearest usd percent percentage million millions billion billions thousand thousands ' +
    'last first one two three four five'
  ).split(' '),
);

const ASKING = /^\s*(?:what|which|who|whom|whose|when|where|why|how|is|are|was|were|do|does|did|has|have|had|can|could|will|would|should|list|name)\b/i;

/**
 * The sentence that asks (of a question wrapped in instructions): the part after a colon or sentence end that starts
 * with a question word or ends with `?`; the whole text when there is no such part.
 *
 * @example
 * ```ts
 * askingSentence('You are reading a filing. From the cash flow statement: how much was paid in dividends in FY2023? Answer in millions.');
 * // 'how much was paid in dividends in FY2023?'
 * ```
 */
export function askingSentence(question: string): string {
  const parts = question.split(/(?<=[.?!:])\s+/).map((p) => p.trim()).filter(Boolean);
  if (parts.length <= 1) return question;
  return parts.find((p) => ASKING.test(p) && p.endsWith('?')) ?? parts.find((p) => p.endsWith('?')) ?? parts.find((p) => ASKING.test(p)) ?? question;
}

/** Keywords of the asking sentence first, then those of the rest of the question (instructions, context). */
function questionKeywords(question: string, limit = 12): string[] {
  const asking = askingSentence(question);
  const first = findKeywords(asking, limit);
  return [...new Set([...first, ...findKeywords(question, limit * 2)])].slice(0, limit);
}

/** Content words of a question or phrase, without question words, instructions, numbers and years (at most `limit`). */
export function findKeywords(question: string, limit = 12): string[] {
  const out: string[] = [];
  for (const w of contentWords(question)) {
    if (NOT_KEYWORDS.has(w) || /^[0-9.,]+$/.test(w) || /^(?:fy|cy|q)[0-9]+$/.test(w) || w.length < 2) continue;
    if (!out.includes(w)) out.push(w);
    if (out.length >= limit) break;
  }
  return out;
}

const NOT_ENTITY = /^(?:What|Which|Who|Whom|Whose|When|Where|Why|How|According|In|On|At|For|From|Of|The|A|An|Is|Are|Was|Were|Does|Do|Did|Has|Have|Had|Can|Could|Will|Would|Should|Please|Give|List|Name|Based|If|Among|Between|During|Using|By|To|With|As|This|That|These|Those|Figure|Fig|Table|Chart|Page|Slide|Section|Appendix|Exhibit|Note|Equation|FY|Q[1-4]|USD|EUR|GBP|JPY|RMB|Round|Answer|Calculate|Compute|Provide|Note|Also|Then|And|Or)$/;

/** Names written in the question; a capitalised abbreviation of the pack (`EPS`, `ROE`) is vocabulary, not a name. */
function findEntities(question: string, abbreviations: ReadonlyMap<string, string>, limit = 8): string[] {
  const out: string[] = [];
  for (const m of question.matchAll(/["“]([^"”]{2,80})["”]|(?<![A-Za-z])'([^']{2,60})'(?![A-Za-z])/g)) out.push((m[1] ?? m[2])!.trim());
  const tokens = question.replace(/["“”]/g, ' ').split(/\s+/);
  let run: string[] = [];
  let runAtSentenceStart = false;
  let sentenceStart = true;
  const flush = (): void => {
    while (run.length > 0 && /^(?:of|and|&|the|for|de|la|van|von)$/i.test(run[run.length - 1]!)) run.pop();
    // A lone capitalised word opening a sentence is just capitalised ("Summarize"), unless it looks like a name (7K, iPhone, ACME).
    const lone = run.length === 1 && runAtSentenceStart && /^[A-Z][a-z]+$/.test(run[0]!);
    if (run.length > 0 && !lone) out.push(run.join(' '));
    run = [];
  };
  for (const raw of tokens) {
    const token = raw.replace(/^[([]+|[)\],.?;:!]+$/g, '').replace(/['’]s$/, '');
    const capital = /^(?:[A-Z][A-Za-z0-9&.'’-]*|[0-9]+[A-Z][A-Za-z0-9&-]*)$/.test(token) && !/^[0-9]+$/.test(token);
    if (capital && !NOT_ENTITY.test(token) && !/^(?:FY|CY)?[0-9]{2,4}$/.test(token) && !(/^[A-Z]{2,6}$/.test(token) && abbreviations.has(token.toLowerCase()))) {
      if (run.length === 0) runAtSentenceStart = sentenceStart;
      run.push(token);
    } else if (run.length > 0 && /^(?:of|and|&|the|for|de|la|van|von)$/i.test(token)) run.push(token);
    else flush();
    sentenceStart = /[.?!:]$/.test(raw) && !/^(?:[A-Z]\.|Inc\.|Corp\.|Co\.|Ltd\.|No\.|vs\.)$/.test(raw);
    if (/[,.?;:!)]$/.test(raw)) flush();
  }
  flush();
  return [...new Set(out)].slice(0, limit);
}

/** Decimal places of "round to the nearest …". */
const NEAREST_DECIMALS: ReadonlyMap<string, number> = new Map(
  Object.entries({ 'whole number': 0, integer: 0, percent: 0, dollar: 0, tenth: 1, hundredth: 2, cent: 2, thousandth: 3 }),
);

/** "Rounded to three decimal places" (one to four spelled out, or digits), "to the nearest tenth". */
const ROUNDING = new RegExp(
  String.raw`\bround(?:ed|ing)?\s+(?:\w+\s+){0,4}?to\s+(?:the\s+)?(?:(\d+|${numberWordSource(1, 4)})\s+decimal\s+(?:places?|points?)|nearest\s+(whole\s+number|integer|tenth|hundredth|thousandth|percent|dollar|cent))`,
  'i',
);

function findRounding(question: string): number | undefined {
  const m = ROUNDING.exec(question);
  if (!m) return undefined;
  if (m[1] !== undefined) return /^[0-9]+$/.test(m[1]) ? Number(m[1]) : numberWordValue(m[1]);
  return NEAREST_DECIMALS.get(m[2]!.toLowerCase().replace(/\s+/g, ' '));
}

/** Two line items a question combines, and how. */
export interface OperandSides {
  /** `ratio` (A / B), `percent` (A as a percentage of B), `difference` (A − B), `sum` (A + B), `compare`. */
  operation: 'ratio' | 'percent' | 'difference' | 'sum' | 'compare';
  /** The two items in operand order, as written (question words and articles trimmed). */
  sides: [string, string];
}

/** Where a side ends: a period (`in FY2021`, `for 2020`), punctuation, or the end. */
const SIDE_END = String.raw`(?=\s+(?:in|for|at|during|as\s+of|over|from)\s+(?:the\s+)?(?:FY|fiscal(?:\s+year)?|year|calendar\s+year|Q[1-4])?\s*'?[0-9]{2,4}\b|\s*[?.,;]|\s*$)`;
/**
 * What `A as a percentage of B` cannot match without: tested first, because that pattern's lazy `\b(.+?)` is tried
 * from every word start, which is quadratic in the words of a long question that lacks the phrase.
 */
const AS_A_SHARE_OF = /\sas\s+an?\s+(?:percent(?:age)?|share|proportion|fraction)\s+of\s/i;
const SIDE_PATTERNS: Array<[RegExp, OperandSides['operation'], 'ab' | 'ba', RegExp?]> = [
  [new RegExp(String.raw`\bratio\s+of\s+(.+?)\s+to\s+(.+?)${SIDE_END}`, 'i'), 'ratio', 'ab'],
  [/\b([a-z&]+(?:\s+[a-z&]+)?)[\s-]+to[\s-]+([a-z&]+(?:\s+[a-z&]+)?)\s+ratio\b/i, 'ratio', 'ab'],
  [new RegExp(String.raw`\b(?:what|which)\s+(?:percent(?:age)?|share|proportion|fraction|portion)\s+of\s+(?:the\s+|its\s+|their\s+)?(.+?)\s+(?:is|was|were|are|came|comes|come)\s+(?:from|by|in|for|accounted\s+for\s+by|attributable\s+to|made\s+up\s+(?:of|by))\s+(.+?)${SIDE_END}`, 'i'), 'percent', 'ba'],
  [new RegExp(String.raw`\b(.+?)\s+as\s+an?\s+(?:percent(?:age)?|share|proportion|fraction)\s+of\s+(.+?)${SIDE_END}`, 'i'), 'percent', 'ab', AS_A_SHARE_OF],
  [new RegExp(String.raw`\b(?:difference|gap)\s+between\s+(.+?)\s+and\s+(.+?)${SIDE_END}`, 'i'), 'difference', 'ab'],
  [new RegExp(String.raw`\b(?:sum|total|combined\s+value)\s+of\s+(.+?)\s+and\s+(.+?)${SIDE_END}`, 'i'), 'sum', 'ab'],
  [new RegExp(String.raw`\bcompare\s+(.+?)\s+(?:and|with|to|versus|vs\.?)\s+(.+?)${SIDE_END}`, 'i'), 'compare', 'ab'],
];
const LEADING_QUESTION = /^(?:(?:what|how\s+much|how\s+many)\s+(?:is|was|were|are|did|does)\s+)?(?:the\s+|its\s+|their\s+|a\s+|an\s+)?/i;
const PERIOD_ONLY = /^(?:(?:the\s+)?(?:FY|fiscal(?:\s+year)?|year|calendar\s+year)\s*)?'?[0-9]{2,4}$|^(?:Q[1-4]|H[12])(?:\s+'?[0-9]{2,4})?$/i;

/**
 * The two line items a question combines — "ratio of A to B", "A-to-B ratio", "A as a percentage of B", "what share
 * of B came from A", "difference between A and B", "sum of A and B", "compare A with B" — with the operation, or
 * undefined. Periods are not items: "the difference between 2022 and 2023" is one item over two years.
 *
 * @example
 * ```ts
 * operandSides('What is the ratio of total debt to total equity in FY2021?'); // { operation: 'ratio', sides: ['total debt', 'total equity'] }
 * ```
 */
export function operandSides(question: string): OperandSides | undefined {
  for (const [pattern, operation, order, needs] of SIDE_PATTERNS) {
    if (needs && !needs.test(question)) continue;
    const m = pattern.exec(question);
    if (!m) continue;
    const clean = (side: string): string => side.trim().replace(LEADING_QUESTION, '').replace(/\s+/g, ' ').trim();
    const a = clean(m[1]!);
    const b = clean(m[2]!);
    if (a === '' || b === '' || PERIOD_ONLY.test(a) || PERIOD_ONLY.test(b) || a.toLowerCase() === b.toLowerCase()) continue;
    return { operation, sides: order === 'ab' ? [a, b] : [b, a] };
  }
  return undefined;
}

/** Words of a question that name an operation, a format or a source rather than a table row. */
const NOT_ITEM_WORDS = new Set(
  'change percentage percent ratio difference growth increase decrease decline compare average mean sum combined highest lowest largest smallest trend rate yoy cagr amount value figure statement shown details response give respond higher lower more less greater smaller'.split(
    ' ',
  ),
);

/** Row words of a phrase: its keywords without operation, format and source words, at most six, as one phrase. */
function itemPhrase(text: string, pack: CompiledDomainPack): string {
  const withoutSources = pack.statements.reduce((t, { trigger }) => t.replace(new RegExp(trigger.source, 'gi'), ' '), text);
  return findKeywords(withoutSources)
    .filter((k) => !NOT_ITEM_WORDS.has(k))
    .slice(0, 6)
    .join(' ');
}

/**
 * The line items a question asks about, as row phrases for table extraction: the two sides of a ratio / share /
 * difference / sum ("ratio of A to B"), else the asking sentence's row words as one phrase (statement names, operation
 * and format words left out: "What was the change in net sales in the income statement?" → `net sales`).
 */
export function lineItems(question: string, pack: CompiledDomainPack = legacyDomainPack(), sides: OperandSides | undefined = operandSides(question)): string[] {
  if (sides && sides.operation !== 'compare') {
    const phrases = sides.sides.map((side) => itemPhrase(side, pack));
    if (phrases.every((p) => p !== '') && phrases[0] !== phrases[1]) return phrases;
  }
  const phrase = itemPhrase(askingSentence(question.replace(/\bround(?:ed|ing)?\b[^.?!]*/gi, ' ')), pack);
  return phrase === '' ? [] : [phrase];
}

/**
 * Constraints read from the question text for planners: `alias:<phrase>` — how documents write what the question
 * names (abbreviations written out, line-item wordings of the reporting concepts it names, from the shared concept
 * vocabulary; planners add them to searches) — and `item:<phrase>` — the line items asked about ({@link lineItems};
 * planners read those rows of tables).
 */
export function questionConstraints(question: string, pack: CompiledDomainPack = legacyDomainPack()): string[] {
  const a = analyzeQuestion(question, { pack });
  return [...a.aliases.map((term) => `alias:${term}`), ...a.line_items.map((item) => `item:${item}`)];
}

/** Options of {@link analyzeQuestion}. */
export interface AnalyzeQuestionOptions {
  /** The domain pack to read the question with. Default: the generic pack. */
  pack?: CompiledDomainPack;
  /** Pages of the document, when known: resolves "last page". */
  pageCount?: number;
}

const SCALE_WORDS = ['thousands', 'millions', 'billions'] as const;

/** "X is defined as: A / B", "X = A divided by B", "X is calculated as A minus B". */
const DEFINITION = /\b([A-Za-z][\w&'’ ()-]{0,60}?)\s+(?:is|are)\s+(?:defined|calculated|computed|measured)\s+as:?\s*([^.?;\n]{3,200})|\b([A-Za-z][\w&'’ -]{0,40}?)\s*=\s*([^.?;\n=]{3,200})/gi;
const FORMULA_OPERATORS: Array<[RegExp, NonNullable<QuestionDefinition['operation']>]> = [
  [/\s*(?:\/|÷|\bdivided\s+by\b|\bover\b)\s*/i, 'ratio'],
  [/\s+(?:-|−|–|\bminus\b|\bless\b)\s+/i, 'difference'],
  [/\s*(?:\+|\bplus\b)\s*/i, 'sum'],
  [/\s*(?:\*|×|\btimes\b|\bmultiplied\s+by\b)\s*/i, 'product'],
];

/** Definitions a question gives, with the formula's top-level operation and operands when it has one operator kind. */
function findDefinitions(question: string): QuestionDefinition[] {
  const out: QuestionDefinition[] = [];
  if (!/\b(?:defined|calculated|computed|measured)\s+as\b|=/i.test(question)) return out;
  for (const m of question.matchAll(DEFINITION)) {
    const term = (m[1] ?? m[3])!.trim().replace(/^(?:the|a|an)\s+/i, '');
    const formula = (m[2] ?? m[4])!.trim().replace(/[,:]\s*$/, '');
    const definition: QuestionDefinition = { term, formula, operands: [] };
    for (const [pattern, operation] of FORMULA_OPERATORS) {
      const parts = formula.replace(/^\(|\)$/g, '').split(pattern).map((p) => p.trim().replace(/^\(|\)$/g, '').trim());
      if (parts.length >= 2 && parts.every((p) => p !== '' && p.length <= 80)) {
        definition.operation = operation;
        definition.operands = parts;
        break;
      }
    }
    if (definition.operation || m[2] !== undefined) out.push(definition);
  }
  return out;
}

/** The scale asked ("in USD millions"), from the question's words or its scale units. */
function scaleAsked(question: string, units: readonly string[]): QuestionAnalysis['scale'] {
  const word = /\b(?:in|usd|\$|eur|dollars?)\s*(?:usd\s*|\$\s*)?(thousands|millions|billions)\b/i.exec(question)?.[1]?.toLowerCase();
  if (word) return word as QuestionAnalysis['scale'];
  return SCALE_WORDS.find((s) => units.includes(s));
}

const MEMO_LIMIT = 256;
const MEMO_MAX_CHARS = 4000;
const packOf = new WeakMap<QuestionAnalysis, CompiledDomainPack>();

/** The pack an analysis was made with (the generic pack for an analysis that did not come from {@link analyzeQuestion}). */
export function analysisPack(analysis: QuestionAnalysis): CompiledDomainPack {
  return packOf.get(analysis) ?? (analysis.pack === 'finance' ? builtinDomainPack('finance') : builtinDomainPack('generic'));
}
const memo = new WeakMap<CompiledDomainPack, Map<string, QuestionAnalysis>>();

/**
 * Analyses a question once: everything router, planner, reader and judger read from its wording, as one typed,
 * JSON-serialisable {@link QuestionAnalysis} (validated shape: `QuestionAnalysisSchema`). Pages are 1-based. The same
 * question with the same pack and page count is analysed once (the result is shared and frozen).
 *
 * @example
 * ```ts
 * const a = analyzeQuestion('What is the ratio of inventory to total assets in FY2022? Round to three decimal places.', { pack: builtinDomainPack('finance') });
 * a.operands;        // { operation: 'ratio', sides: ['inventory', 'total assets'] }
 * a.years;           // [2022]
 * a.round;           // 3
 * a.expected_format; // 'Float'
 * ```
 */
export function analyzeQuestion(question: string, options: AnalyzeQuestionOptions = {}): QuestionAnalysis {
  const pack = options.pack ?? builtinDomainPack('generic');
  let cache = memo.get(pack);
  if (!cache) memo.set(pack, (cache = new Map()));
  const key = `${options.pageCount ?? ''}\u0000${question}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const analysis = deepFreeze(computeAnalysis(question, pack, options.pageCount));
  packOf.set(analysis, pack);
  // Questions longer than a router accepts are analysed but not kept (the memo holds short texts only).
  if (question.length > MEMO_MAX_CHARS) return analysis;
  if (cache.size >= MEMO_LIMIT) cache.delete(cache.keys().next().value!);
  cache.set(key, analysis);
  return analysis;
}

function computeAnalysis(question: string, pack: CompiledDomainPack, pageCount: number | undefined): QuestionAnalysis {
  const { pages, last } = findPages(question, pageCount);
  const objects = findObjects(question, pack);
  const unitWords = findUnitsInQuestion(question);
  const { years, quarter } = findYearsInQuestion(question);
  const entities = findEntities(question, pack.abbreviations);
  // Names are not operations: "Best Buy" is no superlative.
  const masked = entities.reduce((text, entity) => (entity.includes(' ') || /[A-Z]{2}/.test(entity) ? text.split(entity).join(' ') : text), question);
  const operations = findOperations(masked);
  const round = findRounding(question);
  const sides = operandSides(question);
  const named = conceptsIn(question, pack.concepts);
  const scale = scaleAsked(question, unitWords);
  const format = expectedFormat(question, operations, unitWords, pack);
  return {
    question,
    pack: pack.name,
    asking: askingSentence(question),
    operations,
    ...(sides ? { operands: { operation: sides.operation, sides: [sides.sides[0], sides.sides[1]] as [string, string] } } : {}),
    line_items: lineItems(question, pack, sides),
    years,
    ...(quarter !== undefined ? { quarter } : {}),
    units: unitWords.filter((u) => !(SCALE_WORDS as readonly string[]).includes(u)),
    unit_words: unitWords,
    ...(scale ? { scale } : {}),
    ...(round !== undefined ? { round } : {}),
    expected_format: format,
    list: operations.includes('list') || format === 'List',
    count: operations.includes('count'),
    yes_no: YES_NO.test(question.trim()) || /\byes\s+or\s+no\b|\btrue\s+or\s+false\b/i.test(question),
    pages,
    last_page: last,
    objects,
    sources: objects.filter((o) => o.kind === 'statement').map((o) => o.text),
    entities,
    // Rounding instructions and the names of statements (a source, kept in `objects`) are not what to look for.
    // The asking sentence's words come first ("You are reviewing a report. …: what is the FY2023 net PP&E?").
    keywords: questionKeywords(question.replace(/\bround(?:ed|ing)?\b[^.?!]*/gi, ' ')),
    concepts: named.map((c) => c.name),
    aliases: conceptQueryTerms(question, { concepts: pack.concepts, abbreviations: pack.abbreviations }),
    domain_quantity: pack.quantityTerms.some((t) => t.test(question)) || named.some((c) => !c.general),
    definitions: findDefinitions(question),
  };
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

const attached = new WeakMap<object, QuestionAnalysis>();

/** Carries an analysis with a router decision (planner, reader and judger read it with {@link analysisOf}). */
export function attachAnalysis<T extends object>(decision: T, analysis: QuestionAnalysis): T {
  attached.set(decision, analysis);
  return decision;
}

/** The analysis carried with a decision ({@link attachAnalysis}), if any. */
export function analysisOf(decision: RouterDecision | object | undefined): QuestionAnalysis | undefined {
  return decision ? attached.get(decision) : undefined;
}

/**
 * The analysis of a question for a stage that has the router's decision: the one carried with it, else the question
 * analysed with `pack` (default: the pack of callers written before packs).
 */
export function analysisFor(question: string, decision?: RouterDecision, pack: CompiledDomainPack = legacyDomainPack()): QuestionAnalysis {
  const carried = analysisOf(decision);
  return carried && carried.question === question ? carried : analyzeQuestion(question, { pack });
}

/** The concepts of its pack an analysis names, as concept objects (in the pack's order). */
export function analysisConcepts(analysis: QuestionAnalysis): CompiledDomainPack['concepts'][number][] {
  const names = new Set(analysis.concepts);
  return analysisPack(analysis).concepts.filter((c) => names.has(c.name));
}

/**
 * A compact JSON block of an analysis for model prompts: only the fields that are set (empty lists, false flags and
 * the question itself left out).
 */
export function compactAnalysis(analysis: QuestionAnalysis): string {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(analysis)) {
    if (key === 'question' || key === 'asking' || key === 'unit_words') continue;
    if (value === false || value === undefined || (Array.isArray(value) && value.length === 0)) continue;
    out[key] = value;
  }
  return JSON.stringify(out);
}

/**
 * What an analysis adds to a decision's signals, for model prompts (router, planner, reader): the pack, operands, line
 * items, concepts, scale, rounding, quarter and definitions that are set — compact, so prompts stay small.
 */
export function analysisHint(a: QuestionAnalysis | undefined): { analysis?: Record<string, unknown> } {
  if (!a) return {};
  const out: Record<string, unknown> = { pack: a.pack };
  if (a.operands) out['operands'] = a.operands;
  if (a.line_items.length > 0) out['line_items'] = a.line_items;
  if (a.concepts.length > 0) out['concepts'] = a.concepts;
  if (a.scale) out['scale'] = a.scale;
  if (a.round !== undefined) out['round'] = a.round;
  if (a.quarter) out['quarter'] = a.quarter;
  if (a.definitions.length > 0) out['definitions'] = a.definitions;
  return { analysis: out };
}

/** Carries the analysis of `from` (if any) over to `to` — a decision re-validated (cloned) by a stage. */
export function carryAnalysis<T extends object>(from: object | undefined, to: T): T {
  const analysis = analysisOf(from);
  return analysis ? attachAnalysis(to, analysis) : to;
}
