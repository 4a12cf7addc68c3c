import type { ChatModelClient, DocTreeConfig } from '@doctree/schema';

import { DryRunChatClient } from './dry-run-chat-client.js';
import { OpenAIChatClient } from './openai-chat-client.js';
import type { ChatCallRecord } from './openai-chat-client.js';

/** Options of {@link createChatClient}. */
export interface CreateChatClientOptions {
  /** Return a {@link DryRunChatClient} (counts prompt tokens, sends nothing) whatever the endpoint. Default false. */
  dryRun?: boolean;
  /** Passed to {@link OpenAIChatClient} (tracing of each call). */
  onCall?: (record: ChatCallRecord) => void;
}

/** Defaults of {@link CreateChatClientOptions}. */
export const CREATE_CHAT_CLIENT_DEFAULTS = { dryRun: false } as const satisfies CreateChatClientOptions;

/**
 * The chat client the configuration asks for: `undefined` in offline mode (`llm.provider` is `none`), an
 * {@link OpenAIChatClient} for `openai` (throws `CONFIG_MISSING_SECRET` when neither a key nor a base URL is set),
 * or a {@link DryRunChatClient} with `dryRun`.
 *
 * @example
 * ```ts
 * const client = createChatClient(resolveConfig({ env: process.env }).config);
 * const router = client ? new LlmRouter({ client }) : new RuleRouter();
 * ```
 */
export function createChatClient(config: DocTreeConfig, options: CreateChatClientOptions = {}): ChatModelClient | undefined {
  const { dryRun, onCall } = { ...CREATE_CHAT_CLIENT_DEFAULTS, ...options };
  const price = config.llm.price_per_mtok;
  if (dryRun) return new DryRunChatClient({ model: config.llm.model, ...(price !== undefined ? { price } : {}) });
  if (config.llm.provider === 'none') return undefined;
  return OpenAIChatClient.fromConfig(config.llm, onCall !== undefined ? { onCall } : {});
}
