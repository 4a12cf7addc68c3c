import { z } from 'zod';
import { BBoxSchema, PageIdxSchema, PageNumberSchema } from './common.js';

/**
 * Agent-loop records: Router → RouterDecision, Planner → StrategyPlan, ToolHub → ToolCall/ToolResult/Hit,
 * Observer → Observation, packing → EvidencePack, Finalizer → Answer, plus the Trace of a run.
 * Pages shown to people (`page`, `pages`) are 1-based; tool-level hits keep the stored 0-based `page_idx`.
 */

/** Question templates the planner knows. */
export const QueryTypeSchema = z.enum([
  'lookup',
  'table_number',
  'chart',
  'figure_count',
  'layout',
  'multi_hop',
  'summary',
  'unanswerable',
]);
export type QueryType = z.infer<typeof QueryTypeSchema>;

/** Answer formats (MMLongBench-Doc's, with `None` for unanswerable). */
export const AnswerFormatSchema = z.enum(['Int', 'Float', 'Str', 'List', 'None']);
export type AnswerFormat = z.infer<typeof AnswerFormatSchema>;

/** Arithmetic / reasoning operations a question asks for. */
export const OperationSchema = z.enum([
  'lookup',
  'count',
  'sum',
  'difference',
  'ratio',
  'percent',
  'percent_change',
  'average',
  'max',
  'min',
  'compare',
  'trend',
  'list',
  'locate',
]);
export type Operation = z.infer<typeof OperationSchema>;

/** An object the question names: `Figure 3`, `Table 2`, `cash flow statement`, a page. */
export const QueryObjectSchema = z.object({
  kind: z.enum(['figure', 'table', 'chart', 'section', 'page', 'equation', 'statement', 'entity']),
  label: z.string().optional(),
  text: z.string(),
});
export type QueryObject = z.infer<typeof QueryObjectSchema>;

/** Router output. */
export const RouterDecisionSchema = z.object({
  query_type: QueryTypeSchema,
  /** All plausible types with scores in [0, 1], best first. */
  candidates: z.array(z.object({ type: QueryTypeSchema, score: z.number().min(0).max(1) })).min(1),
  signals: z.object({
    /** 1-based pages the question mentions. */
    page_hints: z.array(PageNumberSchema).default([]),
    objects: z.array(QueryObjectSchema).default([]),
    units: z.array(z.string()).default([]),
    years: z.array(z.number().int()).default([]),
    operations: z.array(OperationSchema).default([]),
    expected_format: AnswerFormatSchema.nullable().default(null),
    keywords: z.array(z.string()).default([]),
    entities: z.array(z.string()).default([]),
  }),
  risk: z.object({ level: z.enum(['low', 'medium', 'high']), reasons: z.array(z.string()).default([]) }),
  constraints: z.array(z.string()).default([]),
  sub_questions: z.array(z.string()).default([]),
  confidence: z.number().min(0).max(1),
  /** Who decided: the rule router, or the LLM router (validated against this schema). */
  source: z.enum(['rules', 'llm']),
});
export type RouterDecision = z.infer<typeof RouterDecisionSchema>;

/** A retrieval stage of a plan. */
export const PlanStageSchema = z.object({
  stage: z.string().min(1),
  methods: z.array(z.string().min(1)).min(1),
  k_pages: z.number().int().positive().default(8),
  k_nodes: z.number().int().positive().default(50),
  page_window: z.number().int().nonnegative().default(1),
  /** Restrict the stage to these roles, e.g. `["table"]`. */
  roles: z.array(z.string()).optional(),
  /**
   * Index view the lanes search: `coarse` (sections, tables, figures: bm25 `sources: ["coarse"]`, dense
   * `views: ["coarse"]`), `leaf` (paragraphs, lists, captions), or `any` (both). Absent = `any`.
   */
  view: z.enum(['coarse', 'leaf', 'any']).optional(),
  /**
   * Second hop (docs/design/agent-loop.md §3.2): search only inside the windows an earlier stage (named here) chose — the sections of its
   * top `k_pages` hits with their subtrees, plus `page_window` pages around them.
   */
  within: z.string().min(1).optional(),
  /** Run the stage only when this condition holds after the earlier stages (fallback language, e.g. `coverage<0.5`); absent = always. */
  when: z.string().min(1).optional(),
  /** Restrict the stage to these 1-based pages (± `page_window`), e.g. the router's page hints. */
  pages: z.array(PageNumberSchema).optional(),
  /** Terms added to the question for this stage's search (question rewriting: labels, statement names, synonyms). */
  query_terms: z.array(z.string().min(1)).optional(),
});
export type PlanStage = z.infer<typeof PlanStageSchema>;

