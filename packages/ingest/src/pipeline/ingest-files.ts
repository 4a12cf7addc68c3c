import { readdirSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { DocTreeError } from '@doctree/schema';
import type { DocTreeErrorJson } from '@doctree/schema';
import { assertOcrOptions } from '../pdf/pdf-ocr.js';
import { compiledModule } from '../pdf/pdf-runtime.js';
import { createWakeUp, workerExecArgv } from '../pdf/pdf-workers.js';
import { docIdFromFilename } from './doc-id.js';
import { ingestFile } from './ingest-file.js';
import type { IngestFileOptions, IngestProgress, IngestResult } from './ingest-file.js';

/**
 * Ingesting a set of files: each file is read whole by one thread (so its content lists are exactly those of
 * {@link ingestFile}), and with two cores or more several files are read at the same time, this thread taking one and
 * each worker thread another. Outcomes come back in input order; a file that fails does not stop the others.
 */

/** Most files read at the same time with `concurrency: 'auto'`. */
export const MAX_CONCURRENT_FILES = 4;

/** Options of {@link ingestFiles}: those of {@link IngestFileOptions} that apply to every file, and the concurrency. */
export interface IngestFilesOptions extends Omit<IngestFileOptions, 'docId' | 'middlePath' | 'onProgress' | 'signal' | 'pdfWorkers'> {
  /**
   * Files read at the same time: `'auto'` (default) one per core (at most {@link MAX_CONCURRENT_FILES}, never more than
   * there are files, one at a time when one file is most of the bytes: see {@link fileConcurrency}); 1 reads them one after the other in this thread (long PDFs then use page workers as `ingestFile`
   * does). Worker threads are used only when the compiled worker script is present; otherwise files are read here.
   */
  concurrency?: number | 'auto';
  /** Progress of each file: its index in the inputs and the event (as {@link ingestFile} reports it). */
  onProgress?: (index: number, event: IngestProgress) => void;
  /**
   * Told when a requested concurrency above the number of cores is lowered to it. Default: a Node process warning
   * (`DOCTREE_JOBS_CAPPED`, printed once to stderr).
   */
  onWarning?: (message: string) => void;
  /** Stops taking new files; files being read finish or are stopped, then a `CANCELLED` DocTreeError is thrown. */
  signal?: AbortSignal;
}

/** What {@link ingestFiles} reports of a file it ingested (the content lists and tree are on disk). */
export type IngestedFile = Pick<IngestResult, 'docId' | 'docDir' | 'files' | 'summary'>;

/** The outcome of one input of {@link ingestFiles}. */
export type IngestFilesOutcome =
  | { index: number; input: string; result: IngestedFile; error?: undefined }
  | { index: number; input: string; error: DocTreeError; result?: undefined };

/** Options a worker thread receives with each file (everything but callbacks and signals). */
type WorkerJobOptions = Omit<IngestFilesOptions, 'concurrency' | 'onProgress' | 'onWarning' | 'signal'>;

/** Main thread → worker. */
export interface IngestFilesJob {
  type: 'job';
  index: number;
  input: string;
  options: WorkerJobOptions;
}

/** Worker → main thread. */
export type IngestFilesWorkerMessage =
  | { type: 'progress'; index: number; event: IngestProgress }
  | { type: 'done'; index: number; result: IngestedFile }
  | { type: 'error'; index: number; error: DocTreeErrorJson };

/** The compiled worker script next to this module (`dist/pipeline/ingest-files-worker.js`); undefined from sources. */
export function ingestFilesWorkerScript(): string | undefined {
  return compiledModule('pipeline/ingest-files-worker.js');
}

/**
 * Files read at the same time for inputs of the given sizes (bytes) and the `requested` concurrency. With `'auto'`, a
 * set dominated by one file (more than half of all bytes) is read one file after the other instead: side by side, that
 * file would be read by one thread while the other cores soon idle, where on its own it gets page workers. A number
 * is capped at the cores (`os.availableParallelism()`; `--jobs 1000` starts no 1 000 workers), and `onCapped` is told
 * when that lowers the files read at the same time.
 *
 * @throws DocTreeError `USAGE` for a requested concurrency that is not a number ≥ 1.
 */
export function fileConcurrency(sizes: readonly number[], requested: number | 'auto' = 'auto', onCapped?: (message: string) => void): number {
  const files = sizes.length;
  if (requested === 'auto') {
    const total = sizes.reduce((sum, size) => sum + size, 0);
    if (total > 0 && Math.max(...sizes) > total / 2) return 1;
  } else if (!(Number.isFinite(requested) && requested >= 1)) {
    throw new DocTreeError('USAGE', `concurrency must be 'auto' or a number ≥ 1, got ${String(requested)}`, { hint: 'Pass --jobs with a whole number of files read at the same time.' });
  }
  const cores = availableParallelism();
  let wanted = requested === 'auto' ? Math.min(cores, MAX_CONCURRENT_FILES) : Math.floor(requested);
  if (Math.min(wanted, files) > cores) {
    onCapped?.(`${wanted} files at the same time requested; capped at ${cores}, the number of cores`);
    wanted = cores;
  }
  return Math.max(1, Math.min(wanted, files));
}

/** The default `onWarning` of {@link ingestFiles}: a Node process warning. */
function processWarning(message: string): void {
  process.emitWarning(message, { code: 'DOCTREE_JOBS_CAPPED' });
}

/** A DocTreeError again from its JSON form (as a worker thread sends it). */
export function errorFromJson(json: DocTreeErrorJson): DocTreeError {
  return new DocTreeError(json.code, json.message, {
    hint: json.hint,
    ...(json.file !== undefined ? { file: json.file } : {}),
    ...(json.page !== undefined ? { page: json.page } : {}),
    ...(json.node_id !== undefined ? { nodeId: json.node_id } : {}),
    ...(json.details !== undefined ? { details: json.details } : {}),
  });
}

/** File names `ingestFile` takes from a folder: PDFs, Markdown and MinerU `*content_list.json`. */
export const INGESTIBLE_FILE = /(\.pdf|\.md|\.markdown|content_list\.json)$/i;

/**
 * The inputs for {@link ingestFiles} from paths as a user gives them: a file stays as it is; a folder becomes the
 * ingestible files directly inside it ({@link INGESTIBLE_FILE}, sorted by name; sub-folders are not entered).
 *
 * @throws DocTreeError `INPUT_NOT_FOUND` for a path that does not exist, `USAGE` for a folder with no ingestible file.
 */
export function expandIngestInputs(paths: readonly string[]): string[] {
  const inputs: string[] = [];
  for (const path of paths) {
    let isFolder: boolean;
    try {
      isFolder = statSync(path).isDirectory();
    } catch (cause) {
      throw new DocTreeError('INPUT_NOT_FOUND', 'no such file or folder', { file: path, cause });
    }
    if (!isFolder) {
      inputs.push(path);
      continue;
    }
    const found = readdirSync(path, { withFileTypes: true })
      .filter((entry) => entry.isFile() && INGESTIBLE_FILE.test(entry.name))
      .map((entry) => join(path, entry.name))
      .sort();
    if (found.length === 0) {
      throw new DocTreeError('USAGE', 'the folder holds no PDF, Markdown or content_list.json file', { file: path, hint: 'Give the files, or a folder that holds them directly.' });
    }
    inputs.push(...found);
  }
  return inputs;
}

/** Size of a file in bytes; 0 when it cannot be read (it then fails quickly in its turn). */
function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/** The part of an {@link IngestResult} reported for a file. */
export function ingestedFile(result: IngestResult): IngestedFile {
  return { docId: result.docId, docDir: result.docDir, files: result.files, summary: result.summary };
}

/**
 * Ingests `inputs` (PDF, MinerU `content_list.json` or Markdown files) into `options.outDir`, each into its own
 * document folder named from its file name, and yields one outcome per input in input order. Each file is written
 * atomically as {@link ingestFile} does; a file that fails yields its DocTreeError and the others still run. Two inputs
 * whose names give the same document id are refused before anything is read (`USAGE`).
 *
 * @example
 * ```ts
 * for await (const outcome of ingestFiles(['a.pdf', 'b.pdf'], { outDir: 'data/reports' })) {
 *   console.log(outcome.input, outcome.error ? outcome.error.toOneLine() : outcome.result.docDir);
 * }
 * ```
 */
export async function* ingestFiles(inputs: readonly string[], options: IngestFilesOptions = {}): AsyncGenerator<IngestFilesOutcome> {
  const { concurrency = 'auto', onProgress, onWarning = processWarning, signal, ...jobOptions } = options;
  // Settings every file would fail on are refused once, before any file is read.
  assertOcrOptions(jobOptions);
  const seen = new Map<string, string>();
  for (const input of inputs) {
    const docId = docIdFromFilename(input);
    const other = seen.get(docId);
    if (other !== undefined) {
      throw new DocTreeError('USAGE', `${other} and ${input} would both be written to the document folder ${docId}`, {
        file: input,
        hint: 'Ingest one of them on its own with a document id of its own, or give it another file name.',
      });
    }
    seen.set(docId, input);
  }
  const sizes = inputs.map(fileSize);
  const lanes = fileConcurrency(sizes, concurrency, onWarning);
  const script = lanes > 1 ? ingestFilesWorkerScript() : undefined;
  const parallel = script !== undefined;
  const outcomes = new Map<number, IngestFilesOutcome>();
  // Largest files first (by size on disk), so the last file read leaves no core idle for long; outcomes still come
  // back in input order.
  const queue = inputs.map((_, index) => index).sort((a, b) => sizes[b]! - sizes[a]! || a - b);
  const { notify, wait } = createWakeUp();
  const settle = (outcome: IngestFilesOutcome): void => {
    outcomes.set(outcome.index, outcome);
    notify();
  };
  const cancelled = (): boolean => signal?.aborted === true;

  // This thread's lane: with workers alongside, each core reads one file, so long PDFs get no page workers of their own.
  let localRunning = true;
  const runLocal = async (): Promise<void> => {
    try {
      for (let index = queue.shift(); index !== undefined && !cancelled(); index = queue.shift()) {
        const input = inputs[index]!;
        try {
          const result = await ingestFile(input, {
            ...jobOptions,
            ...(parallel ? { pdfWorkers: 0 } : {}),
            onProgress: (event) => onProgress?.(index, event),
            ...(signal ? { signal } : {}),
          });
          settle({ index, input, result: ingestedFile(result) });
        } catch (error) {
          settle({ index, input, error: DocTreeError.from(error, 'INTERNAL', { file: input }) });
        }
      }
    } finally {
      localRunning = false;
      notify();
    }
  };

  const workers: Worker[] = [];
  const startWorker = (): void => {
    let worker: Worker;
    try {
      worker = new Worker(script!, { execArgv: workerExecArgv() });
    } catch {
      return;
    }
    workers.push(worker);
    let current: number | undefined;
    const next = (): void => {
      current = cancelled() ? undefined : queue.shift();
      if (current === undefined) {
        void worker.terminate();
        return;
      }
      worker.postMessage({ type: 'job', index: current, input: inputs[current]!, options: jobOptions } satisfies IngestFilesJob);
    };
    worker.on('message', (message: IngestFilesWorkerMessage) => {
      if (message.index !== current) return;
      if (message.type === 'progress') {
        onProgress?.(message.index, message.event);
        return;
      }
      const input = inputs[message.index]!;
      settle(message.type === 'done' ? { index: message.index, input, result: message.result } : { index: message.index, input, error: errorFromJson(message.error) });
      next();
    });
    // A worker that cannot start or dies gives its file back: this thread reads it (or another worker takes it).
    const giveBack = (): void => {
      if (current !== undefined && !outcomes.has(current)) queue.unshift(current);
      current = undefined;
      notify();
    };
    worker.on('error', giveBack);
    worker.on('exit', giveBack);
    next();
  };
  if (parallel) for (let i = 1; i < lanes; i++) startWorker();
  let local = runLocal();

  try {
    for (let index = 0; index < inputs.length; index++) {
      for (;;) {
        if (cancelled()) throw new DocTreeError('CANCELLED', 'Ingesting the files was cancelled');
        const outcome = outcomes.get(index);
        if (outcome) {
          outcomes.delete(index);
          yield outcome;
          break;
        }
        // Files given back by a failed worker after this thread's lane ended are read here.
        if (!localRunning && queue.length > 0) {
          localRunning = true;
          local = runLocal();
        }
        await wait();
      }
    }
  } finally {
    await Promise.all(workers.map((worker) => worker.terminate().catch(() => undefined)));
    await local.catch(() => undefined);
  }
}
