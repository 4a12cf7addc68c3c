/**
 * Command-line plumbing of `@doctree/pipeline` (argument parsing, configuration loading, IO, failure reporting),
 * published as the `@doctree/pipeline/command` subpath: it loads `@doctree/schema` only, so a command can start
 * without loading the whole pipeline (agents, index, eval) before it knows what it needs.
 */
export { pipeSafeWriter, processIo } from './command-io.js';
export type { CommandIo, PipeSafeStream } from './command-io.js';
export { CONFIG_FILE_NAME, loadCommandConfig } from './command-config.js';
export type { CommandConfig } from './command-config.js';
export { parseCommandArgs, positiveIntegerOption } from './command-args.js';
export type { CommandOptionSpec, ParsedCommandArgs } from './command-args.js';
export { reportCommandFailure } from './command-failure.js';
export type { ReportCommandFailureOptions } from './command-failure.js';
export { DOCUMENT_TREE_FILE, assertOutputTarget, enclosingDocumentDir, explainCacheFailure, isInsideFolder, realPathOf } from './command-output.js';
export type { OutputTargetCheck } from './command-output.js';
export { escapeControlChars } from './terminal-text.js';
export type { EscapeControlCharsOptions } from './terminal-text.js';
export { llmFailureWarning } from './llm-failure-warning.js';
export type { LlmFailureStats } from './llm-failure-warning.js';
