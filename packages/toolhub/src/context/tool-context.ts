import type { CompiledDomainPack } from '../domain/domain-pack.js';
import type { ChatModelClient, ToolCard } from '@doctree/schema';
import type { DocIndex } from '@doctree/index';
import { navigatorFor, type DocNavigator } from '../navigation/doc-navigator.js';

/** What every ToolHub card runs against: a loaded document index, its navigator and, optionally, a chat model. */
export interface ToolContext {
  /** The loaded document index. */
  readonly index: DocIndex;
  /** Cached navigation helpers over `index` (see {@link navigatorFor}). */
  readonly nav: DocNavigator;
  /** Chat model used by `rank.llm`; absent in offline mode. */
  readonly chat?: ChatModelClient;
  /** The document's domain pack (concepts, abbreviations) the cards match with; absent: the finance pack's concepts. */
  readonly domain?: CompiledDomainPack;
}

/** Options of {@link createToolContext}. */
export interface ToolContextOptions {
  /** The loaded document index. */
  index: DocIndex;
  /** Chat model for `rank.llm`; leave out offline. */
  chat?: ChatModelClient | undefined;
  /** The document's domain pack. */
  domain?: CompiledDomainPack | undefined;
}

/** Builds the {@link ToolContext} of an index (the navigator is shared per index). */
export function createToolContext(options: ToolContextOptions): ToolContext {
  return { index: options.index, nav: navigatorFor(options.index), ...(options.chat ? { chat: options.chat } : {}), ...(options.domain ? { domain: options.domain } : {}) };
}

/** A tool card over a {@link ToolContext}. */
export type HubToolCard<Args = unknown, Data = unknown> = ToolCard<Args, ToolContext, Data>;
