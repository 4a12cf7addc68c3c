import type { Operation, PlanFallback, PlanStage, PlanStep, QueryType, RouterDecision, StrategyPlan } from '@doctree/schema';

import { countAnalysis, type CountedObject } from '../analysis/count-analysis.js';
import { analysisFor, analysisOf, analysisPack, legacyDomainPack } from '../analysis/question-analysis.js';
import { ARITHMETIC_OPERATIONS } from '../router/question-signals.js';
import type { ComputationSpec } from './definition-formula.js';
import { planComputation } from './pack-measures.js';

/** What the templates may use besides the decision. */
export interface TemplateSettings {
  /** Evidence budget of the pack, tokens (the `agent.ctx_tokens` setting). */
  ctxTokens: number;
  /** A vision model is configured: `vlm.answer` / `vlm.count` steps and the `visual_low_conf` fallback are added. */
  vlm: boolean;
  /** Rerank the expanded candidates with `rank.llm` before packing (a chat model is configured). */
  rankWithLlm: boolean;
  /** The question as asked: its computation (operands, formula) is read from it ({@link planComputation}). */
  question?: string;
}

/** Input form of a plan (defaults of the schema not yet applied). */
export type PlanInput = Omit<StrategyPlan, 'stages' | 'steps' | 'fallbacks'> & { stages: PlanStage[]; steps: PlanStep[]; fallbacks: PlanFallback[] };

const BM25 = 'bm25_node.search';
const DENSE = 'dense.search';
const TABLES = 'table_index.search';
const CHARTS = 'chart_index.search';
const PAGES = 'page_locator.locate';

/**
 * Row words of a statement (named source) the question names, added to searches (question rewriting, docs/design/agent-loop.md §10):
 * the `rows` of the statement in the domain pack the question was analysed with (the finance pack without one).
 * Looked up by name in a list: the router's object texts, which an LLM router writes freely, are never object keys.
 */
function statementRows(decision: RouterDecision, name: string): readonly string[] {
  const analysis = analysisOf(decision);
  const pack = analysis ? analysisPack(analysis) : legacyDomainPack();
  return pack.statements.find((st) => st.name === name)?.rows ?? [];
}

/** Facts of the decision every template uses. */
interface Facts {
  labels: string[];
  tableLabels: string[];
  figureLabels: string[];
  statements: string[];
  queryTerms: string[];
  pages: number[];
  years: number[];
  units: string[];
  format: string;
  arithmetic: Operation[];
  /**
   * Row labels for `extract.column`, one phrase per line item: the router's `item:` constraints (the asking sentence's
   * row words as one phrase, or the two sides of a ratio / share / difference / sum of two items).
   */
  rowPhrases: string[];
  /** `alias:` constraints of the router: the document's words for what the question names (query expansion). */
  aliases: string[];
  countedRoles: string[];
  sectionTitle: string | undefined;
  round: number | undefined;
}

function facts(decision: RouterDecision): Facts {
  const s = decision.signals;
  const labels = s.objects.flatMap((o) => (o.label !== undefined ? [o.label] : []));
  const statements = s.objects.filter((o) => o.kind === 'statement').map((o) => o.text);
  const synonyms = statements.flatMap((st) => statementRows(decision, st));
  const kinds = new Set(s.objects.map((o) => o.kind));
  const countedRoles = [...(kinds.has('table') ? ['table'] : []), ...(kinds.has('chart') ? ['chart', 'image'] : []), ...(kinds.has('figure') ? ['image', 'chart'] : [])];
  const section = s.objects.find((o) => o.kind === 'section');
  const round = decision.constraints.map((c) => /^round:([0-9]+)$/.exec(c)).find((m) => m !== null)?.[1];
  const aliases = decision.constraints.filter((c) => c.startsWith('alias:')).map((c) => c.slice('alias:'.length).trim()).filter(Boolean);
  return {
    labels,
    tableLabels: labels.filter((l) => l.startsWith('Table')),
    figureLabels: labels.filter((l) => l.startsWith('Figure') || l.startsWith('Chart')),
    statements,
    queryTerms: [...new Set([...labels, ...statements, ...synonyms, ...aliases])],
    pages: s.page_hints,
    years: s.years,
    units: s.units,
    format: s.expected_format ?? 'Str',
    arithmetic: arithmeticOf(decision),
    rowPhrases: rowPhrases(decision),
    aliases,
    countedRoles: [...new Set(countedRoles.length > 0 ? countedRoles : ['image', 'chart'])],
    sectionTitle: section?.label ?? section?.text,
    round: round !== undefined ? Number(round) : undefined,
  };
}

