import { pageFromIndex } from '@doctree/schema';
import type { BBox, Trace, TraceAnswer, TraceEvent } from '@doctree/schema';

/**
 * A trace as a person follows it: the route, the plan, the path of stages and tool calls with what they found, the
 * evidence pack, the reader, the judger, the replans and the final answer. Built by {@link buildTraceView} from a
 * `doctree.trace` document alone; `doctree trace` prints it and the HTML viewer draws it.
 */
export interface TraceView {
  question: string;
  docId: string;
  traceId: string;
  startedAt: string;
  mode: Trace['mode'];
  llm: Trace['llm'];
  replans: number;
  route: RouteView | null;
  /** The plan of each attempt (the first, then one per REPLAN), as steps. */
  plans: PlanView[];
  /** Every step in the order it happened. */
  path: PathStep[];
  /** The evidence pack the kept answer was read from (the last pack of its attempt). */
  evidence: EvidenceView | null;
  reads: Array<{ attempt: number; message: string; confidence: number | null; notes: string[]; nodes: HitView[] }>;
  verdicts: Array<{ attempt: number; judge: string; message: string; action: string | null; score: number | null; pass: boolean | null }>;
  replanSteps: Array<{ attempt: number; message: string; reason: string | null }>;
  warnings: string[];
  final: FinalView;
}

/** The router's decision. */
export interface RouteView {
  queryType: string;
  source: string;
  confidence: number | null;
  message: string;
  /** Non-empty signals as `[name, values]` (keywords, years, entities, page hints…). */
  signals: Array<[string, string]>;
  candidates: Array<{ type: string; score: number }>;
  risk: string | null;
  domainPack: string | null;
  /** Line items and concepts the question analysis found. */
  analysis: Array<[string, string]>;
}

/** A plan: template and its stages and steps. */
export interface PlanView {
  attempt: number;
  planner: string;
  template: string;
  message: string;
  stages: string[];
  steps: string[];
}

/** A hit as the viewer shows it. */
export interface HitView {
  nodeId: string;
  /** 1-based page. */
  page: number;
  score: number;
  /** The hit's text: stored in the trace, or resolved from the document (see {@link TraceViewOptions.nodeText}). */
  text: string | null;
  bbox: BBox | null;
}

/** A tool call. */
export interface ToolCallView {
  index: number;
  toolId: string;
  status: 'ok' | 'error';
  args: Record<string, unknown>;
  latencyMs: number;
  nHits: number;
  hits: HitView[];
  error: string | null;
}

/** One step of the path. */
export interface PathStep {
  attempt: number;
  tMs: number;
  kind: TraceEvent['type'];
  /** One line saying what happened. */
  title: string;
  call?: ToolCallView;
  hits?: HitView[];
}

/** The evidence pack. */
export interface EvidenceView {
  attempt: number;
  totalTokens: number | null;
  budgetTokens: number | null;
  coverage: number | null;
  needsMissing: string[];
  items: HitView[];
}

/** Where the path ended. */
export interface FinalView {
  answer: string;
  format: string | null;
  display: string | null;
  confidence: number | null;
  pages: number[];
  /** Supporting spans with their boxes (from the stored answer, or the reader's hits). */
  support: HitView[];
  abstentionReason: string | null;
  /** `answer`: the trace file stored the final answer; `events`: read from the finalize and judge events. */
  source: 'answer' | 'events' | 'none';
}

/** A node's text, page and box, as a viewer resolves it from the document. */
export interface ResolvedNode {
  text: string;
  /** 1-based page. */
  page: number;
  bbox: BBox | null;
  role?: string;
}

/** Options of {@link buildTraceView}. */
export interface TraceViewOptions {
  /** Resolves a node id the trace stores no text for (e.g. from the document's `doctree.mm.json`). */
  nodeText?: (nodeId: string) => ResolvedNode | undefined;
  /** Hits kept per step. Default 10. */
  hitsPerStep?: number;
  /** Characters of hit text kept. Default 300. */
  textChars?: number;
}

/** Defaults of {@link TraceViewOptions}. */
export const TRACE_VIEW_DEFAULTS = { hitsPerStep: 10, textChars: 300 } as const;

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
const listText = (v: unknown): string => (Array.isArray(v) ? v.map((x) => (typeof x === 'object' && x !== null ? JSON.stringify(x) : String(x))).join(', ') : v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v));
const record = (v: unknown): Record<string, unknown> => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

const clip = (text: string, max: number): string => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

/** The answer value as one line of text. */
export function answerText(value: TraceAnswer['answer']): string {
  return Array.isArray(value) ? value.map(String).join('; ') : String(value);
}

/**
 * Builds the {@link TraceView} of a trace: every event in order, tool calls with their arguments and hits (text from
 * the trace, or from `nodeText`), the plan, evidence, reader, judger, replans and the final answer.
 *
 * @example
 * ```ts
 * const view = buildTraceView(trace);
 * console.log(view.route?.queryType, view.final.answer, view.final.confidence);
 * ```
 */
