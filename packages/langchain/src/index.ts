/**
 * `@doctree/langchain`: DocTree and LangChain.js both ways. DocTree as a LangChain retriever ({@link DocTreeRetriever}),
 * tool ({@link createDocTreeTool}) and Runnable ({@link DocTreeRunnable}), its run events as LangChain custom events;
 * LangChain chat models and embeddings as DocTree's LLM, VLM ({@link ChatModelClientFromLangChain}) and embedder
 * ({@link EmbedderFromLangChain}).
 */
export { CHAT_MODEL_CLIENT_FROM_LANGCHAIN_DEFAULTS, ChatModelClientFromLangChain, JSON_REPLY_INSTRUCTION } from './chat-model-client.js';
export type { ChatModelClientFromLangChainOptions, LangChainChatModel } from './chat-model-client.js';
export { EMBEDDER_FROM_LANGCHAIN_DEFAULTS, EmbedderFromLangChain, LangChainEmbeddingsFromDocTree } from './embeddings.js';
export type { EmbedderFromLangChainOptions, LangChainEmbeddings, LangChainEmbeddingsFromDocTreeOptions } from './embeddings.js';
export { answerJson, askWithCallbacks, DOCTREE_CUSTOM_EVENTS, documentsFromRun } from './doctree-run.js';
export type { AskWithCallbacksOptions, DocTreeAnswerJson, DocTreeCitation, DocTreeDocumentMetadata } from './doctree-run.js';
export { DocTreeRetriever } from './retriever.js';
export type { DocTreeRetrieverOptions } from './retriever.js';
export { createDocTreeTool, DOCTREE_TOOL_DEFAULTS } from './tool.js';
export type { DocTreeToolOptions } from './tool.js';
export { DocTreeRunnable } from './runnable.js';
export type { DocTreeRunnableInput, DocTreeRunnableOptions } from './runnable.js';
export { streamAsk } from '@doctree/agents';
export type { AgentStreamItem, StreamAskOptions } from '@doctree/agents';
