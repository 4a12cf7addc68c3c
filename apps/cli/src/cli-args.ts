/** Argument parsing of the CLI: the shared command support of `@doctree/pipeline` under the CLI's names. */
export { parseCommandArgs, positiveIntegerOption } from '@doctree/pipeline/command';
export type { CommandOptionSpec as CliOptionSpec, ParsedCommandArgs as ParsedCliArgs } from '@doctree/pipeline/command';