/** Share of a row phrase's words a row label must hold (row phrases carry column words too: "operating margin dairy"). */
const ROW_MIN_MATCH = 0.2;

/** Row phrases: the router's `item:` constraints (the line items the question asks about). */
function rowPhrases(decision: RouterDecision): string[] {
  return decision.constraints.filter((c) => c.startsWith('item:')).map((c) => c.slice('item:'.length).trim()).filter(Boolean);
}

/**
 * Operations the steps compute: the decision's arithmetic, except a ratio or percentage of one line item (that names a
 * unit or a stated ratio — "operating margin", "what percentage…" — rather than a division of two items).
 */
function arithmeticOf(decision: RouterDecision): Operation[] {
  const twoItems = rowPhrases(decision).length >= 2;
  return decision.signals.operations.filter((op) => ARITHMETIC_OPERATIONS.has(op) && (twoItems || (op !== 'percent' && op !== 'ratio')));
}

/** Least share of an operand phrase's words its row must hold (an operand is one line item, named by the question). */
const OPERAND_MIN_MATCH = 0.5;
/** Candidate tables searched per operand (`extract.column` reads the one whose rows fit the line item best). */
const OPERAND_TABLES = 15;

/**
 * The computation the question asks for, when the templates know the question: a formula it defines, a measure of its
 * analysis's domain pack it names, or another computation it asks for (`planComputation`).
 */
function specOf(d: RouterDecision, s: TemplateSettings): ComputationSpec | undefined {
  if (s.question === undefined) return undefined;
  const analysis = analysisOf(d);
  const measures = analysis ? { pack: analysisPack(analysis), format: d.signals.expected_format, entities: analysis.entities } : {};
  return planComputation({ question: s.question, operations: d.signals.operations, years: d.signals.years, ...measures });
}

/**
 * Steps that gather each operand of a computation with its own table search and extraction (its own support), then
 * compute the formula over them: `Q<name>` (`table_index.search` for the operand's line item and years), `E<name>`
 * (`extract.column` on the best-fitting of those tables, the operand's row only) and `CMP` (`compute.eval` with the
 * formula, saved as `VALUE`).
 */
function computeSteps(spec: ComputationSpec, f: Facts): PlanStep[] {
  const steps: PlanStep[] = [];
  for (const operand of spec.operands) {
    steps.push({
      step_id: `Q${operand.name}`,
      tool: TABLES,
      args: { query: [operand.phrase, ...f.statements].join(' '), k: OPERAND_TABLES, ...(operand.years.length > 0 ? { years: operand.years } : {}), ...(f.pages.length > 0 ? { pages: f.pages, page_window: 1 } : {}) },
      save_as: `OPTABLES_${operand.name}`,
      depends_on: [],
    });
    steps.push({
      step_id: `E${operand.name}`,
      tool: 'extract.column',
      args: { tables: `$OPTABLES_${operand.name}.hits`, rows: [operand.phrase], best_row_only: true, min_match: OPERAND_MIN_MATCH, ...(operand.years.length > 0 ? { years: operand.years } : {}) },
      save_as: `OP_${operand.name}`,
      depends_on: [`Q${operand.name}`],
    });
  }
  steps.push({
    step_id: 'CMP',
    tool: 'compute.eval',
    args: {
      operation: spec.operation,
      formula: spec.formula,
      expression: spec.expression,
      percent: spec.percent,
      inputs: spec.operands.map((o) => ({ name: o.name, phrase: o.phrase, years: o.years, reduce: o.reduce, cells: `$OP_${o.name}` })),
      ...(f.round !== undefined ? { round: f.round } : {}),
    },
    save_as: 'VALUE',
    depends_on: spec.operands.map((o) => `E${o.name}`),
  });
  return steps;
}

const withTerms = (stage: PlanStage, terms: readonly string[]): PlanStage => (terms.length > 0 ? { ...stage, query_terms: [...terms] } : stage);

