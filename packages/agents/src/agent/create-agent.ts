import { builtinDomainPack } from '@doctree/toolhub';
import { configSecrets, DocTreeError, resolveConfig, type ChatModelClient, type DocTreeConfig } from '@doctree/schema';
import { createChatClient } from '../llm/create-chat-client.js';
import { DocTreeAgent, type DocTreeAgentOptions } from './doctree-agent.js';

/**
 * Options of {@link createDocTreeAgent}: the document index, optionally a configuration, and any part of
 * {@link DocTreeAgentOptions} to use instead of the default one.
 */
export interface CreateDocTreeAgentOptions extends Omit<DocTreeAgentOptions, 'chat'> {
  /**
   * Resolved configuration (`resolveConfig(...).config` of `@doctree/schema`): the chat model (`llm.*`), the vision
   * model (`llm.vlm_model`), the agent's limits (`agent.max_replans`, `agent.ctx_tokens`, `llm.question_budget_ms`),
   * the secrets kept out of traces and the domain pack (`domain.pack`). Options given here win over it. Default: the
   * built-in defaults (offline, generic limits).
   */
  config?: DocTreeConfig;
  /**
   * Chat model of the LLM path (router, planner rerank, reader, judger). Default `createChatClient(config)`: none
   * offline (`llm.provider: none`), an `OpenAIChatClient` for an endpoint. `null`: offline whatever the configuration.
   */
  chat?: ChatModelClient | null;
  /**
   * Vision model (`vlm.answer`, `vlm.count`, figure observations). Default the chat model when `llm.vlm_model` is
   * configured, else none; `null`: none. `vision` (with renderer options) wins over it.
   */
  vlm?: ChatModelClient | null;
}

/**
 * Every option {@link createDocTreeAgent} knows: a frozen null-prototype table, so a misspelt option is reported
 * instead of being ignored (and an option name is never looked up on `Object.prototype`).
 */
const KNOWN_OPTIONS: Readonly<Record<keyof CreateDocTreeAgentOptions, true>> = Object.freeze(
  Object.assign(Object.create(null) as Record<keyof CreateDocTreeAgentOptions, true>, {
    index: true,
    config: true,
    chat: true,
    vlm: true,
    router: true,
    planner: true,
    templates: true,
    reader: true,
    fallbackReader: true,
    judger: true,
    observer: true,
    vision: true,
    hub: true,
    retrievers: true,
    reranker: true,
    memory: true,
    maxReplans: true,
    ctxTokens: true,
    rankWithLlm: true,
    lanes: true,
    expansion: true,
    coveragePasses: true,
    onLlmError: true,
    llmBudgetMs: true,
    secrets: true,
    trace: true,
    finalize: true,
    pageRanker: true,
    domainPack: true,
    calibrator: true,
    policies: true,
    evidencePages: true,
  } satisfies Record<keyof CreateDocTreeAgentOptions, true>),
);

/** Parts that are chat models: each needs a `chat(request)` method. */
const CHAT_PARTS = ['chat', 'vlm'] as const;
/** Parts of the loop that are objects with one method the agent calls. */
const METHOD_PARTS = { planner: 'plan', templates: 'plan', reader: 'read', fallbackReader: 'read', judger: 'judge' } as const;

/**
 * A ready {@link DocTreeAgent} over one loaded document index, with the defaults chosen in one place — the same ones
 * `openAgent` of `@doctree/pipeline` uses: the configuration's chat model (none offline), its vision model when
 * `llm.vlm_model` is set, its limits (`agent.max_replans`, `agent.ctx_tokens`, `llm.question_budget_ms`), its secrets
 * (kept out of traces, together with `secrets`) and its built-in domain pack; then the agent's own defaults
 * (`DOCTREE_AGENT_DEFAULTS`; offline the rule router, template planner, extractive reader and rule judger, with a
 * chat model the LLM router, reader and judger with their rule fallbacks). Any part given here is used as it is.
 *
 * Files named by the configuration (`agent.page_ranker`, `agent.answer_calibration`, a `domain.pack` file) are read by
 * `openAgent` (or `pageRankerFromConfig`, `answerCalibratorFromConfig`, `domainPackFromConfig` of `@doctree/pipeline`)
 * and passed here as `pageRanker`, `calibrator`, `domainPack`: this factory reads no file.
 *
 * @throws DocTreeError `USAGE` (with a hint) when the index is missing, an option is unknown or misspelt, a part lacks
 *   its method, a limit is out of range, or the configuration names a file whose part is not given;
 *   `CONFIG_MISSING_SECRET` when the configured endpoint has neither a key nor a base URL.
 *
 * @example
 * ```ts
 * import { createDocTreeAgent } from '@doctree/agents';
 * import { prepareDocument } from '@doctree/pipeline';
 * import { resolveConfig } from '@doctree/schema';
 *
 * const { config } = resolveConfig({ env: process.env });
 * const { index } = await prepareDocument('data/samples/northwind-annual-report-2023.pdf', { config });
 * const agent = createDocTreeAgent({ index, config });
 * const run = await agent.ask('How many employees did Northwind have at the end of 2023?');
 * console.log(run.answer.answer, run.answer.pages);
 *
 * // A part of your own; everything else keeps its default.
 * const strict = createDocTreeAgent({ index, judger: new MyJudger(), maxReplans: 0 });
 * ```
 */
