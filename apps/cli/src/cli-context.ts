/**
 * The CLI's IO and configuration: the shared command support of `@doctree/pipeline` under the CLI's names.
 */
export { CONFIG_FILE_NAME, loadCommandConfig as loadCliConfig, processIo } from '@doctree/pipeline/command';
export type { CommandConfig as CliConfig, CommandIo as CliIo } from '@doctree/pipeline/command';
