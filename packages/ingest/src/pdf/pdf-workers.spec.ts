import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DocTreeError } from '@doctree/schema';
import { openPdfDocument } from './pdf-document.js';
import { readPageResult } from './pdf-page-result.js';
import type { PdfPageResult } from './pdf-page-result.js';
import { pageRanges, readPagesInWorkers, workerCount, workerExecArgv, WORKER_MIN_PAGES } from './pdf-workers.js';
import { writeSimplePdf } from './simple-pdf-writer.js';

/** Six pages, each a heading and a paragraph naming its page. */
function sixPages(): Uint8Array {
  return writeSimplePdf(
    ['Alpha', 'Bravo', 'Charlie', 'Delta', 'Echo', 'Foxtrot'].map((word, i) => ({
      runs: [
        { text: `${i + 1} ${word} Section`, x: 72, y: 90, size: 14, bold: true },
        { text: `The ${word.toLowerCase()} page explains how trees split data into regions.`, x: 72, y: 120, size: 11 },
        { text: `Each leaf of the ${word.toLowerCase()} tree predicts one value.`, x: 72, y: 134, size: 11 },
      ],
    })),
  );
}

/** The worker runs the TypeScript sources through a module hook (jest transpiles them for the main thread only). */
const WORKER = {
  script: join(__dirname, 'pdf-page-worker.ts'),
  execArgv: ['--conditions=@doctree/source', '--import', pathToFileURL(join(__dirname, '..', '..', '..', '..', 'tools', 'scripts', 'typescript-loader.mjs')).href],
};

async function inProcess(bytes: Uint8Array): Promise<{ read: (pageIdx: number) => Promise<PdfPageResult>; close: () => Promise<void> }> {
  const doc = await openPdfDocument(bytes, { filename: 'six.pdf' });
  const fonts = new Map();
  return { read: (pageIdx) => readPageResult(doc, pageIdx, fonts, { regions: true, allGraphics: false }), close: () => doc.close() };
}

async function collect(source: AsyncIterable<PdfPageResult>): Promise<PdfPageResult[]> {
  const out: PdfPageResult[] = [];
  for await (const result of source) out.push(result);
  return out;
}

describe('pageRanges and workerCount', () => {
  it('splits pages into contiguous, near-equal ranges', () => {
    expect(pageRanges(7, 2)).toEqual([
      [0, 3],
      [3, 7],
    ]);
    expect(pageRanges(2, 4)).toEqual([
      [0, 1],
      [1, 2],
    ]);
  });

  it('passes workers the flags of this process except --input-type and inline code', () => {
    expect(workerExecArgv(['--input-type=module', '--max-old-space-size=200', '-e', 'console.log(1)'])).toEqual(['--max-old-space-size=200']);
    expect(workerExecArgv(['--conditions=x', '--eval=1', '-p', '2', '--import', 'hook.mjs'])).toEqual(['--conditions=x', '--import', 'hook.mjs']);
  });

  it('starts no workers for short documents and honours an explicit count', () => {
    expect(workerCount(WORKER_MIN_PAGES - 1, 'auto')).toBe(0);
    expect(workerCount(500, 3)).toBe(3);
    expect(workerCount(2, 3)).toBe(1);
    expect(workerCount(500, 0)).toBe(0);
  });
});

describe('readPagesInWorkers', () => {
  jest.setTimeout(60_000);

  it('reads pages in two worker threads (this thread reading none) and yields exactly what this thread reads, in page order', async () => {
    const bytes = sixPages();
    const local = await inProcess(bytes);
    try {
      const expected = await collect(
        (async function* all() {
          for (let i = 0; i < 6; i++) yield await local.read(i);
        })(),
      );
      let arrived = 0;
      const failures: string[] = [];
      const results = await collect(
        readPagesInWorkers(6, {
          input: { bytes, filename: 'six.pdf', regions: true, allGraphics: false },
          workers: 2,
          readHere: false,
          ...WORKER,
          fallback: async () => {
            throw new Error('no page should be read in this thread');
          },
          onArrive: () => arrived++,
          onWorkerFailure: (reason) => failures.push(reason),
        }),
      );
      expect(failures).toEqual([]);
      expect(arrived).toBe(6);
      expect(results.map((r) => r.info.page_idx)).toEqual([0, 1, 2, 3, 4, 5]);
      expect(results).toEqual(expected);
      expect(results[4]!.lines).toContain('5 Echo Section');
    } finally {
      await local.close();
    }
  });

  it('shares the pages between this thread and a worker', async () => {
    const bytes = sixPages();
    const local = await inProcess(bytes);
    try {
      const readHere: number[] = [];
      const results = await collect(
        readPagesInWorkers(6, {
          input: { bytes, filename: 'six.pdf', regions: true, allGraphics: false },
          workers: 1,
          ...WORKER,
          fallback: (pageIdx) => {
            readHere.push(pageIdx);
            return local.read(pageIdx);
          },
        }),
      );
      expect(readHere).toEqual([0, 1, 2]);
      expect(results.map((r) => r.lines[0])).toEqual(['1 Alpha Section', '2 Bravo Section', '3 Charlie Section', '4 Delta Section', '5 Echo Section', '6 Foxtrot Section']);
    } finally {
      await local.close();
    }
  });

  it('reads the pages of a worker that fails in this thread and says so once', async () => {
    const bytes = sixPages();
    const local = await inProcess(bytes);
    try {
      const failures: string[] = [];
      const results = await collect(
        readPagesInWorkers(6, {
          input: { bytes, filename: 'six.pdf', regions: true, allGraphics: false },
          workers: 2,
          script: join(__dirname, 'no-such-worker.js'),
          fallback: local.read,
          onWorkerFailure: (reason) => failures.push(reason),
        }),
      );
      expect(results.map((r) => r.info.page_idx)).toEqual([0, 1, 2, 3, 4, 5]);
      expect(results[0]!.lines).toContain('1 Alpha Section');
      expect(failures).toHaveLength(1);
    } finally {
      await local.close();
    }
  });

  it('stops with CANCELLED when the signal is aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const run = collect(
      readPagesInWorkers(6, {
        input: { bytes: sixPages(), filename: 'six.pdf', regions: true, allGraphics: false },
        workers: 2,
        ...WORKER,
        fallback: async () => {
          throw new Error('not reached');
        },
        signal: controller.signal,
      }),
    );
    await expect(run).rejects.toBeInstanceOf(DocTreeError);
    await expect(run).rejects.toMatchObject({ code: 'CANCELLED', file: 'six.pdf' });
  });
});
