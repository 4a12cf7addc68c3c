import { ownTable } from '@doctree/schema';
/**
 * The shared vocabulary of reporting concepts: how questions name a quantity ("capital expenditure", "capex") and how
 * documents write it as a line item ("Purchases of property, plant and equipment"), plus the common abbreviations of
 * financial and business writing (`PP&E`, `R&D`, `SG&A`, `EPS`…). One module, used by the router's query expansion
 * (planner `query_terms`), the ToolHub lanes (table row matching, `extract.column`) and the offline reader.
 * General domain knowledge only — nothing here is specific to a document or a question set.
 */

/** A concept a question may name, with the wordings evidence uses for it. */
export interface Concept {
  /** Short name, recorded in notes. */
  name: string;
  /** Matches the question wording (the concept is also named when the question writes one of its aliases). */
  trigger: RegExp;
  /** Wordings in evidence (lower case; matched on word boundaries, punctuation-insensitive, abbreviations expanded). */
  aliases: readonly string[];
  /** The item is an outflow reported as a negative (parentheses) amount; its magnitude answers "what is the amount". */
  outflow?: boolean;
  /** The concept is not a financial-statement line item (read from text as often as from tables). Default false. */
  general?: boolean;
}

/**
 * Abbreviations and their written-out forms (lower case). Labels and questions are compared with both written out
 * ({@link normalizeLabel}), so "PP&E" in a question finds "property, plant and equipment" in a row label and back.
 * A frozen table without a prototype: looked up with a question's word (`constructor`), it holds only its own entries.
 */
export const ABBREVIATIONS: Readonly<Record<string, string>> = ownTable<string>({
  'pp&e': 'property plant and equipment',
  ppne: 'property plant and equipment',
  'r&d': 'research and development',
  'sg&a': 'selling general and administrative',
  'g&a': 'general and administrative',
  'd&a': 'depreciation and amortization',
  'm&a': 'mergers and acquisitions',
  capex: 'capital expenditures',
  opex: 'operating expenses',
  cogs: 'cost of goods sold',
  eps: 'earnings per share',
  fcf: 'free cash flow',
  'a/r': 'accounts receivable',
  'a/p': 'accounts payable',
  yoy: 'year over year',
  'y/y': 'year over year',
  roe: 'return on equity',
  roa: 'return on assets',
  roic: 'return on invested capital',
  'p&l': 'profit and loss',
});

