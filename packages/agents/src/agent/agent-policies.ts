import type { StrategyPlan } from '@doctree/schema';
import type { JudgeVerdict } from '../judger/answer-judger.js';
import type { PlanFlag } from '../planner/plan-vocabulary.js';
import type { ReadRecord } from './agent-cards.js';
import type { PlanRetrieval } from './stage-runner.js';
import type { StepOutcome } from './step-runner.js';

/** One finished pass of the agent loop: its plan, retrieval, steps, the read it kept and the verdict on it. */
export interface Pass {
  attempt: number;
  plan: StrategyPlan;
  retrieval: PlanRetrieval;
  steps: StepOutcome[];
  flags: PlanFlag[];
  read: ReadRecord;
  verdict?: JudgeVerdict;
}

/** What the REPLAN policy sees after a pass. */
export interface ReplanInput {
  plan: StrategyPlan;
  retrieval: Pick<PlanRetrieval, 'coverage'>;
  read: ReadRecord;
  verdict?: JudgeVerdict;
}

/**
 * The decisions of the agent loop, each a named policy a user can replace (`DocTreeAgentOptions.policies`): which of
 * two passes to keep, when a later pass stops early, when a second reader answers again, which of its two reads to
 * keep, and when to REPLAN. The loop itself only sequences the steps (docs/design/agent-loop.md §1, §8).
 */
export interface AgentPolicies {
  /** True when pass `a` is better than the best so far (`b`, absent on the first pass). */
  betterPass(a: Pass, b: Pass | undefined): boolean;
  /** True when a later pass should stop before reading: its evidence pack holds nothing the earlier passes had not read. */
  noNewEvidence(input: { attempt: number; packed: readonly string[]; visited: (nodeId: string) => boolean }): boolean;
  /** True when the fallback reader should answer again on the same evidence after this verdict. */
  readAgain(verdict: JudgeVerdict | undefined, read: ReadRecord, fallbackReader: string | undefined): boolean;
  /** True when the second read (by the fallback reader) replaces the first. */
  keepSecondRead(first: JudgeVerdict, second: JudgeVerdict): boolean;
  /** True when the loop should REPLAN after this pass (the attempt limit is the loop's). */
  wantsReplan(input: ReplanInput): boolean;
}

/** Better of two passes: a passing verdict first, then the higher confidence (an answer over `Not answerable` on near ties). */
function betterPass(a: Pass, b: Pass | undefined): boolean {
  if (!b) return true;
  const pa = a.verdict?.pass ?? true;
  const pb = b.verdict?.pass ?? true;
  if (pa !== pb) return pa;
  const answered = (p: Pass): boolean => p.read.result.answer_format !== 'None';
  if (answered(a) !== answered(b) && Math.abs(a.read.result.confidence - b.read.result.confidence) < 0.15) return answered(a);
  return a.read.result.confidence > b.read.result.confidence;
}

/**
 * REPLAN when the judger asks for other evidence (time, support, evidence failures), or when nothing was found and
 * coverage stayed below the plan's gate. A `fallback` verdict (format, unit, entailment) is answered by the fallback
 * reader; more of the same evidence would not fix it, so it replans only when the plan can switch to another reading
 * of the question (a `switch_template` fallback).
 */
function wantsReplan({ plan, retrieval, read, verdict }: ReplanInput): boolean {
  const lowCoverage = read.result.answer_format === 'None' && retrieval.coverage < plan.coverage_gate;
  const canSwitch = plan.fallbacks.some((f) => typeof f.action['switch_template'] === 'string' && f.action['switch_template'] !== plan.template);
  return verdict?.action === 'replan' || (verdict?.action === 'fallback' && canSwitch) || lowCoverage;
}

/** The policies of every `DocTreeAgent` unless replaced. */
export const DEFAULT_AGENT_POLICIES: Readonly<AgentPolicies> = Object.freeze<AgentPolicies>({
  betterPass,
  // Memory: a wider retrieval that brought no evidence the earlier passes had not read cannot help by reading it again.
  noNewEvidence: ({ attempt, packed, visited }) => attempt > 0 && packed.every((id) => visited(id)),
  // "Answer again with another reader" on the same evidence, when the judger asks for it.
  readAgain: (verdict, read, fallbackReader) => verdict?.action === 'fallback' && fallbackReader !== undefined && fallbackReader !== read.reader,
  keepSecondRead: (first, second) => second.pass || second.score > first.score,
  wantsReplan,
});
