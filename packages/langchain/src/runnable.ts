import type { CallbackManagerForChainRun } from '@langchain/core/callbacks/manager';
import { patchConfig, Runnable, type RunnableConfig } from '@langchain/core/runnables';
import type { AskableAgent } from '@doctree/agents';
import { DocTreeError } from '@doctree/schema';
import { answerJson, askWithCallbacks, type DocTreeAnswerJson } from './doctree-run.js';

/** Input of {@link DocTreeRunnable}: the question, or `{ question }` (the shape a prompt template's variables take). */
export type DocTreeRunnableInput = string | { question: string };

/** Options of {@link DocTreeRunnable}. */
export interface DocTreeRunnableOptions {
  /** The DocTree agent over one document. */
  agent: AskableAgent;
}

/**
 * DocTree as a LangChain `Runnable`: question in, {@link DocTreeAnswerJson} out (answer, confidence, pages, citations
 * with page, bbox and snippet). `invoke`, `batch` (`maxConcurrency` applies), `stream`, `pipe` and `streamEvents` work as
 * for any Runnable. The call's callbacks get `handleChainStart` / `handleChainEnd` (or `handleChainError`), a custom
 * event per agent step as it happens (`doctree_agent_event`), then one per tool call and LLM call of the run
 * (`doctree_tool_call`, `doctree_llm_call`); LangChain chat models the agent calls (through
 * `ChatModelClientFromLangChain`) run as children of the chain. `config.signal` cancels the question.
 *
 * @example
 * ```ts
 * const doctree = new DocTreeRunnable({ agent });
 * const answers = await doctree.batch(['What was revenue in 2023?', 'Who audits the company?'], { maxConcurrency: 1 });
 * for await (const e of doctree.streamEvents('What was revenue in 2023?', { version: 'v2' }))
 *   if (e.event === 'on_custom_event') console.log(e.name, e.data);
 * ```
 */
export class DocTreeRunnable extends Runnable<DocTreeRunnableInput, DocTreeAnswerJson> {
  static override lc_name(): string {
    return 'DocTreeRunnable';
  }

  lc_namespace = ['doctree', 'langchain', 'runnables'];
  readonly agent: AskableAgent;

  /** @throws DocTreeError `USAGE` without an agent. */
  constructor(options: DocTreeRunnableOptions) {
    super(options);
    if (typeof options?.agent?.ask !== 'function') throw new DocTreeError('USAGE', 'DocTreeRunnable needs a DocTree agent', { hint: 'Pass { agent: (await openAgent(file)).agent }.' });
    this.agent = options.agent;
  }

  /** Answers one question. @throws DocTreeError `USAGE` for input that is not a question, `CANCELLED`, or the agent's error. */
  override async invoke(input: DocTreeRunnableInput, options?: Partial<RunnableConfig>): Promise<DocTreeAnswerJson> {
    return this._callWithConfig(this.#answer, input, options);
  }

  #answer = async (input: DocTreeRunnableInput, config?: Partial<RunnableConfig>, runManager?: CallbackManagerForChainRun): Promise<DocTreeAnswerJson> => {
    const question = typeof input === 'string' ? input : typeof input === 'object' && input !== null ? (input as { question?: unknown }).question : undefined;
    if (typeof question !== 'string') throw new DocTreeError('USAGE', 'DocTreeRunnable expects a question: a string or { question: string }');
    const run = await askWithCallbacks(this.agent, question, {
      ...(config?.signal ? { signal: config.signal } : {}),
      ...(runManager ? { emit: (name: string, data: Record<string, unknown>) => runManager.handleCustomEvent(name, data) } : {}),
      childConfig: patchConfig(config ?? {}, { callbacks: runManager?.getChild() }),
    });
    return answerJson(question, run);
  };
}
