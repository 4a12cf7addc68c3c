import type { CliIo } from '../cli-context.js';

/** A CliIo that keeps what the command writes (`out`, `err`), for specs. */
export function captureIo(cwd: string, env: Record<string, string | undefined> = {}, isTty = false): CliIo & { out: string; err: string } {
  const io = {
    out: '',
    err: '',
    env,
    cwd,
    isTty,
    stdout: (text: string) => {
      io.out += text;
    },
    stderr: (text: string) => {
      io.err += text;
    },
  };
  return io;
}
