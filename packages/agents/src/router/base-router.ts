import { DocTreeError, RouterDecisionSchema, formatIssues } from '@doctree/schema';
import type { DocTreeErrorCode, QuestionAnalysis, QuestionRouteOptions, QuestionRouter, RouterDecision } from '@doctree/schema';
import type { CompiledDomainPack } from '@doctree/toolhub';
import { analyzeQuestion, attachAnalysis, legacyDomainPack } from '../analysis/question-analysis.js';

/**
 * Per-call options of {@link BaseRouter.route}: those of the `QuestionRouter` interface of `@doctree/schema`, with the
 * pack typed as the compiled domain pack of `@doctree/toolhub` that the question analysis reads.
 */
export interface RouteOptions extends QuestionRouteOptions {
  /** The domain pack of the document (default: the router's). */
  pack?: CompiledDomainPack;
}

/** Why a router fell back to its rule decision. */
export interface RouterFallback {
  code: DocTreeErrorCode;
  /** Redacted message. */
  message: string;
}

/** What a router's {@link BaseRouter._route} hook returns. */
export interface RouteOutcome {
  decision: RouterDecision;
  /** Set when an LLM router could not use the model and returned the rule decision instead. */
  fallback?: RouterFallback;
}

/** One finished routing, as reported to {@link BaseRouterOptions.onRoute}. */
export interface RouteRecord {
  router: string;
  question: string;
  decision: RouterDecision;
  latencyMs: number;
  fallback?: RouterFallback;
}

/** Options shared by every {@link BaseRouter} subclass. */
export interface BaseRouterOptions {
  /** Longest question accepted, characters (longer is a `USAGE` error, not a truncation). Default 4000. */
  maxQuestionChars?: number;
  /** Called after each routing (tracing). Must not throw. */
  onRoute?: (record: RouteRecord) => void;
  /** The domain pack questions are read with when a call names none. Default: the finance pack (as before packs). */
  pack?: CompiledDomainPack;
}

/** Defaults of {@link BaseRouterOptions}. */
export const BASE_ROUTER_DEFAULTS = { maxQuestionChars: 4000 } as const satisfies BaseRouterOptions;

/**
 * Abstract base of routers (question → {@link RouterDecision}), in the LangChain pattern: the public {@link route}
 * validates the question and the page count, honours the abort signal, calls the protected hook {@link _route},
 * then enforces the decision contract — valid against `RouterDecisionSchema`, candidates unique and best first,
 * `query_type` the first candidate, page hints and years sorted and unique — and reports to `onRoute`.
 *
 * @example
 * ```ts
 * class AlwaysLookup extends BaseRouter {
 *   readonly name = 'always-lookup';
 *   protected async _route(question: string): Promise<RouteOutcome> {
 *     return { decision: { ...new RuleRouter().decide(question), query_type: 'lookup' } };
 *   }
 * }
 * ```
 */
export abstract class BaseRouter implements QuestionRouter {
  /** Name reported in traces. */
  abstract readonly name: string;
  readonly #options: Required<Pick<BaseRouterOptions, 'maxQuestionChars'>> & Pick<BaseRouterOptions, 'onRoute' | 'pack'>;

  constructor(options: BaseRouterOptions = {}) {
    this.#options = { ...BASE_ROUTER_DEFAULTS, ...options };
  }

  /** The pack of calls that name none. */
  protected get domainPack(): CompiledDomainPack {
    return this.#options.pack ?? legacyDomainPack();
  }

