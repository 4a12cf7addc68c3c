import { join } from 'node:path';
import { createChatClient } from '@doctree/agents';
import { removeStaleTempFiles } from '@doctree/ingest';
import { loadDataset, runEvaluation, type EvalDataset, type EvalProgressEvent, type EvaluationResult } from '@doctree/eval';
import { configSecrets, DocTreeError, type ChatModelClient, type DocTreeConfig, type MetricsFile } from '@doctree/schema';
import { writeFileAtomic } from '@doctree/schema/node';
import type { EvalDocumentProgress } from './eval-documents.js';
import type { EvalSystemContext, EvalSystemsOptions } from './eval-systems.js';
import { loadEvalSystems, type LoadEvalSystemsOptions } from './eval-systems-modules.js';
import { countLlmFailures, LlmFailureCounter, type LlmFailureStats } from './llm-failures.js';
import { drawEvalTraceViewers } from './trace-viewer/eval-trace-viewers.js';

/** Options of {@link evaluateQuestions}. */
export interface EvaluateQuestionsOptions {
  /** Dataset file: DocTree `questions.jsonl`, MMLongBench-Doc `samples.json` or FinanceBench JSONL (auto-detected). */
  questions: string;
  /**
   * System ids (see `EVAL_SYSTEM_IDS`) or modules exporting a system factory (`./my-system.mjs`,
   * `module:./x.js#createSystem`, relative to `baseDir`; see `loadEvalSystems`), in report order.
   */
  systems: readonly string[];
  /** Folder module systems are resolved from. Default the current directory. */
  baseDir?: string;
  /** Loads a system module by file URL (see `LoadEvalSystemsOptions.importModule`). Default `import()`. */
  importModule?: (url: string) => Promise<Record<string, unknown>>;
  /** Systems by id beside the built-in ones (see `LoadEvalSystemsOptions.factories`). Default none. */
  systemFactories?: LoadEvalSystemsOptions['factories'];
  /** Output folder of the run (`metrics.json`, `predictions.jsonl`, `traces/`, `report.md`, `report.html`). */
  outDir: string;
  /** Resolved configuration: embedder, vector backend, data folder, LLM. */
  config: DocTreeConfig;
  /** Dataset name in reports. Default from the file (`<folder>/<file name>`). */
  dataset?: string;
  /** Evaluate the first `limit` questions only. Default all. */
  limit?: number;
  /** Questions answered at the same time per system. Default 1. */
  concurrency?: number;
  /** Continue the run already in `outDir` (default true); false refuses an existing run. */
  resume?: boolean;
  /** Answer again the pairs that failed with an error in an earlier run. Default false. */
  retryErrors?: boolean;
  /**
   * Score every answer with an LLM judge too: `true` uses the configured endpoint with `llm.judge_model` (default
   * `llm.model`); a client is used as it is. Default false.
   */
  judge?: boolean | ChatModelClient;
  /** Folder the documents are ingested into. Default `<config.data_dir>/eval`. */
  documentsDir?: string;
  /** Systems' chat model: default from the configuration; `null` forces the offline path. */
  chat?: ChatModelClient | null;
  /** Shared documents, reader and router of another evaluation (e.g. the previous dataset of an experiment). */
  context?: EvalSystemContext;
  /** Progress of the runner (see `createProgressPrinter` of `@doctree/eval`). */
  onProgress?: (event: EvalProgressEvent) => void;
  /** Progress of ingesting and indexing the documents. */
  onDocument?: (progress: EvalDocumentProgress) => void;
  /** Cancels the run; answers already saved stay, and the same call resumes. */
  signal?: AbortSignal;
}

/** How a run is driven, the same for every form of evaluation (questions of their documents, or of a collection). */
export type EvaluationRunControls = Pick<EvaluateQuestionsOptions, 'limit' | 'concurrency' | 'resume' | 'retryErrors' | 'onProgress' | 'signal'>;

/** The run controls that are set, as options of `runEvaluation` of `@doctree/eval` (unset ones left out). */
export function runControls(options: EvaluationRunControls): EvaluationRunControls {
  return {
    ...(options.limit !== undefined ? { limit: options.limit } : {}),
    ...(options.concurrency !== undefined ? { concurrency: options.concurrency } : {}),
    ...(options.resume !== undefined ? { resume: options.resume } : {}),
    ...(options.retryErrors !== undefined ? { retryErrors: options.retryErrors } : {}),
    ...(options.onProgress !== undefined ? { onProgress: options.onProgress } : {}),
    ...(options.signal !== undefined ? { signal: options.signal } : {}),
  };
}

