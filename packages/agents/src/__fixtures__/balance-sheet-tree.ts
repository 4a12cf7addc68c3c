import { buildFixtureTree } from '@doctree/index/testing';
import type { DocTree } from '@doctree/schema';

const table = (rows: string[][]): { html: string; header_rows: number; rows: string[][] } => ({ html: '', header_rows: 1, rows });
const text = (rows: string[][]): string => rows.map((r) => r.join(' | ')).join('\n');

/** A summary of working capital: its "Total current liabilities" row is not total liabilities. */
export const WORKING_CAPITAL_ROWS = [
  ['(Millions)', '2023', '2022'],
  ['Total current assets', '5,000', '4,400'],
  ['Total current liabilities', '2,500', '2,000'],
  ['Working capital', '2,500', '2,400'],
];

/** A balance sheet in millions, two year ends. */
export const BALANCE_SHEET_ROWS = [
  ['(Millions)', '2023', '2022'],
  ['Cash and cash equivalents', '1,000', '900'],
  ['Total current assets', '5,000', '4,400'],
  ['Property, plant and equipment, net', '3,000', '2,800'],
  ['Total assets', '12,000', '10,000'],
  ['Total current liabilities', '2,500', '2,000'],
  ['Long-term debt', '4,000', '3,500'],
  ['Total liabilities', '7,000', '6,000'],
  ["Total shareholders' equity", '5,000', '4,000'],
  ["Total liabilities and shareholders' equity", '12,000', '10,000'],
];

/** An income statement in millions, two years. */
export const INCOME_ROWS = [
  ['(Millions)', '2023', '2022'],
  ['Net sales', '20,000', '16,000'],
  ['Cost of sales', '(12,000)', '(10,000)'],
  ['Net income', '1,100', '900'],
];

/**
 * A small 10-K: p.1 a working-capital summary (`tab_1`), p.2 the balance sheet (`tab_2`), p.3 the income statement
 * (`tab_3`), each under its own section with a paragraph.
 */
export function balanceSheetTree(): DocTree {
  return buildFixtureTree({ doc_id: 'contoso-2023', title: 'Contoso Annual Report 2023', page_count: 3 }, [
    { node_id: 'sec_0', role: 'document', parent: null, title: 'Contoso Annual Report 2023' },
    { node_id: 'sec_1', role: 'section', parent: 'sec_0', title: 'Liquidity', page: 0 },
    { node_id: 't_1', role: 'paragraph', parent: 'sec_1', page: 0, text: 'Working capital remained strong at the end of fiscal 2023, as the summary below shows.' },
    { node_id: 'tab_1', role: 'table', parent: 'sec_1', page: 0, text: text(WORKING_CAPITAL_ROWS), table: table(WORKING_CAPITAL_ROWS) },
    { node_id: 'sec_2', role: 'section', parent: 'sec_0', title: 'Consolidated Balance Sheets', page: 1 },
    { node_id: 't_2', role: 'paragraph', parent: 'sec_2', page: 1, text: 'The consolidated balance sheets as of the fiscal year ends 2023 and 2022 follow.' },
    { node_id: 'tab_2', role: 'table', parent: 'sec_2', page: 1, text: text(BALANCE_SHEET_ROWS), table: table(BALANCE_SHEET_ROWS) },
    { node_id: 'sec_3', role: 'section', parent: 'sec_0', title: 'Consolidated Statements of Income', page: 2 },
    { node_id: 't_3', role: 'paragraph', parent: 'sec_3', page: 2, text: 'The consolidated statements of income for fiscal 2023 and 2022 follow.' },
    { node_id: 'tab_3', role: 'table', parent: 'sec_3', page: 2, text: text(INCOME_ROWS), table: table(INCOME_ROWS) },
  ]);
}
