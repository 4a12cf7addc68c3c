/**
 * Entry point of `doctree-eval-runner`. The experiment runner arrives with the evaluation milestone;
 * until then the command says so and exits with the usage status (2) instead of pretending to run.
 */
export async function run(argv: readonly string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write('doctree-eval-runner <experiment.json>\n\nRuns systems x datasets x configs into one report.\n');
    return 0;
  }
  process.stderr.write('doctree-eval-runner: [USAGE] experiment files are not supported by this version yet (hint: use `doctree` for single documents)\n');
  return 2;
}