  /** Routes a question: its type candidates, signals, risk and constraints. */
  async route(question: string, options: RouteOptions = {}): Promise<RouterDecision> {
    const text = this.#validate(question, options);
    throwIfCancelled(this.name, options.signal);
    const started = performance.now();
    const pack = options.pack ?? this.domainPack;
    const analysis =
      options.analysis?.question === text && options.analysis.pack === pack.name
        ? options.analysis
        : analyzeQuestion(text, { pack, ...(options.pageCount !== undefined ? { pageCount: options.pageCount } : {}) });
    const outcome = await this._route(text, { ...options, pack, analysis });
    throwIfCancelled(this.name, options.signal);
    const decision = attachAnalysis(withAliases(normalizeDecision(this.name, outcome?.decision), analysis), analysis);
    const record: RouteRecord = { router: this.name, question: text, decision, latencyMs: performance.now() - started };
    if (outcome.fallback !== undefined) record.fallback = outcome.fallback;
    try {
      this.#options.onRoute?.(record);
    } catch {
      // A tracing hook must not break routing.
    }
    return decision;
  }

  /** The routing itself, on the trimmed question. The public method validates and normalises what it returns. */
  protected abstract _route(question: string, options: RouteOptions): Promise<RouteOutcome>;

  #validate(question: string, options: RouteOptions): string {
    if (typeof question !== 'string') throw new DocTreeError('USAGE', `${this.name}: the question must be a string, got ${typeof question}`);
    const text = question.trim();
    if (text === '') throw new DocTreeError('USAGE', `${this.name}: the question is empty`, { hint: 'Ask a question about the document.' });
    if (text.length > this.#options.maxQuestionChars) {
      throw new DocTreeError('USAGE', `${this.name}: the question has ${text.length} characters, more than ${this.#options.maxQuestionChars}`, {
        hint: 'Ask a shorter question; documents go to `doctree ingest`, not into the question.',
      });
    }
    if (options.pageCount !== undefined && (!Number.isInteger(options.pageCount) || options.pageCount < 1)) {
      throw new DocTreeError('USAGE', `${this.name}: pageCount must be a positive integer, got ${String(options.pageCount)}`);
    }
    return text;
  }
}

function throwIfCancelled(name: string, signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new DocTreeError('CANCELLED', `Routing by ${name} was cancelled`, { cause: signal.reason });
}

const sortedUnique = (values: readonly number[]): number[] => [...new Set(values)].sort((a, b) => a - b);

/** Every router's decision carries the question's `alias:` and `item:` constraints, whoever decided. */
function withAliases(decision: RouterDecision, analysis: QuestionAnalysis): RouterDecision {
  const constraints = [...analysis.aliases.map((term) => `alias:${term}`), ...analysis.line_items.map((item) => `item:${item}`)];
  const missing = constraints.filter((c) => !decision.constraints.includes(c) && !(c.startsWith('item:') && decision.constraints.some((d) => d.startsWith('item:'))));
  return missing.length > 0 ? { ...decision, constraints: [...decision.constraints, ...missing] } : decision;
}

/**
 * Validates a decision and puts it in canonical form: candidates unique by type (best score kept) and best first,
 * with `query_type` first (its score raised to the best when a router ranked it lower), page hints and years sorted
 * and unique. Throws `INTERNAL` naming the field when the decision is invalid.
 */
export function normalizeDecision(router: string, decision: unknown): RouterDecision {
  const parsed = RouterDecisionSchema.safeParse(decision);
  if (!parsed.success) throw new DocTreeError('INTERNAL', `router ${router} returned an invalid decision: ${formatIssues(parsed.error)}`);
  const d = parsed.data;
  const best = new Map<RouterDecision['query_type'], number>();
  for (const c of d.candidates) best.set(c.type, Math.max(best.get(c.type) ?? 0, c.score));
  const top = Math.max(...best.values());
  if ((best.get(d.query_type) ?? -1) < top) best.set(d.query_type, top);
  const candidates = [...best]
    .map(([type, score]) => ({ type, score }))
    .sort((a, b) => b.score - a.score || (a.type === d.query_type ? -1 : b.type === d.query_type ? 1 : 0));
  return {
    ...d,
    candidates,
    signals: { ...d.signals, page_hints: sortedUnique(d.signals.page_hints), years: sortedUnique(d.signals.years) },
  };
}
