import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { createProgressPrinter, formatResumeLine, formatSummaryTable } from '@doctree/eval';
import {
  CONFIG_FILE_NAME,
  parseCommandArgs,
  positiveIntegerOption,
  processIo,
  reportCommandFailure,
  runExperiment,
  type CommandIo,
  type ExperimentProgress,
} from '@doctree/pipeline';
import { escapeControlChars, llmFailureWarning } from '@doctree/pipeline/command';
import { DocTreeError } from '@doctree/schema';

const HELP = `doctree-eval-runner - run an experiment file (systems x datasets x configurations) into one comparison report

Usage:
  doctree-eval-runner <experiment.json> [--out DIR] [--limit N] [--config FILE] [--json]

  Every dataset is evaluated under every configuration with the experiment's systems into
  <out>/<dataset>/<config>/ (resumable: rerun the same command to continue), then comparison.md,
  comparison.html and comparison.json are written to <out>. See apps/eval-runner/README.md for the format.
  Systems are built-in ids or modules exporting a system factory (./my-system.mjs, module:./x.js#createSystem,
  relative to the experiment file). A system whose configuration or module changed is answered again.

Options:
  --out DIR       output folder (default: the file's out_dir, else <data_dir>/experiments/<name>)
  --limit N       evaluate only the first N questions of each dataset
  --config FILE   base configuration (default: ./doctree.config.json when present); the environment applies too
  --json          print the result as JSON
  -h, --help      show this help
`;

/** Where the runner writes: injectable so tests capture output. */
export type RunnerIo = CommandIo;

function progressPrinter(io: RunnerIo): (progress: ExperimentProgress) => void {
  if (!io.isTty) {
    // Not a terminal: only whether each system resumes or answers again.
    return (progress) => {
      const line = progress.event ? formatResumeLine(progress.event) : undefined;
      if (line !== undefined) io.stderr(`${escapeControlChars(`${progress.dataset} × ${progress.config}: ${line}`)}\n`);
    };
  }
  const bar = createProgressPrinter({ stream: { write: (text: string) => io.stderr(text), isTTY: true, columns: 100 } });
  let lastRun = -1;
  return (progress) => {
    if (progress.run !== lastRun) {
      lastRun = progress.run;
      io.stderr(`[${progress.run + 1}/${progress.runs}] ${progress.dataset} × ${progress.config}\n`);
    }
    if (progress.event) bar(progress.event);
  };
}

/**
 * Entry point of `doctree-eval-runner`: runs the experiment file and prints each run's summary table and the
 * comparison report's paths. Errors become one-line messages (or JSON with `--json`), never stack traces.
 */
export async function run(argv: readonly string[], io: RunnerIo = processIo()): Promise<number> {
  const json = argv.includes('--json');
  try {
    if (argv.length === 0 || argv.includes('--help') || argv.includes('-h')) {
      io.stdout(HELP);
      return argv.length === 0 ? 2 : 0;
    }
    const { values, positionals } = parseCommandArgs(
      argv,
      { out: { type: 'string' }, limit: { type: 'string' }, config: { type: 'string' }, json: { type: 'boolean' } },
      'Run `doctree-eval-runner --help`.',
    );
    if (positionals.length !== 1) throw new DocTreeError('USAGE', 'give exactly one experiment file', { hint: 'Run `doctree-eval-runner --help`.' });
    const limit = positiveIntegerOption('limit', values['limit']);
    const configPath = values['config'] as string | undefined;
    const defaultConfig = resolve(io.cwd, CONFIG_FILE_NAME);
    const configFile = configPath !== undefined ? resolve(io.cwd, configPath) : existsSync(defaultConfig) ? defaultConfig : undefined;
    const onProgress = progressPrinter(io);
    const result = await runExperiment({
      file: resolve(io.cwd, positionals[0]!),
      env: io.env,
      command: ['doctree-eval-runner', ...argv].join(' '),
      ...(configFile !== undefined ? { configFile } : {}),
      ...(values['out'] !== undefined ? { outDir: resolve(io.cwd, values['out'] as string) } : {}),
      ...(limit !== undefined ? { limit } : {}),
      onProgress,
    });
    // Failed LLM calls are said on stderr (a run whose endpoint failed throughout is no LLM run), also with --json.
    for (const r of result.runs) {
      for (const [system, stats] of r.llmFailures) {
        const warning = llmFailureWarning(`${r.dataset} × ${r.config} ${system}`, stats);
        if (warning !== undefined) io.stderr(`${escapeControlChars(warning)}\n`);
      }
    }
    if (json) {
      io.stdout(`${JSON.stringify({ outDir: result.outDir, files: result.files, runs: result.runs.map(({ llmFailures: _, ...run }) => run) }, null, 2)}\n`);
      return 0;
    }
    for (const r of result.runs) {
      io.stdout(`${r.dataset} × ${r.config} (${r.answered} answered now, ${r.resumed} from an earlier run) — ${r.outDir}\n`);
      io.stdout(`${formatSummaryTable(r.metrics)}\n`);
    }
    io.stdout(`Comparison: ${result.files.markdown}\n            ${result.files.html}\n`);
    return 0;
  } catch (error) {
    return reportCommandFailure(error, io, { program: 'doctree-eval-runner', json });
  }
}
