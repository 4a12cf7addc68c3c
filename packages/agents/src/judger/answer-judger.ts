import { DocTreeError, type Observation, type ReadResult, type RouterDecision, type TokenUsage } from '@doctree/schema';

/** What a judger checks. */
export type JudgeCheck = 'format' | 'unit' | 'time' | 'entailment' | 'support' | 'evidence' | 'model';

/** One failed check. */
export interface JudgeFailure {
  check: JudgeCheck;
  /** `major` failures fail the verdict; `minor` ones only lower its score. */
  severity: 'major' | 'minor';
  message: string;
}

/** What to do with a read result: keep it, answer again with another reader, or look for other evidence. */
export type JudgeAction = 'accept' | 'fallback' | 'replan';

/** A judger's verdict on a read result. */
export interface JudgeVerdict {
  pass: boolean;
  /** In [0, 1]; 1 when every check passed. */
  score: number;
  failures: JudgeFailure[];
  action: JudgeAction;
  /** Id of the judger that decided. */
  judge: string;
  /** Model tokens spent, when a model was asked. */
  usage?: TokenUsage;
  notes?: string[];
}

/** What a judger is asked to verify. */
export interface JudgeRequest {
  question: string;
  decision?: RouterDecision;
  /** The observations the reader saw. */
  observations: readonly Observation[];
  result: ReadResult;
  signal?: AbortSignal;
}

/** Verifies a reader's answer against the question, the router's decision and the observations. */
export interface AnswerJudger {
  /** Stable identifier recorded in traces, e.g. `rules-v1` or `llm:gpt-4o-mini`. */
  readonly id: string;
  judge(request: JudgeRequest): Promise<JudgeVerdict>;
}

/** What {@link BaseJudger} reports after each verdict. */
export interface JudgeEvent {
  judgerId: string;
  verdict: JudgeVerdict;
  latencyMs: number;
}

/** Options of {@link BaseJudger}. */
export interface BaseJudgerOptions {
  /** Called after every verdict. */
  onJudge?: (event: JudgeEvent) => void;
}

/** Score lost per failure. */
export const FAILURE_PENALTY = { major: 0.35, minor: 0.1 } as const;

/** Score, pass and action implied by a list of failures (time, support and evidence failures ask for a REPLAN). */
export function verdictOf(failures: readonly JudgeFailure[], judge: string): Pick<JudgeVerdict, 'pass' | 'score' | 'action' | 'judge' | 'failures'> {
  const score = Math.max(0, Math.min(1, 1 - failures.reduce((sum, f) => sum + FAILURE_PENALTY[f.severity], 0)));
  const majors = failures.filter((f) => f.severity === 'major');
  const pass = majors.length === 0;
  const action: JudgeAction = pass ? 'accept' : majors.some((f) => f.check === 'time' || f.check === 'support' || f.check === 'evidence') ? 'replan' : 'fallback';
  return { pass, score, action, judge, failures: [...failures] };
}

/**
 * Base of judgers: the public {@link judge} validates the request, honours cancellation, calls the protected
 * {@link _judge}, clamps the score and reports the verdict to `onJudge`.
 */
export abstract class BaseJudger implements AnswerJudger {
  abstract readonly id: string;
  private readonly onJudge: BaseJudgerOptions['onJudge'];

  /** @param options tracing hook. */
  protected constructor(options: BaseJudgerOptions = {}) {
    this.onJudge = options.onJudge;
  }

  /** Judges a read result. */
  async judge(request: JudgeRequest): Promise<JudgeVerdict> {
    const t0 = performance.now();
    if (typeof request?.question !== 'string' || request.question.trim() === '') throw new DocTreeError('USAGE', 'the question is empty');
    if (!request.result || !Array.isArray(request.result.support) || !Array.isArray(request.observations)) {
      throw new DocTreeError('SCHEMA_INVALID', 'a judge request needs the read result (with its support) and the observations');
    }
    if (request.signal?.aborted) throw new DocTreeError('CANCELLED', 'judging was cancelled');
    const verdict = await this._judge(request);
    const clamped = { ...verdict, score: Number.isFinite(verdict.score) ? Math.max(0, Math.min(1, verdict.score)) : 0 };
    this.onJudge?.({ judgerId: this.id, verdict: clamped, latencyMs: performance.now() - t0 });
    return clamped;
  }

  /** Produces the verdict of a validated request. */
  protected abstract _judge(request: JudgeRequest): Promise<JudgeVerdict>;
}
