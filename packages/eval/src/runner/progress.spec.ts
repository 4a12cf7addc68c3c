import type { EvalProgressEvent } from './progress.js';
import { createProgressPrinter, formatProgressLine } from './progress.js';

const event = (done: number, phase: EvalProgressEvent['phase'] = 'answered', extra: Partial<EvalProgressEvent> = {}): EvalProgressEvent => ({
  phase,
  system: 'doctree',
  systemIndex: 0,
  systems: 2,
  done,
  total: 20,
  resumed: 0,
  errors: 0,
  elapsedMs: 65_000,
  ...extra,
});

describe('progress printer', () => {
  it('formats a bar with counts, resumed answers, errors and the remaining time', () => {
    expect(formatProgressLine(event(10, 'answered', { resumed: 4, errors: 1, etaMs: 80_000 }), 10)).toBe('doctree [1/2] █████░░░░░ 10/20 resumed 4 errors 1 eta 1m20s');
    expect(formatProgressLine(event(20, 'done'), 4)).toBe('doctree [1/2] ████ 20/20 done in 1m05s');
  });

  it('redraws one line on a TTY and prints every tenth otherwise', () => {
    const tty: string[] = [];
    const onTty = createProgressPrinter({ stream: { isTTY: true, columns: 200, write: (t: string) => tty.push(t) } });
    onTty(event(0, 'start'));
    onTty(event(1));
    onTty(event(20, 'done'));
    expect(tty).toHaveLength(3);
    expect(tty.every((t) => t.startsWith('\r\x1b[2K'))).toBe(true);
    expect(tty[2]!.endsWith('\n')).toBe(true);

    const log: string[] = [];
    const onLog = createProgressPrinter({ stream: { write: (t: string) => log.push(t) } });
    onLog(event(0, 'start'));
    for (let done = 1; done <= 20; done++) onLog(event(done));
    onLog(event(20, 'done'));
    expect(log.length).toBe(1 + 10 + 1); // start, each tenth, done
  });
});
