import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { DocTreeError, configSecrets, redactSecrets, resolveConfig, type DocTreeConfigInput, type ResolvedConfig } from '@doctree/schema';

/** Where the CLI writes: injectable so tests capture output. */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: Record<string, string | undefined>;
  cwd: string;
  /** True when stdout is a terminal (progress bars, colours). */
  isTty: boolean;
}

/** Default IO bound to the process. */
export function processIo(): CliIo {
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    env: process.env,
    cwd: process.cwd(),
    isTty: Boolean(process.stdout.isTTY),
  };
}

/** Name of the configuration file looked up in the working directory. */
export const CONFIG_FILE_NAME = 'doctree.config.json';

/** Loaded configuration plus where it came from. */
export interface CliConfig extends ResolvedConfig {
  /** Absolute path of the config file used, or null. */
  configFile: string | null;
  /** Redacts secrets of this configuration from any value before it is printed or written. */
  redact: <T>(value: T) => T;
}

/** Reads `--config` (or `./doctree.config.json` when present) and the environment into a typed configuration. */
export function loadCliConfig(io: CliIo, configPath: string | undefined, overrides: DocTreeConfigInput = {}): CliConfig {
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
