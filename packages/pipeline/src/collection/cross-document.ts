import { randomUUID } from 'node:crypto';
import { analyzeQuestion, computationSpec, findNumbers, isYearLike, type ComputationSpec } from '@doctree/agents';
import { evaluateExpression, type ComputeResult, type VariableInput } from '@doctree/toolhub';
import { DocTreeError, type Answer, type CollectionDocument, type QuestionAnalysis, type TraceEvent } from '@doctree/schema';
import type { AskedQuestion } from '../ask-question.js';
import { namedMetadata, squash, type DocumentSelection } from './document-selection.js';

/**
 * Cross-document answers: a question that names the subjects of several documents — two companies ("compare X of A
 * and B"), or two years of one company ("how did X change from 2021 to 2022" over its 2021 and 2022 reports) — is
 * split into parts, one per subject (years only across filings of one form). Which document answers a part comes from the metadata the part names (company or
 * year, as document selection reads them). Each document is asked its part (the line item of the question at the
 * part's period), and the answers are combined: each part's value with its citations (document id and page), and, when
 * the question asks for a difference, ratio, change, sum or which is larger, the computation over the parts — the
 * formula the agents' planner reads from the question (`computationSpec`) evaluated by `compute.eval`'s evaluator.
 */

/** How the parts' answers are combined. */
export type CrossDocumentOperation = 'difference' | 'ratio' | 'percent' | 'percent_change' | 'sum' | 'average' | 'larger' | 'smaller' | 'list';

/** One part of a cross-document question: a subject, the document that answers it, and what it is asked. */
export interface CrossDocumentPart {
  /** What tells the part apart: the company or the year the question names. */
  by: 'company' | 'year';
  /** The subject as the document's metadata has it (`Harbor Tools`, `2022`). */
  label: string;
  /** The formula's variable of the part (`A`, `B`, or `A0`, `A1` over years). */
  variable: string;
  doc_id: string;
  /** The question the document is asked. */
  question: string;
}

/** The parts of a cross-document question and how they combine. */
export interface CrossDocumentPlan {
  by: 'company' | 'year';
  operation: CrossDocumentOperation;
  parts: CrossDocumentPart[];
  /** The `compute.eval` expression over the parts' variables, for arithmetic operations. */
  expression?: string;
  /** The formula as people read it. */
  formula?: string;
  /** The line item asked of each part, as read from the question. */
  item: string;
}

/** A place an answer comes from: a document and a 1-based page. */
export interface CollectionCitation {
  doc_id: string;
  page: number;
  node_id?: string;
  snippet?: string;
}

/** A part with its document's answer. */
export interface CrossDocumentPartAnswer extends CrossDocumentPart {
  /** The document's answer value (`Not answerable` when it declined). */
  answer: Answer['answer'];
  display?: string;
  confidence: number;
  /** The number used in the computation, as written (`$48.2 million`), when the answer is one. */
  value?: VariableInput;
  citations: CollectionCitation[];
}

/** The combined answer of a cross-document question (in traces and `--json`). */
export interface CrossDocumentAnswer {
  by: 'company' | 'year';
  operation: CrossDocumentOperation;
  item: string;
  parts: CrossDocumentPartAnswer[];
  expression?: string;
  formula?: string;
  /** The `compute.eval` result over the parts, when the operation is arithmetic and every part has a number. */
  result?: ComputeResult;
  /** Why nothing was computed (a part without a number, an evaluation error). */
  problem?: string;
  /** Every part's citations, in part order. */
  citations: CollectionCitation[];
}

/** A candidate document for parts: its manifest row (candidates come in selection order). */
export interface CrossDocumentCandidate {
  row: CollectionDocument;
  /** Chosen by the chat model (preferred within a subject). */
  chosen?: boolean;
}

/** Options of {@link planCrossDocument}. */
export interface PlanCrossDocumentOptions {
  /** The question's analysis (default: analysed here with the generic pack). */
  analysis?: QuestionAnalysis;
  /** Most parts. Default 6. */
  maxParts?: number;
}

/** Defaults of {@link PlanCrossDocumentOptions}. */
export const PLAN_CROSS_DOCUMENT_DEFAULTS = { maxParts: 6 } as const satisfies PlanCrossDocumentOptions;

const tokens = (text: string): string[] => text.toLowerCase().match(/[a-z0-9&]+/g) ?? [];

