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
