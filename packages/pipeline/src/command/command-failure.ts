import { DocTreeError } from '@doctree/schema';

import type { CommandIo } from './command-io.js';
import { escapeControlChars } from './terminal-text.js';

/** Options of {@link reportCommandFailure}. */
export interface ReportCommandFailureOptions {
  /** Program name that prefixes the one-line message, e.g. `doctree`. */
  program: string;
  /** Also print `{ "error": … }` as JSON on stdout. */
  json: boolean;
}

/**
 * Ends a command that failed: one line `<program>: [CODE] message (file, page, hint)` on stderr (plus the error as
 * JSON on stdout with `json`; control characters of file names escaped on the line), never a stack trace — except for an unexpected (`INTERNAL`) error when `DOCTREE_DEBUG`
 * is set. Returns the exit status of the error's code.
 */
export function reportCommandFailure(error: unknown, io: CommandIo, options: ReportCommandFailureOptions): number {
  const failure = DocTreeError.isInstance(error) ? error : DocTreeError.from(error, 'INTERNAL');
  if (options.json) io.stdout(`${JSON.stringify({ error: failure.toJSON() }, null, 2)}\n`);
  io.stderr(`${options.program}: ${escapeControlChars(failure.toOneLine(), { keepLayout: true })}\n`);
  if (failure.code === 'INTERNAL' && io.env['DOCTREE_DEBUG'] && error instanceof Error) io.stderr(`${error.stack}\n`);
  return failure.exitStatus;
}