/** Page stage for questions that name pages: the pages themselves first (printed page labels are looked up too). */
function pageStage(f: Facts, kNodes = 40): PlanStage[] {
  if (f.pages.length === 0) return [];
  return [{ stage: 'pages', methods: [PAGES], pages: f.pages, page_window: 0, k_pages: f.pages.length, k_nodes: kNodes }];
}

/** Two-hop navigation (docs/design/agent-loop.md §3.2): coarse windows first (sections, tables, figures), then leaves inside the chosen windows. */
function twoHop(f: Facts, coarse: { methods: string[]; roles?: string[]; kPages?: number }, leaf: { methods: string[]; roles?: string[]; kNodes?: number }, gated: boolean): PlanStage[] {
  const when = gated ? { when: 'coverage<gate' } : {};
  return [
    withTerms({ stage: 'navigate', view: 'coarse', methods: coarse.methods, k_pages: coarse.kPages ?? 5, k_nodes: 30, page_window: 0, ...(coarse.roles ? { roles: coarse.roles } : {}), ...when }, f.queryTerms),
    withTerms({ stage: 'leaf', view: 'leaf', within: 'navigate', methods: leaf.methods, k_pages: 8, k_nodes: leaf.kNodes ?? 50, page_window: 1, ...(leaf.roles ? { roles: leaf.roles } : {}), ...when }, f.queryTerms),
  ];
}

function readerAndJudge(f: Facts, extra: Record<string, unknown> = {}, dependsOn: string[] = []): PlanStep[] {
  return [
    { step_id: 'R', tool: 'reader.answer', args: { question: '$question', evidence: '$pack', format: f.format, ...extra }, save_as: 'ANS', depends_on: dependsOn },
    {
      step_id: 'J',
      tool: 'judger.verify',
      args: { answer: '$ANS', evidence: '$pack', format: f.format, ...(f.units.length > 0 ? { units: f.units } : {}), ...(f.years.length > 0 ? { years: f.years } : {}) },
      save_as: 'VERDICT',
      depends_on: ['R'],
    },
  ];
}

function rankStep(settings: TemplateSettings): PlanStep[] {
  return settings.rankWithLlm ? [{ step_id: 'L', tool: 'rank.llm', args: { query: '$question', candidates: '$candidates', k: 30 }, save_as: 'RANKED', depends_on: [] }] : [];
}

const coverageFallbacks = (gate: number, extra: PlanFallback[] = []): PlanFallback[] => [
  { condition: `coverage<${gate}`, action: { drop_within: true, ungate: true } },
  { condition: `coverage<${gate}`, action: { expand_window: 1, enable: [BM25, DENSE] } },
  { condition: 'no_hits', action: { switch_lanes: [BM25, DENSE], drop_roles: true, drop_pages: true } },
  ...extra,
];

const final = (f: Facts): StrategyPlan['final'] => ({ answer_var: 'ANS', format: f.format });

function lookup(d: RouterDecision, s: TemplateSettings): PlanInput {
  const f = facts(d);
  const pages = pageStage(f);
  const spec = specOf(d, s);
  return {
    template: 'lookup',
    stages: [...pages, ...twoHop(f, { methods: [BM25, DENSE] }, { methods: [BM25, DENSE] }, pages.length > 0)],
    steps: spec ? [...computeSteps(spec, f), ...rankStep(s), ...readerAndJudge(f, { computed: '$VALUE' }, ['CMP'])] : [...rankStep(s), ...readerAndJudge(f)],
    rerank: { fuse: 'RRF', features: ['title', 'path', 'label', 'year', 'unit', 'page', 'same_section', 'intent'], diversify_by: 'section' },
    pack: { mmr_lambda: 0.72, ctx_tokens: s.ctxTokens, per_page_limit: 2, attach: ['heading_path', 'caption'] },
    coverage_gate: 0.5,
    fallbacks: coverageFallbacks(0.5, [{ condition: 'judge_failed', action: { raise_budget: 1.5, widen_k: 2 } }]),
    final: final(f),
  };
}