export function buildTraceView(trace: Trace, options: TraceViewOptions = {}): TraceView {
  const o = { ...TRACE_VIEW_DEFAULTS, ...options };
  const hitView = (h: { node_id: string; page_idx: number; score: number; snippet?: string | undefined; bbox?: BBox | null | undefined }): HitView => {
    const resolved = o.nodeText?.(h.node_id);
    const text = h.snippet ?? resolved?.text ?? null;
    return { nodeId: h.node_id, page: pageFromIndex(h.page_idx), score: h.score, text: text === null ? null : clip(text, o.textChars), bbox: h.bbox ?? resolved?.bbox ?? null };
  };
  const hitsOf = (e: TraceEvent): HitView[] => (e.hits ?? []).slice(0, o.hitsPerStep).map(hitView);

  let route: RouteView | null = null;
  const plans: PlanView[] = [];
  const path: PathStep[] = [];
  const packs: EvidenceView[] = [];
  const reads: TraceView['reads'] = [];
  const verdicts: TraceView['verdicts'] = [];
  const replanSteps: TraceView['replanSteps'] = [];
  const warnings: string[] = [];
  let finalize: TraceEvent | undefined;
  let calibration: Record<string, unknown> | undefined;
  let calls = 0;

  for (const e of trace.events) {
    const data = record(e.data);
    const step: PathStep = { attempt: e.attempt, tMs: e.t_ms, kind: e.type, title: e.message ?? e.type };
    switch (e.type) {
      case 'route': {
        const signals = record(data['signals']);
        const risk = record(data['risk']);
        const analysis = record(data['analysis']);
        const pack = record(data['domain_pack']);
        route = {
          queryType: str(data['query_type']) ?? e.message ?? 'unknown',
          source: str(data['router']) ?? 'unknown',
          confidence: num(data['confidence']),
          message: e.message ?? '',
          signals: Object.entries(signals).filter(([, v]) => (Array.isArray(v) ? v.length > 0 : v !== null && v !== undefined)).map(([k, v]) => [k, listText(v)]),
          candidates: (Array.isArray(data['candidates']) ? data['candidates'] : []).map(record).map((c) => ({ type: str(c['type']) ?? '?', score: num(c['score']) ?? 0 })),
          risk: str(risk['level']) ? `${String(risk['level'])}${strings(risk['reasons']).length ? ` (${strings(risk['reasons']).join('; ')})` : ''}` : null,
          domainPack: str(pack['name']) ? `${String(pack['name'])}${str(pack['chosen_by']) ? ` (chosen by ${String(pack['chosen_by'])})` : ''}` : null,
          analysis: ['line_items', 'concepts', 'aliases', 'operations', 'years', 'expected_format'].filter((k) => analysis[k] !== undefined && listText(analysis[k]) !== '').map((k) => [k, listText(analysis[k])]),
        };
        step.title = `route: ${route.queryType} (${route.source}${route.confidence !== null ? `, confidence ${route.confidence.toFixed(2)}` : ''})`;
        break;
      }
      case 'plan':
        if (str(data['planner'])) {
          plans.push({ attempt: e.attempt, planner: String(data['planner']), template: str(data['template']) ?? '', message: e.message ?? '', stages: strings(data['stages']), steps: strings(data['steps']) });
        }
        break;
      case 'tool_call': {
        calls++;
        const call: ToolCallView = {
          index: calls,
          toolId: e.tool_id ?? '?',
          status: e.status ?? 'ok',
          args: e.args ?? {},
          latencyMs: e.latency_ms ?? 0,
          nHits: e.n_hits ?? e.hits?.length ?? 0,
          hits: hitsOf(e),
          error: e.status === 'error' ? (e.message ?? 'failed') : null,
        };
        step.call = call;
        step.title = `${call.toolId} ${call.status} · ${call.nHits} hit(s) · ${call.latencyMs.toFixed(1)} ms`;
        break;
      }
      case 'fuse':
      case 'observe':
        step.hits = hitsOf(e);
        step.title = e.message ?? `${e.type}: ${e.n_hits ?? 0} hit(s)${str(data['method']) ? ` by ${String(data['method'])}` : ''}`;
        break;
      case 'expand':
        step.title = `expand: ${num(data['from']) ?? '?'} hit(s) + ${num(data['added']) ?? 0} by structure`;
        break;
      case 'pack': {
        const pack: EvidenceView = {
          attempt: e.attempt,
          totalTokens: num(data['total_tokens']),
          budgetTokens: num(data['budget_tokens']),
          coverage: num(data['coverage']),
          needsMissing: strings(data['needs_missing']),
          items: (e.hits ?? []).map(hitView),
        };
        packs.push(pack);
        step.hits = pack.items.slice(0, o.hitsPerStep);
        step.title = `evidence: ${pack.items.length} item(s), ${pack.totalTokens ?? '?'} tokens, coverage ${pack.coverage !== null ? pack.coverage.toFixed(2) : '?'}`;
        break;
      }
      case 'read':
        reads.push({ attempt: e.attempt, message: e.message ?? '', confidence: num(data['confidence']), notes: strings(data['notes']), nodes: hitsOf(e) });
        step.hits = hitsOf(e);
        step.title = `read: ${e.message ?? ''}`;
        break;
      case 'judge':
        if (data['judge'] === 'calibration') calibration = data;
        verdicts.push({ attempt: e.attempt, judge: str(data['judge']) ?? '?', message: e.message ?? '', action: str(data['action']), score: num(data['score']), pass: typeof data['pass'] === 'boolean' ? data['pass'] : null });
        step.title = `judge: ${e.message ?? ''}`;
        break;
      case 'replan':
        replanSteps.push({ attempt: e.attempt, message: e.message ?? '', reason: str(data['reason']) });
        step.title = `replan: ${e.message ?? ''}${str(data['reason']) ? ` (${String(data['reason'])})` : ''}`;
        break;
      case 'finalize':
        finalize = e;
        step.title = `finalize: ${e.message ?? ''}`;
        break;
      case 'warning':
      case 'error':
        warnings.push(e.message ?? e.type);
        step.title = `${e.type}: ${e.message ?? ''}`;
        break;
      case 'llm_call':
        step.title = `llm call${e.tokens ? `: ${e.tokens.prompt} + ${e.tokens.completion} tokens` : ''}${e.message ? ` (${e.message})` : ''}`;
        break;
    }
    path.push(step);
  }

  const keptAttempt = finalize?.attempt ?? trace.events.reduce((a, e) => Math.max(a, e.attempt), 0);
  const evidence = [...packs].reverse().find((p) => p.attempt === keptAttempt) ?? packs[packs.length - 1] ?? null;
  return {
    question: trace.question,
    docId: trace.doc_id,
    traceId: trace.trace_id,
    startedAt: trace.started_at,
    mode: trace.mode,
    llm: trace.llm,
    replans: trace.replans,
    route,
    plans,
    path,
    evidence,
    reads,
    verdicts,
    replanSteps,
    warnings,
    final: finalView(trace, finalize, calibration, reads.find((r) => r.attempt === keptAttempt), hitView),
  };
}