/** Words of a line item that name the document or the period rather than the quantity. */
const SUBJECT_WORDS = new Set('company companies firm firms business filing filings report reports annual form its their s fiscal year years fy period end beginning start close'.split(' '));
/** Comparatives that ask for the smaller value. */
const SMALLER = /\b(?:lower|smaller|less|fewer|least|lowest|smallest|fewest|cheaper)\b/i;
/** Comparatives of a "which … higher" question that the analysis reads as a lookup. */
const COMPARATIVE = /\b(?:higher|larger|greater|more|bigger|lower|smaller|less|fewer)\b/i;

/** Where the question names a company (for the order of parts), or -1. */
function mentionAt(question: string, company: string): number {
  const c = squash(company);
  if (c.length >= 4) {
    // Position in the squashed text maps to the order of mentions, which is all that is needed.
    return squash(question).indexOf(c);
  }
  const words = tokens(question);
  const i = words.indexOf(c);
  return i < 0 ? -1 : i * 1000;
}

/** The operation a question asks of its parts, from its analysis. */
export function crossOperation(analysis: QuestionAnalysis): CrossDocumentOperation {
  const ops = new Set<string>(analysis.operations);
  for (const op of ['percent_change', 'ratio', 'percent', 'difference', 'sum', 'average'] as const) if (ops.has(op)) return op;
  if (ops.has('min')) return 'smaller';
  if (ops.has('max')) return 'larger';
  if (ops.has('compare') || (/^\s*(?:which|who)\b/i.test(analysis.asking) && COMPARATIVE.test(analysis.asking))) return SMALLER.test(analysis.asking) ? 'smaller' : 'larger';
  return 'list';
}

/** The line item of the question without the words that name its subjects (companies, forms, years). */
function itemOf(analysis: QuestionAnalysis, spec: ComputationSpec | undefined, subjects: readonly string[]): string {
  const drop = new Set(subjects.flatMap(tokens));
  // Entities that hold a subject's word ("Harbor Tools and Lumen Optics") are subjects as a whole.
  for (const entity of analysis.entities) if (tokens(entity).some((w) => drop.has(w))) for (const w of tokens(entity)) if (w !== 'and' && w !== 'or') drop.add(w);
  const clean = (phrase: string): string =>
    tokens(phrase)
      .filter((w) => !drop.has(w) && !SUBJECT_WORDS.has(w) && !/^\d{2,4}$/.test(w) && !/^\d{1,2}[a-z]$/.test(w))
      .join(' ');
  const phrases = [...(spec?.operands.map((o) => o.phrase) ?? []), ...analysis.line_items].map(clean).filter((p) => p !== '');
  return phrases[0] ?? '';
}

/** The question a part's document is asked. */
function partQuestion(item: string, year: number | undefined, original: string): string {
  if (item === '') return original;
  return `What was the ${item}${year !== undefined ? ` in ${year}` : ''}?`;
}

/**
 * The parts of a question that names several documents' subjects, or undefined when it names one (or none): two or
 * more companies that documents of the candidates have, else — one company or none named, all its documents of one
 * company — two or more years that documents have. Within a subject the document chosen by the chat model, then the
 * one whose year the question names, then the first in selection order answers.
 *
 * @example
 * ```ts
 * planCrossDocument('What is the difference between the revenue of Harbor Tools and Lumen Optics?', candidates);
 * // { by: 'company', operation: 'difference', item: 'revenue', expression: 'A - B', parts: [{ label: 'Harbor Tools', variable: 'A', … }, …] }
 * ```
 */
