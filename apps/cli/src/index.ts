/**
 * @doctree/cli — the `doctree` command. Composes the DocTree packages; holds no logic of its own.
 */
export { CLI_VERSION, run } from './main.js';
export { CONFIG_FILE_NAME, loadCliConfig, processIo } from './cli-context.js';
export type { CliConfig, CliIo } from './cli-context.js';
export { buildDoctorReport, formatDoctorReport } from './commands/doctor.js';
export type { DoctorOptions, DoctorReport } from './commands/doctor.js';
