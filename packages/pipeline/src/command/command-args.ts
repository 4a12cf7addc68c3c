import { parseArgs } from 'node:util';
import { DocTreeError } from '@doctree/schema';

/** Options of a command, as `node:util` `parseArgs` takes them. */
export type CommandOptionSpec = Record<string, { type: 'boolean' | 'string'; short?: string; multiple?: boolean }>;

/** Parsed command arguments. */
export interface ParsedCommandArgs {
  values: Record<string, string | boolean | string[] | boolean[] | undefined>;
  positionals: string[];
}

/**
 * `parseArgs` (strict, positionals allowed) with DocTree's errors: an unknown or malformed option is a `USAGE` error,
 * whose hint shows `usage` when given.
 */
export function parseCommandArgs(args: readonly string[], options: CommandOptionSpec, usage?: string): ParsedCommandArgs {
  try {
    return parseArgs({ args: [...args], options, allowPositionals: true, strict: true }) as ParsedCommandArgs;
  } catch (cause) {
    throw new DocTreeError('USAGE', (cause as Error).message, { cause, ...(usage ? { hint: usage.includes('\n') ? `Usage:\n${usage}` : usage } : {}) });
  }
}

/**
 * Reads a positive integer option (`--limit 5`).
 *
 * @throws DocTreeError `USAGE` naming the option for anything else.
 */
export function positiveIntegerOption(name: string, value: string | boolean | string[] | boolean[] | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !/^[1-9]\d*$/.test(value)) throw new DocTreeError('USAGE', `--${name} must be a positive integer, not "${String(value)}"`);
  return Number(value);
}