/** The final answer: stored on the trace, or read from its finalize and calibration events. */
function finalView(trace: Trace, finalize: TraceEvent | undefined, calibration: Record<string, unknown> | undefined, read: TraceView['reads'][number] | undefined, hitView: (h: { node_id: string; page_idx: number; score: number; snippet?: string; bbox?: BBox | null }) => HitView): FinalView {
  const stored = trace.answer;
  if (stored) {
    return {
      answer: answerText(stored.answer),
      format: stored.answer_format,
      display: stored.display ?? null,
      confidence: stored.confidence,
      pages: stored.pages,
      support: stored.support.map((s) => ({ ...hitView({ node_id: s.node_id, page_idx: s.page - 1, score: 1, snippet: s.snippet }), bbox: s.bbox ?? hitView({ node_id: s.node_id, page_idx: s.page - 1, score: 1 }).bbox })),
      abstentionReason: stored.abstention_reason ?? null,
      source: 'answer',
    };
  }
  if (!finalize) return { answer: '', format: null, display: null, confidence: null, pages: [], support: [], abstentionReason: null, source: 'none' };
  // `finalize` says `<JSON answer> (<format>) from attempt N`; the calibration judge may decline it afterwards.
  const match = /^(.*) \((Int|Float|Str|List|None)\) from attempt \d+$/s.exec(finalize.message ?? '');
  let answer = match?.[1] ?? finalize.message ?? '';
  try {
    const parsed: unknown = JSON.parse(answer);
    answer = Array.isArray(parsed) ? parsed.map(String).join('; ') : String(parsed);
  } catch {
    // Not JSON: shown as recorded.
  }
  const refused = calibration?.['refused'] === true;
  const applies = calibration?.['mode'] === 'apply';
  const confidence = refused ? num(calibration?.['p_refuse']) : applies ? num(calibration?.['p_answer']) : (read?.confidence ?? null);
  const recorded = record(finalize.data)['pages'];
  const pages = Array.isArray(recorded) ? recorded.filter((p): p is number => typeof p === 'number') : [];
  return {
    answer: refused ? 'Not answerable' : answer,
    format: refused ? 'None' : (match?.[2] ?? null),
    display: null,
    confidence,
    pages: refused ? [] : pages,
    support: refused ? [] : (read?.nodes ?? []),
    abstentionReason: refused ? 'declined by the answer calibration' : null,
    source: 'events',
  };
}
