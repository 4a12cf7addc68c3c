import { ownTable } from '@doctree/schema';
import type { Question } from '@doctree/schema';

/**
 * Report labels of MMLongBench-Doc's evidence sources. A frozen table without a prototype: it is looked up with the
 * source strings of datasets, and a source such as `constructor` must find nothing.
 */
export const EVIDENCE_SOURCE_LABELS: Readonly<Record<string, string>> = ownTable<string>({
  'Pure-text (Plain-text)': 'text',
  Table: 'table',
  Chart: 'chart',
  Figure: 'figure',
  'Generalized-text (Layout)': 'layout',
});

/** Label of unanswerable questions (they have no evidence). */
export const UNANSWERABLE_LABEL = 'unanswerable';
/** Label of FinanceBench / UDA-finance questions, which carry no evidence source: their evidence is a financial filing page. */
export const FINANCIAL_STATEMENT_LABEL = 'financial-statement';
/** Label of answerable questions without a recorded evidence source. */
export const UNKNOWN_SOURCE_LABEL = 'unknown';
/** Format label of open answers (no answer format). */
export const OPEN_FORMAT_LABEL = 'open';

function isFinanceQuestion(question: Question): boolean {
  return /\bfinancebench\b|\buda\b/i.test(question.source_benchmark ?? '') || /^(fb|uda-fin)-/.test(question.id);
}

/**
 * The report groups of a question by evidence source: `text`, `table`, `chart`, `figure`, `layout` (MMLongBench-Doc's
 * sources; a question with several counts in each, as upstream), `unanswerable`, `financial-statement` (FinanceBench
 * and UDA rows, whose sources are null) or `unknown`. Unrecognised source strings are kept, lower-cased.
 */
export function evidenceSourceLabels(question: Question): string[] {
  if (!question.answerable || question.answer_format === 'None') return [UNANSWERABLE_LABEL];
  const sources = question.evidence_sources ?? [];
  if (sources.length === 0) return [question.evidence_sources === null && isFinanceQuestion(question) ? FINANCIAL_STATEMENT_LABEL : UNKNOWN_SOURCE_LABEL];
  const labels = sources.map((s) => (Object.hasOwn(EVIDENCE_SOURCE_LABELS, s) ? EVIDENCE_SOURCE_LABELS[s]! : s.trim().toLowerCase()));
  return [...new Set(labels)];
}

/** The report group of a question by answer format: `Int`, `Float`, `Str`, `List`, `None`, or `open` when it has none. */
export function answerFormatLabel(question: Pick<Question, 'answer_format'>): string {
  return question.answer_format ?? OPEN_FORMAT_LABEL;
}
