import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { captureIo as captureCommandIo } from '@doctree/pipeline/testing';
import { captureIo } from './__fixtures__/capture-io.js';
import { run } from './main.js';
import { createProgress, progressIntervalFromEnv } from './progress.js';

const SAMPLE_PDF = join(__dirname, '../../../data/samples/northwind-annual-report-2023.pdf');

describe('progress', () => {
  afterEach(() => jest.useRealTimers());

  it('without a terminal: one status line every interval while work goes on, nothing for quick work, no repeats', () => {
    jest.useFakeTimers();
    let now = 0;
    const io = captureCommandIo({ cwd: process.cwd(), env: {}, isTty: false });
    const progress = createProgress(io, { intervalMs: 3000, now: () => now });
    progress.update('[ingest] page 1/40');
    now = 1000;
    jest.advanceTimersByTime(1000);
    expect(io.err).toBe(''); // not yet: work shorter than one interval prints nothing
    progress.update('[ingest] page 9/40');
    now = 3000;
    jest.advanceTimersByTime(2000);
    expect(io.err).toBe('doctree: [ingest] page 9/40 (3 s)\n');
    // Many updates between two ticks: still one line per interval, with the latest status.
    for (let i = 10; i <= 30; i++) progress.update(`[ingest] page ${i}/40`);
    now = 6000;
    jest.advanceTimersByTime(3000);
    expect(io.err.split('\n').filter(Boolean)).toEqual(['doctree: [ingest] page 9/40 (3 s)', 'doctree: [ingest] page 30/40 (6 s)']);
    // An unchanged status is repeated only every fourth interval.
    now = 18000;
    jest.advanceTimersByTime(12000);
    expect(io.err.split('\n').filter(Boolean)).toHaveLength(3);
    expect(io.err).toMatch(/page 30\/40 \(18 s\)\n$/);
    progress.done();
    jest.advanceTimersByTime(30000);
    expect(io.err.split('\n').filter(Boolean)).toHaveLength(3);
  });

  it('escapes control characters of the status (a file name cannot drive the log reader\'s terminal)', () => {
    jest.useFakeTimers();
    const io = captureCommandIo({ cwd: process.cwd(), env: {}, isTty: false });
    const progress = createProgress(io, { intervalMs: 2000 });
    progress.update('[ingest] evil\x1b[2Jname.pdf');
    jest.advanceTimersByTime(2000);
    progress.done();
    expect(io.err).not.toContain('\x1b');
    expect(io.err).toMatch(/^doctree: \[ingest\] evil.*name\.pdf \(\d+ s\)\n$/);
  });

  it('reads DOCTREE_PROGRESS_INTERVAL_MS (0 turns the lines off; junk is ignored)', () => {
    expect(progressIntervalFromEnv({})).toBe(3000);
    expect(progressIntervalFromEnv({ DOCTREE_PROGRESS_INTERVAL_MS: '2000' })).toBe(2000);
    expect(progressIntervalFromEnv({ DOCTREE_PROGRESS_INTERVAL_MS: '0' })).toBe(0);
    expect(progressIntervalFromEnv({ DOCTREE_PROGRESS_INTERVAL_MS: 'soon' })).toBe(3000);
  });

  it('a real ingest into a log (stdout no terminal) says what it is doing on stderr, one line at a time', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'doctree-cli-progress-'));
    try {
      copyFileSync(SAMPLE_PDF, join(dir, 'report.pdf'));
      // A short interval so even a fast machine sees a line; stdout keeps only the result.
      const io = captureIo(dir, { DOCTREE_EMBEDDER: 'hashing', DOCTREE_PROGRESS_INTERVAL_MS: '20' });
      expect(await run(['index', 'report.pdf'], io)).toBe(0);
      const lines = io.err.split('\n').filter(Boolean);
      expect(lines.length).toBeGreaterThan(0);
      for (const line of lines) expect(line).toMatch(/^doctree: \[(ingest|index)\] .* \(\d+ s\)$/);
      expect(io.err).not.toContain('\r');
      expect(io.out).not.toMatch(/^doctree: \[/m);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
