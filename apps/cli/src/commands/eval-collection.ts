import { resolve } from 'node:path';
import { evaluateCollection, type EvaluateCollectionResult } from '@doctree/pipeline';
import { assertOutputTarget, escapeControlChars, explainCacheFailure } from '@doctree/pipeline/command';
import { DocTreeError } from '@doctree/schema';
import { parseCommandArgs, positiveIntegerOption } from '../cli-args.js';
import { loadCliConfig, type CliIo } from '../cli-context.js';
import { EVAL_USAGE } from '../usage.js';
import { assertNoEvalPositionals, EVAL_SHARED_OPTIONS, evalModelOverrides, evalProgress } from './eval-options.js';

/** True when `doctree eval` arguments ask for a collection evaluation (`--collection DIR` or `--collection-dir DIR`). */
export function isCollectionEval(args: readonly string[]): boolean {
  return args.some((a) => a === '--collection' || a.startsWith('--collection=') || a === '--collection-dir' || a.startsWith('--collection-dir='));
}

const pct = (value: number | null): string => (value === null ? '–' : `${(100 * value).toFixed(1)} %`);
const pp = (value: number | null): string => (value === null ? '–' : `${value > 0 ? '+' : ''}${value.toFixed(1)} pp`);

/** The summary lines of a collection evaluation. */
export function formatCollectionEvalSummary(result: EvaluateCollectionResult): string {
  const r = result.report;
  const single = r.systems.single === null ? '' : `  (single document: ${r.systems.single}${r.systems.single_run ? ` of ${r.systems.single_run}` : ''})`;
  return [
    `${r.dataset}: ${r.questions.length} questions over ${r.collection.documents} documents${r.skipped.length > 0 ? `, ${r.skipped.length} left out (document not in the collection)` : ''}`,
    `Document selection  accuracy@1 ${pct(r.selection.accuracy_at_1)}  accuracy@3 ${pct(r.selection.accuracy_at_3)}  (${r.selection.n} questions)`,
    `Evidence recall@${r.k}   collection ${pct(r.recall.collection)}  single document ${pct(r.recall.single)}  difference ${pp(r.recall.diff_pp)}  (${r.recall.n} questions with evidence pages)${single}`,
    `Answer accuracy     collection ${pct(r.accuracy.collection)}  single document ${pct(r.accuracy.single)}  difference ${pp(r.accuracy.diff_pp)}`,
    '',
    `${result.answered} answered now, ${result.resumed} taken over from an earlier run.`,
    `Report: ${result.files.collectionMarkdown}`,
    `        ${result.files.markdown ?? result.files.metrics}`,
    '',
  ].join('\n');
}

/**
 * Runs `doctree eval --collection DIR --questions FILE [--questions FILE]... --out DIR`: every question is asked of
 * the whole collection without naming its document, and of its own document alone (or compared with `--single-run`),
 * into a resumable run folder with `collection.json` / `collection.md` (selection accuracy@1/@3, recall@5 on the gold
 * document, the differences in pp).
 */
export async function evalCollectionCli(io: CliIo, args: readonly string[]): Promise<EvaluateCollectionResult> {
  const { values, positionals } = parseCommandArgs(
    args,
    {
      collection: { type: 'string' },
      'collection-dir': { type: 'string' },
      questions: { type: 'string', multiple: true },
      filter: { type: 'string', multiple: true },
      'max-docs': { type: 'string' },
      'single-run': { type: 'string' },
      'single-system': { type: 'string' },
      'no-single': { type: 'boolean' },
      systems: { type: 'string' },
      ...EVAL_SHARED_OPTIONS,
    },
    EVAL_USAGE,
  );
  assertNoEvalPositionals(positionals);
  if (values['systems'] !== undefined) throw new DocTreeError('USAGE', 'eval --collection asks its own systems (doctree-collection, doctree-single-doc); leave out --systems');
  const collection = (values['collection'] ?? values['collection-dir']) as string | undefined;
  if (values['collection'] !== undefined && values['collection-dir'] !== undefined) throw new DocTreeError('USAGE', 'give the collection once: --collection DIR or --collection-dir DIR');
  if (!collection) throw new DocTreeError('USAGE', 'eval --collection needs the collection folder', { hint: 'e.g. --collection data/filings' });
  const questions = (values['questions'] as string[] | undefined) ?? [];
  if (questions.length === 0) throw new DocTreeError('USAGE', 'eval needs --questions FILE', { hint: 'Several --questions FILE are evaluated as one set.' });
  const out = values['out'] as string | undefined;
  if (!out) throw new DocTreeError('USAGE', 'eval needs --out DIR (the run folder; rerun with the same folder to resume)');
  const singleRun = values['single-run'] as string | undefined;
  if (singleRun !== undefined && values['no-single']) throw new DocTreeError('USAGE', '--single-run and --no-single exclude each other');
  if (values['single-system'] !== undefined && singleRun === undefined) throw new DocTreeError('USAGE', '--single-system names a system of --single-run DIR');
  const limit = positiveIntegerOption('limit', values['limit']);
  const concurrency = positiveIntegerOption('concurrency', values['concurrency']);
  const maxDocs = positiveIntegerOption('max-docs', values['max-docs']);
  const overrides = evalModelOverrides(values);
  const config = loadCliConfig(io, values['config'] as string | undefined, overrides);
  const outDir = resolve(io.cwd, out);
  const collectionDir = resolve(io.cwd, collection);
  const questionFiles = questions.map((q) => resolve(io.cwd, q));
  assertOutputTarget({ option: '--out', target: outDir, inputs: [...questionFiles, collectionDir], example: '--out runs/collection' });

  const { onProgress, done: progressDone } = evalProgress(io);
  const controller = new AbortController();
  const onSignal = (): void => controller.abort();
  process.once('SIGINT', onSignal);
  let result: EvaluateCollectionResult;
  try {
    result = await evaluateCollection({
      collectionDir,
      questions: questionFiles,
      outDir,
      config: config.config,
      filters: (values['filter'] as string[] | undefined) ?? [],
      single: values['no-single'] ? 'none' : singleRun !== undefined ? { runDir: resolve(io.cwd, singleRun), system: (values['single-system'] as string | undefined) ?? 'doctree-single-doc' } : 'ask',
      signal: controller.signal,
      onProgress,
      ...(maxDocs !== undefined ? { maxDocs } : {}),
      ...(limit !== undefined ? { limit } : {}),
      ...(concurrency !== undefined ? { concurrency } : {}),
    });
  } catch (error) {
    throw explainCacheFailure(error, resolve(io.cwd, config.config.data_dir, '.cache'));
  } finally {
    progressDone();
    process.removeListener('SIGINT', onSignal);
  }
  if (values['json']) {
    const { report, files, answered, resumed, outDir: dir } = result;
    const { questions: rows, ...summary } = report;
    io.stdout(`${JSON.stringify(config.redact({ outDir: dir, files, answered, resumed, ...summary, questions: rows.length }), null, 2)}\n`);
    return result;
  }
  io.stdout(escapeControlChars(formatCollectionEvalSummary(result), { keepLayout: true }));
  return result;
}
