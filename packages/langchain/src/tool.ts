import { dispatchCustomEvent } from '@langchain/core/callbacks/dispatch';
import { tool, type DynamicStructuredTool } from '@langchain/core/tools';
import type { AskableAgent } from '@doctree/agents';
import { DocTreeError } from '@doctree/schema';
import { answerJson, askWithCallbacks, type DocTreeAnswerJson } from './doctree-run.js';

/** Options of {@link createDocTreeTool}. */
export interface DocTreeToolOptions {
  /** Tool name the model calls. Default `doctree_ask`. */
  name?: string;
  /** What the model reads to decide when to call it. Default {@link DOCTREE_TOOL_DEFAULTS.description}. */
  description?: string;
}

/** Defaults of {@link DocTreeToolOptions}. */
export const DOCTREE_TOOL_DEFAULTS = {
  name: 'doctree_ask',
  description:
    'Answers one question about the loaded document and cites where the answer is: returns JSON with answer, confidence, pages and citations (page, box, snippet), or declined with the reason when the document does not say.',
} as const satisfies Required<DocTreeToolOptions>;

const QUESTION_SCHEMA = {
  type: 'object',
  properties: { question: { type: 'string', minLength: 1, maxLength: 4000, description: 'One question about the document.' } },
  required: ['question'],
  additionalProperties: false,
} as const;

/**
 * DocTree as a LangChain tool: `{ question }` → a JSON string of {@link DocTreeAnswerJson} (answer, confidence, 1-based
 * pages, citations with page, bbox and snippet, `declined` when the agent declines). The run's steps reach the
 * call's callbacks as custom events (see `DOCTREE_CUSTOM_EVENTS`). With a tool call as input the
 * `ToolMessage` also carries the answer object as its `artifact`. A question the agent refuses (empty, too long)
 * comes back as a JSON `{ "error": { code, message } }` the model can read, not a throw; a cancelled call throws.
 *
 * @example
 * ```ts
 * const doctree = createDocTreeTool((await openAgent('report.pdf')).agent);
 * const modelWithTools = chatModel.bindTools([doctree]);
 * const json = JSON.parse(await doctree.invoke({ question: 'What was revenue in 2023?' }));
 * ```
 */
export function createDocTreeTool(agent: AskableAgent, options: DocTreeToolOptions = {}): DynamicStructuredTool {
  if (typeof agent?.ask !== 'function') throw new DocTreeError('USAGE', 'createDocTreeTool needs a DocTree agent', { hint: 'Pass (await openAgent(file)).agent.' });
  const o = { ...DOCTREE_TOOL_DEFAULTS, ...Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) };
  return tool(
    async (input: { question: string }, config): Promise<[string, DocTreeAnswerJson | null]> => {
      const question = typeof input?.question === 'string' ? input.question : '';
      try {
        const run = await askWithCallbacks(agent, question, {
          ...(config?.signal ? { signal: config.signal } : {}),
          ...(config ? { childConfig: config, emit: (name: string, data: Record<string, unknown>) => dispatchCustomEvent(name, data, config) } : {}),
        });
        const answer = answerJson(question, run);
        return [JSON.stringify(answer), answer];
      } catch (error) {
        if (!DocTreeError.isInstance(error) || error.code === 'CANCELLED' || error.code === 'INTERNAL') throw error;
        return [JSON.stringify({ error: { code: error.code, message: error.message } }), null];
      }
    },
    { name: o.name, description: o.description, schema: QUESTION_SCHEMA, responseFormat: 'content_and_artifact' },
  ) as unknown as DynamicStructuredTool;
}
