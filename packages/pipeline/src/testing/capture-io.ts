import type { CommandIo } from '../command/command-io.js';

/** A {@link CommandIo} that keeps what the command writes. */
export interface CapturedIo extends CommandIo {
  /** Everything written to stdout so far. */
  out: string;
  /** Everything written to stderr so far. */
  err: string;
}

/** Options of {@link captureIo}. */
export interface CaptureIoOptions {
  /** Working directory. Default `process.cwd()`. */
  cwd?: string;
  /** Environment. Default empty (no API keys leak in from the test runner). */
  env?: Record<string, string | undefined>;
  /** Pretend stdout is a terminal. Default false. */
  isTty?: boolean;
}

/** A command IO for specs: captures stdout/stderr and uses the given environment and working directory. */
export function captureIo(options: CaptureIoOptions = {}): CapturedIo {
  const io: CapturedIo = {
    out: '',
    err: '',
    env: options.env ?? {},
    cwd: options.cwd ?? process.cwd(),
    isTty: options.isTty ?? false,
    stdout: (text) => {
      io.out += text;
    },
    stderr: (text) => {
      io.err += text;
    },
  };
  return io;
}
