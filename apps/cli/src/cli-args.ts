import { parseArgs } from 'node:util';
import { DocTreeError } from '@doctree/schema';

/** Options of a command, as `node:util` `parseArgs` takes them. */
export type CliOptionSpec = Record<string, { type: 'boolean' | 'string'; short?: string; multiple?: boolean }>;

/** Parsed command arguments. */
export interface ParsedCliArgs {
  values: Record<string, string | boolean | string[] | boolean[] | undefined>;
  positionals: string[];
}

/**
 * `parseArgs` (strict, positionals allowed) with DocTree's errors: an unknown or malformed option is a `USAGE` error,
 * whose hint shows `usage` when given.
 */
export function parseCommandArgs(args: readonly string[], options: CliOptionSpec, usage?: string): ParsedCliArgs {
  try {
    return parseArgs({ args: [...args], options, allowPositionals: true, strict: true }) as ParsedCliArgs;
  } catch (cause) {
    throw new DocTreeError('USAGE', (cause as Error).message, { cause, ...(usage ? { hint: `Usage:\n${usage}` } : {}) });
  }
}
