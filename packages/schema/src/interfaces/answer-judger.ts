import type { Observation, RouterDecision, TokenUsage } from '../agent.js';
import type { ReadResult } from './answer-reader.js';

/** What a judger checks. */
export type JudgeCheck = 'format' | 'unit' | 'time' | 'entailment' | 'support' | 'evidence' | 'model';

/** One failed check of a {@link JudgeVerdict}. */
export interface JudgeFailure {
  check: JudgeCheck;
  /** `major` failures fail the verdict; `minor` ones only lower its score. */
  severity: 'major' | 'minor';
  message: string;
}

/** What to do with a read result: keep it, answer again with another reader, or look for other evidence (REPLAN). */
export type JudgeAction = 'accept' | 'fallback' | 'replan';

/** A judger's verdict on a read result. */
export interface JudgeVerdict {
  /** True when no `major` check failed. */
  pass: boolean;
  /** In [0, 1]; 1 when every check passed. */
  score: number;
  failures: JudgeFailure[];
  /** `accept` when the verdict passes. */
  action: JudgeAction;
  /** Id of the judger that decided. */
  judge: string;
  /** Model tokens spent, when a model was asked. */
  usage?: TokenUsage;
  /** Short human-readable notes on the verdict (kept in the trace). */
  notes?: string[];
}

/** What a judger is asked to verify: the question, the router's decision, the observations read and the answer. */
export interface JudgeRequest {
  /** The user's question, verbatim. */
  question: string;
  /** The router's reading of the question (expected format, units, years), when available. */
  decision?: RouterDecision;
  /** The observations the reader saw (may be empty). */
  observations: readonly Observation[];
  /** The reader's answer with its supports. */
  result: ReadResult;
  /** Cancels a model call. */
  signal?: AbortSignal;
}

/**
 * Verifies a reader's answer against the question, the router's decision and the observations: format, unit, year,
 * entailment by its support, support quoting the observations. `@doctree/agents` implements it (`RuleJudger`,
 * `LlmJudger`, both on `BaseJudger`, whose public `judge` validates, clamps the score and traces); the agent's
 * `judger.verify` step and its loop (accept, fallback reader, REPLAN) follow the verdict's action.
 */
export interface AnswerJudger {
  /** Stable identifier recorded in traces, e.g. `rules-v1` or `llm:gpt-4o-mini`. */
  readonly id: string;
  /** Judges a read result. */
  judge(request: JudgeRequest): Promise<JudgeVerdict>;
}