/** Built-in concepts (financial statements and company reports, the most common source of numeric questions). */
export const FINANCIAL_CONCEPTS: readonly Concept[] = [
  {
    name: 'capital expenditure',
    trigger: /\bcapital expenditures?\b|\bcapex\b|\bcapital spending\b|\bcapital investments?\b/i,
    aliases: [
      'capital expenditures', 'capital expenditure', 'purchases of property plant and equipment', 'purchase of property plant and equipment',
      'purchases of property and equipment', 'purchase of property and equipment', 'additions to property plant and equipment',
      'additions to property and equipment', 'payments for property plant and equipment', 'payments for property and equipment',
      'capital spending', 'expenditures for property', 'acquisition of property plant and equipment', 'acquisitions of property plant and equipment',
      'purchases of fixed assets', 'purchase of fixed assets', 'investments in property plant and equipment',
    ],
    outflow: true,
  },
  {
    name: 'revenue',
    trigger: /\b(?:total |net )?revenues?\b|\b(?:net |total )?sales\b|\btop ?line\b|\bturnover\b/i,
    aliases: ['total revenues', 'total revenue', 'net revenues', 'net revenue', 'revenues', 'revenue', 'net sales', 'total net sales', 'sales', 'turnover'],
  },
  {
    name: 'cost of goods sold',
    trigger: /\bcost of (?:goods sold|sales|revenues?|products sold)\b|\bcogs\b/i,
    aliases: ['cost of goods sold', 'cost of sales', 'cost of revenue', 'cost of revenues', 'cost of products sold', 'cost of goods and services sold'],
  },
  { name: 'gross profit', trigger: /\bgross (?:profit|margin)\b/i, aliases: ['gross profit', 'gross margin'] },
  {
    name: 'operating income',
    trigger: /\boperating (?:income|profit)\b|\bincome from operations\b|\bebit\b/i,
    aliases: ['operating income', 'operating profit', 'income from operations', 'operating income loss'],
  },
  {
    name: 'operating expenses',
    trigger: /\boperating expenses\b|\bopex\b|\btotal operating costs\b/i,
    aliases: ['total operating expenses', 'operating expenses', 'total operating costs and expenses', 'operating costs'],
  },
  {
    name: 'net income',
    trigger: /\bnet (?:income|earnings|profit)\b|\bprofit after tax\b|\bbottom line\b/i,
    aliases: ['net income', 'net earnings', 'net income attributable', 'net profit', 'profit for the year', 'net income including noncontrolling interest'],
  },
  { name: 'ebitda', trigger: /\bebitda\b/i, aliases: ['adjusted ebitda', 'ebitda'] },
  {
    name: 'depreciation and amortization',
    trigger: /\bdepreciation\b|\bamortization\b|\bd&a\b/i,
    aliases: ['depreciation and amortization', 'depreciation amortization', 'depreciation', 'amortization'],
  },
  {
    name: 'dividends paid',
    trigger: /\bdividends?\b/i,
    aliases: ['dividends paid', 'cash dividends paid', 'payments of dividends', 'dividends paid to shareholders', 'dividends'],
    outflow: true,
  },
  {
    name: 'share repurchases',
    trigger: /\b(?:share|stock) (?:repurchases?|buybacks?)\b|\brepurchases? of (?:common )?(?:stock|shares)\b|\btreasury stock\b/i,
    aliases: ['purchases of treasury stock', 'repurchases of common stock', 'repurchase of common stock', 'purchases of common stock', 'share repurchases', 'treasury stock purchases'],
    outflow: true,
  },
  {
    name: 'operating cash flow',
    trigger: /\b(?:cash flows? from|cash provided by|cash from) operati(?:ng|ons)\b|\boperating cash flows?\b/i,
    aliases: ['net cash provided by operating activities', 'net cash from operating activities', 'cash provided by operations', 'net cash provided by operations', 'cash flows from operating activities'],
  },
  {
    name: 'investing cash flow',
    trigger: /\bcash (?:flows? )?(?:used in|from|provided by) investing\b|\binvesting cash flows?\b/i,
    aliases: ['net cash used in investing activities', 'net cash provided by used in investing activities', 'net cash from investing activities'],
  },
  {
    name: 'financing cash flow',
    trigger: /\bcash (?:flows? )?(?:used in|from|provided by) financing\b|\bfinancing cash flows?\b/i,
    aliases: ['net cash used in financing activities', 'net cash provided by used in financing activities', 'net cash from financing activities'],
  },
  { name: 'free cash flow', trigger: /\bfree cash flows?\b|\bfcf\b/i, aliases: ['free cash flow'] },
  {
    name: 'net property plant and equipment',
    trigger: /\bnet (?:pp&e|ppne|property,? plant,? (?:and|&) equipment|fixed assets)\b|\b(?:pp&e|ppne|property,? plant,? (?:and|&) equipment),? net\b/i,
    aliases: [
      'property plant and equipment net', 'property and equipment net', 'net property plant and equipment', 'net property and equipment',
      'property plant and equipment less accumulated depreciation', 'total property plant and equipment net',
    ],
  },
  { name: 'total assets', trigger: /\btotal assets\b/i, aliases: ['total assets'] },
  { name: 'total liabilities', trigger: /\btotal liabilities\b/i, aliases: ['total liabilities'] },
  { name: 'current assets', trigger: /\b(?:total )?current assets\b/i, aliases: ['total current assets', 'current assets'] },
  { name: 'current liabilities', trigger: /\b(?:total )?current liabilities\b/i, aliases: ['total current liabilities', 'current liabilities'] },
  {
    name: 'shareholders equity',
    trigger: /\b(?:share|stock)holders'? equity\b|\btotal equity\b|\bbook value\b|\bshareholders'? funds\b/i,
    aliases: ['total shareholders equity', 'total stockholders equity', 'total equity', 'shareholders equity', 'stockholders equity', 'shareholders funds'],
  },
  { name: 'inventory', trigger: /\binventor(?:y|ies)\b/i, aliases: ['inventories', 'inventory', 'total inventories', 'merchandise inventories'] },
  { name: 'accounts receivable', trigger: /\b(?:accounts |trade )?receivables?\b|\ba\/r\b/i, aliases: ['accounts receivable', 'trade receivables', 'accounts receivable net', 'receivables'] },
  { name: 'accounts payable', trigger: /\b(?:accounts |trade )?payables?\b|\ba\/p\b/i, aliases: ['accounts payable', 'trade payables', 'trade accounts payable'] },
  {
    name: 'long-term debt',
    trigger: /\blong[- ]term debt\b|\btotal debt\b|\bborrowings\b/i,
    aliases: ['long-term debt', 'long term debt', 'total long-term debt', 'long-term borrowings', 'total debt', 'borrowings'],
  },
  { name: 'cash', trigger: /\bcash and (?:cash )?equivalents\b/i, aliases: ['cash and cash equivalents', 'cash and equivalents'] },
  {
    name: 'earnings per share',
    trigger: /\bearnings per share\b|\beps\b/i,
    aliases: ['earnings per share', 'diluted earnings per share', 'basic earnings per share', 'net income per share', 'earnings per common share'],
  },
  { name: 'research and development', trigger: /\br&d\b|\bresearch and development\b/i, aliases: ['research and development', 'research development and engineering'] },
  {
    name: 'selling general and administrative',
    trigger: /\bsg&a\b|\bselling,? general,? and administrative\b/i,
    aliases: ['selling general and administrative', 'selling general and administrative expenses'],
  },
  { name: 'interest expense', trigger: /\binterest expense\b/i, aliases: ['interest expense', 'interest expense net'] },
  {
    name: 'income tax',
    trigger: /\bincome tax(?:es)?\b|\btax expense\b|\btax provision\b/i,
    aliases: ['provision for income taxes', 'income tax expense', 'income taxes', 'provision for taxes on income', 'income tax provision'],
  },
  {
    name: 'employees',
    trigger: /\bemployees\b|\bheadcount\b|\bworkforce\b|\bstaff\b|\bhow many people (?:did|does|do|were|are) (?:\w+ ){0,3}employ/i,
    aliases: ['employees', 'full-time employees', 'headcount', 'workforce', 'employed'],
    general: true,
  },
];

