/**
 * What a DocTree command (the `doctree` CLI, `doctree-eval-runner`) writes to and reads from: injectable, so tests
 * capture output and give their own environment and working directory.
 */
export interface CommandIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Environment the configuration is read from. */
  env: Record<string, string | undefined>;
  /** Working directory relative paths are resolved against. */
  cwd: string;
  /** True when stdout is a terminal (progress bars redraw in place). */
  isTty: boolean;
}

/** The parts of a writable stream {@link pipeSafeWriter} uses (`process.stdout`, `process.stderr`). */
export interface PipeSafeStream {
  write(text: string): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

const isBrokenPipe = (error: unknown): boolean => typeof error === 'object' && error !== null && (error as NodeJS.ErrnoException).code === 'EPIPE';

/**
 * A writer for `stream` that survives a closed reader (`doctree ask --json | head`): the `EPIPE` the stream throws
 * or emits is swallowed (no stack trace) and later writes are dropped, so the command ends with its usual status.
 * Other stream errors are rethrown / re-emitted as before.
 */
export function pipeSafeWriter(stream: PipeSafeStream): (text: string) => void {
  let broken = false;
  stream.on('error', (error) => {
    if (isBrokenPipe(error)) {
      broken = true;
      return;
    }
    throw error;
  });
  return (text) => {
    if (broken) return;
    try {
      stream.write(text);
    } catch (error) {
      if (!isBrokenPipe(error)) throw error;
      broken = true;
    }
  };
}

let processWriters: { stdout: (text: string) => void; stderr: (text: string) => void } | undefined;

/** The {@link CommandIo} of the running process (a closed stdout or stderr pipe ends output quietly). */
export function processIo(): CommandIo {
  processWriters ??= { stdout: pipeSafeWriter(process.stdout), stderr: pipeSafeWriter(process.stderr) };
  return {
    stdout: processWriters.stdout,
    stderr: processWriters.stderr,
    env: process.env,
    cwd: process.cwd(),
    isTty: Boolean(process.stdout.isTTY),
  };
}