export function planCrossDocument(question: string, candidates: readonly CrossDocumentCandidate[], options: PlanCrossDocumentOptions = {}): CrossDocumentPlan | undefined {
  const { maxParts } = { ...PLAN_CROSS_DOCUMENT_DEFAULTS, ...options };
  const analysis = options.analysis ?? analyzeQuestion(question);
  const years = new Set(analysis.years);
  const named = candidates.map((c, rank) => ({ ...c, rank, company: namedMetadata(question, c.row).includes('company'), year: c.row.metadata.year !== undefined && years.has(c.row.metadata.year) }));
  const prefer = (a: (typeof named)[number], b: (typeof named)[number]): number => Number(b.chosen ?? false) - Number(a.chosen ?? false) || Number(b.year) - Number(a.year) || a.rank - b.rank;

  const byCompany = new Map<string, typeof named>();
  for (const n of named) {
    if (!n.company || !n.row.metadata.company) continue;
    const key = squash(n.row.metadata.company);
    byCompany.set(key, [...(byCompany.get(key) ?? []), n]);
  }
  let groups: Array<{ by: 'company' | 'year'; label: string; at: number; year?: number; docs: typeof named }>;
  if (byCompany.size >= 2) {
    groups = [...byCompany.values()].map((docs) => ({ by: 'company' as const, label: docs[0]!.row.metadata.company!, at: mentionAt(question, docs[0]!.row.metadata.company!), docs }));
    groups.sort((a, b) => a.at - b.at || (a.label < b.label ? -1 : 1));
  } else {
    const company = [...byCompany.keys()][0];
    const sameCompany = named.filter((n) => n.year && (company === undefined ? true : n.company && squash(n.row.metadata.company ?? '') === company));
    // Years compare like with like: the filings of the best-ranked dated document's form (an annual report is not
    // compared with a current report or a quarterly one).
    const form = sameCompany[0]?.row.metadata.form;
    const dated = form === undefined ? sameCompany : sameCompany.filter((n) => (n.row.metadata.form ?? form) === form);
    // Without a company named, years split the question only when every dated document is of one company.
    if (company === undefined && new Set(dated.map((n) => squash(n.row.metadata.company ?? ''))).size !== 1) return undefined;
    if (company === undefined && dated.some((n) => !n.row.metadata.company)) return undefined;
    const byYear = new Map<number, typeof named>();
    for (const n of dated) byYear.set(n.row.metadata.year!, [...(byYear.get(n.row.metadata.year!) ?? []), n]);
    if (byYear.size < 2) return undefined;
    groups = [...byYear].sort((a, b) => a[0] - b[0]).map(([year, docs]) => ({ by: 'year' as const, label: String(year), at: year, year, docs }));
  }
  groups = groups.slice(0, maxParts);
  const by = groups[0]!.by;
  const operation = crossOperation(analysis);
  const spec = computationSpec({ question, operations: analysis.operations, years: analysis.years });
  const subjects = by === 'company' ? groups.flatMap((g) => g.docs.map((d) => d.row.metadata.company ?? '')) : [];
  const item = itemOf(analysis, spec, [...subjects, ...groups.flatMap((g) => g.docs.map((d) => d.row.metadata.form ?? ''))]);
  const { expression, formula, variables } = expressionFor(operation, by, groups.map((g) => g.year), spec);
  const single = analysis.years.length === 1 ? analysis.years[0] : undefined;
  const parts = groups.map((g, i): CrossDocumentPart => ({
    by,
    label: g.label,
    variable: variables[i]!,
    doc_id: [...g.docs].sort(prefer)[0]!.row.doc_id,
    question: partQuestion(item, by === 'year' ? g.year : single, question),
  }));
  return { by, operation, parts, item, ...(expression ? { expression, formula: formula ?? expression } : {}) };
}

const LETTERS = 'ABCDEFGH';

/**
 * The expression over the parts. Years: the planner's formula when it reads one over the same years (`A1 - A0`,
 * `percent_change(A0, A1)`, `cagr(…)`), else newest against oldest. Companies: the planner's two-operand formula
 * (`ratio(A, B)`, `A - B`) in the order the question names them, else the operation over the parts in that order.
 */
function expressionFor(operation: CrossDocumentOperation, by: 'company' | 'year', years: ReadonlyArray<number | undefined>, spec: ComputationSpec | undefined): { expression?: string; formula?: string; variables: string[] } {
  if (by === 'year') {
    const variables = years.map((_, i) => `A${i}`);
    const operand = spec?.operands.length === 1 ? spec.operands[0] : undefined;
    if (spec && operand?.reduce === 'each' && operand.years.length === years.length && operand.years.every((y, i) => y === years[i])) {
      return { expression: spec.expression, formula: spec.formula, variables };
    }
    const forms = operationForms(variables[variables.length - 1]!, variables[0]!, variables);
    const expression = variables.length === 2 || !['larger', 'smaller'].includes(operation) ? forms[operation] : undefined;
    return { ...(expression ? { expression } : {}), variables };
  }
  const variables = years.map((_, i) => LETTERS[i] ?? `P${i}`);
  if (spec && spec.operands.length === 2 && variables.length === 2 && spec.operands.every((o) => o.reduce === 'value') && spec.operation === operation) {
    return { expression: spec.expression, formula: spec.formula, variables };
  }
  const [a, b] = variables as [string, string];
  const forms = operationForms(a, b, variables);
  const pairwise = variables.length === 2 || operation === 'sum' || operation === 'average';
  const expression = pairwise ? forms[operation] : undefined;
  return { ...(expression ? { expression } : {}), variables };
}

