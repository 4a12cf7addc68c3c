import type { DomainPackInput } from '@doctree/schema';

import { FINANCE_MEASURES } from './finance-measures.js';

/**
 * The finance domain pack: company reports (10-K, 10-Q, annual reports, earnings releases) — reporting concepts and
 * the line-item wordings documents use for them, the abbreviations of financial writing, the financial statements
 * and the rows they hold, the words of reported quantities, outflow row labels, named measures (ratios, margins,
 * turnovers: `FINANCE_MEASURES`) and how such a document reads on its first pages. Plain data, validated by `DomainPackSchema` at load (patterns are regular-expression source strings).
 * General financial knowledge only — no entry exists for one document or one question.
 */
export const FINANCE_PACK: DomainPackInput = {
  format: 'doctree.domain-pack',
  version: 1,
  name: 'finance',
  description: 'Company reports: 10-K, 10-Q, annual reports, earnings releases.',
  extends: 'generic',
  abbreviations: [
    { short: 'pp&e', long: 'property plant and equipment' },
    { short: 'r&d', long: 'research and development' },
    { short: 'sg&a', long: 'selling general and administrative' },
    { short: 'g&a', long: 'general and administrative' },
    { short: 'd&a', long: 'depreciation and amortization' },
    { short: 'm&a', long: 'mergers and acquisitions' },
    { short: 'capex', long: 'capital expenditures' },
    { short: 'opex', long: 'operating expenses' },
    { short: 'cogs', long: 'cost of goods sold' },
    { short: 'eps', long: 'earnings per share' },
    { short: 'fcf', long: 'free cash flow' },
    { short: 'a/r', long: 'accounts receivable' },
    { short: 'a/p', long: 'accounts payable' },
    { short: 'roe', long: 'return on equity' },
    { short: 'roa', long: 'return on assets' },
    { short: 'roic', long: 'return on invested capital' },
    { short: 'p&l', long: 'profit and loss' },
  ],
  concepts: [
    {
      name: 'capital expenditure',
      triggers: [String.raw`\bcapital expenditures?\b|\bcapex\b|\bcapital spending\b|\bcapital investments?\b`],
      aliases: ['capital expenditures', 'capital expenditure', 'purchases of property plant and equipment', 'purchase of property plant and equipment', 'purchases of property and equipment', 'purchase of property and equipment', 'additions to property plant and equipment', 'additions to property and equipment', 'payments for property plant and equipment', 'payments for property and equipment', 'capital spending', 'expenditures for property', 'acquisition of property plant and equipment', 'acquisitions of property plant and equipment', 'purchases of fixed assets', 'purchase of fixed assets', 'investments in property plant and equipment'],
      outflow: true,
    },
    {
      name: 'revenue',
      triggers: [String.raw`\b(?:total |net )?revenues?\b|\b(?:net |total )?sales\b|\btop ?line\b|\bturnover\b`],
      aliases: ['total revenues', 'total revenue', 'net revenues', 'net revenue', 'revenues', 'revenue', 'net sales', 'total net sales', 'sales', 'turnover'],
    },
    {
      name: 'cost of goods sold',
      triggers: [String.raw`\bcost of (?:goods sold|sales|revenues?|products sold)\b|\bcogs\b`],
      aliases: ['cost of goods sold', 'cost of sales', 'cost of revenue', 'cost of revenues', 'cost of products sold', 'cost of goods and services sold'],
      outflow: true,
    },
    {
      name: 'gross profit',
      triggers: [String.raw`\bgross (?:profit|margin)\b`],
      aliases: ['gross profit', 'gross margin'],
    },
    {
      name: 'operating income',
      triggers: [String.raw`\boperating (?:income|profit)\b|\bincome from operations\b|\bebit\b`],
      aliases: ['operating income', 'operating profit', 'income from operations', 'operating income loss'],
    },
    {
      name: 'operating expenses',
      triggers: [String.raw`\boperating expenses\b|\bopex\b|\btotal operating costs\b`],
      aliases: ['total operating expenses', 'operating expenses', 'total operating costs and expenses', 'operating costs'],
    },
    {
      name: 'net income',
      triggers: [String.raw`\bnet (?:income|earnings|profit)\b|\bprofit after tax\b|\bbottom line\b`],
      aliases: ['net income', 'net earnings', 'net income attributable', 'net profit', 'profit for the year', 'net income including noncontrolling interest'],
    },
    {
      name: 'ebitda',
      triggers: [String.raw`\bebitda\b`],
      aliases: ['adjusted ebitda', 'ebitda'],
    },
    {
      name: 'depreciation and amortization',
      triggers: [String.raw`\bdepreciation\b|\bamortization\b|\bd&a\b`],
      aliases: ['depreciation and amortization', 'depreciation amortization', 'depreciation', 'amortization'],
    },
    {
      name: 'dividends paid',
      triggers: [String.raw`\bdividends?\b`],
      aliases: ['dividends paid', 'cash dividends paid', 'payments of dividends', 'dividends paid to shareholders', 'dividends'],
      outflow: true,
    },
    {
      name: 'share repurchases',
      triggers: [String.raw`\b(?:share|stock) (?:repurchases?|buybacks?)\b|\brepurchases? of (?:common )?(?:stock|shares)\b|\btreasury stock\b`],
      aliases: ['purchases of treasury stock', 'repurchases of common stock', 'repurchase of common stock', 'purchases of common stock', 'share repurchases', 'treasury stock purchases'],
      outflow: true,
    },
    {
      name: 'operating cash flow',
      triggers: [String.raw`\b(?:cash flows? from|cash provided by|cash from) operati(?:ng|ons)\b|\boperating cash flows?\b`],
      aliases: ['net cash provided by operating activities', 'net cash from operating activities', 'cash provided by operations', 'net cash provided by operations', 'cash flows from operating activities'],
    },
    {
      name: 'investing cash flow',
      triggers: [String.raw`\bcash (?:flows? )?(?:used in|from|provided by) investing\b|\binvesting cash flows?\b`],
      aliases: ['net cash used in investing activities', 'net cash provided by used in investing activities', 'net cash from investing activities'],
    },
    {
      name: 'financing cash flow',
      triggers: [String.raw`\bcash (?:flows? )?(?:used in|from|provided by) financing\b|\bfinancing cash flows?\b`],
      aliases: ['net cash used in financing activities', 'net cash provided by used in financing activities', 'net cash from financing activities'],
    },
    {
      name: 'free cash flow',
      triggers: [String.raw`\bfree cash flows?\b|\bfcf\b`],
      aliases: ['free cash flow'],
    },
    {
      name: 'net property plant and equipment',
      triggers: [String.raw`\bnet (?:pp&e|property,? plant,? (?:and|&) equipment|fixed assets)\b|\b(?:pp&e|property,? plant,? (?:and|&) equipment),? net\b`],
      aliases: ['property plant and equipment net', 'property and equipment net', 'net property plant and equipment', 'net property and equipment', 'property plant and equipment less accumulated depreciation', 'total property plant and equipment net'],
    },
    {
      name: 'total assets',
      triggers: [String.raw`\btotal assets\b`],
      aliases: ['total assets'],
    },
    {
      name: 'total liabilities',
      triggers: [String.raw`\btotal liabilities\b`],
      aliases: ['total liabilities'],
    },
    {
      name: 'current assets',
      triggers: [String.raw`\b(?:total )?current assets\b`],
      aliases: ['total current assets', 'current assets'],
    },
    {
      name: 'current liabilities',
      triggers: [String.raw`\b(?:total )?current liabilities\b`],
      aliases: ['total current liabilities', 'current liabilities'],
    },
    {
      name: 'shareholders equity',
      triggers: [String.raw`\b(?:share|stock)holders'? equity\b|\btotal equity\b|\bbook value\b|\bshareholders'? funds\b`],
      aliases: ['total shareholders equity', 'total stockholders equity', 'total equity', 'shareholders equity', 'stockholders equity', 'shareholders funds'],
    },
    {
      name: 'inventory',
      triggers: [String.raw`\binventor(?:y|ies)\b`],
      aliases: ['inventories', 'inventory', 'total inventories', 'merchandise inventories'],
    },
    {
      name: 'accounts receivable',
      triggers: [String.raw`\b(?:accounts |trade )?receivables?\b|\ba\/r\b`],
      aliases: ['accounts receivable', 'trade receivables', 'accounts receivable net', 'receivables'],
    },
    {
      name: 'accounts payable',
      triggers: [String.raw`\b(?:accounts |trade )?payables?\b|\ba\/p\b`],
      aliases: ['accounts payable', 'trade payables', 'trade accounts payable'],
    },
    {
      name: 'long-term debt',
      triggers: [String.raw`\blong[- ]term debt\b|\btotal debt\b|\bborrowings\b`],
      aliases: ['long-term debt', 'long term debt', 'total long-term debt', 'long-term borrowings', 'total debt', 'borrowings'],
    },
    {
      name: 'cash',
      triggers: [String.raw`\bcash and (?:cash )?equivalents\b`],
      aliases: ['cash and cash equivalents', 'cash and equivalents'],
    },
    {
      name: 'earnings per share',
      triggers: [String.raw`\bearnings per share\b|\beps\b`],
      aliases: ['earnings per share', 'diluted earnings per share', 'basic earnings per share', 'net income per share', 'earnings per common share'],
    },
    {
      name: 'research and development',
      triggers: [String.raw`\br&d\b|\bresearch and development\b`],
      aliases: ['research and development', 'research development and engineering'],
      outflow: true,
    },
    {
      name: 'selling general and administrative',
      triggers: [String.raw`\bsg&a\b|\bselling,? general,? and administrative\b`],
      aliases: ['selling general and administrative', 'selling general and administrative expenses'],
      outflow: true,
    },
    {
      name: 'interest expense',
      triggers: [String.raw`\binterest expense\b`],
      aliases: ['interest expense', 'interest expense net'],
      outflow: true,
    },
    {
      name: 'income before taxes',
      triggers: [String.raw`\b(?:income|earnings|profit) (?:\(loss\) )?before (?:provision for )?(?:income )?tax(?:es|ation)?\b|\bpre-?tax (?:income|earnings|profit)\b`],
      aliases: ['income before income taxes', 'income before taxes', 'income loss before income taxes', 'income before provision for income taxes', 'earnings before income taxes', 'profit before tax', 'profit before taxation', 'pretax income', 'pre-tax income'],
    },
    {
      name: 'income tax',
      triggers: [String.raw`\bincome tax(?:es)?\b|\btax expense\b|\btax provision\b`],
      aliases: ['provision for income taxes', 'income tax expense', 'income taxes', 'provision for taxes on income', 'income tax provision'],
    },
  ],
  statements: [
    {
      name: 'cash flow statement',
      triggers: [String.raw`\b(?:cash[\s-]+flows?\s+statements?|statements?\s+of\s+(?:consolidated\s+)?cash\s+flows?)\b`],
      rows: ['statement of cash flows', 'cash flows from operating activities'],
    },
    {
      name: 'balance sheet',
      triggers: [String.raw`\b(?:balance\s+sheets?|statements?\s+of\s+(?:consolidated\s+)?financial\s+(?:position|condition))\b`],
      rows: ['statement of financial position', 'total assets', 'total liabilities'],
    },
    {
      name: 'income statement',
      triggers: [String.raw`\b(?:income\s+statements?|statements?\s+of\s+(?:consolidated\s+)?(?:income|operations|earnings)|profit\s+(?:and|&)\s+loss(?:\s+statement)?|p&l\s+statement|\bp&l\b)`],
      rows: ['statement of operations', 'statement of income', 'net income'],
    },
    {
      name: 'statement of comprehensive income',
      triggers: [String.raw`\bstatements?\s+of\s+(?:consolidated\s+)?comprehensive\s+income\b`],
      rows: ['comprehensive income'],
    },
    {
      name: "statement of shareholders' equity",
      triggers: [String.raw`\bstatements?\s+of\s+(?:consolidated\s+)?(?:stockholders|shareholders|owners)['’]?\s+equity\b`],
      rows: ["stockholders' equity", "shareholders' equity"],
    },
    {
      name: 'notes to the financial statements',
      triggers: [String.raw`\bnotes?\s+to\s+(?:the\s+)?(?:consolidated\s+)?financial\s+statements\b`],
      rows: ['notes to consolidated financial statements'],
    },
  ],
  quantity_terms: [
    String.raw`\b(?:revenues?|net\s+sales|sales|income|earnings|eps|ebitda?|margins?|assets|liabilit(?:y|ies)|equity|cash|capex|capital\s+expenditures?|dividends?|debt|borrowings)(?![a-z])`,
    String.raw`\b(?:expenses?|costs?\s+of|operating|gross|profit|loss|inventor(?:y|ies)|receivables?|payables?|depreciation|amortization|tax(?:es)?|interest|shares?\s+outstanding)(?![a-z])`,
    String.raw`\b(?:buybacks?|repurchases?|free\s+cash\s+flow|working\s+capital|goodwill|impairment|segment|guidance|leverage|liquidity|return\s+on|r&d|research\s+and\s+development)(?![a-z])`,
    String.raw`\b(?:spend(?:ing)?|capital|valuation|market\s+cap(?:italization)?|share\s+price|stock\s+price)(?![a-z])`,
  ],
  outflow_label_words: ['purchase', 'purchases', 'payment', 'payments', 'repurchase', 'repurchases', 'acquisition', 'acquisitions', 'addition', 'additions', 'capital expenditure', 'capital expenditures', 'dividends paid', 'cash paid', 'repayment', 'repayments'],
  amount_words: ['sales', 'revenue', 'revenues'],
  measures: FINANCE_MEASURES,
  detect: {
    phrases: [
      'form 10-k', 'form 10-q', 'annual report', 'quarterly report', 'securities and exchange commission', 'earnings release',
      'consolidated balance sheets', 'consolidated balance sheet', 'consolidated statements of operations', 'consolidated statements of income',
      'statements of cash flows', 'statement of cash flows', 'earnings per share', 'fiscal year ended', 'net income', 'total assets',
      "shareholders' equity", "stockholders' equity", 'financial statements', 'results of operations',
    ],
    min_hits: 2,
    first_pages: 5,
  },
};
