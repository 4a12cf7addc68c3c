import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { DocTreeError, configSecrets, redactSecrets, resolveConfig, type DocTreeConfigInput, type ResolvedConfig } from '@doctree/schema';

import type { CommandIo } from './command-io.js';

/** Name of the configuration file looked up in the working directory. */
export const CONFIG_FILE_NAME = 'doctree.config.json';

/** A command's configuration plus where it came from. */
export interface CommandConfig extends ResolvedConfig {
  /** Absolute path of the config file used, or null. */
  configFile: string | null;
  /** Redacts secrets of this configuration from any value before it is printed or written. */
  redact: <T>(value: T) => T;
}

/**
 * Reads `configPath` (or `./doctree.config.json` in `io.cwd` when present), the environment and `overrides` into a
 * typed configuration.
 *
 * @throws DocTreeError `INPUT_NOT_FOUND` for a named file that does not exist, `CONFIG_INVALID` for a file that is not
 * JSON or a field that fails validation (the message names the field and the file).
 */
export function loadCommandConfig(io: Pick<CommandIo, 'cwd' | 'env'>, configPath: string | undefined, overrides: DocTreeConfigInput = {}): CommandConfig {
  const candidate = configPath ? resolve(io.cwd, configPath) : resolve(io.cwd, CONFIG_FILE_NAME);
  let file: unknown = undefined;
  let configFile: string | null = null;
  if (existsSync(candidate)) {
    configFile = candidate;
    try {
      file = JSON.parse(readFileSync(candidate, 'utf8'));
    } catch (cause) {
      throw new DocTreeError('CONFIG_INVALID', `cannot parse the configuration file: ${(cause as Error).message}`, { file: candidate, cause });
    }
  } else if (configPath) {
    throw new DocTreeError('INPUT_NOT_FOUND', 'the configuration file does not exist', { file: candidate });
  }
  const resolved = resolveConfig({ file, ...(configFile ? { filePath: configFile } : {}), env: io.env, overrides });
  const secrets = configSecrets(resolved.config);
  return { ...resolved, configFile, redact: (value) => redactSecrets(value, secrets) };
}