/**
 * The number of an answer as `compute.eval` reads it: the display (unit and scale) when it parses, else the value, else
 * the first amount (not a year) in a text answer (`$4.1 million at the end of 2022` → `$4.1 million`).
 */
function numberOf(answer: Answer): VariableInput | undefined {
  if (answer.answer_format === 'None' || answer.abstention) return undefined;
  const options: VariableInput[] = [];
  if (answer.display) options.push(answer.display);
  if (typeof answer.answer === 'number') options.push(answer.answer);
  else if (typeof answer.answer === 'string') {
    options.push(answer.answer);
    const amount = findNumbers(answer.answer).find((m) => !isYearLike(m));
    if (amount) options.push(amount.raw);
  }
  for (const option of options) {
    try {
      evaluateExpression('A', { A: option });
      return option;
    } catch {
      // not a number: try the next form
    }
  }
  return undefined;
}

function citationsOf(docId: string, answer: Answer): CollectionCitation[] {
  const supports = answer.support.length > 0 ? answer.support : (answer.abstention?.evidence ?? []);
  const out: CollectionCitation[] = supports.map((s) => ({ doc_id: docId, page: s.page, node_id: s.node_id, snippet: s.snippet.slice(0, 200) }));
  for (const page of answer.pages) if (!out.some((c) => c.page === page)) out.push({ doc_id: docId, page });
  return out;
}

/** How a part reads in a combined answer: `Harbor Tools: $48.2 million (harbor_2022_10k p. 2)`. */
function partText(p: CrossDocumentPartAnswer): string {
  const pages = [...new Set(p.citations.map((c) => c.page))];
  const value = p.display ?? (Array.isArray(p.answer) ? p.answer.join('; ') : String(p.answer));
  return `${p.label}: ${value} (${p.doc_id}${pages.length > 0 ? ` p. ${pages.join(', ')}` : ''})`;
}

/** A document asked its part: the caller's ask (the collection's agent on that document). */
export type AskPart = (docId: string, question: string) => Promise<AskedQuestion>;

/** What {@link answerAcrossDocuments} returns. */
export interface CrossDocumentOutcome {
  /** The combined answer (support and pages empty: pages of several documents are given as `cross.citations`). */
  answer: Answer;
  cross: CrossDocumentAnswer;
  /** Each part's run, in part order. */
  runs: Array<{ doc_id: string; run: AskedQuestion }>;
}

/**
 * Asks each part's document its part (one after the other) and combines the answers (see the module comment): the
 * parts' values and citations, the computation when the operation asks one, and a trace of the parts.
 *
 * @throws errors of `ask` (cancellation, a document that cannot be opened).
 */
