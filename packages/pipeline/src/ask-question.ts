import { createChatClient, createDocTreeAgent, DryRunChatClient, type DocTreeAgent, type AgentRun, type AskOptions, type ChatCallRecord, type DocTreeAgentOptions } from '@doctree/agents';
import { resolveConfig, type ChatModelClient, type DocTreeConfig } from '@doctree/schema';
import { answerCalibratorFromConfig, pageRankerFromConfig } from './model-files.js';
import { domainPackFromConfig } from './domain-pack-file.js';
import { prepareDocument, type PrepareDocumentOptions, type PreparedDocument } from './prepare-document.js';

/** Options of {@link openAgent}. */
export interface OpenAgentOptions extends Omit<PrepareDocumentOptions, 'chat' | 'config'> {
  /** Resolved configuration (LLM endpoint, agent limits, embedder…). Default: the built-in defaults (offline). */
  config?: DocTreeConfig;
  /**
   * Chat model of the agent. Default `createChatClient(config)`: none offline (`llm.provider: none`), an
   * `OpenAIChatClient` for an endpoint. `null` forces the offline path whatever the configuration.
   */
  chat?: ChatModelClient | null;
  /**
   * Vision model of the agent (`vlm.answer`, `vlm.count`, figure observations), e.g. a LangChain vision chat model
   * through `ChatModelClientFromLangChain`. Default: the chat model when `llm.vlm_model` is configured, else none.
   * `null`: none.
   */
  vlm?: ChatModelClient | null;
  /**
   * Chat model of the index's LLM-written summaries (on a first build). Default the agent's `chat`; `null` keeps the
   * summaries extractive (no model call while preparing the document).
   */
  summaryChat?: ChatModelClient | null;
  /**
   * Count the prompt tokens the LLM path would send instead of sending them: the agent runs its LLM components over a
   * `DryRunChatClient` (every one falls back to its offline counterpart) and the trace's `llm` totals hold the counts.
   * Index summaries stay extractive. Default false.
   */
  dryRun?: boolean;
  /** Agent options over the ones derived from the configuration (ablations, components, `onLlmError`…). */
  agent?: Partial<Omit<DocTreeAgentOptions, 'index'>>;
  /** Called after every real chat call (status, attempts, retries, tokens; never a prompt or a key). */
  onChatCall?: (record: ChatCallRecord) => void;
}

/** A prepared document and the agent over it. */
export interface OpenedAgent {
  agent: DocTreeAgent;
  document: PreparedDocument;
  /** The chat model the agent uses (undefined offline; the dry-run client with `dryRun`). */
  chat?: ChatModelClient;
  /** `llm` with an endpoint or a dry run, `offline` otherwise. */
  mode: 'offline' | 'llm';
  dryRun: boolean;
}

/**
 * Prepares a document (ingest and index on first use, cached by content hash — see {@link prepareDocument}) and builds
 * the DocTree agent the configuration asks for: offline, the rule router, template planner, extractive reader and rule
 * judger; with an endpoint (`llm.provider: openai`), the LLM router, reader and judger with their rule fallbacks, and
 * LLM summaries in the index; `vision` when `llm.vlm_model` is set. Agent limits come from `agent.max_replans` and
 * `agent.ctx_tokens`; secrets of the configuration never reach a trace.
 *
 * @throws DocTreeError from preparing the document (`INPUT_NOT_FOUND`, `PDF_*`, `INDEX_*`…) or the configuration
 *   (`CONFIG_MISSING_SECRET`…).
 *
 * @example
 * ```ts
 * const { agent } = await openAgent('data/samples/northwind-annual-report-2023.pdf', { config });
 * const run = await agent.ask('How many employees did Northwind have at the end of 2023?');
 * ```
 *
 * Any chat model and embedder plug in: `chat` / `vlm` take a `ChatModelClient` (e.g. `new ChatModelClientFromLangChain(new
 * ChatAnthropic({ model }))` of `@doctree/langchain`), `embedder` an `Embedder` (e.g. `new EmbedderFromLangChain(new
 * OllamaEmbeddings({ model }))`).
 */
export async function openAgent(input: string, options: OpenAgentOptions = {}): Promise<OpenedAgent> {
  const { config: given, chat: chatOption, vlm, summaryChat, dryRun = false, agent: agentOptions = {}, onChatCall, ...prepare } = options;
  const config = given ?? resolveConfig({}).config;
  const chat: ChatModelClient | undefined =
    chatOption === null ? undefined : (chatOption ?? createChatClient(config, { dryRun, ...(onChatCall ? { onCall: onChatCall } : {}) }));
  const document = await prepareDocument(input, { ...prepare, config, chat: dryRun ? null : summaryChat !== undefined ? summaryChat : (chat ?? null) });
  const pageRanker = await pageRankerFromConfig(config);
  const domainPack = await domainPackFromConfig(config);
  const calibrator = await answerCalibratorFromConfig(config, chat ? 'llm' : 'extractive');
  // The defaults (limits, vision model, secrets) are chosen by createDocTreeAgent; this only reads the files the
  // configuration names and passes the chat model it already made for the index summaries.
  const { chat: agentChat, ...agentParts } = agentOptions;
  const agent = createDocTreeAgent({
    ...(pageRanker ? { pageRanker } : {}),
    ...(domainPack ? { domainPack } : {}),
    ...(calibrator ? { calibrator } : {}),
    index: document.index,
    config,
    ...agentParts,
    chat: agentChat ?? chat ?? null,
    vlm: dryRun ? null : vlm,
  });
  return { agent, document, ...(chat ? { chat } : {}), mode: chat ? 'llm' : 'offline', dryRun: dryRun && chat instanceof DryRunChatClient };
}

/** Options of {@link askQuestion}: {@link openAgent}'s and the question's. */
export interface AskQuestionOptions extends OpenAgentOptions, AskOptions {}

/** An answered question and the document it was asked about. */
export interface AskedQuestion extends AgentRun {
  document: PreparedDocument;
}

/**
 * Answers one question about a document (a PDF, MinerU content list, Markdown file or prepared document folder):
 * {@link openAgent}, then `agent.ask`. With `dryRun`, `run.usage.promptTokens` is what the LLM path would have sent.
 *
 * @example
 * ```ts
 * const run = await askQuestion('report.pdf', 'What was revenue in 2023?', { config });
 * console.log(run.answer.answer, run.answer.pages);
 * ```
 */
export async function askQuestion(input: string, question: string, options: AskQuestionOptions = {}): Promise<AskedQuestion> {
  const { signal, maxReplans, onEvent, ...open } = options;
  const opened = await openAgent(input, { ...open, ...(signal ? { signal } : {}) });
  const run = await opened.agent.ask(question, { ...(signal ? { signal } : {}), ...(maxReplans !== undefined ? { maxReplans } : {}), ...(onEvent ? { onEvent } : {}) });
  return { ...run, document: opened.document };
}
