import { captureIo as captureCommandIo, type CapturedIo } from '@doctree/pipeline/testing';

/** A CLI IO that keeps what the command writes (`out`, `err`), for specs (positional form of the shared helper). */
export function captureIo(cwd: string, env: Record<string, string | undefined> = {}, isTty = false): CapturedIo {
  return captureCommandIo({ cwd, env, isTty });
}
