/**
 * Common reporting concepts and the line-item names documents use for them ("capital expenditure" is reported as
 * "Purchases of property, plant and equipment"). General domain knowledge for matching question wording to table
 * rows and sentences; extend it through the reader's `concepts` option.
 */

/** A concept a question may name, with the wordings evidence uses for it. */
export interface Concept {
  /** Short name, recorded in notes. */
  name: string;
  /** Matches the question wording. */
  trigger: RegExp;
  /** Wordings in evidence (lower case; matched on word boundaries, punctuation-insensitive). */
  aliases: readonly string[];
  /** The item is an outflow reported as a negative (parentheses) amount; its magnitude answers "what is the amount". */
  outflow?: boolean;
}

/** Built-in concepts (financial statements, the most common source of numeric questions). */
export const DEFAULT_CONCEPTS: readonly Concept[] = [
  {
    name: 'capital expenditure',
    trigger: /\bcapital expenditures?\b|\bcapex\b|\bcapital spending\b/i,
    aliases: [
      'capital expenditures', 'capital expenditure', 'purchases of property plant and equipment', 'purchase of property plant and equipment',
      'purchases of property and equipment', 'purchase of property and equipment', 'additions to property plant and equipment',
      'additions to property and equipment', 'payments for property plant and equipment', 'payments for property and equipment',
      'capital spending', 'expenditures for property', 'acquisition of property plant and equipment', 'purchases of fixed assets',
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
    name: 'net income',
    trigger: /\bnet (?:income|earnings|profit)\b|\bprofit after tax\b/i,
    aliases: ['net income', 'net earnings', 'net income attributable', 'net profit', 'profit for the year', 'net income including noncontrolling interest'],
  },
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
  {
    name: 'net property plant and equipment',
    trigger: /\bnet (?:pp&e|ppne|ppe|property,? plant,? (?:and|&) equipment|fixed assets)\b|\b(?:pp&e|ppne|property,? plant,? (?:and|&) equipment),? net\b/i,
    aliases: [
      'property plant and equipment net', 'property and equipment net', 'net property plant and equipment', 'net property and equipment',
      'property plant and equipment less accumulated depreciation', 'total property plant and equipment net',
    ],
  },
  { name: 'total assets', trigger: /\btotal assets\b/i, aliases: ['total assets'] },
  { name: 'total liabilities', trigger: /\btotal liabilities\b/i, aliases: ['total liabilities'] },
  {
    name: 'shareholders equity',
    trigger: /\b(?:share|stock)holders'? equity\b|\btotal equity\b|\bbook value\b/i,
    aliases: ["total shareholders equity", "total stockholders equity", 'total equity', "shareholders equity", "stockholders equity"],
  },
  { name: 'inventory', trigger: /\binventor(?:y|ies)\b/i, aliases: ['inventories', 'inventory', 'total inventories'] },
  { name: 'accounts receivable', trigger: /\b(?:accounts |trade )?receivables?\b/i, aliases: ['accounts receivable', 'trade receivables', 'accounts receivable net', 'receivables'] },
  { name: 'accounts payable', trigger: /\b(?:accounts |trade )?payables?\b/i, aliases: ['accounts payable', 'trade payables', 'trade accounts payable'] },
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
  { name: 'research and development', trigger: /\br&d\b|\bresearch and development\b/i, aliases: ['research and development', 'research development and engineering', 'r&d'] },
  {
    name: 'selling general and administrative',
    trigger: /\bsg&a\b|\bselling,? general,? and administrative\b/i,
    aliases: ['selling general and administrative', 'selling general and administrative expenses', 'sg&a'],
  },
  { name: 'interest expense', trigger: /\binterest expense\b/i, aliases: ['interest expense', 'interest expense net'] },
  {
    name: 'income tax',
    trigger: /\bincome tax(?:es)?\b|\btax expense\b|\btax provision\b/i,
    aliases: ['provision for income taxes', 'income tax expense', 'income taxes', 'provision for taxes on income', 'income tax provision'],
  },
  { name: 'employees', trigger: /\bemployees\b|\bheadcount\b|\bworkforce\b/i, aliases: ['employees', 'full-time employees', 'headcount', 'workforce'] },
];

/** Lower case, punctuation and `&`-free word sequence used to compare labels with aliases. */
export function normalizeLabel(text: string): string {
  return ` ${text
    .toLowerCase()
    .replace(/[’']/g, '')
    .replace(/\([^)]*\)/g, ' ')
    .replace(/[^a-z0-9&]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()} `;
}

/** Concepts the question names. */
export function conceptsIn(question: string, concepts: readonly Concept[] = DEFAULT_CONCEPTS): Concept[] {
  return concepts.filter((c) => c.trigger.test(question));
}

/**
 * How well a label (row label, sentence) names one of the concepts: 1 when it starts with an alias, 0.8 when it
 * contains one, 0 otherwise; the best over concepts, with the concept that matched.
 */
export function conceptMatch(label: string, concepts: readonly Concept[]): { score: number; concept?: Concept } {
  const norm = normalizeLabel(label);
  let best: { score: number; concept?: Concept } = { score: 0 };
  for (const concept of concepts) {
    for (const alias of concept.aliases) {
      const a = normalizeLabel(alias);
      const at = norm.indexOf(a);
      if (at < 0) continue;
      const score = at === 0 ? 1 : 0.8;
      if (score > best.score) best = { score, concept };
    }
  }
  return best;
}
