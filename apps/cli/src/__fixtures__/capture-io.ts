import { captureIo as captureCommandIo, type CapturedIo } from '@doctree/pipeline/testing';

/**
 * A CLI IO that keeps what the command writes (`out`, `err`), for specs (positional form of the shared helper).
 * Timed progress lines (stdout is no terminal here) are off unless `env` sets `DOCTREE_PROGRESS_INTERVAL_MS`: they
 * depend on how long a command runs, which a spec asserting on stderr should not.
 */
export function captureIo(cwd: string, env: Record<string, string | undefined> = {}, isTty = false): CapturedIo {
  return captureCommandIo({ cwd, env: { DOCTREE_PROGRESS_INTERVAL_MS: '0', ...env }, isTty });
}
