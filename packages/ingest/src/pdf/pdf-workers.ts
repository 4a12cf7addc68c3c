import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { PdfPageResult } from './pdf-page-result.js';
import type { PdfPageWorkerInput, PdfPageWorkerMessage } from './pdf-page-worker.js';
import { throwIfCancelled } from './pdf-pages.js';
import { compiledModule } from './pdf-runtime.js';

/**
 * Reading the pages of a PDF in worker threads: pdf.js text extraction is CPU-bound and single-threaded,
 * so on two cores a long document reads in little more than half the time when this thread reads the
 * first half of the pages while one worker reads the second half. Results come back in page order; if
 * a worker fails, the pages it did not deliver are read in this thread instead.
 */

/**
 * Documents with fewer pages are read in this thread. A worker opens the PDF again, loads its own pdf.js, warms its own
 * JIT and reads the operator list of every page whose fonts are new to it: on 2 vCPUs it added 1.5–2.3 s of CPU per
 * document and made 57–190-page 10-Ks 20–50 % slower in wall time; it paid from ~250 pages (a 10-K of that length: 4.3 → 3.5 s).
 */
export const WORKER_MIN_PAGES = 200;
/** Most worker threads one document uses. */
export const MAX_WORKERS = 4;

/** Options of {@link readPagesInWorkers}. */
export interface ReadPagesInWorkersOptions {
  /** What each worker reads (everything but the page range). */
  input: Omit<PdfPageWorkerInput, 'from' | 'to'>;
  /** Number of workers; with `readHere` as well, this thread reads the first range itself (pages split `workers + 1` ways). */
  workers: number;
  /** Worker script (`pdf-page-worker.js`). */
  script: string;
  /** Node flags of the workers (default: this process's, less the ones a worker refuses; see {@link workerExecArgv}). */
  execArgv?: string[];
  /** Reads one page in this thread: used for the pages of a worker that failed (and for this thread's share). */
  fallback: (pageIdx: number) => Promise<PdfPageResult>;
  /** Read the first range of pages in this thread, alongside the workers (default true). */
  readHere?: boolean;
  /** Called as each page arrives, in any order (for progress). */
  onArrive?: () => void;
  /** Called once when a worker fails, with the reason; its pages are then read in this thread. */
  onWorkerFailure?: (reason: string) => void;
  /** Stops between pages with a `CANCELLED` DocTreeError (workers are terminated). */
  signal?: AbortSignal;
}

/**
 * The compiled worker script next to this module (`dist/pdf/pdf-page-worker.js`), or undefined when
 * it is not there (running from TypeScript sources, or a bundle): pages are then read in this thread.
 */
export function pdfWorkerScript(): string | undefined {
  return compiledModule('pdf/pdf-page-worker.js');
}

/** Lets a loop wait until something it waits for may have happened (a worker message, an abort, a result). */
export interface WakeUp {
  /** Wakes the pending {@link WakeUp.wait}, if any. */
  notify(): void;
  /** Resolves at the next {@link WakeUp.notify}; the caller then checks again what it waits for. */
  wait(): Promise<void>;
}

/** A {@link WakeUp} for one waiting loop. */
export function createWakeUp(): WakeUp {
  let wake: (() => void) | undefined;
  return {
    notify: () => {
      const w = wake;
      wake = undefined;
      w?.();
    },
    wait: () =>
      new Promise<void>((resolve) => {
        wake = resolve;
      }),
  };
}

/**
 * Workers worth starting for a document, besides this thread: none for short documents or one core,
 * else one per further core (at most {@link MAX_WORKERS}).
 */
export function workerCount(pageCount: number, requested: number | 'auto'): number {
  if (requested !== 'auto') return Math.max(0, Math.min(MAX_WORKERS, Math.floor(requested), pageCount - 1));
  if (pageCount < WORKER_MIN_PAGES) return 0;
  const cores = availableParallelism();
  return Math.max(0, Math.min(cores - 1, MAX_WORKERS, Math.ceil(pageCount / WORKER_MIN_PAGES) - 1));
}

/** Flags of this process a worker thread refuses or must not repeat: `--input-type` and the code of `-e` / `-p`. */
const FLAGS_WITH_CODE = new Set(['-e', '--eval', '-p', '--print', '-pe']);