export function createDocTreeAgent(options: CreateDocTreeAgentOptions): DocTreeAgent {
  if (typeof options !== 'object' || options === null) {
    throw new DocTreeError('USAGE', 'createDocTreeAgent needs an options object', { hint: 'Call createDocTreeAgent({ index }) with a loaded document index.' });
  }
  checkOptionNames(options);
  const { config: givenConfig, chat: chatOption, vlm, ...parts } = options;
  const config = givenConfig ?? resolveConfig({}).config;
  checkConfig(config);
  for (const key of CHAT_PARTS) {
    const value = options[key];
    if (value !== undefined && value !== null && typeof (value as Partial<ChatModelClient>).chat !== 'function') {
      throw new DocTreeError('USAGE', `${key} must be a chat model client with a chat(request) method`, {
        hint: 'Pass createChatClient(config), a ChatModelClient of your own (e.g. ChatModelClientFromLangChain of @doctree/langchain), or null for none.',
      });
    }
  }
  for (const [key, method] of Object.entries(METHOD_PARTS) as Array<[keyof typeof METHOD_PARTS, string]>) {
    const value = options[key] as unknown;
    if (value !== undefined && typeof (value as Record<string, unknown> | null)?.[method] !== 'function') {
      throw new DocTreeError('USAGE', `${key} must have a ${method}() method`, { hint: `Pass an implementation that passes its conformance suite of @doctree/agents/testing, or leave ${key} out for the default.` });
    }
  }
  const router = options.router as unknown;
  if (router !== undefined && !(typeof router === 'string' ? ['auto', 'rules', 'single-template'].includes(router) : typeof (router as { route?: unknown } | null)?.route === 'function')) {
    throw new DocTreeError('USAGE', 'router must be auto, rules, single-template or a router with a route() method', { hint: 'Pass a QuestionRouter (e.g. a BaseRouter that passes runRouterConformance), or leave router out for auto.' });
  }
  const chat = chatOption === null ? undefined : (chatOption ?? createChatClient(config));
  const visionClient = vlm === null ? undefined : (vlm ?? (chat && config.llm.vlm_model !== undefined ? chat : undefined));
  return new DocTreeAgent({
    maxReplans: config.agent.max_replans,
    ctxTokens: config.agent.ctx_tokens,
    llmBudgetMs: config.llm.question_budget_ms,
    ...configuredParts(config, parts),
    ...(chat ? { chat } : {}),
    ...(visionClient ? { vision: { client: visionClient } } : {}),
    ...definedOnly(parts),
    index: parts.index,
    secrets: [...new Set([...configSecrets(config), ...(parts.secrets ?? [])])],
  });
}

/** Parts the configuration names that can be had without reading a file (a built-in domain pack). */
function configuredParts(config: DocTreeConfig, parts: Partial<DocTreeAgentOptions>): Partial<DocTreeAgentOptions> {
  const missing = (given: unknown, key: string, value: string | null | undefined, loader: string): void => {
    if (given === undefined && value !== null && value !== undefined) {
      throw new DocTreeError('USAGE', `the configuration names a file (${key}: ${value}) that createDocTreeAgent does not read`, {
        hint: `Load it with ${loader}(config) of @doctree/pipeline and pass it, or use openAgent(), which does both.`,
      });
    }
  };
  missing(parts.pageRanker, 'agent.page_ranker', config.agent.page_ranker, 'pageRankerFromConfig');
  missing(parts.calibrator, 'agent.answer_calibration', config.agent.answer_calibration, 'answerCalibratorFromConfig');
  const pack = config.domain?.pack ?? 'auto';
  if (parts.domainPack !== undefined || pack === 'auto') return {};
  if (pack === 'generic' || pack === 'finance') return { domainPack: builtinDomainPack(pack) };
  missing(parts.domainPack, 'domain.pack', pack, 'domainPackFromConfig');
  return {};
}

function checkOptionNames(options: object): void {
  for (const key of Object.keys(options)) {
    if (Object.hasOwn(KNOWN_OPTIONS, key)) continue;
    const near = closestOption(key);
    throw new DocTreeError('USAGE', `createDocTreeAgent has no option "${key.slice(0, 60)}"`, {
      hint: near ? `Did you mean ${near}?` : `Options: ${Object.keys(KNOWN_OPTIONS).join(', ')}.`,
    });
  }
}

function checkConfig(config: unknown): asserts config is DocTreeConfig {
  const c = config as Partial<DocTreeConfig> | null;
  if (typeof c !== 'object' || c === null || typeof c.agent?.max_replans !== 'number' || typeof c.llm?.question_budget_ms !== 'number') {
    throw new DocTreeError('USAGE', 'config must be a resolved DocTree configuration', { hint: 'Pass resolveConfig({ env: process.env }).config of @doctree/schema, or leave config out for the defaults.' });
  }
}

/** A known option the misspelt `key` is close to: the same but for case, or one a prefix of the other (`maxReplan`). */
function closestOption(key: string): string | undefined {
  const lower = key.toLowerCase();
  const known = Object.keys(KNOWN_OPTIONS);
  return known.find((k) => k.toLowerCase() === lower) ?? (lower.length >= 4 ? known.find((k) => k.toLowerCase().startsWith(lower) || lower.startsWith(k.toLowerCase())) : undefined);
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