/** A post-retrieval step (locate, extract, compute…) whose output is saved as a variable. */
export const PlanStepSchema = z.object({
  step_id: z.string().min(1),
  tool: z.string().min(1),
  args: z.record(z.string(), z.unknown()).default({}),
  save_as: z.string().optional(),
  depends_on: z.array(z.string()).default([]),
});
export type PlanStep = z.infer<typeof PlanStepSchema>;

/** A fallback applied when its condition holds (e.g. `coverage<0.5` → `{expand_window: 1}`). */
export const PlanFallbackSchema = z.object({
  condition: z.string().min(1),
  action: z.record(z.string(), z.unknown()),
});
export type PlanFallback = z.infer<typeof PlanFallbackSchema>;

/** Planner output (docs/design/agent-loop.md §3.1). */
export const StrategyPlanSchema = z.object({
  template: QueryTypeSchema,
  stages: z.array(PlanStageSchema).min(1),
  steps: z.array(PlanStepSchema).default([]),
  rerank: z.object({
    fuse: z.enum(['RRF', 'weighted']).default('RRF'),
    features: z.array(z.string()).default([]),
    diversify_by: z.enum(['section', 'page']).nullable().default(null),
  }),
  pack: z.object({
    mmr_lambda: z.number().min(0).max(1).default(0.72),
    ctx_tokens: z.number().int().positive().default(1500),
    per_page_limit: z.number().int().positive().default(2),
    attach: z.array(z.string()).default([]),
  }),
  coverage_gate: z.number().min(0).max(1).default(0.5),
  fallbacks: z.array(PlanFallbackSchema).default([]),
  final: z.object({ answer_var: z.string().default('ANS'), format: z.string() }),
});
export type StrategyPlan = z.infer<typeof StrategyPlanSchema>;

/** Modalities of hits and observations. */
export const ModalitySchema = z.enum(['text', 'table', 'image', 'chart', 'equation', 'list', 'section', 'page']);
export type Modality = z.infer<typeof ModalitySchema>;

/** The common hit of every retrieval tool (docs/design/agent-loop.md §5: `{eid, doc_id, page_idx, node_id, modality, snippet, bbox, score_raw, method, extra}`). */
export const HitSchema = z.object({
  eid: z.string().min(1),
  doc_id: z.string().min(1),
  page_idx: PageIdxSchema,
  node_id: z.string().min(1),
  modality: ModalitySchema,
  snippet: z.string(),
  bbox: BBoxSchema.nullable(),
  score_raw: z.number(),
  /** Tool that produced the hit, e.g. `bm25_node.search`. */
  method: z.string().min(1),
  /** Fused score after RRF/rerank, when computed. */
  score: z.number().optional(),
  extra: z.record(z.string(), z.unknown()).default({}),
});
export type Hit = z.infer<typeof HitSchema>;

/** A call to a tool card. */
export const ToolCallSchema = z.object({
  call_id: z.string().min(1),
  tool_id: z.string().min(1),
  args: z.record(z.string(), z.unknown()),
});
export type ToolCall = z.infer<typeof ToolCallSchema>;

/** Token usage of one LLM call or an aggregate. */
export const TokenUsageSchema = z.object({
  prompt: z.number().int().nonnegative(),
  completion: z.number().int().nonnegative(),
});
export type TokenUsage = z.infer<typeof TokenUsageSchema>;

/** A tool's result; failures are data (`status: "error"`), the loop goes on. */
export const ToolResultSchema = z.object({
  call_id: z.string().min(1),
  tool_id: z.string().min(1),
  status: z.enum(['ok', 'error']),
  hits: z.array(HitSchema).default([]),
  data: z.unknown().optional(),
  metrics: z.object({
    latency_ms: z.number().nonnegative(),
    n_hits: z.number().int().nonnegative(),
    tokens: TokenUsageSchema.optional(),
  }),
  error: z.object({ code: z.string(), message: z.string() }).optional(),
});
export type ToolResult = z.infer<typeof ToolResultSchema>;

