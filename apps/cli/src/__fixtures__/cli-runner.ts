import { run } from '../main.js';
import { captureIo } from './capture-io.js';

/** Environment of specs that build indexes offline and fast: hashing embedder, exact vector search. */
export const OFFLINE_INDEX_ENV: Readonly<Record<string, string>> = { DOCTREE_EMBEDDER: 'hashing', DOCTREE_VECTOR_BACKEND: 'exact' };

/** What one `doctree …` run of a spec gave: the exit status and what it wrote. */
export interface CliRun {
  status: number;
  out: string;
  err: string;
}

/**
 * A `doctree` runner for specs: each call runs the CLI in process in `cwd()` (read at call time: specs make their
 * folder in `beforeEach`) with `env` (a record, or a function of the folder), and returns status, stdout and stderr.
 *
 * @example
 * ```ts
 * let dir = '';
 * const cli = cliRunner(() => dir);
 * const { status, out } = await cli('collection', 'status', '--collection-dir', 'col', '--json');
 * ```
 */
export function cliRunner(cwd: () => string, env: Readonly<Record<string, string | undefined>> | ((cwd: string) => Record<string, string | undefined>) = OFFLINE_INDEX_ENV): (...args: string[]) => Promise<CliRun> {
  return async (...args: string[]): Promise<CliRun> => {
    const dir = cwd();
    const io = captureIo(dir, typeof env === 'function' ? env(dir) : { ...env });
    const status = await run(args, io);
    return { status, out: io.out, err: io.err };
  };
}
