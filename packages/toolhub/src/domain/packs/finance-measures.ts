import type { DomainPackInput } from '@doctree/schema';

type MeasureInput = NonNullable<DomainPackInput['measures']>[number];

/**
 * Named measures of financial analysis, with their textbook definitions over the finance pack's concepts. A question
 * that names one without defining it ("the quick ratio for FY2022") is answered by computing it; a question that
 * defines its own formula keeps its own.
 *
 * Conventions, chosen per measure as analysis textbooks state them:
 * - Margins, shares of revenue or assets (capex, R&D), returns and the effective tax rate are percentages; turnovers,
 *   coverage and balance-sheet ratios are plain ratios ("times"); day counts use a 365-day year.
 * - A flow (revenue, income, cash flow) is the year asked; a balance of a liquidity or leverage ratio is the year-end
 *   balance of the year asked.
 * - The denominator of a turnover, a day count or a return (ROA, ROE) is the *average* balance: the mean of the year-end
 *   balances of the year asked and the year before (`reduce: "average"`).
 * - The quick ratio is (current assets − inventories) / current liabilities; the debt ratio is total liabilities /
 *   total assets, while debt-to-equity, debt-to-assets and cash flow to debt use total debt (borrowings).
 * - EBITDA of the EBITDA margin is operating income + depreciation and amortization.
 * Figures companies define for themselves (free cash flow, adjusted EBITDA, net debt) are not measures here: they are
 * concepts, read as the document states them.
 */
