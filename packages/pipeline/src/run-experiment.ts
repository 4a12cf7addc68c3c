import { readFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { loadExperiment, writeComparisonReports, type ComparisonRun, type EvalProgressEvent, type Experiment, type WrittenComparison } from '@doctree/eval';
import { DocTreeError, resolveConfig, type DocTreeConfig } from '@doctree/schema';
import type { EvalDocumentProgress } from './eval-documents.js';
import { createEvalSystemContext, EVAL_SYSTEM_IDS, type EvalSystemContext } from './eval-systems.js';
import { createChatClient } from '@doctree/agents';
import { evaluateQuestions } from './evaluate-questions.js';
import { countLlmFailures, type LlmFailureStats } from './llm-failures.js';

/** A progress report of {@link runExperiment}. */
export interface ExperimentProgress {
  /** 0-based index of the run (dataset × configuration) and the number of runs. */
  run: number;
  runs: number;
  dataset: string;
  config: string;
  /** Folder of this run. */
  outDir: string;
  /** The runner's event; absent for the `run-start` report. */
  event?: EvalProgressEvent;
  /** Document preparation of this run. */
  document?: EvalDocumentProgress;
}

/** Options of {@link runExperiment}. */
export interface RunExperimentOptions {
  /** Path of the experiment file (format `doctree.experiment` v1). */
  file: string;
  /**
   * The base configuration each configuration of the experiment overrides: a `doctree.config.json` path. Default
   * none (the built-in defaults, then the environment).
   */
  configFile?: string;
  /** Environment variables of the base configuration (LLM endpoint, keys). Default none. */
  env?: Record<string, string | undefined>;
  /** Output folder; wins over the file's `out_dir`. */
  outDir?: string;
  /** Evaluate only the first `limit` questions of each dataset; wins over the file. */
  limit?: number;
  /** The exact command shown in the comparison report. Default `doctree-eval-runner <file>`. */
  command?: string;
  onProgress?: (progress: ExperimentProgress) => void;
  /** Cancels the experiment; finished answers stay and a rerun resumes. */
  signal?: AbortSignal;
}

/** One finished run of an experiment. */
export interface ExperimentRunResult {
  dataset: string;
  config: string;
  outDir: string;
  answered: number;
  /** Failed LLM calls per system in this run (see `evaluateQuestions`). */
  llmFailures: Map<string, LlmFailureStats>;
  resumed: number;
  /** The run's metrics. */
  metrics: ComparisonRun['metrics'];
}

/** What {@link runExperiment} did. */
export interface ExperimentResult {
  experiment: Experiment;
  /** Absolute output folder. */
  outDir: string;
  runs: ExperimentRunResult[];
  /** `comparison.json`, `comparison.md`, `comparison.html`. */
  files: WrittenComparison;
}

async function readConfigFile(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (cause) {
    throw new DocTreeError('INPUT_NOT_FOUND', 'the configuration file does not exist or cannot be read', { file: path, cause });
  }
  try {
    return JSON.parse(text);
  } catch (cause) {
    throw new DocTreeError('CONFIG_INVALID', `cannot parse the configuration file: ${(cause as Error).message}`, { file: path, cause });
  }
}

/**
 * Runs an experiment file: every dataset under every configuration, each evaluated with the experiment's systems by
 * {@link evaluateQuestions} into `<out>/<dataset>/<config>/` (resumable: rerunning continues each run), then writes
 * one comparison report (`comparison.json`, `comparison.md`, `comparison.html`) into `<out>` with the command.
 *
 * Every configuration is the base configuration (`configFile`, then `env`) overridden by its `config`; its
 * documents are ingested and indexed once into `<documents_dir>/<config>/` and shared by its systems and datasets.
 *
 * @example
 * ```ts
 * const { files } = await runExperiment({ file: 'examples/experiments/dev-comparison.json', env: process.env });
 * console.log(files.html);
 * ```
 * @throws DocTreeError from {@link loadExperiment} (naming the field), configuration errors naming the configuration,
 *   and the runner's errors (`CANCELLED` leaves every saved answer for the next run).
 */
export async function runExperiment(options: RunExperimentOptions): Promise<ExperimentResult> {
  const experiment = await loadExperiment(options.file, { knownSystems: EVAL_SYSTEM_IDS });
  const fileConfig = options.configFile !== undefined ? await readConfigFile(resolve(options.configFile)) : undefined;
  const configs: Array<{ name: string; description?: string; config: DocTreeConfig }> = experiment.configs.map((c) => {
    try {
      return {
        name: c.name,
        ...(c.description !== undefined ? { description: c.description } : {}),
        config: resolveConfig({ ...(fileConfig !== undefined ? { file: fileConfig, filePath: resolve(options.configFile!) } : {}), env: options.env ?? {}, overrides: c.config }).config,
      };
    } catch (error) {
      const e = DocTreeError.from(error, 'CONFIG_INVALID');
      throw new DocTreeError(e.code, `configuration "${c.name}" of the experiment: ${e.message}`, { file: experiment.file, cause: error, ...(e.hint ? { hint: e.hint } : {}) });
    }
  });
  const outDir = resolve(options.outDir ?? experiment.outDir ?? join(configs[0]!.config.data_dir, 'experiments', experiment.name));
  const documentsDir = experiment.documentsDir ?? join(outDir, 'documents');
  const limit = options.limit;
  const combinations = experiment.datasets.flatMap((dataset) => configs.map((config) => ({ dataset, config })));
  const contexts = new Map<string, EvalSystemContext>();
  const runs: ExperimentRunResult[] = [];
  let current: (extra: Partial<ExperimentProgress>) => void = () => undefined;
  for (const [i, { dataset, config }] of combinations.entries()) {
    if (options.signal?.aborted) throw new DocTreeError('CANCELLED', 'the experiment was cancelled', { hint: 'Run the same command again to resume.' });
    const runDir = join(outDir, dataset.name, config.name);
    const report = (extra: Partial<ExperimentProgress>): void => options.onProgress?.({ run: i, runs: combinations.length, dataset: dataset.name, config: config.name, outDir: runDir, ...extra });
    report({});
    current = report;
    let context = contexts.get(config.name);
    if (context === undefined) {
      // The chat model's failed calls are counted per run (see countLlmFailures).
      const chat = createChatClient(config.config);
      context = createEvalSystemContext({
        config: config.config,
        outDir: join(documentsDir, config.name),
        onProgress: (document) => current({ document }),
        ...(chat ? { chat: countLlmFailures(chat) } : {}),
      });
      contexts.set(config.name, context);
    }
    const runLimit = limit ?? dataset.limit ?? experiment.limit;
    const result = await evaluateQuestions({
      questions: dataset.questions,
      dataset: dataset.name,
      systems: experiment.systems,
      baseDir: dirname(experiment.file),
      outDir: runDir,
      config: config.config,
      context,
      judge: experiment.judge,
      ...(runLimit !== undefined ? { limit: runLimit } : {}),
      ...(experiment.concurrency !== undefined ? { concurrency: experiment.concurrency } : {}),
      onProgress: (event) => report({ event }),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    runs.push({ dataset: dataset.name, config: config.name, outDir: runDir, answered: result.answered, resumed: result.resumed, metrics: result.metrics, llmFailures: result.llmFailures });
  }
  const notes = [
    ...(experiment.description !== undefined ? [experiment.description] : []),
    ...configs.map((c) => `Configuration ${c.name}: ${c.description ? `${c.description} — ` : ''}embedder ${c.config.embedder.kind}${c.config.embedder.kind === 'hashing' ? ` d${c.config.embedder.dimension}` : ''}, vector backend ${c.config.index.backend}, LLM ${c.config.llm.provider === 'none' ? 'none (offline)' : c.config.llm.model}.`),
    `Systems: ${experiment.systems.join(', ')}. Each run folder holds its own report.md / report.html, predictions.jsonl and traces.`,
  ];
  const files = await writeComparisonReports(
    {
      title: `Experiment ${experiment.name}`,
      command: options.command ?? `doctree-eval-runner ${relative(process.cwd(), experiment.file) || experiment.file}`,
      notes,
      runs: runs.map((r) => ({ dataset: r.dataset, config: r.config, metrics: r.metrics, reportDir: relative(outDir, r.outDir) })),
    },
    outDir,
  );
  return { experiment, outDir, runs, files };
}