function tableNumber(d: RouterDecision, s: TemplateSettings): PlanInput {
  const f = facts(d);
  const pages = pageStage(f);
  const tableArgs = {
    query: '$question',
    k: 5,
    ...(f.years.length > 0 ? { years: f.years } : {}),
    ...(f.units.length > 0 ? { units: f.units } : {}),
    ...(f.tableLabels.length > 0 ? { labels: f.tableLabels } : {}),
    ...(f.pages.length > 0 ? { pages: f.pages, page_window: 1 } : {}),
  };
  const steps: PlanStep[] = [
    { step_id: 'T1', tool: TABLES, args: tableArgs, save_as: 'TABLES', depends_on: [] },
    {
      step_id: 'T2',
      tool: 'extract.column',
      args: { node_id: '$TABLES.hits.0.node_id', ...(f.rowPhrases.length > 0 ? { rows: f.rowPhrases, best_row_only: true, min_match: ROW_MIN_MATCH } : {}), ...(f.years.length > 0 ? { years: f.years } : {}) },
      save_as: 'CELLS',
      depends_on: ['T1'],
    },
  ];
  const spec = specOf(d, s);
  if (spec) steps.push(...computeSteps(spec, f));
  else if (f.arithmetic.length > 0) {
    steps.push({
      step_id: 'T3',
      tool: 'compute.eval',
      args: { operation: f.arithmetic[0]!, operands: '$CELLS', ...(f.round !== undefined ? { round: f.round } : {}), ...(f.units.length > 0 ? { units: f.units } : {}) },
      save_as: 'VALUE',
      depends_on: ['T2'],
    });
  }
  const computing = spec !== undefined || f.arithmetic.length > 0;
  const computed = computing ? '$VALUE' : '$CELLS';
  return {
    template: 'table_number',
    stages: [
      ...pages,
      ...twoHop(f, { methods: [TABLES, BM25, DENSE], roles: ['section', 'table'] }, { methods: [TABLES, BM25], roles: ['table', 'paragraph'] }, pages.length > 0),
    ],
    steps: [...steps, ...rankStep(s), ...readerAndJudge(f, { computed }, [spec ? 'CMP' : computing ? 'T3' : 'T2'])],
    rerank: { fuse: 'RRF', features: ['schema', 'label', 'unit', 'year', 'title', 'page', 'intent'], diversify_by: null },
    pack: { mmr_lambda: 0.72, ctx_tokens: s.ctxTokens, per_page_limit: 3, attach: ['caption', 'table_header', 'cells'] },
    coverage_gate: 0.6,
    fallbacks: coverageFallbacks(0.6, [
      { condition: 'extract_empty', action: { switch_lanes: [BM25, DENSE, TABLES], drop_roles: true, drop_within: true } },
      { condition: 'judge_failed', action: { widen_k: 2, raise_budget: 1.5 } },
    ]),
    final: final(f),
  };
}

function chart(d: RouterDecision, s: TemplateSettings): PlanInput {
  const f = facts(d);
  const pages = pageStage(f);
  const finder: PlanStep = {
    step_id: 'F',
    tool: 'figure_finder.find_regions',
    args: { query: '$question', k: 6, ...(f.figureLabels.length > 0 ? { labels: f.figureLabels } : {}), ...(f.pages.length > 0 ? { pages: f.pages, page_window: 1 } : {}) },
    save_as: 'REGIONS',
    depends_on: [],
  };
  const vlm: PlanStep[] = s.vlm ? [{ step_id: 'V', tool: 'vlm.answer', args: { question: '$question', regions: '$REGIONS', topk: 3 }, save_as: 'VISUAL', depends_on: ['F'] }] : [];
  return {
    template: 'chart',
    stages: [
      ...pages,
      ...twoHop(f, { methods: [CHARTS, BM25, DENSE], roles: ['image', 'chart', 'section'] }, { methods: [BM25, DENSE], roles: ['caption', 'paragraph'], kNodes: 30 }, pages.length > 0),
    ],
    steps: [finder, ...vlm, ...rankStep(s), ...readerAndJudge(f, { regions: '$REGIONS', ...(s.vlm ? { visual: '$VISUAL' } : {}) }, [s.vlm ? 'V' : 'F'])],
    rerank: { fuse: 'RRF', features: ['label', 'title', 'intent', 'page', 'year', 'same_section'], diversify_by: null },
    pack: { mmr_lambda: 0.72, ctx_tokens: s.ctxTokens, per_page_limit: 3, attach: ['caption', 'heading_path'] },
    coverage_gate: 0.5,
    fallbacks: coverageFallbacks(0.5, s.vlm ? [{ condition: 'visual_low_conf', action: { enable: 'vlm.answer', topk: 6 } }] : []),
    final: final(f),
  };
}