export const FINANCE_MEASURES: MeasureInput[] = [
  {
    name: 'gross margin',
    aliases: ['gross margin', 'gross profit margin', 'gross margin ratio', 'gross margin percentage'],
    formula: 'A / B',
    operands: [{ name: 'A', item: 'gross profit' }, { name: 'B', item: 'revenue' }],
    percent: true,
    description: 'Gross profit / revenue of the year, in percent.',
  },
  {
    name: 'operating margin',
    aliases: ['operating margin', 'operating profit margin', 'operating income margin', 'ebit margin'],
    formula: 'A / B',
    operands: [{ name: 'A', item: 'operating income' }, { name: 'B', item: 'revenue' }],
    percent: true,
    description: 'Operating income / revenue of the year, in percent.',
  },
  {
    name: 'net profit margin',
    aliases: ['net profit margin', 'net margin', 'net income margin', 'profit margin', 'return on sales', 'return on revenue'],
    formula: 'A / B',
    operands: [{ name: 'A', item: 'net income' }, { name: 'B', item: 'revenue' }],
    percent: true,
    description: 'Net income / revenue of the year, in percent.',
  },
  {
    name: 'ebitda margin',
    aliases: ['ebitda margin'],
    formula: '(A + B) / C',
    operands: [{ name: 'A', item: 'operating income' }, { name: 'B', item: 'depreciation and amortization' }, { name: 'C', item: 'revenue' }],
    percent: true,
    description: '(Operating income + depreciation and amortization) / revenue of the year, in percent.',
  },
  {
    name: 'return on assets',
    aliases: ['return on assets', 'return on total assets', 'return on average assets', 'roa'],
    formula: 'A / B',
    operands: [{ name: 'A', item: 'net income' }, { name: 'B', item: 'total assets', reduce: 'average' }],
    percent: true,
    description: 'Net income of the year / average total assets (year-end balances of the year and the year before), in percent.',
  },
  {
    name: 'return on equity',
    aliases: ['return on equity', 'return on average equity', 'roe'],
    triggers: [String.raw`\breturn on (?:average )?(?:total )?(?:share|stock)holders['’]? equity\b`],
    formula: 'A / B',
    operands: [{ name: 'A', item: 'net income' }, { name: 'B', item: 'shareholders equity', reduce: 'average' }],
    percent: true,
    description: "Net income of the year / average shareholders' equity (year-end balances of the year and the year before), in percent.",
  },
  {
    name: 'current ratio',
    aliases: ['current ratio', 'working capital ratio'],
    formula: 'A / B',
    operands: [{ name: 'A', item: 'current assets' }, { name: 'B', item: 'current liabilities' }],
    description: 'Current assets / current liabilities at the year end.',
  },
  {
    name: 'quick ratio',
    aliases: ['quick ratio', 'acid test ratio', 'acid test'],
    formula: '(A - B) / C',
    operands: [{ name: 'A', item: 'current assets' }, { name: 'B', item: 'inventory' }, { name: 'C', item: 'current liabilities' }],
    description: '(Current assets − inventories) / current liabilities at the year end.',
  },
  {
    name: 'cash ratio',
    aliases: ['cash ratio'],
    formula: 'A / B',
    operands: [{ name: 'A', item: 'cash' }, { name: 'B', item: 'current liabilities' }],
    description: 'Cash and cash equivalents / current liabilities at the year end.',
  },
  {
    name: 'operating cash flow ratio',
    aliases: ['operating cash flow ratio', 'cash flow from operations ratio', 'cash flow ratio'],
    formula: 'A / B',
    operands: [{ name: 'A', item: 'operating cash flow' }, { name: 'B', item: 'current liabilities' }],
    description: 'Net cash from operating activities of the year / current liabilities at the year end.',
  },
  {
    name: 'debt to equity',
    aliases: ['debt to equity', 'debt equity ratio', 'd/e ratio', 'gearing ratio'],
    formula: 'A / B',
    operands: [{ name: 'A', item: 'long-term debt' }, { name: 'B', item: 'shareholders equity' }],
    description: "Total debt (borrowings) / shareholders' equity at the year end.",
  },
  {
    name: 'debt ratio',
    aliases: ['debt ratio', 'liabilities to assets', 'total liabilities to total assets'],
    formula: 'A / B',
    operands: [{ name: 'A', item: 'total liabilities' }, { name: 'B', item: 'total assets' }],
    description: 'Total liabilities / total assets at the year end.',
  },
  {
    name: 'debt to assets',
    aliases: ['debt to assets', 'debt to asset', 'debt to total assets'],
    formula: 'A / B',
    operands: [{ name: 'A', item: 'long-term debt' }, { name: 'B', item: 'total assets' }],
    description: 'Total debt (borrowings) / total assets at the year end.',
  },
  {
    name: 'debt to capital',
    aliases: ['debt to capital', 'debt to capitalization', 'debt to total capital'],
    formula: 'A / (A + B)',
    operands: [{ name: 'A', item: 'long-term debt' }, { name: 'B', item: 'shareholders equity' }],
    description: "Total debt / (total debt + shareholders' equity) at the year end.",
  },
  {
    name: 'asset turnover',
    aliases: ['asset turnover', 'assets turnover', 'total asset turnover', 'total assets turnover'],
    formula: 'A / B',
    operands: [{ name: 'A', item: 'revenue' }, { name: 'B', item: 'total assets', reduce: 'average' }],
    description: 'Revenue of the year / average total assets (year-end balances of the year and the year before).',
  },
  {
    name: 'fixed asset turnover',
    aliases: ['fixed asset turnover', 'fixed assets turnover', 'ppe turnover', 'pp&e turnover'],
    formula: 'A / B',
    operands: [{ name: 'A', item: 'revenue' }, { name: 'B', item: 'net property plant and equipment', reduce: 'average' }],
    description: 'Revenue of the year / average net property, plant and equipment (year-end balances of the year and the year before).',
  },
  {
    name: 'inventory turnover',
    aliases: ['inventory turnover', 'inventory turns', 'stock turnover'],
    formula: 'A / B',
    operands: [{ name: 'A', item: 'cost of goods sold' }, { name: 'B', item: 'inventory', reduce: 'average' }],
    description: 'Cost of goods sold of the year / average inventories (year-end balances of the year and the year before).',
  },
  {
    name: 'receivables turnover',
    aliases: ['receivables turnover', 'receivable turnover', 'accounts receivable turnover'],
    formula: 'A / B',
    operands: [{ name: 'A', item: 'revenue' }, { name: 'B', item: 'accounts receivable', reduce: 'average' }],
    description: 'Revenue of the year / average accounts receivable (year-end balances of the year and the year before).',
  },
  {
    name: 'days sales outstanding',
    aliases: ['days sales outstanding', 'days sales in receivables', 'average collection period', 'dso'],
    formula: '365 * A / B',
    operands: [{ name: 'A', item: 'accounts receivable', reduce: 'average' }, { name: 'B', item: 'revenue' }],
    description: '365 × average accounts receivable / revenue of the year, in days (365 / receivables turnover).',
  },
  {
    name: 'days inventory outstanding',
    aliases: ['days inventory outstanding', 'days sales of inventory', 'days sales in inventory', 'days in inventory', 'days inventory on hand', 'dio', 'dsi'],
    formula: '365 * A / B',
    operands: [{ name: 'A', item: 'inventory', reduce: 'average' }, { name: 'B', item: 'cost of goods sold' }],
    description: '365 × average inventories / cost of goods sold of the year, in days (365 / inventory turnover).',
  },
  {
    name: 'days payables outstanding',
    aliases: ['days payables outstanding', 'days payable outstanding', 'dpo'],
    formula: '365 * A / B',
    operands: [{ name: 'A', item: 'accounts payable', reduce: 'average' }, { name: 'B', item: 'cost of goods sold' }],
    description: '365 × average accounts payable / cost of goods sold of the year, in days.',
  },
  {
    name: 'interest coverage',
    aliases: ['interest coverage', 'times interest earned', 'interest cover'],
    formula: 'A / B',
    operands: [{ name: 'A', item: 'operating income' }, { name: 'B', item: 'interest expense' }],
    description: 'Operating income (EBIT) / interest expense of the year.',
  },
  {
    name: 'cash flow to debt',
    aliases: ['cash flow to debt', 'cash flow to total debt', 'operating cash flow to debt', 'operating cash flow to total debt'],
    formula: 'A / B',
    operands: [{ name: 'A', item: 'operating cash flow' }, { name: 'B', item: 'long-term debt' }],
    description: 'Net cash from operating activities of the year / total debt (borrowings) at the year end.',
  },
  {
    name: 'effective tax rate',
    aliases: ['effective tax rate', 'effective income tax rate'],
    formula: 'A / B',
    operands: [{ name: 'A', item: 'income tax' }, { name: 'B', item: 'income before taxes' }],
    percent: true,
    description: 'Income tax expense / income before income taxes of the year, in percent.',
  },
  {
    name: 'capital expenditure to revenue',
    aliases: ['capex to revenue', 'capex to revenues', 'capex to sales', 'capex intensity', 'capital expenditure to revenue', 'capital expenditures to revenue', 'capital expenditure to sales', 'capital expenditures to sales'],
    formula: 'A / B',
    operands: [{ name: 'A', item: 'capital expenditure' }, { name: 'B', item: 'revenue' }],
    percent: true,
    description: 'Capital expenditures / revenue of the year, in percent.',
  },
  {
    name: 'research and development to revenue',
    aliases: ['r&d to revenue', 'r&d to revenues', 'r&d to sales', 'r&d intensity', 'research and development to revenue', 'research and development to sales', 'research and development intensity'],
    formula: 'A / B',
    operands: [{ name: 'A', item: 'research and development' }, { name: 'B', item: 'revenue' }],
    percent: true,
    description: 'Research and development expense / revenue of the year, in percent.',
  },
  {
    name: 'research and development to assets',
    aliases: ['r&d to assets', 'r&d to asset', 'r&d to total assets', 'research and development to assets', 'research and development to total assets'],
    formula: 'A / B',
    operands: [{ name: 'A', item: 'research and development' }, { name: 'B', item: 'total assets' }],
    percent: true,
    description: 'Research and development expense of the year / total assets at the year end, in percent.',
  },
  {
    name: 'dividend payout ratio',
    aliases: ['dividend payout ratio', 'payout ratio', 'dividend payout'],
    formula: 'A / B',
    operands: [{ name: 'A', item: 'dividends paid' }, { name: 'B', item: 'net income' }],
    percent: true,
    description: 'Dividends paid / net income of the year, in percent.',
  },
  {
    name: 'working capital',
    aliases: ['working capital', 'net working capital'],
    formula: 'A - B',
    operands: [{ name: 'A', item: 'current assets' }, { name: 'B', item: 'current liabilities' }],
    description: 'Current assets − current liabilities at the year end (an amount).',
  },
];
