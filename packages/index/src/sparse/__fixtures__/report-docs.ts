import type { SparseDoc } from '@doctree/schema';

/**
 * Sparse docs shaped like what the record builder emits (docs/design/index-features.md §3.4) for two small documents, written for the
 * tests: a few parts of a 10-K (MD&A, market risk, liquidity, a segment table, the cash-flow statement) and of a
 * paper (method section, a figure, a hyper-parameter table, paragraphs that refer to them).
 */
export const TEN_K_DOCS: readonly SparseDoc[] = [
  {
    id: 'sec_5',
    role: 'section',
    heading: "Item 7. Management's Discussion and Analysis of Financial Condition and Results of Operations",
    headings_path: "Part II > Item 7. Management's Discussion and Analysis of Financial Condition and Results of Operations",
    child_labels: 'Table 2',
    child_table_schema: 'Business segment; 2018; 2017; % change',
    body: 'The following discussion should be read together with the consolidated financial statements and notes.',
    filters: { level: 1, page_span: [22, 58] },
  },
  {
    id: 'sec_6',
    role: 'section',
    heading: 'Item 7A. Quantitative and Qualitative Disclosures About Market Risk',
    headings_path: 'Part II > Item 7A. Quantitative and Qualitative Disclosures About Market Risk',
    body: 'The Company is exposed to foreign exchange rates, interest rates and commodity prices.',
    filters: { level: 1, page_span: [58, 59] },
  },
  {
    id: 'sec_8',
    role: 'section',
    heading: 'Liquidity and Capital Resources',
    headings_path: "Part II > Item 7. Management's Discussion and Analysis > Liquidity and Capital Resources",
    child_labels: 'Table 5',
    child_table_schema: 'Cash flows; 2018; 2017; 2016',
    body: 'Cash, cash equivalents and marketable securities totaled $3.3 billion at year end.',
    filters: { level: 2, page_span: [44, 50] },
  },
  {
    id: 'tab_7',
    role: 'table',
    title: 'Table 2: Net sales by business segment (in millions)',
    caption: 'Net sales by business segment, with the change from the prior year.',
    table_schema: 'Business segment; 2018; 2017; % change',
    labels: 'Table 2',
    aliases: 'pct percent percentage usd dollar dollars',
    body: 'Industrial 11,904 11,512 3.4%; Packaging 6,613 6,039 9.5%; Health Care 5,842 5,677 2.9%; Total Company 28,436 27,474 3.5%',
    filters: { page_idx: 23, parent_section: 'sec_5', table_no: '2', label: 'Table 2', years: [2017, 2018] },
  },
  {
    id: 'tab_12',
    role: 'table',
    title: 'Table 5: Consolidated Statement of Cash Flows (in millions)',
    caption: 'Cash flows from operating, investing and financing activities.',
    table_schema: 'Cash flows; 2018; 2017; 2016',
    labels: 'Table 5',
    aliases: 'usd dollar dollars',
    body:
      'Cash flows from operating activities: Net income including noncontrolling interest 4,918 4,512 4,730; ' +
      'Depreciation and amortization 1,362 1,318 1,297; Company pension and postretirement contributions (341) (802) (356); ' +
      'Stock-based compensation expense 287 309 276; Deferred income taxes (49) 96 11; Accounts receivable (288) (231) (297); ' +
      'Inventories (472) (356) 44; Net cash provided by operating activities 6,214 5,987 6,118. ' +
      'Cash flows from investing activities: Purchases of property, plant and equipment (capital expenditures) (1,482) (1,291) (1,347); ' +
      'Proceeds from sale of businesses 791 1,012 131; Net cash used in investing activities (207) (2,874) (1,322). ' +
      'Cash flows from financing activities: Purchases of treasury stock (4,512) (1,934) (3,488); Dividends paid to shareholders (2,968) (2,611) (2,497)',
    filters: { page_idx: 59, parent_section: 'sec_8', table_no: '5', label: 'Table 5', years: [2016, 2017, 2018] },
  },
  {
    id: 't_40',
    role: 'paragraph',
    body:
      'Our credit ratings, the commercial paper program and committed credit facilities support our liquidity. ' +
      'Management believes that cash on hand, cash from operations and access to capital markets provide ' +
      'adequate capital resources to fund dividends, share repurchases, pension contributions, acquisitions ' +
      'and the other needs of the business over the next twelve months and beyond, in most scenarios.',
    filters: { page_idx: 45, parent_section: 'sec_8' },
  },
  {
    id: 't_41',
    role: 'paragraph',
    labels: 'Table 2',
    body: 'As shown in Table 2, sales in Packaging increased 9.5%, while revenues in Health Care rose 2.9%.',
    filters: { page_idx: 23, parent_section: 'sec_5' },
  },
  {
    id: 't_42',
    role: 'paragraph',
    body: 'Capital expenditures are expected to be between $1.7 billion and $1.9 billion in 2019.',
    filters: { page_idx: 47, parent_section: 'sec_8' },
  },
  {
    id: 't_43',
    role: 'paragraph',
    body: 'Total revenue for the year reached $28.4 billion, and operating income margins expanded in 2018.',
    filters: { page_idx: 22, parent_section: 'sec_5' },
  },
];

/** A paper: method section, a figure, a hyper-parameter table and paragraphs that refer to them. */
export const PAPER_DOCS: readonly SparseDoc[] = [
  {
    id: 'sec_20',
    role: 'section',
    heading: '3.2 Training',
    headings_path: '3 Method > 3.2 Training',
    child_labels: 'Figure 3; Table 4',
    child_table_schema: 'Learning rate; Batch size; Accuracy (%)',
    caption_bag: 'validation accuracy over training steps; hyper-parameters of the runs',
    aliases: 'acc accuracy pct percent',
    body: 'We train all models with AdamW and a cosine schedule.',
    filters: { level: 2, page_span: [4, 5] },
  },
  {
    id: 'img_9',
    role: 'image',
    title: 'Figure 3: Validation accuracy over training steps',
    caption: 'Validation accuracy (%) of the three model sizes during training.',
    labels: 'Figure 3',
    aliases: 'acc accuracy pct percent',
    filters: { page_idx: 4, parent_section: 'sec_20', figure_no: '3', label: 'Figure 3', chart_type: 'statistical' },
  },
  {
    id: 'img_10',
    role: 'image',
    title: 'Figure 4: Loss curves',
    caption: 'Training loss of the three model sizes.',
    labels: 'Figure 4',
    filters: { page_idx: 5, parent_section: 'sec_20', figure_no: '4', label: 'Figure 4' },
  },
  {
    id: 'tab_30',
    role: 'table',
    title: 'Table 4: Hyper-parameters and metrics',
    caption: 'Learning rate, batch size and final accuracy per configuration.',
    table_schema: 'Configuration; Learning rate; Batch size; Accuracy (%)',
    labels: 'Table 4',
    aliases: 'acc accuracy pct percent',
    body: 'small 3e-4 256 71.2; base 2e-4 512 76.8; large 1e-4 1024 80.1',
    filters: { page_idx: 5, parent_section: 'sec_20', table_no: '4', label: 'Table 4' },
  },
  {
    id: 't_60',
    role: 'paragraph',
    labels: 'Figure 3',
    body: 'Fig. 3 shows that validation accuracy keeps improving until the end of training for the large model.',
    filters: { page_idx: 4, parent_section: 'sec_20' },
  },
  {
    id: 't_61',
    role: 'paragraph',
    body: 'The running averages of the losses were computed over 100 steps; the learning rates were tuned on a held-out split.',
    filters: { page_idx: 5, parent_section: 'sec_20' },
  },
];
