import { escapeControlChars } from '@doctree/pipeline/command';
import type { CliIo } from './cli-context.js';

/** A progress indicator on stderr (see {@link createProgress}). */
export interface Progress {
  update(text: string): void;
  done(): void;
}

/** Options of {@link createProgress}. */
export interface ProgressOptions {
  /** Shortest time between two rewrites of the line on a terminal, ms. Default 100. */
  ttyIntervalMs?: number;
  /**
   * When stderr is no terminal (a log, CI, a pipe): one status line every `intervalMs`, only while work goes on and
   * only after the work has lasted that long (a quick command prints nothing); 0 prints none. Default
   * `DOCTREE_PROGRESS_INTERVAL_MS`, else 3000.
   */
  intervalMs?: number;
  /** Millisecond clock; default `Date.now`. */
  now?: () => number;
}

/** Defaults of {@link ProgressOptions}. */
export const PROGRESS_DEFAULTS = { ttyIntervalMs: 100, intervalMs: 3000, now: (): number => Date.now() } as const satisfies Required<ProgressOptions>;

/**
 * Creates a progress indicator on stderr (control characters of file names escaped). On a terminal, one line that
 * rewrites itself at most every 100 ms. Elsewhere (stdout is no terminal: a log, CI, a pipe), a plain status line
 * `doctree: <latest status> (<seconds> s)` every few seconds while work goes on, so a long ingest, index, ask or eval
 * is visibly alive without flooding the log; nothing for work shorter than one interval.
 */
export function createProgress(io: CliIo, options: ProgressOptions = {}): Progress {
  const o = { ...PROGRESS_DEFAULTS, intervalMs: progressIntervalFromEnv(io.env), ...options };
  if (!io.isTty) return periodicProgress(io, o);
  let last = 0;
  let shown = false;
  return {
    update(text) {
      const now = o.now();
      if (now - last < o.ttyIntervalMs) return;
      last = now;
      shown = true;
      io.stderr(`\r\x1b[2K${escapeControlChars(text)}`);
    },
    done() {
      if (shown) io.stderr('\r\x1b[2K');
    },
  };
}

/** The non-terminal form: the latest status, printed by a timer every `intervalMs` (the timer never keeps Node alive). */
function periodicProgress(io: CliIo, o: Required<ProgressOptions>): Progress {
  const started = o.now();
  let latest: string | undefined;
  let printed: string | undefined;
  let quiet = 0;
  let timer: ReturnType<typeof setInterval> | undefined;
  const tick = (): void => {
    if (latest === undefined) return;
    // An unchanged status is repeated once every four intervals only: alive, not noisy.
    if (latest === printed && ++quiet < 4) return;
    quiet = 0;
    printed = latest;
    io.stderr(`doctree: ${escapeControlChars(latest.replace(/\s+/g, ' ').trim())} (${Math.round((o.now() - started) / 1000)} s)\n`);
  };
  return {
    update(text) {
      latest = text;
      if (timer === undefined && o.intervalMs > 0) {
        timer = setInterval(tick, o.intervalMs);
        timer.unref?.();
      }
    },
    done() {
      if (timer !== undefined) clearInterval(timer);
      timer = undefined;
      latest = undefined;
    },
  };
}

/**
 * The interval of non-terminal progress lines: `DOCTREE_PROGRESS_INTERVAL_MS` (0 turns them off), else the default.
 * A value that is not a non-negative integer is ignored.
 */
export function progressIntervalFromEnv(env: Readonly<Record<string, string | undefined>>): number {
  const raw = env['DOCTREE_PROGRESS_INTERVAL_MS'];
  return raw !== undefined && /^\d+$/.test(raw.trim()) ? Number(raw.trim()) : PROGRESS_DEFAULTS.intervalMs;
}
