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

/** The {@link CommandIo} of the running process. */
export function processIo(): CommandIo {
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    env: process.env,
    cwd: process.cwd(),
    isTty: Boolean(process.stdout.isTTY),
  };
}