/** A parsed table as observed: header, rows, units per column. */
export const TablePayloadSchema = z.object({
  kind: z.literal('table'),
  caption: z.string().optional(),
  columns: z.array(z.string()),
  rows: z.array(z.array(z.string())),
  units: z.array(z.string().nullable()).default([]),
  /** Scale stated for the table, e.g. `millions`. */
  scale: z.string().optional(),
  markdown: z.string(),
  /** The table's text exactly as it appears in the document's canonical text (rows joined by ` | ` and new lines). */
  text: z.string().optional(),
  /** Span of `text` in the document's canonical text, when known. */
  char_span: z.tuple([z.number().int(), z.number().int()]).optional(),
});
/** Text with anchors. */
export const TextPayloadSchema = z.object({
  kind: z.literal('text'),
  text: z.string(),
  heading_path: z.array(z.string()).default([]),
  char_span: z.tuple([z.number().int(), z.number().int()]).optional(),
});
/** What is known about a figure: caption, legend, nearby text, OCR or a VLM description. */
export const ImagePayloadSchema = z.object({
  kind: z.literal('image'),
  caption: z.string().optional(),
  description: z.string(),
  source: z.enum(['caption', 'ocr', 'vlm', 'nearby_text']),
  chart_type: z.string().optional(),
  /** Span of `caption` in the document's canonical text, when known. */
  char_span: z.tuple([z.number().int(), z.number().int()]).optional(),
});

/** Observer output. */
export const ObservationSchema = z.object({
  node_id: z.string().min(1),
  modality: ModalitySchema,
  payload: z.discriminatedUnion('kind', [TextPayloadSchema, TablePayloadSchema, ImagePayloadSchema]),
  /** 1-based page. */
  page: PageNumberSchema,
  bbox: BBoxSchema.nullable(),
});
export type Observation = z.infer<typeof ObservationSchema>;

/** One packed evidence item. */
export const EvidenceItemSchema = z.object({
  node_id: z.string().min(1),
  page: PageNumberSchema,
  role: z.string(),
  text: z.string(),
  tokens: z.number().int().nonnegative(),
  score: z.number(),
  /** Why it is in the pack: the lane or expansion that brought it. */
  via: z.array(z.string()).default([]),
});
export type EvidenceItem = z.infer<typeof EvidenceItemSchema>;

/** Result of `pack.mmr_knapsack`: what fits the budget and how much of the plan's needs it covers. */
export const EvidencePackSchema = z.object({
  items: z.array(EvidenceItemSchema),
  total_tokens: z.number().int().nonnegative(),
  budget_tokens: z.number().int().positive(),
  coverage: z.number().min(0).max(1),
  needs_covered: z.array(z.string()).default([]),
  needs_missing: z.array(z.string()).default([]),
});
export type EvidencePack = z.infer<typeof EvidencePackSchema>;

/** A supporting span of an answer. */
export const SupportSchema = z.object({
  node_id: z.string().min(1),
  /** 1-based page. */
  page: PageNumberSchema,
  bbox: BBoxSchema.nullable(),
  char_start: z.number().int().nonnegative(),
  char_end: z.number().int().nonnegative(),
  snippet: z.string(),
});
export type Support = z.infer<typeof SupportSchema>;

/** Types of trace events. */
export const TraceEventTypeSchema = z.enum([
  'route',
  'plan',
  'tool_call',
  'fuse',
  'expand',
  'pack',
  'observe',
  'read',
  'judge',
  'replan',
  'finalize',
  'llm_call',
  'warning',
  'error',
]);

/**
 * A hit as stored on a trace event: which node a tool returned, where, how it scored, and (for the first hits of an
 * event, bounded) the start of its text and its box, so a trace viewer can show what was found without the document.
 */
