/** DocTree ⇄ LangChain.js adapters. */
export const LANGCHAIN_ADAPTERS_VERSION = 1 as const;