/** Roles the inventory stage of a count searches, by counted object. */
const COUNTED_ROLES: Readonly<Record<CountedObject, readonly string[]>> = {
  figure: ['image', 'chart'],
  image: ['image', 'chart'],
  chart: ['chart', 'image'],
  table: ['table'],
  equation: ['equation'],
  heading: ['section'],
};

function figureCount(d: RouterDecision, s: TemplateSettings): PlanInput {
  const f = facts(d);
  // Document objects themselves (figures, tables, "Appendix …" headings, pages holding them) are counted from the
  // tree; things inside pictures are found in the figures (and counted by the vision model when there is one).
  const analysis = analysisOf(d) ?? (s.question !== undefined ? analysisFor(s.question, d) : undefined);
  const counted = analysis ? countAnalysis(analysis) : undefined;
  const roles = counted?.object !== undefined ? [...COUNTED_ROLES[counted.object]] : f.countedRoles;
  const lanes = [...(roles.some((r) => r === 'image' || r === 'chart') ? [CHARTS] : []), ...(roles.includes('table') ? [TABLES] : []), BM25];
  const scope = {
    ...(f.pages.length > 0 ? { pages: f.pages, page_window: 0 } : {}),
    ...(f.sectionTitle !== undefined ? { section_title: f.sectionTitle } : {}),
  };
  const steps: PlanStep[] = [];
  const vision = s.vlm && counted?.object === undefined;
  if (counted?.object !== undefined) {
    const section = counted.section ?? f.sectionTitle;
    const args = {
      object: counted.object,
      ...(counted.headingWord !== undefined ? { heading_word: counted.headingWord } : {}),
      ...(counted.perPage ? { per_page: true } : {}),
      ...(f.pages.length > 0 ? { pages: f.pages } : {}),
      ...(section !== undefined ? { section_title: section } : {}),
      ...(counted.required.length > 0 ? { required: counted.required } : {}),
      ...(counted.qualifiers.length > 0 ? { qualifiers: counted.qualifiers } : {}),
    };
    steps.push({ step_id: 'S', tool: 'structure.count', args, save_as: 'OBJECTS', depends_on: [] });
    steps.push({ step_id: 'K', tool: 'compute.eval', args: { operation: 'count', operands: '$OBJECTS' }, save_as: 'COUNT', depends_on: ['S'] });
  } else {
    steps.push({ step_id: 'F', tool: 'figure_finder.find_regions', args: { query: '$question', roles: f.countedRoles, k: 200, ...scope }, save_as: 'REGIONS', depends_on: [] });
    if (s.vlm) steps.push({ step_id: 'V', tool: 'vlm.count', args: { question: '$question', regions: '$REGIONS' }, save_as: 'COUNTS', depends_on: ['F'] });
    steps.push({ step_id: 'K', tool: 'compute.eval', args: { operation: 'count', operands: s.vlm ? '$COUNTS' : '$REGIONS' }, save_as: 'COUNT', depends_on: [s.vlm ? 'V' : 'F'] });
  }
  return {
    template: 'figure_count',
    stages: [
      ...pageStage(f, 200),
      { stage: 'inventory', view: 'any', methods: lanes, roles: [...roles, 'caption'], k_pages: 50, k_nodes: 200, page_window: 0, ...(f.pages.length > 0 ? { pages: f.pages } : {}) },
    ],
    steps: [...steps, ...readerAndJudge(f, { computed: '$COUNT' }, ['K'])],
    rerank: { fuse: 'RRF', features: ['label', 'title', 'intent', 'page', 'same_section'], diversify_by: 'page' },
    pack: { mmr_lambda: 0.6, ctx_tokens: Math.round(s.ctxTokens * 1.5), per_page_limit: 4, attach: ['caption'] },
    coverage_gate: 0.6,
    fallbacks: [
      { condition: 'coverage<0.6', action: { widen_k: 2, ungate: true } },
      { condition: 'no_hits', action: { switch_lanes: [BM25, DENSE, CHARTS], drop_roles: true } },
      ...(vision ? [{ condition: 'visual_low_conf', action: { enable: 'vlm.count', topk: 12 } }] : []),
    ],
    final: { answer_var: 'ANS', format: 'Int' },
  };
}

