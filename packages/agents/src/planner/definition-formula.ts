import { YEAR_SOURCE, findYears, withoutYears, yearMentions, yearPrefixSource, type YearOptions } from '@doctree/schema';
import { comparedYears } from '../reader/question-profile.js';
import { lineItems, operandSides } from '../router/question-signals.js';

/** How the cells of one operand are reduced to the values the formula uses. */
export type OperandReduce = 'value' | 'average' | 'each';

/** One operand of a computation: a line item, read at its own years, with its own extraction. */
export interface FormulaOperand {
  /** Variable name in the formula (`A`, `B`…). */
  name: string;
  /** The line item as the question words it, cleaned for row matching (`total current assets`). */
  phrase: string;
  /** Years whose columns to read (empty: the table's first value column). */
  years: number[];
  /**
   * `value`: one cell (the year asked, else the first value column) → variable `A`; `average`: the mean of the years'
   * cells (an "average balance" over two year ends) → `A`; `each`: one variable per year, oldest first → `A0`, `A1`….
   */
  reduce: OperandReduce;
}

/** What the plan computes and from which operands. */
export interface ComputationSpec {
  /**
   * The operation, as the reader knows it: `ratio`, `percent`, `difference`, `sum`, `average`, `percent_change` (a
   * CAGR too: a compound rate over more than one year), or `formula` (a formula the question defines).
   */
  operation: 'ratio' | 'percent' | 'difference' | 'sum' | 'average' | 'percent_change' | 'formula';
  /** The formula as people read it (`A / B`, `(B1 - B0) / B0`). */
  formula: string;
  /** The `compute.eval` expression over the operands' variables (`ratio(A, B)`, `percent_change(A0, A1)`). */
  expression: string;
  operands: FormulaOperand[];
  /** The result is shown as a percentage. */
  percent: boolean;
  /** What the question calls the result (`working capital ratio`), when it defines it. */
  defined?: string;
}