export async function answerAcrossDocuments(question: string, plan: CrossDocumentPlan, ask: AskPart, options: { precision?: number } = {}): Promise<CrossDocumentOutcome> {
  const started = Date.now();
  const events: TraceEvent[] = [{ type: 'plan', t_ms: 0, attempt: 0, message: `cross-document: ${plan.parts.length} parts by ${plan.by}, ${plan.operation}`, data: { operation: plan.operation, item: plan.item, ...(plan.expression ? { expression: plan.expression } : {}), parts: plan.parts.map((p) => ({ label: p.label, variable: p.variable, doc_id: p.doc_id, question: p.question })) } }];
  const runs: CrossDocumentOutcome['runs'] = [];
  const parts: CrossDocumentPartAnswer[] = [];
  for (const part of plan.parts) {
    const run = await ask(part.doc_id, part.question);
    runs.push({ doc_id: part.doc_id, run });
    const a = run.answer;
    const value = numberOf(a);
    const answered: CrossDocumentPartAnswer = { ...part, answer: a.answer, ...(a.display ? { display: a.display } : {}), confidence: a.confidence, ...(value !== undefined ? { value } : {}), citations: citationsOf(part.doc_id, a) };
    parts.push(answered);
    events.push({ type: 'read', t_ms: Date.now() - started, attempt: 0, tool_id: 'collection.part', message: partText(answered), data: { doc_id: part.doc_id, question: part.question, answer: a.answer, confidence: a.confidence, pages: a.pages, trace_id: a.trace.trace_id } });
  }
  const cross: CrossDocumentAnswer = { by: plan.by, operation: plan.operation, item: plan.item, parts, ...(plan.expression ? { expression: plan.expression, formula: plan.formula ?? plan.expression } : {}), citations: parts.flatMap((p) => p.citations) };
  const missing = parts.filter((p) => p.value === undefined);
  const numeric = plan.operation !== 'list';
  const variables = new Map(parts.filter((p) => p.value !== undefined).map((p) => [p.variable, p.value!]));
  if (numeric && missing.length > 0) cross.problem = `no number from ${missing.map((p) => `${p.doc_id} (${p.label})`).join(', ')}`;
  let quantities: number[] = [];
  if (numeric && missing.length === 0) {
    try {
      quantities = parts.map((p) => evaluateExpression(p.variable, { [p.variable]: p.value! }).value);
      if (plan.expression) {
        const args = Object.fromEntries(variables);
        cross.result = evaluateExpression(plan.expression, args, { precision: options.precision ?? 2 });
        events.push({ type: 'tool_call', t_ms: Date.now() - started, attempt: 0, tool_id: 'compute.eval', status: 'ok', args: { expression: plan.expression, variables: args }, data: { ...cross.result } });
      }
    } catch (error) {
      cross.problem = DocTreeError.isInstance(error) ? error.message : String(error);
      events.push({ type: 'tool_call', t_ms: Date.now() - started, attempt: 0, tool_id: 'compute.eval', status: 'error', message: cross.problem });
    }
  }
  const answer = combinedAnswer(question, plan, cross, quantities, runs, events, started);
  return { answer, cross, runs };
}

function combinedAnswer(question: string, plan: CrossDocumentPlan, cross: CrossDocumentAnswer, quantities: readonly number[], runs: CrossDocumentOutcome['runs'], events: TraceEvent[], started: number): Answer {
  const parts = cross.parts;
  const confidence = parts.length > 0 ? Math.min(...parts.map((p) => p.confidence)) : 0;
  const listing = parts.map(partText).join('; ');
  let body: Pick<Answer, 'answer' | 'answer_format' | 'display' | 'abstention'>;
  if (plan.operation === 'list') {
    body = { answer: parts.map((p) => `${p.label}: ${p.display ?? (Array.isArray(p.answer) ? p.answer.join('; ') : String(p.answer))}`), answer_format: 'List', display: listing };
  } else if (cross.problem !== undefined || quantities.length !== parts.length) {
    body = { answer: 'Not answerable', answer_format: 'None', display: listing, abstention: { reason: `cross-document answer not computed: ${cross.problem ?? 'no numbers'}`, evidence: [] } };
  } else if (plan.operation === 'larger' || plan.operation === 'smaller') {
    const pick = quantities.reduce((best, q, i) => ((plan.operation === 'larger' ? q > quantities[best]! : q < quantities[best]!) ? i : best), 0);
    const difference = cross.result ? ` (difference ${cross.result.text})` : '';
    body = { answer: parts[pick]!.label, answer_format: 'Str', display: `${parts[pick]!.label} is ${plan.operation === 'larger' ? 'larger' : 'smaller'}${difference}: ${listing}` };
  } else {
    const result = cross.result!;
    body = { answer: result.display_value, answer_format: 'Float', display: `${result.text} = ${cross.formula ?? cross.expression} over ${listing}` };
  }
  events.push({ type: 'finalize', t_ms: Date.now() - started, attempt: 0, message: body.display ?? String(body.answer), data: { answer: body.answer, citations: cross.citations.map((c) => ({ doc_id: c.doc_id, page: c.page })) } });
  const llm = runs.reduce((sum, r) => ({ calls: sum.calls + r.run.answer.trace.llm.calls, prompt_tokens: sum.prompt_tokens + r.run.answer.trace.llm.prompt_tokens, completion_tokens: sum.completion_tokens + r.run.answer.trace.llm.completion_tokens, cost_usd: sum.cost_usd === null || r.run.answer.trace.llm.cost_usd === null ? null : sum.cost_usd + r.run.answer.trace.llm.cost_usd }), { calls: 0, prompt_tokens: 0, completion_tokens: 0, cost_usd: 0 as number | null });
  return {
    ...body,
    confidence,
    support: [],
    pages: [],
    trace: {
      format: 'doctree.trace',
      version: 1,
      trace_id: randomUUID(),
      doc_id: parts.map((p) => p.doc_id).join('+'),
      question,
      started_at: new Date(started).toISOString(),
      mode: runs.some((r) => r.run.answer.trace.mode === 'llm') ? 'llm' : 'offline',
      events,
      llm,
      replans: 0,
    },
  };
}

