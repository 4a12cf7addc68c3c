import { DocTreeError } from '@doctree/schema';
import type { StrategyPlan } from '@doctree/schema';

/**
 * The words plans are written in: tool ids, rerank features, pack attachments, step variables and fallback
 * conditions — shared by the planner, `replan` and the loop that executes plans.
 */

/** Retrieval lanes a stage may run (concurrently). */
export const RETRIEVAL_TOOL_IDS = ['bm25_node.search', 'dense.search', 'table_index.search', 'chart_index.search', 'page_locator.locate'] as const;

/** Every ToolHub tool id a plan may name . */
export const PLANNER_TOOL_IDS = [
  ...RETRIEVAL_TOOL_IDS,
  'structure.expand',
  'structure.children',
  'structure.count',
  'figure_finder.find_regions',
  'pack.mmr_knapsack',
  'extract.column',
  'extract.heading_first',
  'compute.eval',
  'reader.answer',
  'judger.verify',
  'rank.llm',
  'vlm.answer',
  'vlm.count',
] as const;

/** A tool id of {@link PLANNER_TOOL_IDS}. */
export type PlannerToolId = (typeof PLANNER_TOOL_IDS)[number];

/** Tools that need a chat model (`rank.llm`) or a vision model (`vlm.*`); the planner adds them only when configured. */
export const MODEL_TOOL_IDS: ReadonlySet<string> = new Set(['rank.llm', 'vlm.answer', 'vlm.count']);

/** Rerank feature names (docs/design/index-features.md §4; the ToolHub feature rerank's names). */
export const RERANK_FEATURE_NAMES = ['title', 'path', 'label', 'schema', 'alias', 'unit', 'year', 'page', 'same_section', 'intent'] as const;

/** What packed evidence may carry besides a node's own text (docs/design/index-features.md §5). */
export const PACK_ATTACHMENT_NAMES = ['caption', 'table_header', 'cells', 'gist', 'heading_path'] as const;

/**
 * Variables a step's arguments may reference as `"$name"` (or `"$name.path.0.field"`), besides the `save_as` names of
 * earlier steps. An array of references means their concatenation (e.g. `["$S1", "$S2"]` → both hit lists).
 */
export const PLAN_VARIABLES = {
  question: 'the question as asked',
  decision: 'the router decision',
  hits: 'fused and reranked hits of the retrieval stages, best first',
  candidates: 'hits after structure expansion',
  pack: 'the evidence pack (pack.mmr_knapsack over the candidates)',
} as const;

/** Flags the loop raises after a pass (see {@link evaluatePlanCondition}). */
export const PLAN_FLAGS = ['no_hits', 'extract_empty', 'visual_low_conf', 'judge_failed', 'empty_answer'] as const;
/** A flag of {@link PLAN_FLAGS}. */
export type PlanFlag = (typeof PLAN_FLAGS)[number];

/** Measurements a condition can compare. */
export const PLAN_METRICS = ['coverage', 'confidence', 'hits', 'attempt'] as const;

/** What the loop knows after a pass, for conditions. */
export interface PlanState {
  /** Coverage of the evidence pack, 0..1. */
  coverage?: number;
  /** Confidence of the answer, 0..1. */
  confidence?: number;
  /** Hits of the retrieval stages. */
  hits?: number;
  /** 0 for the first pass, +1 per REPLAN. */
  attempt?: number;
  flags?: readonly PlanFlag[];
}

/** A parsed condition: a flag, or `metric op number` (the number may be `gate`, the plan's coverage gate). */
export type PlanCondition =
  | { kind: 'flag'; flag: PlanFlag }
  | { kind: 'compare'; metric: (typeof PLAN_METRICS)[number]; op: '<' | '<=' | '>' | '>=' | '=='; value: number | 'gate' };

const COMPARE = /^\s*(coverage|confidence|hits|attempt)\s*(<=|>=|==|<|>)\s*([0-9]*\.?[0-9]+|gate)\s*$/;

/** Parses a fallback / stage condition (`coverage<0.5`, `hits==0`, `visual_low_conf`); throws `INTERNAL` naming it when it is not one. */
export function parsePlanCondition(condition: string): PlanCondition {
  const flag = condition.trim() as PlanFlag;
  if ((PLAN_FLAGS as readonly string[]).includes(flag)) return { kind: 'flag', flag };
  const m = COMPARE.exec(condition);
  if (!m) {
    throw new DocTreeError('INTERNAL', `unknown plan condition ${JSON.stringify(condition)}`, {
      hint: `Use a flag (${PLAN_FLAGS.join(', ')}) or "<metric><op><number>" with metric ${PLAN_METRICS.join(' | ')}.`,
    });
  }
  return {
    kind: 'compare',
    metric: m[1] as (typeof PLAN_METRICS)[number],
    op: m[2] as '<' | '<=' | '>' | '>=' | '==',
    value: m[3] === 'gate' ? 'gate' : Number(m[3]),
  };
}

/**
 * True when a condition holds in `state`. A comparison with an unknown measurement is false (nothing is known to be
 * low); `gate` stands for the plan's coverage gate.
 */
export function evaluatePlanCondition(condition: string, state: PlanState, plan?: Pick<StrategyPlan, 'coverage_gate'>): boolean {
  const parsed = parsePlanCondition(condition);
  if (parsed.kind === 'flag') return (state.flags ?? []).includes(parsed.flag);
  const actual = state[parsed.metric];
  if (actual === undefined) return false;
  const value = parsed.value === 'gate' ? (plan?.coverage_gate ?? 0.5) : parsed.value;
  switch (parsed.op) {
    case '<':
      return actual < value;
    case '<=':
      return actual <= value;
    case '>':
      return actual > value;
    case '>=':
      return actual >= value;
    case '==':
      return actual === value;
  }
}

/** A `$VAR` / `$VAR.path.0.field` reference: the variable's name and the path into its value (array indexes as strings). */
export interface PlanReference {
  /** The reference as written. */
  text: string;
  name: string;
  path: string[];
}

/** The form of a reference: the whole string is `$` + a name + dotted keys or indexes. */
const REFERENCE = /^\$([A-Za-z_][A-Za-z0-9_]*)((?:\.[A-Za-z0-9_]+)*)$/;

/** The reference a string is, or undefined when it is a plain value (`$5 million`, `$US`, `cost in $`). */
export function parseReference(value: unknown): PlanReference | undefined {
  if (typeof value !== 'string') return undefined;
  const m = REFERENCE.exec(value);
  if (!m) return undefined;
  return { text: value, name: m[1]!, path: m[2] ? m[2].slice(1).split('.') : [] };
}

/** Every reference in a step's arguments, anywhere in nested arrays / objects, in order of appearance. */
export function planReferences(value: unknown): PlanReference[] {
  const out: PlanReference[] = [];
  const walk = (v: unknown): void => {
    const reference = parseReference(v);
    if (reference) out.push(reference);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (typeof v === 'object' && v !== null) Object.values(v).forEach(walk);
  };
  walk(value);
  return out;
}

/** Variable names a step argument references (`$TABLES.hits.0.node_id` → `TABLES`), anywhere in nested arrays / objects. */
export function referencedVariables(value: unknown): string[] {
  return [...new Set(planReferences(value).map((r) => r.name))];
}