/** Default concept list of every consumer (the router, the lanes, the reader). */
export const DEFAULT_CONCEPTS: readonly Concept[] = FINANCIAL_CONCEPTS;

const ABBREVIATION_PATTERNS: ReadonlyArray<[RegExp, string]> = Object.entries(ABBREVIATIONS)
  .filter(([short, long]) => short !== long)
  .map(([short, long]) => [new RegExp(` ${short.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} `, 'g'), ` ${long} `]);

/**
 * Lower case, punctuation-free word sequence (with `&` kept inside words) used to compare labels with aliases;
 * parenthesised remarks are dropped and abbreviations written out (`PP&E` → `property plant and equipment`).
 * The result starts and ends with a space so that `includes(' word ')` matches whole words.
 */
export function normalizeLabel(text: string): string {
  let norm = ` ${text
    .toLowerCase()
    .replace(/[’']/g, '')
    .replace(/\([^)]*\)/g, ' ')
    .replace(/[^a-z0-9&/]+/g, ' ')
    .replace(/(?<![a-z])\/|\/(?![a-z])/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()} `;
  for (const [pattern, long] of ABBREVIATION_PATTERNS) {
    pattern.lastIndex = 0;
    norm = norm.replace(pattern, long);
  }
  return norm.replace(/\s+/g, ' ');
}

const normalizedAliases = new WeakMap<Concept, string[]>();
function aliasesOf(concept: Concept): string[] {
  let cached = normalizedAliases.get(concept);
  if (!cached) {
    cached = concept.aliases.map(normalizeLabel);
    normalizedAliases.set(concept, cached);
  }
  return cached;
}

/**
 * Concepts a question (or any phrase) names: by its trigger wording, or by writing one of its aliases (abbreviations
 * written out), so "purchases of PP&E" names capital expenditure as much as "capex" does.
 */
export function conceptsIn(text: string, concepts: readonly Concept[] = DEFAULT_CONCEPTS): Concept[] {
  return namedConcepts(text, concepts).map((n) => n.concept);
}

/** A concept a text names and the words that named it. */
export interface NamedConcept {
  concept: Concept;
  /** The words of the text (or, for an alias, the normalised alias) that named the concept. */
  phrase: string;
}

/**
 * The concepts a text names ({@link conceptsIn}) with the words that named each: the trigger's match in the text,
 * else the alias found in its normalised form. Scorers treat those words as covered where evidence names the
 * concept in its own words.
 */
export function namedConcepts(text: string, concepts: readonly Concept[] = DEFAULT_CONCEPTS): NamedConcept[] {
  const norm = normalizeLabel(text);
  const out: NamedConcept[] = [];
  for (const concept of concepts) {
    const m = concept.trigger.exec(text) ?? concept.trigger.exec(norm);
    if (m) {
      out.push({ concept, phrase: m[0] });
      continue;
    }
    const alias = aliasesOf(concept).find((a) => norm.includes(a));
    if (alias) out.push({ concept, phrase: alias.trim() });
  }
  return out;
}

