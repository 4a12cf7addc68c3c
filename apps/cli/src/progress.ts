import { escapeControlChars } from '@doctree/pipeline/command';
import type { CliIo } from './cli-context.js';

/** A one-line progress indicator on stderr, only when stdout is a terminal; silent otherwise. */
export interface Progress {
  update(text: string): void;
  done(): void;
}

/** Creates a progress line that rewrites itself at most every 100 ms (control characters of file names escaped). */
export function createProgress(io: CliIo): Progress {
  if (!io.isTty) return { update: () => undefined, done: () => undefined };
  let last = 0;
  let shown = false;
  return {
    update(text) {
      const now = Date.now();
      if (now - last < 100) return;
      last = now;
      shown = true;
      io.stderr(`\r\x1b[2K${escapeControlChars(text)}`);
    },
    done() {
      if (shown) io.stderr('\r\x1b[2K');
    },
  };
}
