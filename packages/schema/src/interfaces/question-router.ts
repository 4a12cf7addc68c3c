import type { RouterDecision } from '../agent.js';
import type { QuestionAnalysis } from '../question-analysis.js';

/**
 * The domain pack a question is read with, as a router's caller sees it: a compiled domain pack of
 * `@doctree/toolhub` (`CompiledDomainPack`, built from a `DomainPack` by `compileDomainPack`), named here by the one
 * member every caller relies on. Routers of `@doctree/agents` need the whole compiled pack; pass the object
 * `@doctree/toolhub` gave you, not a hand-made one.
 */
export interface RouteDomainPack {
  /** The pack's name (`generic`, `finance`, or a user pack's), as recorded in `QuestionAnalysis.pack`. */
  readonly name: string;
}

/** Per-call options of {@link QuestionRouter.route}. */
export interface QuestionRouteOptions {
  /** Pages of the document, when known (resolves "last page", flags page hints beyond the end). */
  pageCount?: number;
  /** Cancels the routing (a model call included); a cancelled routing throws `DocTreeError` `CANCELLED`. */
  signal?: AbortSignal;
  /** The compiled domain pack of the document (default: the router's own). */
  pack?: RouteDomainPack;
  /** The question's analysis, when the caller made it with the same pack (else the router analyses the question). */
  analysis?: QuestionAnalysis;
}

/**
 * Reads a question into a {@link RouterDecision}: its type candidates (best first), signals (page hints, years, units,
 * objects, expected answer format), risk and constraints. `@doctree/agents` implements it (`RuleRouter`, `LlmRouter`,
 * both on `BaseRouter`, whose public `route` validates, analyses the question once and traces); the agent routes
 * every question through one. Implementations reject an empty or overlong question with `DocTreeError` `USAGE`.
 */
export interface QuestionRouter {
  /** Name reported in traces, e.g. `rules` or `llm`. */
  readonly name: string;
  /** Routes a question; the decision validates against `RouterDecisionSchema`. */
  route(question: string, options?: QuestionRouteOptions): Promise<RouterDecision>;
}
