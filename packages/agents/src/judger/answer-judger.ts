import { DocTreeError } from '@doctree/schema';
import type { AnswerJudger, JudgeAction, JudgeFailure, JudgeRequest, JudgeVerdict } from '@doctree/schema';

/**
 * The judger interface and its types live in `@doctree/schema` (`interfaces/answer-judger.ts`); re-exported here so
 * imports from the judger module keep working.
 */
export type { AnswerJudger, JudgeAction, JudgeCheck, JudgeFailure, JudgeRequest, JudgeVerdict } from '@doctree/schema';

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