function layout(d: RouterDecision, s: TemplateSettings): PlanInput {
  const f = facts(d);
  const hinted = f.pages.length > 0;
  const steps: PlanStep[] = [];
  if (hinted) steps.push({ step_id: 'P', tool: PAGES, args: { query: '$question', pages: f.pages, page_window: 0, k: 80 }, save_as: 'PAGE_NODES', depends_on: [] });
  steps.push({ step_id: 'H', tool: 'extract.heading_first', args: hinted ? { pages: f.pages, nodes: '$PAGE_NODES' } : { nodes: '$hits' }, save_as: 'HEADINGS', depends_on: hinted ? ['P'] : [] });
  if (s.vlm && hinted) steps.push({ step_id: 'V', tool: 'vlm.answer', args: { question: '$question', pages: f.pages }, save_as: 'VISUAL', depends_on: ['P'] });
  return {
    template: 'layout',
    stages: hinted
      ? [...pageStage(f, 80), ...twoHop(f, { methods: [BM25, DENSE] }, { methods: [BM25, DENSE] }, true)]
      : [withTerms({ stage: 'navigate', view: 'any', methods: [BM25, DENSE], k_pages: 6, k_nodes: 40, page_window: 0 }, f.queryTerms)],
    steps: [...steps, ...readerAndJudge(f, { headings: '$HEADINGS', ...(s.vlm && hinted ? { visual: '$VISUAL' } : {}) }, [steps[steps.length - 1]!.step_id])],
    rerank: { fuse: 'RRF', features: ['page', 'title', 'label', 'intent'], diversify_by: 'page' },
    pack: { mmr_lambda: 0.8, ctx_tokens: s.ctxTokens, per_page_limit: 8, attach: ['heading_path', 'caption'] },
    coverage_gate: 0.5,
    fallbacks: [
      // Printed page numbers often differ from physical ones: widen around the hinted pages, then drop them.
      { condition: 'coverage<0.5', action: { expand_window: 2 } },
      { condition: 'coverage<0.5', action: { drop_pages: true, ungate: true } },
      { condition: 'no_hits', action: { switch_lanes: [BM25, DENSE], drop_roles: true, drop_pages: true } },
      ...(s.vlm ? [{ condition: 'visual_low_conf', action: { enable: 'vlm.answer', topk: 4 } }] : []),
    ],
    final: final(f),
  };
}

function multiHop(d: RouterDecision, s: TemplateSettings): PlanInput {
  const f = facts(d);
  const pages = pageStage(f);
  const subs = d.sub_questions.slice(0, 4);
  const steps: PlanStep[] = subs.flatMap((q, i) => [
    { step_id: `S${i + 1}`, tool: BM25, args: { query: q, k: 10 }, save_as: `S${i + 1}`, depends_on: [] },
    { step_id: `D${i + 1}`, tool: DENSE, args: { query: q, k: 10, views: ['leaf', 'leaf_raw'] }, save_as: `D${i + 1}`, depends_on: [] },
  ]);
  if (subs.length > 0) {
    const refs = subs.flatMap((_, i) => [`$S${i + 1}`, `$D${i + 1}`]);
    const ids = steps.map((st) => st.step_id);
    steps.push({ step_id: 'X', tool: 'structure.expand', args: { hits: refs, parent: 1, siblings: 2 }, save_as: 'SUB_CANDIDATES', depends_on: ids });
    steps.push({ step_id: 'P', tool: 'pack.mmr_knapsack', args: { candidates: '$SUB_CANDIDATES', ctx_tokens: Math.round(s.ctxTokens / 2) }, save_as: 'SUB_PACK', depends_on: ['X'] });
  }
  const spec = specOf(d, s);
  if (spec) steps.push(...computeSteps(spec, f));
  else if (f.arithmetic.length > 0 && f.years.length > 0) {
    steps.push({ step_id: 'T1', tool: TABLES, args: { query: '$question', k: 5, years: f.years, ...(f.units.length > 0 ? { units: f.units } : {}) }, save_as: 'TABLES', depends_on: [] });
    steps.push({ step_id: 'T2', tool: 'extract.column', args: { node_id: '$TABLES.hits.0.node_id', ...(f.rowPhrases.length > 0 ? { rows: f.rowPhrases, best_row_only: true, min_match: ROW_MIN_MATCH } : {}), years: f.years }, save_as: 'CELLS', depends_on: ['T1'] });
    steps.push({ step_id: 'T3', tool: 'compute.eval', args: { operation: f.arithmetic[0]!, operands: '$CELLS', ...(f.round !== undefined ? { round: f.round } : {}) }, save_as: 'VALUE', depends_on: ['T2'] });
  }
  const before = steps.map((st) => st.step_id);
  return {
    template: 'multi_hop',
    stages: [...pages, ...twoHop(f, { methods: [BM25, DENSE], kPages: 8 }, { methods: [BM25, DENSE], kNodes: 60 }, pages.length > 0)],
    steps: [
      ...steps,
      ...rankStep(s),
      ...readerAndJudge(
        f,
        { ...(subs.length > 0 ? { evidence: ['$pack', '$SUB_PACK'], sub_questions: subs } : {}), ...(before.includes('T3') || before.includes('CMP') ? { computed: '$VALUE' } : {}) },
        before.filter((id) => id === 'P' || id === 'T3' || id === 'CMP'),
      ),
    ],
    rerank: { fuse: 'RRF', features: ['title', 'path', 'year', 'unit', 'label', 'same_section', 'intent'], diversify_by: 'section' },
    pack: { mmr_lambda: 0.65, ctx_tokens: Math.round(s.ctxTokens * 1.5), per_page_limit: 2, attach: ['heading_path', 'caption', 'table_header'] },
    coverage_gate: 0.6,
    fallbacks: coverageFallbacks(0.6, [{ condition: 'judge_failed', action: { raise_budget: 1.5, widen_k: 2 } }]),
    final: final(f),
  };
}