/**
 * How well a label (row label, sentence) names one of the concepts: 1 when it starts with an alias, 0.8 when it
 * contains one, 0 otherwise; the best over concepts, with the concept that matched.
 */
export function conceptMatch(label: string, concepts: readonly Concept[]): { score: number; concept?: Concept } {
  const norm = normalizeLabel(label);
  let best: { score: number; concept?: Concept } = { score: 0 };
  for (const concept of concepts) {
    for (const a of aliasesOf(concept)) {
      const at = norm.indexOf(a);
      if (at < 0) continue;
      const score = at === 0 ? 1 : 0.8;
      if (score > best.score) best = { score, concept };
    }
  }
  return best;
}

/** A normalised phrase with every word's plural `s` dropped (`capital expenditures` ≡ `capital expenditure`). */
function singularKey(norm: string): string {
  return norm.replace(/(?<=[a-z]{3})s(?= )/g, '');
}

/** Options of {@link conceptQueryTerms}. */
export interface ConceptQueryTermsOptions {
  /** Concepts to know. Default {@link DEFAULT_CONCEPTS}. */
  concepts?: readonly Concept[];
  /** Most aliases added per concept named. Default 2. */
  aliasesPerConcept?: number;
}

/**
 * Search terms that rewrite a question in the words documents use (query expansion): the written-out forms of the
 * abbreviations it uses (`PP&E` → `property plant and equipment`) and, per concept it names, the first aliases it does
 * not already write ("capex" → `purchases of property plant and equipment`, `additions to property plant and
 * equipment`). Lower case, without duplicates; empty when the question names nothing known.
 *
 * @example
 * ```ts
 * conceptQueryTerms('What was FY2018 capex?'); // ['capital expenditures', 'purchases of property plant and equipment']
 * ```
 */
export function conceptQueryTerms(question: string, options: ConceptQueryTermsOptions = {}): string[] {
  const concepts = options.concepts ?? DEFAULT_CONCEPTS;
  const perConcept = options.aliasesPerConcept ?? 2;
  const raw = ` ${question.toLowerCase().replace(/[^a-z0-9&/]+/g, ' ')} `;
  const questionKey = singularKey(raw);
  const out: string[] = [];
  const keys: string[] = [];
  /** Adds a term unless the question or an earlier term already says it (singular / plural alike). */
  const add = (term: string): boolean => {
    const t = term.trim();
    const key = singularKey(` ${t} `);
    if (!t || raw.includes(` ${t} `) || questionKey.includes(key) || keys.includes(key)) return false;
    out.push(t);
    keys.push(key);
    return true;
  };
  for (const [short, long] of Object.entries(ABBREVIATIONS)) if (short !== long && raw.includes(` ${short} `)) add(long);
  for (const concept of conceptsIn(question, concepts)) {
    let added = 0;
    for (const alias of aliasesOf(concept)) {
      if (added >= perConcept) break;
      if (add(alias)) added++;
    }
  }
  return out;
}

/**
 * The phrase with each concept it names also written in the concept's aliases: the phrase itself first, then one
 * variant per alias (the words that named the concept replaced by the alias), at most `limit`. Lets term-overlap
 * scorers (table row labels, headers) match a line item written differently from the question.
 */
export function conceptVariants(text: string, concepts: readonly Concept[] = DEFAULT_CONCEPTS, limit = 24): string[] {
  const out = [text];
  for (const concept of conceptsIn(text, concepts)) {
    const m = concept.trigger.exec(text);
    for (const alias of concept.aliases) {
      if (out.length >= limit) return out;
      const variant = m ? `${text.slice(0, m.index)}${alias}${text.slice(m.index + m[0].length)}` : `${text} ${alias}`;
      if (!out.includes(variant)) out.push(variant);
    }
  }
  return out;
}

/** Line items that are cash outflows by their wording (shown as negatives in cash-flow statements). */
const OUTFLOW_LABEL = /^\s*(?:purchases?|payments?|repurchases?|acquisitions?|additions?|capital expenditures?|dividends paid|cash paid|repayments?)\b/i;

/**
 * True when a row label names a cash outflow — by its wording (`Purchases of…`, `Payments for…`, `Dividends paid`) or
 * as an outflow concept (capital expenditure, dividends, share repurchases). Such amounts are shown as negatives
 * (`(1,577)`); "what was the amount" means their magnitude.
 */
export function isOutflowLabel(label: string, concepts: readonly Concept[] = DEFAULT_CONCEPTS): boolean {
  return OUTFLOW_LABEL.test(label) || conceptMatch(label, concepts.filter((c) => c.outflow)).score > 0;
}