export const TraceHitSchema = z.object({
  node_id: z.string(),
  page_idx: PageIdxSchema,
  score: z.number(),
  /** The start of the hit's text (whitespace collapsed, at most a few hundred characters); absent on later hits. */
  snippet: z.string().optional(),
  /** The hit's box on its page, in PDF points (origin top-left), when known. */
  bbox: BBoxSchema.nullable().optional(),
});
export type TraceHit = z.infer<typeof TraceHitSchema>;

/** One event of a trace. `tool_call` events carry what replay needs (tool, args, status, hits). */
export const TraceEventSchema = z.object({
  type: TraceEventTypeSchema,
  /** Milliseconds since the trace started. */
  t_ms: z.number().nonnegative(),
  /** Attempt number (0 for the first pass, +1 per REPLAN). */
  attempt: z.number().int().nonnegative().default(0),
  tool_id: z.string().optional(),
  args: z.record(z.string(), z.unknown()).optional(),
  status: z.enum(['ok', 'error']).optional(),
  n_hits: z.number().int().nonnegative().optional(),
  latency_ms: z.number().nonnegative().optional(),
  tokens: TokenUsageSchema.optional(),
  hits: z.array(TraceHitSchema).optional(),
  message: z.string().optional(),
  data: z.record(z.string(), z.unknown()).optional(),
});
export type TraceEvent = z.infer<typeof TraceEventSchema>;

/** An answer value: text, a number, or a list. */
export const AnswerValueSchema = z.union([z.string(), z.number(), z.array(z.union([z.string(), z.number()]))]);
export type AnswerValue = z.infer<typeof AnswerValueSchema>;

/**
 * The final answer as a trace file keeps it (`traceWithAnswer`): value, format, confidence, pages and the supporting
 * spans (snippets bounded), so `doctree trace` and its viewer show where the path ended without the `Answer`.
 */
export const TraceAnswerSchema = z.object({
  answer: AnswerValueSchema,
  answer_format: AnswerFormatSchema,
  display: z.string().optional(),
  confidence: z.number().min(0).max(1),
  /** 1-based pages of the support. */
  pages: z.array(PageNumberSchema),
  support: z.array(SupportSchema),
  /** Why the system declined, when it did. */
  abstention_reason: z.string().optional(),
});
export type TraceAnswer = z.infer<typeof TraceAnswerSchema>;

/** The path a question took. Secrets never appear here (redacted before writing). */
export const TraceSchema = z.object({
  format: z.literal('doctree.trace'),
  version: z.literal(1),
  trace_id: z.string().min(1),
  doc_id: z.string().min(1),
  question: z.string(),
  started_at: z.string().datetime({ offset: true }),
  mode: z.enum(['offline', 'llm']),
  events: z.array(TraceEventSchema),
  llm: z.object({
    calls: z.number().int().nonnegative(),
    prompt_tokens: z.number().int().nonnegative(),
    completion_tokens: z.number().int().nonnegative(),
    cost_usd: z.number().nonnegative().nullable(),
  }),
  replans: z.number().int().nonnegative(),
  /** The final answer, when the writer of the trace file added it (`doctree ask --trace` does). */
  answer: TraceAnswerSchema.optional(),
});
export type Trace = z.infer<typeof TraceSchema>;

/** Final output of `ask` (`--json` prints exactly this). */
export const AnswerSchema = z.object({
  answer: AnswerValueSchema,
  answer_format: AnswerFormatSchema,
  /** The answer as a person reads it, with its unit and scale (e.g. `$37.5 million`), when the reader knows them. */
  display: z.string().min(1).optional(),
  confidence: z.number().min(0).max(1),
  support: z.array(SupportSchema),
  /** 1-based pages of the support, sorted, unique. */
  pages: z.array(PageNumberSchema),
  /**
   * Present when the system declined to answer ("Not answerable"): why, the answer it withheld (if its reader had
   * one) with the probability that it was right, and the best evidence it found, still shown and citable.
   */
  abstention: z
    .object({
      reason: z.string().min(1),
      withheld: z.object({ answer: AnswerValueSchema, answer_format: AnswerFormatSchema, confidence: z.number().min(0).max(1) }).optional(),
      evidence: z.array(SupportSchema),
    })
    .optional(),
  trace: TraceSchema,
});
export type Answer = z.infer<typeof AnswerSchema>;
