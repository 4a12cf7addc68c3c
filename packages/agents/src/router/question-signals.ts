import type { CompiledDomainPack } from '@doctree/toolhub';
import type { AnswerFormat, Operation, QueryObject, QuestionAnalysis } from '@doctree/schema';

import { analyzeQuestion, legacyDomainPack } from '../analysis/question-analysis.js';

export {
  ARITHMETIC_OPERATIONS,
  askingSentence,
  findKeywords,
  lineItems,
  operandSides,
  questionConstraints,
} from '../analysis/question-analysis.js';
export type { OperandSides } from '../analysis/question-analysis.js';

/**
 * Deterministic signals of a question, as the router reports them: a view of the one question analysis
 * (`analyzeQuestion` in `../analysis/question-analysis.ts`), which holds the parsing rules.
 */

/** Signals found in a question. */
export interface QuestionSignals {
  /** 1-based pages mentioned ("page 5", "p. 12", "pages 3-5", "slide 7", "first page"; "last page" with a page count). */
  page_hints: number[];
  /** The question asks about the last page(s) but the page count is unknown. */
  last_page: boolean;
  objects: QueryObject[];
  /** `%`, `$`, `€`, `£`, `¥`, `millions`, `billions`, `thousands`, `bps`, measurement units. */
  units: string[];
  years: number[];
  operations: Operation[];
  expected_format: AnswerFormat;
  keywords: string[];
  entities: string[];
  /**
   * `page:5`, `page:last`, `year:2018`, `quarter:Q3`, `unit:$`, `scale:millions`, `round:2`, `source:cash flow statement`,
   * `alias:purchases of property plant and equipment` — the words documents use for what the question names (query
   * expansion from the domain pack) — and `item:net sales`, the line items asked.
   */
  constraints: string[];
  /** Decimal places asked for ("round to two decimal places"), when stated. */
  round?: number;
}

/** Options of {@link extractSignals}. */
export interface ExtractSignalsOptions {
  /** Pages of the document, when known: resolves "last page" and drops hints beyond it. */
  pageCount?: number;
  /** The domain pack. Default: the finance pack (the vocabulary of callers written before packs). */
  pack?: CompiledDomainPack;
}

const SCALES = new Set(['millions', 'billions', 'thousands']);

/** The router's signals of an analysis (fresh arrays: the analysis itself is shared and frozen). */
export function signalsFromAnalysis(a: QuestionAnalysis): QuestionSignals {
  const constraints = [
    ...a.pages.map((p) => `page:${p}`),
    ...(a.last_page ? ['page:last'] : []),
    ...a.years.map((y) => `year:${y}`),
    ...(a.quarter !== undefined ? [`quarter:${a.quarter}`] : []),
    ...a.unit_words.filter((u) => !SCALES.has(u)).map((u) => `unit:${u}`),
    ...a.unit_words.filter((u) => SCALES.has(u)).map((u) => `scale:${u}`),
    ...(a.round !== undefined ? [`round:${a.round}`] : []),
    ...a.sources.map((s) => `source:${s}`),
    ...a.aliases.map((term) => `alias:${term}`),
    ...a.line_items.map((item) => `item:${item}`),
  ];
  return {
    page_hints: [...a.pages],
    last_page: a.last_page,
    objects: a.objects.map((o) => ({ ...o })),
    units: [...a.unit_words],
    years: [...a.years],
    operations: [...a.operations],
    expected_format: a.expected_format,
    keywords: [...a.keywords],
    entities: [...a.entities],
    constraints,
    ...(a.round !== undefined ? { round: a.round } : {}),
  };
}

/**
 * Extracts the deterministic signals of a question (a view of {@link analyzeQuestion}). Pages are 1-based, as people
 * write them.
 *
 * @example
 * ```ts
 * extractSignals('What were FY2023 capital expenditures (in USD millions) in the cash flow statement on page 41?');
 * // page_hints [41], years [2023], units ['$', 'millions'], objects [{ kind: 'statement', text: 'cash flow statement' }]
 * ```
 */
export function extractSignals(question: string, options: ExtractSignalsOptions = {}): QuestionSignals {
  const pack = options.pack ?? legacyDomainPack();
  return signalsFromAnalysis(analyzeQuestion(question, { pack, ...(options.pageCount !== undefined ? { pageCount: options.pageCount } : {}) }));
}
