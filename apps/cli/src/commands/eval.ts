import { join, resolve } from 'node:path';
import { formatSummaryTable } from '@doctree/eval';
import { evaluateQuestions, type EvaluateCollectionResult, type EvaluateQuestionsResult } from '@doctree/pipeline';
import { assertOutputTarget, escapeControlChars, explainCacheFailure, llmFailureWarning } from '@doctree/pipeline/command';
import { DocTreeError } from '@doctree/schema';
import { parseCommandArgs, positiveIntegerOption } from '../cli-args.js';
import { loadCliConfig, type CliConfig, type CliIo } from '../cli-context.js';
import { EVAL_USAGE } from '../usage.js';
import { assertNoEvalPositionals, EVAL_SHARED_OPTIONS, evalModelOverrides, evalProgress } from './eval-options.js';
import { evalCollectionCli, isCollectionEval } from './eval-collection.js';
import { postgresEvalSystems } from './eval-postgres.js';

/** Options of the `doctree eval` command. */
export interface EvalCommandOptions {
  /** Dataset file (questions.jsonl, MMLongBench-Doc samples.json, FinanceBench JSONL). */
  questions: string;
  /** System ids or system modules (`./my-system.mjs`, `module:./x.js#createSystem`, relative to the working directory), in report order. */
  systems: string[];
  /** Output folder of the run. */
  outDir: string;
  /** Folder the documents are ingested into. */
  documentsDir: string;
  limit?: number;
  concurrency?: number;
  /** Also score with the LLM judge of the configured endpoint. */
  judge: boolean;
  json: boolean;
  /** `--store postgres://…` of the systems `doctree-pg` / `doctree-pg-hybrid` (default `DOCTREE_STORE`). */
  store?: string;
}

/**
 * Runs `doctree eval`: evaluates the systems on the dataset into the output folder (resuming a run already there),
 * draws a progress bar on a terminal, and prints the summary table and the report paths (or JSON with `--json`).
 */
export async function evalCommand(io: CliIo, config: CliConfig, options: EvalCommandOptions): Promise<EvaluateQuestionsResult> {
  // On a terminal the runner's bar; in a log, a status line every few seconds (createProgress).
  const { onProgress, done: progressDone } = evalProgress(io);
  const controller = new AbortController();
  const onSignal = (): void => controller.abort();
  process.once('SIGINT', onSignal);
  let result: EvaluateQuestionsResult;
  const postgres = await postgresEvalSystems(io, options.systems, options.store);
  try {
    result = await evaluateQuestions({
      ...(postgres.factories.size > 0 ? { systemFactories: postgres.factories } : {}),
      questions: options.questions,
      systems: options.systems,
      outDir: options.outDir,
      config: config.config,
      documentsDir: options.documentsDir,
      baseDir: io.cwd,
      judge: options.judge,
      signal: controller.signal,
      ...(options.limit !== undefined ? { limit: options.limit } : {}),
      ...(options.concurrency !== undefined ? { concurrency: options.concurrency } : {}),
      onProgress,
    });
  } catch (error) {
    throw explainEvalFailure(error, resolve(io.cwd, config.config.data_dir, '.cache'));
  } finally {
    progressDone();
    process.removeListener('SIGINT', onSignal);
    await postgres.close();
  }
  // Failed LLM calls are said on stderr (a run whose endpoint failed throughout is no LLM run), also with --json.
  for (const [system, stats] of result.llmFailures) {
    const warning = llmFailureWarning(system, stats);
    if (warning !== undefined) io.stderr(`${escapeControlChars(warning)}\n`);
  }
  if (options.json) {
    const { metrics, files, answered, resumed, outDir } = result;
    io.stdout(`${JSON.stringify(config.redact({ outDir, files, answered, resumed, metrics }), null, 2)}\n`);
    return result;
  }
  io.stdout(formatSummaryTable(result.metrics));
  io.stdout(`\n${result.answered} answered now, ${result.resumed} taken over from an earlier run.\n`);
  io.stdout(escapeControlChars(`Report: ${result.files.markdown ?? result.files.metrics}${result.files.html ? `\n        ${result.files.html}` : ''}\n`, { keepLayout: true }));
  return result;
}

/**
 * The failure of an evaluation as `doctree eval` reports it: a write error in the cache folder names that folder, and
 * an encrypted PDF says how to get it in (eval takes no password).
 */
function explainEvalFailure(error: unknown, cacheDir: string): unknown {
  const explained = explainCacheFailure(error, cacheDir);
  if (!DocTreeError.isInstance(explained) || explained.code !== 'PDF_ENCRYPTED') return explained;
  return new DocTreeError('PDF_ENCRYPTED', explained.message, {
    ...(explained.file !== undefined ? { file: explained.file } : {}),
    cause: explained,
    hint: '`doctree eval` takes no password: decrypt the PDF first (e.g. `qpdf --password=PW --decrypt in.pdf out.pdf`) and point the dataset at the decrypted copy.',
  });
}

/** Parses the arguments of `doctree eval`, loads the configuration and runs {@link evalCommand} (or, with `--collection DIR`, `evalCollectionCli`). */
export async function evalCli(io: CliIo, args: readonly string[]): Promise<EvaluateQuestionsResult | EvaluateCollectionResult> {
  // `--collection DIR`: every question asked of a whole collection without naming its document.
  if (isCollectionEval(args)) return evalCollectionCli(io, args);
  const { values, positionals } = parseCommandArgs(
    args,
    {
      questions: { type: 'string' },
      systems: { type: 'string' },
      docs: { type: 'string' },
      judge: { type: 'boolean' },
      store: { type: 'string' },
      ...EVAL_SHARED_OPTIONS,
    },
    EVAL_USAGE,
  );
  assertNoEvalPositionals(positionals);
  const questions = values['questions'] as string | undefined;
  const systems = values['systems'] as string | undefined;
  const out = values['out'] as string | undefined;
  if (!questions) throw new DocTreeError('USAGE', 'eval needs --questions FILE', { hint: 'e.g. --questions ../shared/data/eval/dev/questions.jsonl' });
  if (!systems) throw new DocTreeError('USAGE', 'eval needs --systems (comma-separated)', { hint: 'e.g. --systems doctree,rag,bm25-pages' });
  if (!out) throw new DocTreeError('USAGE', 'eval needs --out DIR (the run folder; rerun with the same folder to resume)');
  const limit = positiveIntegerOption('limit', values['limit']);
  const concurrency = positiveIntegerOption('concurrency', values['concurrency']);
  const overrides = evalModelOverrides(values);
  const config = loadCliConfig(io, values['config'] as string | undefined, overrides);
  const outDir = resolve(io.cwd, out);
  const documentsDir = resolve(io.cwd, (values['docs'] as string | undefined) ?? join(config.config.data_dir, 'eval'));
  assertOutputTarget({ option: '--out', target: outDir, inputs: [resolve(io.cwd, questions)], example: '--out runs/dev' });
  assertOutputTarget({ option: '--docs', target: documentsDir, inputs: [resolve(io.cwd, questions)], example: '--docs data/eval' });
  return evalCommand(io, config, {
    questions: resolve(io.cwd, questions),
    systems: systems
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== ''),
    outDir,
    documentsDir,
    judge: Boolean(values['judge']),
    json: Boolean(values['json']),
    ...(values['store'] !== undefined ? { store: values['store'] as string } : {}),
    ...(limit !== undefined ? { limit } : {}),
    ...(concurrency !== undefined ? { concurrency } : {}),
  });
}
