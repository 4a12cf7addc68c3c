import { createProgressPrinter, formatProgressLine, formatResumeLine, type EvalProgressEvent } from '@doctree/eval';
import { escapeControlChars } from '@doctree/pipeline/command';
import { DocTreeError } from '@doctree/schema';
import type { DocTreeConfigInput } from '@doctree/schema';
import type { CliOptionSpec } from '../cli-args.js';
import type { CliIo } from '../cli-context.js';
import { createProgress } from '../progress.js';

/**
 * The options every `doctree eval` form takes besides its own: the run folder (`--out`), run size (`--limit`,
 * `--concurrency`), models (`--llm`, `--embedder`, `--backend`, see {@link evalModelOverrides}), `--json` and `--config`.
 */
export const EVAL_SHARED_OPTIONS = {
  out: { type: 'string' },
  limit: { type: 'string' },
  concurrency: { type: 'string' },
  llm: { type: 'string' },
  embedder: { type: 'string' },
  backend: { type: 'string' },
  json: { type: 'boolean' },
  config: { type: 'string' },
} as const satisfies CliOptionSpec;

/**
 * Refuses positional arguments to `doctree eval` (the dataset is `--questions FILE`).
 *
 * @throws DocTreeError `USAGE` naming the first one.
 */
export function assertNoEvalPositionals(positionals: readonly string[]): void {
  if (positionals.length > 0) throw new DocTreeError('USAGE', `eval takes no positional arguments (got "${positionals[0]}")`, { hint: 'Pass the dataset with --questions FILE.' });
}

/**
 * The model options every `doctree eval` form takes (`--llm none|openai`, `--embedder hashing|sif|openai`,
 * `--backend auto|faiss|exact`), checked and turned into configuration overrides.
 *
 * @throws DocTreeError `USAGE` naming the option and its allowed values.
 */
export function evalModelOverrides(values: Readonly<Record<string, unknown>>): DocTreeConfigInput {
  const llm = values['llm'] as string | undefined;
  const embedder = values['embedder'] as string | undefined;
  const backend = values['backend'] as string | undefined;
  if (llm !== undefined && !['none', 'openai'].includes(llm)) throw new DocTreeError('USAGE', `--llm must be none or openai, not "${llm}"`);
  if (embedder !== undefined && !['hashing', 'sif', 'openai'].includes(embedder)) throw new DocTreeError('USAGE', `--embedder must be hashing, sif or openai, not "${embedder}"`);
  if (backend !== undefined && !['auto', 'faiss', 'exact'].includes(backend)) throw new DocTreeError('USAGE', `--backend must be auto, faiss or exact, not "${backend}"`);
  return {
    ...(llm ? { llm: { provider: llm as 'none' | 'openai' } } : {}),
    ...(embedder ? { embedder: { kind: embedder as 'hashing' | 'sif' | 'openai' } } : {}),
    ...(backend ? { index: { backend: backend as 'auto' | 'faiss' | 'exact' } } : {}),
  };
}

/**
 * How an eval run shows progress: a bar on a terminal; otherwise periodic one-line status on stderr, with a line per
 * system saying whether it resumes or answers again. Call `done` when the run ends.
 */
export function evalProgress(io: CliIo): { onProgress: (event: EvalProgressEvent) => void; done: () => void } {
  const status = io.isTty ? undefined : createProgress(io);
  const printer = io.isTty ? createProgressPrinter({ stream: { write: (text: string) => io.stderr(text), isTTY: true, columns: 100 } }) : (event: EvalProgressEvent) => status!.update(formatProgressLine(event));
  const onProgress = (event: EvalProgressEvent): void => {
    // Whether each system resumes or answers again is said in logs too (the bar says it on a terminal).
    if (!io.isTty) {
      const line = formatResumeLine(event);
      if (line !== undefined) io.stderr(`${escapeControlChars(line)}\n`);
    }
    printer(event);
  };
  return { onProgress, done: () => status?.done() };
}