/**
 * The cross-document plan of a question after selection ({@link planCrossDocument}), or undefined: in `select` mode
 * over every ranked candidate (the chat model's choice preferred), with `--doc` over the named documents (two or more);
 * never in `all` mode, which asks every candidate the whole question.
 */
export function crossDocumentPlan(question: string, selection: DocumentSelection, rows: readonly CollectionDocument[], options: PlanCrossDocumentOptions = {}): CrossDocumentPlan | undefined {
  if (selection.mode === 'all') return undefined;
  const byId = new Map(rows.map((r) => [r.doc_id, r]));
  const order = selection.mode === 'doc' ? selection.selected : selection.ranked.map((r) => r.doc_id);
  if (order.length < 2) return undefined;
  const chosen = new Set(selection.llm?.chosen ?? []);
  const candidates = order.flatMap((id) => {
    const row = byId.get(id);
    return row ? [{ row, chosen: chosen.has(id) }] : [];
  });
  return planCrossDocument(question, candidates, options);
}

/** The document a cross-document answer is filed under: the part ranked first by selection (else the first part). */
export function primaryDocument(plan: CrossDocumentPlan, selection: DocumentSelection): string {
  const ids = new Set(plan.parts.map((p) => p.doc_id));
  const order = selection.mode === 'doc' ? selection.selected : selection.ranked.map((r) => r.doc_id);
  return order.find((id) => ids.has(id)) ?? plan.parts[0]!.doc_id;
}

/** A cross-document answer as text lines: the parts with their documents and pages, the formula and the result. */
export function formatCrossDocument(cross: CrossDocumentAnswer, answer: Answer): string[] {
  const out = [`Cross-document answer: ${cross.parts.length} parts by ${cross.by}, ${cross.operation}${cross.item ? ` of "${cross.item}"` : ''}`];
  for (const p of cross.parts) {
    const pages = [...new Set(p.citations.map((c) => c.page))];
    const value = p.display ?? (Array.isArray(p.answer) ? p.answer.join('; ') : String(p.answer));
    out.push(`  ${p.variable} = ${p.label}: ${value}  [${p.doc_id}${pages.length > 0 ? `, p. ${pages.join(', ')}` : ''}]  (asked: ${p.question}; confidence ${p.confidence.toFixed(2)})`);
  }
  if (cross.expression) out.push(`  ${cross.formula ?? cross.expression}${cross.result ? ` = ${cross.result.text}` : ''}`);
  if (cross.problem) out.push(`  not computed: ${cross.problem}`);
  const value = Array.isArray(answer.answer) ? answer.answer.join('; ') : String(answer.answer);
  out.push('', `Answer: ${value}${answer.display && answer.display !== value ? `  (${answer.display})` : ''}`, `Confidence: ${answer.confidence.toFixed(2)}`);
  out.push(`Cited: ${[...new Map(cross.citations.map((c) => [`${c.doc_id} p. ${c.page}`, c])).keys()].join('; ') || 'nothing'}`);
  return out;
}

/**
 * What a collection answer cites, as document id + page: every part's citations for a cross-document answer, else
 * the chosen document's supports.
 */
export function collectionCitations(answer: { doc_id: string; answer: Answer; cross?: CrossDocumentAnswer | undefined }): CollectionCitation[] {
  return answer.cross ? answer.cross.citations : citationsOf(answer.doc_id, answer.answer);
}

/**
 * The `compute.eval` expression of each operation between two parts — `target` against `base` (the later year against
 * the earlier, the first company named against the second) — and over all parts for sums and averages.
 */
function operationForms(target: string, base: string, all: readonly string[]): Partial<Record<CrossDocumentOperation, string>> {
  return {
    larger: `abs(${target} - ${base})`,
    smaller: `abs(${target} - ${base})`,
    difference: `${target} - ${base}`,
    percent_change: `percent_change(${base}, ${target})`,
    ratio: `ratio(${target}, ${base})`,
    percent: `pct(${target}, ${base})`,
    sum: `sum(${all.join(', ')})`,
    average: `avg(${all.join(', ')})`,
  };
}
