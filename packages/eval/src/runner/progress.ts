/** A progress report of `runEvaluation`. */
export interface EvalProgressEvent {
  /** `start` and `done` once per system; `prepare` before a document is prepared; `answered` after each question. */
  phase: 'start' | 'prepare' | 'answered' | 'done';
  system: string;
  /** 0-based index of the system and the number of systems. */
  systemIndex: number;
  systems: number;
  /** Questions of this system answered so far (resumed ones included) and its total. */
  done: number;
  total: number;
  /** Answers taken over from an earlier, interrupted run. */
  resumed: number;
  /** Answers that failed with an error so far. */
  errors: number;
  questionId?: string;
  docFile?: string;
  /** Time since this system started, ms. */
  elapsedMs: number;
  /** Estimated time to finish this system, ms (after the first new answer). */
  etaMs?: number;
  /** `start`: the system's fingerprint (sha256 of its id, configuration and code). */
  fingerprint?: string;
  /** `start`: the system changed since the run in the output folder; its earlier answers were dropped. */
  changed?: boolean;
}

/**
 * What a rerun does with a system's earlier answers, as one line (or undefined on a fresh run):
 * `resuming 12 answers of doctree (fingerprint 3f2a…)` or `doctree changed since the last run: answering again`.
 */
export function formatResumeLine(event: Pick<EvalProgressEvent, 'phase' | 'system' | 'resumed' | 'fingerprint' | 'changed'>): string | undefined {
  if (event.phase !== 'start') return undefined;
  if (event.changed) return `${event.system} changed since the last run: answering again`;
  if (event.resumed > 0) return `resuming ${event.resumed} answers of ${event.system}${event.fingerprint ? ` (fingerprint ${event.fingerprint.slice(0, 12)})` : ''}`;
  return undefined;
}

/** A stream the progress printer writes to. */
export interface ProgressStream {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

/** Options of {@link createProgressPrinter}. */
export interface ProgressPrinterOptions {
  /** Where to print. Default `process.stderr`. */
  stream?: ProgressStream;
  /** Bar width in characters. Default 24. */
  barWidth?: number;
}

function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  return m < 60 ? `${m}m${String(s % 60).padStart(2, '0')}s` : `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}

/** One progress line: `doctree [2/3] ██████░░░░ 42/106 errors 1 eta 1m20s`. */
export function formatProgressLine(event: EvalProgressEvent, barWidth = 24): string {
  const ratio = event.total === 0 ? 1 : event.done / event.total;
  const filled = Math.round(ratio * barWidth);
  const bar = '█'.repeat(filled) + '░'.repeat(barWidth - filled);
  const parts = [`${event.system} [${event.systemIndex + 1}/${event.systems}]`, bar, `${event.done}/${event.total}`];
  if (event.resumed > 0) parts.push(`resumed ${event.resumed}`);
  if (event.errors > 0) parts.push(`errors ${event.errors}`);
  if (event.phase === 'prepare' && event.docFile) parts.push(`preparing ${event.docFile}`);
  if (event.phase === 'done') parts.push(`done in ${duration(event.elapsedMs)}`);
  else if (event.etaMs !== undefined) parts.push(`eta ${duration(event.etaMs)}`);
  return parts.join(' ');
}

/**
 * An `onProgress` callback that draws a progress bar: redrawn in place on a TTY, otherwise one line per system start,
 * every tenth of the questions and per system end (so logs stay short). A rerun says per system whether it resumes
 * (`resuming N answers of <system> (fingerprint …)`) or answers again (`<system> changed since the last run: …`).
 *
 * @example
 * ```ts
 * await runEvaluation({ questions, systems, outDir, onProgress: createProgressPrinter() });
 * ```
 */
export function createProgressPrinter(options: ProgressPrinterOptions = {}): (event: EvalProgressEvent) => void {
  const stream = options.stream ?? process.stderr;
  const barWidth = options.barWidth ?? 24;
  let lastDecile = -1;
  return (event) => {
    const line = formatProgressLine(event, barWidth);
    const resume = formatResumeLine(event);
    if (resume !== undefined) stream.write(`${stream.isTTY ? '\r\x1b[2K' : ''}${resume}\n`);
    if (stream.isTTY) {
      const width = Math.max(20, (stream.columns ?? 100) - 1);
      stream.write(`\r\x1b[2K${line.slice(0, width)}${event.phase === 'done' ? '\n' : ''}`);
      return;
    }
    const decile = event.total === 0 ? 10 : Math.floor((event.done / event.total) * 10);
    if (event.phase === 'start') lastDecile = decile;
    if (event.phase === 'start' || event.phase === 'done' || (event.phase === 'answered' && decile > lastDecile)) {
      lastDecile = decile;
      stream.write(`${line}\n`);
    }
  };
}
