/**
 * `@doctree/agents`: router → planner → ToolHub → observer → reader → judger → finalizer. Test helpers (scripted
 * OpenAI-compatible server, conformance suites) live in the `@doctree/agents/testing` subpath.
 */
export { CREATE_CHAT_CLIENT_DEFAULTS, createChatClient } from './llm/create-chat-client.js';
export type { CreateChatClientOptions } from './llm/create-chat-client.js';
export { OPENAI_CHAT_CLIENT_DEFAULTS, OpenAIChatClient } from './llm/openai-chat-client.js';
export type { ChatCallRecord, ChatPrice, ChatPurpose, OpenAIChatClientOptions } from './llm/openai-chat-client.js';
export { DRY_RUN_CHAT_CLIENT_DEFAULTS, DryRunChatClient, median } from './llm/dry-run-chat-client.js';
export type { DryRunCall, DryRunChatClientOptions, DryRunStats } from './llm/dry-run-chat-client.js';
export { isRetryable, retryDelayMs, sleep } from './llm/chat-retry.js';
export type { ChatRetryPolicy } from './llm/chat-retry.js';
export { FENCE_DATA_DEFAULTS, fenceData } from './llm/prompt-fence.js';
export type { FenceDataOptions } from './llm/prompt-fence.js';
export { parseJsonReply } from './llm/json-reply.js';
export { BASE_ROUTER_DEFAULTS, BaseRouter } from './router/base-router.js';
export type { BaseRouterOptions, RouteOptions, RouteOutcome, RouteRecord, RouterFallback } from './router/base-router.js';
export { extractSignals } from './router/question-signals.js';
export { analysisFor, analysisOf, analyzeQuestion, attachAnalysis } from './analysis/question-analysis.js';
export { computationSpec, definitionFormula } from './planner/definition-formula.js';
export type { ComputationSpec, ComputationSpecInput, FormulaOperand, OperandReduce } from './planner/definition-formula.js';
export { measureSpec, namedMeasure, planComputation } from './planner/pack-measures.js';
export type { MeasureSpecInput, NamedMeasure, PlanComputationInput } from './planner/pack-measures.js';
export type { AnalyzeQuestionOptions } from './analysis/question-analysis.js';
export type { ExtractSignalsOptions, QuestionSignals } from './router/question-signals.js';
export { RULE_ROUTER_DEFAULTS, RuleRouter } from './router/rule-router.js';
export type { RuleRouterOptions } from './router/rule-router.js';
export { LLM_ROUTER_DEFAULTS, LlmRouter } from './router/llm-router.js';
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
export type { PlanInput, TemplateSettings } from './planner/plan-templates.js';
export { TEMPLATE_PLANNER_DEFAULTS, TemplatePlanner } from './planner/template-planner.js';
export type { TemplatePlannerOptions } from './planner/template-planner.js';
export { REPLAN_DEFAULTS, replan } from './planner/replan.js';
export type { ReplanFeedback, ReplanOptions, ReplanResult } from './planner/replan.js';
export { IMAGE_OBSERVER_DEFAULTS, ImageObserver } from './observer/image-observer.js';
export type { ImageObserverOptions } from './observer/image-observer.js';
export { OBSERVER_DEFAULTS, Observer, observe } from './observer/observe.js';
export type { ObserverOptions } from './observer/observe.js';
export type { NodeObserver, ObservableIndex, ObserveContext, ObserveWarning } from './observer/observer-types.js';
export { PDF_REGION_RENDERER_DEFAULTS, PdfRegionRenderer } from './observer/page-region-renderer.js';
export type { PdfRegionRendererOptions, RegionRenderer, RenderedRegion, RenderRegionRequest } from './observer/page-region-renderer.js';
export { BaseReader, NOT_ANSWERABLE } from './reader/base-reader.js';
export type { BaseReaderOptions, ReadEvent } from './reader/base-reader.js';
export { EXTRACTIVE_READER_DEFAULTS, ExtractiveReader } from './reader/extractive-reader.js';
export type { ExtractiveReaderOptions } from './reader/extractive-reader.js';
export { LLM_READER_DEFAULTS, LlmReader } from './reader/llm-reader.js';
export type { LlmReaderOptions, LlmReaderReply } from './reader/llm-reader.js';
export { observationText, supportFor } from './reader/observation-text.js';
export type { ObservationText } from './reader/observation-text.js';
export { profileQuestion } from './reader/question-profile.js';
export type { AnswerKind, CountTarget, QuestionProfile, WeightedTerm } from './reader/question-profile.js';
export { ABBREVIATIONS, conceptMatch, conceptQueryTerms, conceptsIn, DEFAULT_CONCEPTS, normalizeLabel } from '@doctree/toolhub';
export type { Concept } from '@doctree/toolhub';
export { findNumbers, isYearLike } from './reader/numbers.js';
export type { NumberMention, ParsedNumber, Scale } from './reader/numbers.js';
export { BaseJudger, verdictOf } from './judger/answer-judger.js';
export type { AnswerJudger, BaseJudgerOptions, JudgeAction, JudgeCheck, JudgeEvent, JudgeFailure, JudgeRequest, JudgeVerdict } from './judger/answer-judger.js';
export { RULE_JUDGER_DEFAULTS, RuleJudger } from './judger/rule-judger.js';
export type { RuleJudgerOptions } from './judger/rule-judger.js';
export { LLM_JUDGER_DEFAULTS, LlmJudger } from './judger/llm-judger.js';
export type { LlmJudgerOptions } from './judger/llm-judger.js';
export { FINALIZE_ANSWER_DEFAULTS, finalizeAnswer } from './finalizer/finalize-answer.js';
export { AnswerCalibrator, calibrationDecision } from './finalizer/answer-calibrator.js';
export { AnswerCalibrationModelSchema, CALIBRATION_FEATURE_SIGNS, CALIBRATION_FEATURES, parseAnswerCalibrationModel } from './finalizer/answer-calibration-schema.js';
export type { AnswerCalibrationModel, CalibrationFeature } from './finalizer/answer-calibration-schema.js';
export type { DocumentLacks, DocumentLacksOptions } from './finalizer/document-lacks.js';
export type { AnswerCalibratorOptions, Calibration, CalibrationInput, CalibrationMode } from './finalizer/answer-calibrator.js';
export { DEFAULT_ANSWER_CALIBRATION_MODEL } from './finalizer/answer-calibration-model.js';
export type { FinalizeAnswerOptions, FinalizeInput } from './finalizer/finalize-answer.js';
export { LLM_PLANNER_DEFAULTS, LlmPlanner } from './planner/llm-planner.js';
export type { LlmPlannerOptions } from './planner/llm-planner.js';
export { AGENT_MEMORY_DEFAULTS, AgentMemory } from './agent/agent-memory.js';
export type { AgentMemoryOptions, AttemptRecord, MemoryHistory, MemoryStats } from './agent/agent-memory.js';
export { TracedChatClient } from './agent/traced-chat-client.js';
export type { LlmTraceOptions, TracedChatClientOptions } from './agent/traced-chat-client.js';
export { hitsOf, isReference, readPath, resolveReference, resolveStepArgs } from './agent/plan-variables.js';
export type { ResolvedArgs } from './agent/plan-variables.js';
export {
  AGENT_CARD_IDS,
  AGENT_CARDS_DEFAULTS,
  JudgerVerifyArgsSchema,
  ReaderAnswerArgsSchema,
  VLM_COUNT_SYSTEM_PROMPT,
  VlmArgsSchema,
  createAgentCards,
  nodeIdsIn,
} from './agent/agent-cards.js';
export type { AgentCardSession, AgentCardsOptions, JudgerVerifyArgs, ReadRecord, ReaderAnswerArgs, VisionOptions, VlmArgs } from './agent/agent-cards.js';
export type { LaneAblation, PlanRetrieval, StageOutcome } from './agent/stage-runner.js';
export type { ResolvedRetrieverLanes, RetrieverLane, RetrieverLaneSpec } from './agent/retriever-lanes.js';
export type { PlanStepsResult, StepOutcome } from './agent/step-runner.js';
export { DOCTREE_AGENT_DEFAULTS, DocTreeAgent, rankedPages } from './agent/doctree-agent.js';
export { createDocTreeAgent } from './agent/create-agent.js';
export type { CreateDocTreeAgentOptions } from './agent/create-agent.js';
export type { AgentEvent, AgentRun, AgentUsage, AskOptions, DocTreeAgentOptions, RouterChoice } from './agent/doctree-agent.js';
export { DEFAULT_AGENT_POLICIES } from './agent/agent-policies.js';
export type { AgentPolicies, Pass, ReplanInput } from './agent/agent-policies.js';
export { streamAsk } from './agent/agent-stream.js';
export type { AgentStreamItem, AskableAgent, StreamAskOptions } from './agent/agent-stream.js';
