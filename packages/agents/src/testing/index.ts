/**
 * Test helpers of `@doctree/agents`, published as the `@doctree/agents/testing` subpath: a scripted
 * OpenAI-compatible HTTP server and the conformance suites of swappable agent parts. The suites register tests with
 * the running test framework (global describe/it/expect).
 */
export { INJECTION_TEXT, startScriptedOpenAIServer } from './scripted-openai-server.js';
export type {
  RecordedChatMessage,
  RecordedChatRequest,
  ScriptedChatReply,
  ScriptedChatReplyFunction,
  ScriptedOpenAIServer,
  ScriptedOpenAIServerOptions,
} from './scripted-openai-server.js';
export { ROUTER_CONFORMANCE_DEFAULTS, ROUTER_CONFORMANCE_QUESTIONS, runRouterConformance } from './router-conformance.js';
export type { RouterConformanceFactory, RouterConformanceOptions } from './router-conformance.js';
export { PLANNER_CONFORMANCE_DEFAULTS, PLANNER_CONFORMANCE_QUESTIONS, plannerConformanceDecisions, runPlannerConformance } from './planner-conformance.js';
export type { PlannerConformanceFactory, PlannerConformanceOptions } from './planner-conformance.js';
export { JUDGER_CONFORMANCE_DEFAULTS, JUDGER_CONFORMANCE_OBSERVATION, JUDGER_CONFORMANCE_QUESTION, runJudgerConformance } from './judger-conformance.js';
export type { JudgerConformanceFactory, JudgerConformanceOptions } from './judger-conformance.js';
export { READER_CONFORMANCE_CASES, READER_CONFORMANCE_DEFAULTS, runReaderConformance } from '../reader/reader-conformance.js';
export type { ReaderConformanceCase, ReaderConformanceFactory, ReaderConformanceOptions } from '../reader/reader-conformance.js';