/**
 * The Node flags a page worker inherits: this process's `execArgv` without `--input-type` (a worker
 * refuses to start with it) and without `-e` / `--eval` / `-p` / `--print` and their code. Without
 * this, a process started as `node --input-type=module -e …` could never start a page worker.
 */
export function workerExecArgv(execArgv: readonly string[] = process.execArgv): string[] {
  const kept: string[] = [];
  for (let i = 0; i < execArgv.length; i++) {
    const flag = execArgv[i]!;
    if (FLAGS_WITH_CODE.has(flag)) {
      i++;
      continue;
    }
    if (flag.startsWith('--input-type') || flag.startsWith('--eval=') || flag.startsWith('--print=')) continue;
    kept.push(flag);
  }
  return kept;
}

/** Splits `count` pages into `parts` contiguous ranges `[from, to)` of near-equal size. */
export function pageRanges(count: number, parts: number): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  for (let i = 0; i < parts; i++) {
    const from = Math.floor((i * count) / parts);
    const to = Math.floor(((i + 1) * count) / parts);
    if (to > from) ranges.push([from, to]);
  }
  return ranges;
}

/**
 * Reads pages `0 … pageCount-1` in worker threads and yields them in page order. Each worker opens the
 * document itself and reads one contiguous range. When a worker fails (its script cannot load, pdf.js
 * crashes), the others are stopped and every page not yet delivered is read with `options.fallback`.
 */
export async function* readPagesInWorkers(pageCount: number, options: ReadPagesInWorkersOptions): AsyncGenerator<PdfPageResult> {
  const results = new Map<number, PdfPageResult>();
  let failure: string | undefined;
  const { notify, wait } = createWakeUp();
  const workers: Worker[] = [];
  const finished = new Set<Worker>();
  const readHere = options.readHere ?? true;
  const ranges = pageRanges(pageCount, options.workers + (readHere ? 1 : 0));
  let localError: unknown;
  let local: [number, number] = [0, 0];
  if (readHere && ranges.length > 0) {
    local = ranges.shift()!;
    const [from, to] = local;
    // This thread's share, read while the workers read theirs.
    void (async () => {
      try {
        for (let pageIdx = from; pageIdx < to && localError === undefined; pageIdx++) {
          if (options.signal?.aborted || results.has(pageIdx)) continue;
          results.set(pageIdx, await options.fallback(pageIdx));
          options.onArrive?.();
          notify();
        }
      } catch (error) {
        localError = error;
        notify();
      }
    })();
  }
  for (const [from, to] of ranges) {
    let worker: Worker;
    try {
      worker = new Worker(options.script, {
        workerData: { doctreePdfPages: { ...options.input, from, to } satisfies PdfPageWorkerInput },
        execArgv: options.execArgv ?? workerExecArgv(),
      });
    } catch (error) {
      failure ??= error instanceof Error ? error.message : String(error);
      break;
    }
    workers.push(worker);
    worker.on('message', (message: PdfPageWorkerMessage) => {
      if (message.type === 'page') {
        results.set(message.result.info.page_idx, message.result);
        options.onArrive?.();
      } else if (message.type === 'done') {
        finished.add(worker);
      } else {
        failure ??= message.message;
      }
      notify();
    });
    worker.on('error', (error) => {
      failure ??= error.message;
      notify();
    });
    worker.on('exit', (code) => {
      if (!finished.has(worker)) failure ??= `a page worker stopped early (exit code ${code})`;
      notify();
    });
  }
  const stop = async (): Promise<void> => {
    await Promise.all(workers.map((w) => w.terminate().catch(() => undefined)));
  };
  const onAbort = (): void => notify();
  options.signal?.addEventListener('abort', onAbort);
  try {
    let reported = false;
    for (let next = 0; next < pageCount; next++) {
      for (;;) {
        throwIfCancelled(options.signal, options.input.filename);
        if (localError !== undefined) throw localError;
        const ready = results.get(next);
        if (ready) {
          results.delete(next);
          yield ready;
          break;
        }
        if (failure !== undefined && !(next >= local[0] && next < local[1])) {
          if (!reported) {
            reported = true;
            options.onWorkerFailure?.(failure);
            await stop();
          }
          yield await options.fallback(next);
          options.onArrive?.();
          break;
        }
        await wait();
      }
    }
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
    await stop();
  }
}