/** Where a definition starts: "X is defined as:", "Define X as", "X is calculated as". */
const DEFINITION = /(?:^|[.?!:]\s+|\s)(?:(?:here\s+)?(?:is|are)\s+(?:defined|calculated|computed)\s+as|define[ds]?\s+(.{2,80}?)\s+as|(?:calculated|computed)\s+as)\s*:?\s*/i;
/** Words of a definition that are operators. */
const WORD_OPERATORS: ReadonlyArray<[RegExp, string]> = [
  [/\s+divided\s+by\s+/gi, ' / '],
  [/\s+(?:less|minus)\s+/gi, ' - '],
  [/\s+plus\s+/gi, ' + '],
  [/\s+(?:times|multiplied\s+by)\s+/gi, ' * '],
  [/\s[-−–]\s/g, ' - '],
];
/** Years of an operand phrase: `2023`, `FY2023`, `fiscal year 2023`, `FY'2023`. */
const YEAR_IN_PHRASE: YearOptions = { prefix: 'fiscal' };
const FISCAL_YEAR = `(?:${yearPrefixSource('fiscal')})?'?${YEAR_SOURCE}`;
/** A span of years (`between FY2021 and FY2023`), dropped from an operand phrase. */
const YEAR_SPAN = new RegExp(`\\b(?:between|from)\\s+${FISCAL_YEAR}\\s+(?:and|to|through)\\s+${FISCAL_YEAR}\\b`, 'gi');
/** Source and filler words of an operand phrase ("from the segment table", "(units per the annual report)"). */
const PHRASE_NOISE = /\b(?:from|in|on|of|per)\s+the\s+(?:[a-z&']+\s+){0,4}(?:statement|sheet|report|table)s?\b|\bas\s+(?:reported|shown|stated)\b.*$|\bthe\b|\bfor\s+the\s+(?:year|period)\b/gi;

/** The body of a definition sentence: up to the sentence end (a period before a capital or the end). */
function definitionBody(question: string): { body: string; defined?: string } | undefined {
  const m = DEFINITION.exec(question);
  if (!m) return undefined;
  const rest = question.slice(m.index + m[0].length);
  const end = /\.\s+(?=[A-Z])|\.\s*$|\?|;|\n/.exec(rest);
  const body = (end ? rest.slice(0, end.index) : rest).trim();
  const before = question.slice(0, m.index).split(/[.?!:]\s+/).pop() ?? '';
  const named = (m[1] ?? before.split(/\s+/).slice(-5).join(' ')).replace(/^(?:the|a|an)\s+/i, '').trim();
  return body === '' ? undefined : { body, ...(named ? { defined: named } : {}) };
}

/** An operand phrase cleaned for row matching, with its years and whether it is an average over them. */
function readOperand(text: string): { phrase: string; years: number[]; average: boolean } {
  let t = ` ${text} `;
  const years = yearMentions(t, YEAR_IN_PHRASE).map((y) => y.year);
  const average = /\baverage\b|\bmean\b/i.test(t);
  t = withoutYears(t.replace(YEAR_SPAN, ' '), ' ', YEAR_IN_PHRASE)
    .replace(/\b(?:average|mean)\b/gi, ' ')
    .replace(/\(([^()]*)\)/g, (all, inner: string) => (/\bstatement\b|\bsheet\b/i.test(inner) ? ' ' : all))
    .replace(PHRASE_NOISE, ' ')
    .replace(/^\s*(?:of|in|for|at|as\s+of)\s+/i, ' ')
    .replace(/\s+(?:of|in|for|at|between|and)\s*$/i, ' ')
    .replace(/[,:;]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return { phrase: t, years: [...new Set(years)].sort((a, b) => a - b), average };
}

const NAMES = 'ABCDEFGH';

/**
 * The formula a question defines — "X is defined as: A / B", "Define X as A divided by B", "(A - B)", "A less B",
 * "A + B", "A / (average B between FY2018 and FY2019)" — with its operands (years and averages read per operand), or
 * undefined when the question defines none or the definition is not arithmetic over two or more line items.
 *
 * @example
 * ```ts
 * definitionFormula('How fast are payables paid? It is defined as: FY2021 cost of goods sold / (average accounts payable between FY2020 and FY2021).');
 * // { operation: 'formula', formula: 'A / B', operands: [{ name: 'A', phrase: 'cost of goods sold', years: [2021], reduce: 'value' },
 * //   { name: 'B', phrase: 'accounts payable', years: [2020, 2021], reduce: 'average' }], … }
 * ```
 */
export function definitionFormula(question: string, askedYears: readonly number[] = []): ComputationSpec | undefined {
  const def = definitionBody(question);
  if (!def) return undefined;
  let body = ` ${def.body} `;
  for (const [pattern, op] of WORD_OPERATORS) body = body.replace(pattern, op);
  // Tokens: operators, parentheses that group (not those inside a phrase such as "(PP&E)"), and phrases.
  const tokens = body.split(/\s*([/*+]|\s-\s|\(|\))\s*/).map((t) => t.trim()).filter((t) => t !== '');
  const operands: FormulaOperand[] = [];
  const byPhrase = new Map<string, string>();
  const parts: string[] = [];
  let pendingParen = 0;
  for (const token of tokens) {
    if (['/', '*', '+', '-'].includes(token)) {
      parts.push(` ${token} `);
      continue;
    }
    if (token === '(' || token === ')') {
      parts.push(token);
      pendingParen += token === '(' ? 1 : -1;
      continue;
    }
    if (/^[0-9]+(?:\.[0-9]+)?$/.test(token)) {
      parts.push(token);
      continue;
    }
    const read = readOperand(token);
    if (read.phrase === '' || read.phrase.split(' ').length > 8) return undefined;
    const key = `${read.phrase.toLowerCase()}|${read.years.join(',')}|${read.average}`;
    let name = byPhrase.get(key);
    if (name === undefined) {
      if (operands.length >= NAMES.length) return undefined;
      name = NAMES[operands.length]!;
      byPhrase.set(key, name);
      const years = read.average ? (read.years.length >= 2 ? read.years : averageYears(read.years, askedYears)) : read.years.length > 0 ? read.years.slice(-1) : askedYears.slice(-1);
      operands.push({ name, phrase: read.phrase, years, reduce: read.average && years.length >= 2 ? 'average' : 'value' });
    }
    parts.push(name);
  }
  if (pendingParen !== 0 || operands.length < 2 || !parts.some((p) => /^ [/*+-] $/.test(p))) return undefined;
  const expression = parts.join('').replace(/\s+/g, ' ').replace(/\( /g, '(').replace(/ \)/g, ')').trim();
  // A parenthesised group that holds one operand is just that operand.
  const formula = expression.replace(/\(([A-H])\)/g, '$1');
  return { operation: 'formula', formula, expression: formula, operands, percent: false, ...(def.defined ? { defined: def.defined } : {}) };
}

/** The two year ends an average balance over one year spans: that year and the one before it. */
function averageYears(own: readonly number[], asked: readonly number[]): number[] {
  const year = own[0] ?? asked[asked.length - 1];
  return year === undefined ? [] : [year - 1, year];
}

/** What a question's result is shown as: a percentage when it asks for one (percent, %, margin, "as a %"). */
function asksPercent(question: string): boolean {
  return /%|\bpercent(?:age|s)?\b|\bmargin\b/i.test(question);
}

/** Widest year range a per-year computation spans. */
const MAX_YEAR_SPAN = 10;

/** Words an item phrase keeps from the comparison around it ("… compared to 2001"). */
const COMPARISON_WORDS = /\b(?:compared|comparison|than|respectively|versus|vs)\b/gi;

function cleanItem(phrase: string): string {
  return phrase.replace(COMPARISON_WORDS, ' ').replace(/\s+/g, ' ').trim();
}

/**
 * Lower-case forms of the question's proper names: words written capitalised inside a sentence and never in lower case
 * ("Activision Blizzard", "Block"). Names say whose line item it is, not which row.
 */
function properNames(question: string): Set<string> {
  const names = new Set<string>();
  const lower = new Set<string>();
  let sentenceStart = true;
  for (const raw of question.split(/\s+/)) {
    const word = raw.replace(/^[("'“]+|[)"'”,.?!:;]+$/g, '').replace(/['’]s$/, '');
    if (/^[A-Z][A-Za-z]+$/.test(word) && !sentenceStart && !/^(?:FY|Q[1-4])$/.test(word)) names.add(word.toLowerCase());
    else if (/^[a-z]+$/.test(word)) lower.add(word);
    sentenceStart = /[.?!:]$/.test(raw);
  }
  for (const w of lower) names.delete(w);
  return names;
}

/** An item phrase without proper names, unless nothing else is left. */
function withoutNames(phrase: string, names: ReadonlySet<string>): string {
  const kept = phrase.split(' ').filter((w) => !names.has(w.toLowerCase()));
  return kept.length > 0 ? kept.join(' ') : phrase;
}

const PERIOD = /^(?:(?:the\s+)?(?:FY|fiscal(?:\s+year)?|year|calendar\s+year)\s*)?'?[0-9]{2,4}$|^(?:the\s+)?(?:prior|previous|last|preceding)\s+(?:fiscal\s+)?year$/i;

/**
 * "How much more / less / higher / lower was A compared to (than) B": the difference of two line items in one period,
 * A − B for more, B − A for less. Undefined when B is a period (one item over years) or the pattern is absent.
 */
function moreOrLess(question: string): ComputationSpec | undefined {
  const m = /\bhow\s+much\s+(more|less|higher|lower|greater|smaller|bigger|larger)\s+(?:was|were|is|are)\s+(?:the\s+|its\s+|their\s+)?(.+?)\s+(?:compared\s+(?:to|with)|than)\s+(?:the\s+|its\s+|their\s+)?(.+?)\s*(?:\?|$|[.,;]\s|\s+(?:in|for|at|during|as\s+of)\s+(?:the\s+)?(?:FY|fiscal|year|calendar)?\s*'?[0-9]{2,4}\b)/i.exec(question);
  if (!m) return undefined;
  const a = cleanItem(m[2]!);
  const b = cleanItem(m[3]!);
  if (a === '' || b === '' || PERIOD.test(b) || findYears(b).length > 0 || a.split(' ').length > 8 || b.split(' ').length > 8) return undefined;
  const years = yearMentions(question, YEAR_IN_PHRASE).map((y) => y.year).sort((x, y) => x - y);
  const at = years.length > 0 ? [years[years.length - 1]!] : [];
  const less = /^(?:less|lower|smaller)$/i.test(m[1]!);
  return {
    operation: 'difference',
    formula: less ? 'B - A' : 'A - B',
    expression: less ? 'B - A' : 'A - B',
    operands: [
      { name: 'A', phrase: a, years: at, reduce: 'value' },
      { name: 'B', phrase: b, years: at, reduce: 'value' },
    ],
    percent: false,
  };
}

/** Options of {@link computationSpec}. */
export interface ComputationSpecInput {
  question: string;
  /** The decision's operations (the router's reading). */
  operations: readonly string[];
  /** The years the question names. */
  years: readonly number[];
}

/**
 * The computation a question asks for, with each operand as its own line item: a definition the question gives
 * ({@link definitionFormula}) first; else two line items combined ("ratio of A to B", "A as a percentage of B",
 * "difference between A and B", "sum of A and B": `operandSides`, rows from `lineItems`); else one line item over
 * the years compared (`comparedYears`: growth / percent change old → new, a CAGR when the question says CAGR or
 * compound and the years are more than one apart, a difference newest − oldest, a sum or an average over the years).
 * Undefined when the question asks no arithmetic the plan can gather operands for.
 *
 * @example
 * ```ts
 * computationSpec({ question: 'What is the FY2022 - FY2023 membership fees growth rate?', operations: ['percent_change'], years: [2022, 2023] });
 * // { operation: 'percent_change', formula: '(A1 - A0) / A0', expression: 'percent_change(A0, A1)', operands: [{ name: 'A', phrase: 'membership fees', years: [2022, 2023], reduce: 'each' }], percent: true }
 * ```
 */
export function computationSpec(input: ComputationSpecInput): ComputationSpec | undefined {
  const { question, operations } = input;
  const years = [...new Set(input.years)].sort((a, b) => a - b);
  const defined = definitionFormula(question, years);
  if (defined) {
    const percent = asksPercent(question) && /\//.test(defined.expression);
    return percent ? { ...defined, formula: `(${defined.formula}) × 100`, expression: `pct(${defined.expression}, 1)`, percent } : defined;
  }
  // Asides in parentheses ("(formerly known as …)", "(in millions)") name no line item.
  const plain = question.replace(/\s*\([^()]*\)/g, ' ').replace(/\bas\s+an?\s+%\s+of\b/gi, 'as a percentage of');
  const sides = operandSides(plain);
  const proper = properNames(question);
  const items = lineItems(plain).map((i) => withoutNames(cleanItem(i), proper)).filter((i) => i !== '');
  const more = moreOrLess(plain);
  if (more) return more;
  if (sides && sides.operation !== 'compare' && items.length === 2) {
    const [a, b] = items as [string, string];
    // A ratio asked in percents is a percentage.
    const operation = sides.operation === 'ratio' && asksPercent(plain) ? 'percent' : sides.operation;
    const range = years.length >= 2 && years[years.length - 1]! - years[0]! <= MAX_YEAR_SPAN ? Array.from({ length: years[years.length - 1]! - years[0]! + 1 }, (_, i) => years[0]! + i) : [];
    if (operations.includes('average') && range.length >= 2 && (operation === 'ratio' || operation === 'percent')) {
      // "the N-year average of A as a % of B": the ratio of each year, averaged.
      const fn = operation === 'ratio' ? 'ratio' : 'pct';
      const per = range.map((_, i) => `${fn}(A${i}, B${i})`);
      return {
        operation: 'average',
        formula: `avg(${range.map((_, i) => `A${i} / B${i}`).join(', ')})${operation === 'percent' ? ' × 100' : ''}`,
        expression: `avg(${per.join(', ')})`,
        operands: [
          { name: 'A', phrase: a, years: range, reduce: 'each' },
          { name: 'B', phrase: b, years: range, reduce: 'each' },
        ],
        percent: operation === 'percent',
      };
    }
    const at = years.length > 0 ? [years[years.length - 1]!] : [];
    const operands: FormulaOperand[] = [
      { name: 'A', phrase: a, years: at, reduce: 'value' },
      { name: 'B', phrase: b, years: at, reduce: 'value' },
    ];
    const forms = {
      ratio: { formula: 'A / B', expression: 'ratio(A, B)', percent: false },
      percent: { formula: 'A / B × 100', expression: 'pct(A, B)', percent: true },
      difference: { formula: 'A - B', expression: 'A - B', percent: false },
      sum: { formula: 'A + B', expression: 'A + B', percent: false },
    } as const;
    // The reader knows the operation as the question words it ("ratio"), whatever form shows it.
    return { operation: sides.operation, ...forms[operation], operands };
  }
  const op = (['percent_change', 'difference', 'sum', 'average'] as const).find((o) => operations.includes(o));
  if (op === undefined || items.length !== 1) return undefined;
  const compared = comparedYears({ years, question, ...(sides ? { sides } : {}) }, op);
  if (compared.length < 2) return undefined;
  const operand: FormulaOperand = { name: 'A', phrase: items[0]!, years: compared, reduce: 'each' };
  const names = compared.map((_, i) => `A${i}`);
  const first = names[0]!;
  const last = names[names.length - 1]!;
  const span = compared[compared.length - 1]! - compared[0]!;
  if (op === 'percent_change') {
    if (/\bcagr\b|\bcompound/i.test(question) && span > 1) {
      return { operation: 'percent_change', formula: `(${last} / ${first})^(1/${span}) - 1`, expression: `cagr(${first}, ${last}, ${span})`, operands: [operand], percent: true };
    }
    return { operation: 'percent_change', formula: `(${last} - ${first}) / ${first}`, expression: `percent_change(${first}, ${last})`, operands: [operand], percent: true };
  }
  if (op === 'difference') return { operation: 'difference', formula: `${last} - ${first}`, expression: `${last} - ${first}`, operands: [operand], percent: false };
  if (op === 'sum') return { operation: 'sum', formula: names.join(' + '), expression: `sum(${names.join(', ')})`, operands: [operand], percent: false };
  return { operation: 'average', formula: `(${names.join(' + ')}) / ${names.length}`, expression: `avg(${names.join(', ')})`, operands: [operand], percent: false };
}
