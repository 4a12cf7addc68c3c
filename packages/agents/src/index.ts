/**
 * `@doctree/agents`: router → planner → ToolHub → observer → reader → judger → finalizer. Test helpers (scripted
 * OpenAI-compatible server, conformance suites) live in the `@doctree/agents/testing` subpath.
 */
export { CREATE_CHAT_CLIENT_DEFAULTS, createChatClient } from './llm/create-chat-client.js';
export type { CreateChatClientOptions } from './llm/create-chat-client.js';
export { chatCostUsd, OPENAI_CHAT_CLIENT_DEFAULTS, OpenAIChatClient } from './llm/openai-chat-client.js';
export type { ChatCallRecord, ChatPrice, ChatPurpose, OpenAIChatClientOptions } from './llm/openai-chat-client.js';
export { DRY_RUN_CHAT_CLIENT_DEFAULTS, DryRunChatClient, median } from './llm/dry-run-chat-client.js';
export type { DryRunCall, DryRunChatClientOptions, DryRunStats } from './llm/dry-run-chat-client.js';
export { isRetryable, retryAfterMs, retryDelayMs } from './llm/chat-retry.js';
export type { ChatRetryPolicy } from './llm/chat-retry.js';
export { FENCE_DATA_DEFAULTS, fenceData } from './llm/prompt-fence.js';
export type { FenceDataOptions } from './llm/prompt-fence.js';
export { parseJsonReply } from './llm/json-reply.js';
export { BASE_ROUTER_DEFAULTS, BaseRouter, normalizeDecision } from './router/base-router.js';
export type { BaseRouterOptions, RouteOptions, RouteOutcome, RouteRecord, RouterFallback } from './router/base-router.js';
export { ARITHMETIC_OPERATIONS, extractSignals } from './router/question-signals.js';
export type { ExtractSignalsOptions, QuestionSignals } from './router/question-signals.js';
export { RULE_ROUTER_DEFAULTS, RuleRouter } from './router/rule-router.js';
export type { RuleRouterOptions } from './router/rule-router.js';
export { LLM_ROUTER_DEFAULTS, LlmRouter, ROUTER_SYSTEM_PROMPT } from './router/llm-router.js';
export type { LlmRouterOptions } from './router/llm-router.js';
export {
  MODEL_TOOL_IDS,
  PACK_ATTACHMENT_NAMES,
  PLAN_FLAGS,
  PLAN_METRICS,
  PLAN_VARIABLES,
  PLANNER_TOOL_IDS,
  RERANK_FEATURE_NAMES,
  RETRIEVAL_TOOL_IDS,
  evaluatePlanCondition,
  parsePlanCondition,
  referencedVariables,
} from './planner/plan-vocabulary.js';
export type { PlanCondition, PlanFlag, PlannerToolId, PlanState } from './planner/plan-vocabulary.js';
export { BASE_PLANNER_DEFAULTS, BasePlanner, checkPlan } from './planner/base-planner.js';
export type { BasePlannerOptions, CheckPlanOptions, PlannerFallback, PlanOptions, PlanOutcome, PlanRecord } from './planner/base-planner.js';
export { PLAN_TEMPLATES } from './planner/plan-templates.js';
export type { PlanInput, TemplateSettings } from './planner/plan-templates.js';
export { TEMPLATE_PLANNER_DEFAULTS, TemplatePlanner } from './planner/template-planner.js';
export type { TemplatePlannerOptions } from './planner/template-planner.js';
export { REPLAN_DEFAULTS, replan } from './planner/replan.js';
export type { ReplanFeedback, ReplanOptions, ReplanResult } from './planner/replan.js';