function summary(d: RouterDecision, s: TemplateSettings): PlanInput {
  const f = facts(d);
  const stages: PlanStage[] = [
    withTerms({ stage: 'navigate', view: 'coarse', methods: [DENSE, BM25], roles: ['section'], k_pages: 8, k_nodes: 20, page_window: 0 }, f.queryTerms),
    { stage: 'leaf', view: 'leaf', within: 'navigate', methods: [DENSE, BM25], k_pages: 8, k_nodes: 20, page_window: 0, when: 'coverage<gate' },
  ];
  return {
    template: 'summary',
    stages: [...pageStage(f), ...stages],
    steps: [
      { step_id: 'C', tool: 'structure.children', args: { node_id: '$hits.0.node_id', roles: ['section'], limit: 20 }, save_as: 'OUTLINE', depends_on: [] },
      ...readerAndJudge(f, { outline: '$OUTLINE', mode: 'summary' }, ['C']),
    ],
    rerank: { fuse: 'RRF', features: ['title', 'path', 'intent', 'same_section'], diversify_by: 'section' },
    pack: { mmr_lambda: 0.5, ctx_tokens: s.ctxTokens * 2, per_page_limit: 1, attach: ['gist', 'heading_path'] },
    coverage_gate: 0.4,
    fallbacks: coverageFallbacks(0.4),
    final: final(f),
  };
}

function unanswerable(d: RouterDecision, s: TemplateSettings): PlanInput {
  const f = facts(d);
  return {
    template: 'unanswerable',
    // Look anyway (the router can be wrong), but demand strong evidence before answering.
    stages: twoHop({ ...f, pages: [] }, { methods: [BM25, DENSE] }, { methods: [BM25, DENSE] }, false),
    steps: readerAndJudge({ ...f, format: 'None' }, { allow_not_answerable: true }).map((step) => (step.tool === 'judger.verify' ? { ...step, args: { ...step.args, strict: true } } : step)),
    rerank: { fuse: 'RRF', features: ['title', 'label', 'year', 'page', 'intent'], diversify_by: 'section' },
    pack: { mmr_lambda: 0.72, ctx_tokens: s.ctxTokens, per_page_limit: 2, attach: ['heading_path', 'caption'] },
    coverage_gate: 0.7,
    fallbacks: [{ condition: 'coverage<0.7', action: { drop_within: true } }],
    final: { answer_var: 'ANS', format: 'None' },
  };
}

/** The template of each query type. */
export const PLAN_TEMPLATES: Readonly<Record<QueryType, (decision: RouterDecision, settings: TemplateSettings) => PlanInput>> = {
  lookup,
  table_number: tableNumber,
  chart,
  figure_count: figureCount,
  layout,
  multi_hop: multiHop,
  summary,
  unanswerable,
};