/** What {@link evaluateQuestions} returns: the evaluation and the dataset it read. */
export interface EvaluateQuestionsResult extends EvaluationResult {
  dataset: EvalDataset;
  /**
   * Failed LLM calls per system id among the questions answered by this call (systems that made LLM calls; with a
   * shared `context`, only when its chat model was wrapped by `countLlmFailures`); also in `metrics.json` as `llm_failures`.
   */
  llmFailures: Map<string, LlmFailureStats>;
}

/** The judge client of `judge: true`: the configured endpoint with `llm.judge_model`. */
export function createJudgeClient(config: DocTreeConfig): ChatModelClient {
  if (config.llm.provider === 'none') {
    throw new DocTreeError('USAGE', 'the LLM judge needs an LLM endpoint, and none is configured', {
      hint: 'Set OPENAI_API_KEY or OPENAI_BASE_URL (or --llm openai with llm settings in doctree.config.json), or run without --judge.',
    });
  }
  const client = createChatClient({ ...config, llm: { ...config.llm, model: config.llm.judge_model ?? config.llm.model } });
  if (client === undefined) throw new DocTreeError('INTERNAL', 'no chat client for the judge although an endpoint is configured');
  return client;
}

/**
 * Evaluates DocTree systems on a dataset: loads the questions, creates the systems (`createEvalSystems`: one shared
 * ingest, embedder, vector backend, router and reader) and runs `runEvaluation` into `outDir` — resumable, so the
 * same call after an interruption continues where it stopped.
 *
 * @example
 * ```ts
 * const { metrics } = await evaluateQuestions({ questions: 'data/eval/dev/questions.jsonl', systems: ['doctree', 'rag'], outDir: 'out/dev', config });
 * console.log(formatSummaryTable(metrics));
 * ```
 * @throws DocTreeError `EVAL_DATASET_INVALID`, `USAGE` (unknown system, bad limit), `CONFIG_INVALID` (resuming with other settings), `CANCELLED`.
 */
export async function evaluateQuestions(options: EvaluateQuestionsOptions): Promise<EvaluateQuestionsResult> {
  const dataset = await loadDataset(options.questions, options.dataset !== undefined ? { name: options.dataset } : {});
  const judge = options.judge === true ? createJudgeClient(options.config) : options.judge === false || options.judge === undefined ? null : options.judge;
  // Every LLM call of the systems is counted, so a run whose endpoint failed throughout says so.
  const counter = new LlmFailureCounter();
  const chat = options.context ? undefined : options.chat === null ? null : (options.chat ?? createChatClient(options.config));
  const systemsOptions: EvalSystemsOptions = {
    config: options.config,
    ...(options.documentsDir !== undefined ? { outDir: options.documentsDir } : {}),
    ...(chat !== undefined ? { chat: chat === null ? null : countLlmFailures(chat) } : {}),
    ...(options.context !== undefined ? { context: options.context } : {}),
    ...(options.onDocument !== undefined ? { onProgress: options.onDocument } : {}),
  };
  const systems = (await loadEvalSystems(options.systems, { ...systemsOptions, ...(options.baseDir !== undefined ? { baseDir: options.baseDir } : {}), ...(options.importModule !== undefined ? { importModule: options.importModule } : {}), ...(options.systemFactories !== undefined ? { factories: options.systemFactories } : {}) })).map((system) => counter.wrapSystem(system));
  // Temporaries of a run that was killed (their process is gone) would stay in the run folder forever.
  await removeStaleTempFiles(options.outDir);
  for (const system of systems) await removeStaleTempFiles(join(options.outDir, 'traces', system.id));
  const result = await runEvaluation({
    questions: dataset.questions,
    systems,
    outDir: options.outDir,
    dataset: dataset.name,
    documentsDir: dataset.baseDir,
    judge,
    secrets: configSecrets(options.config),
    ...runControls(options),
  });
  // The reports link every traced answer to its viewer page: draw its evidence pages (the documents are at hand here).
  await drawEvalTraceViewers(result.predictions, result.outDir, { documentsDir: options.documentsDir ?? join(options.config.data_dir, 'eval'), datasetDir: dataset.baseDir });
  const llmFailures = counter.stats();
  const metrics = await recordLlmFailures(result.files.metrics, result.metrics, llmFailures);
  return { ...result, metrics, dataset, llmFailures };
}

/** Adds `llm_failures` to the systems of `metrics.json` (rewritten atomically) that made LLM calls in this run. */
async function recordLlmFailures(path: string, metrics: MetricsFile, failures: ReadonlyMap<string, LlmFailureStats>): Promise<MetricsFile> {
  if (failures.size === 0) return metrics;
  const updated: MetricsFile = {
    ...metrics,
    systems: metrics.systems.map((system) => {
      const stats = failures.get(system.system);
      return stats ? { ...system, llm_failures: stats } : system;
    }),
  };
  await writeFileAtomic(path, `${JSON.stringify(updated, null, 2)}\n`);
  return updated;
}
