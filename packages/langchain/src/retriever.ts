import type { CallbackManagerForRetrieverRun } from '@langchain/core/callbacks/manager';
import { CallbackManager, parseCallbackConfigArg, type Callbacks } from '@langchain/core/callbacks/manager';
import type { Document } from '@langchain/core/documents';
import { BaseRetriever, type BaseRetrieverInput } from '@langchain/core/retrievers';
import { ensureConfig, patchConfig, type RunnableConfig } from '@langchain/core/runnables';
import type { AgentRun, AskableAgent } from '@doctree/agents';
import { DocTreeError } from '@doctree/schema';
import { askWithCallbacks, documentsFromRun, type DocTreeDocumentMetadata } from './doctree-run.js';

/** Options of {@link DocTreeRetriever}. */
export interface DocTreeRetrieverOptions extends BaseRetrieverInput {
  /** The DocTree agent over one document (`(await openAgent(file)).agent`, or a `DocTreeAgent`). */
  agent: AskableAgent;
  /** Most documents returned (cited first, then by score). Default all the run observed. */
  k?: number;
  /** Called with every run (the answer, its trace and pages), e.g. to show the answer next to the documents. */
  onRun?: (run: AgentRun, query: string) => void;
}

/**
 * DocTree as a LangChain retriever: `invoke(question)` runs the DocTree agent (route, plan, retrieval stages, reader,
 * judger) and returns the evidence it observed as `Document`s — the nodes the answer cites first, then by score — with
 * metadata `{ source: 'doctree', doc_id, node_id, page (1-based), bbox, score, kind, heading_path?, cited }`.
 * The run's steps reach the callbacks of the call as custom events (`doctree_agent_event`, `doctree_tool_call`,
 * `doctree_llm_call`); `config.signal` cancels the question (`CANCELLED`).
 *
 * @example
 * ```ts
 * const { agent } = await openAgent('report.pdf');
 * const retriever = new DocTreeRetriever({ agent, k: 4 });
 * const docs = await retriever.invoke('What were capital expenditures in 2023?');
 * console.log(docs.map((d) => `p.${d.metadata.page} ${d.pageContent.slice(0, 60)}`));
 * ```
 */
export class DocTreeRetriever extends BaseRetriever<DocTreeDocumentMetadata> {
  static override lc_name(): string {
    return 'DocTreeRetriever';
  }

  lc_namespace = ['doctree', 'langchain', 'retrievers'];
  readonly agent: AskableAgent;
  readonly k: number | undefined;
  readonly #onRun: DocTreeRetrieverOptions['onRun'];

  /** @throws DocTreeError `USAGE` without an agent or with a `k` that is not a positive integer. */
  constructor(options: DocTreeRetrieverOptions) {
    const { agent, k, onRun, ...base } = options ?? ({} as DocTreeRetrieverOptions);
    super(base);
    if (typeof agent?.ask !== 'function') throw new DocTreeError('USAGE', 'DocTreeRetriever needs a DocTree agent', { hint: 'Pass { agent: (await openAgent(file)).agent }.' });
    if (k !== undefined && (!Number.isInteger(k) || k < 1)) throw new DocTreeError('USAGE', `k must be a positive integer, got ${String(k)}`);
    this.agent = agent;
    this.k = k;
    this.#onRun = onRun;
  }

  /** Runs the agent on `input`; the config's callbacks, tags, metadata, run name and signal apply. */
  override async invoke(input: string, options?: RunnableConfig | Callbacks): Promise<Document<DocTreeDocumentMetadata>[]> {
    const config = ensureConfig(parseCallbackConfigArg(options));
    const manager = await CallbackManager.configure(config.callbacks, this.callbacks, config.tags, this.tags, config.metadata, this.metadata, this.verbose === undefined ? undefined : { verbose: this.verbose });
    const runManager = await manager?.handleRetrieverStart(this.toJSON(), input, config.runId, undefined, undefined, undefined, config.runName);
    try {
      const docs = await this.#retrieve(input, runManager, config);
      await runManager?.handleRetrieverEnd(docs);
      return docs;
    } catch (error) {
      await runManager?.handleRetrieverError(error);
      throw error;
    }
  }

  override async _getRelevantDocuments(query: string, runManager?: CallbackManagerForRetrieverRun): Promise<Document<DocTreeDocumentMetadata>[]> {
    return this.#retrieve(query, runManager, {});
  }

  async #retrieve(query: string, runManager: CallbackManagerForRetrieverRun | undefined, config: RunnableConfig): Promise<Document<DocTreeDocumentMetadata>[]> {
    const run = await askWithCallbacks(this.agent, query, {
      ...(config.signal ? { signal: config.signal } : {}),
      ...(runManager ? { emit: (name: string, data: Record<string, unknown>) => runManager.handleCustomEvent(name, data) } : {}),
      childConfig: patchConfig(config, { callbacks: runManager?.getChild() }),
    });
    try {
      this.#onRun?.(run, query);
    } catch {
      // A hook must not break retrieval.
    }
    return documentsFromRun(run, this.k !== undefined ? { k: this.k } : {});
  }
}
