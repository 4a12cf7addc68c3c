import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import type { ContentBlock } from '@doctree/schema';
import { adaptPdf } from './pdf-adapter.js';
import { blocksFromTesseractTsv, checkOcr, missingOcrPrograms, ocrBatches, ocrPages, pgmHasInk, tesseractTsvByImage } from './pdf-ocr.js';
import type { PdfOcrStats } from './pdf-adapter.js';
import { writeSimplePdf } from './simple-pdf-writer.js';
import type { PdfShape } from './simple-pdf-writer.js';

/** Tesseract TSV: a header row, then level-5 rows are words (block, paragraph, line, word, box, confidence, text). */
const TSV = [
  'level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext',
  '1\t1\t0\t0\t0\t0\t0\t0\t1700\t2200\t-1\t',
  '5\t1\t1\t1\t1\t1\t200\t300\t180\t40\t96.1\tQuarterly',
  '5\t1\t1\t1\t1\t2\t400\t302\t120\t38\t95.0\tresults',
  '5\t1\t1\t1\t2\t1\t200\t360\t90\t40\t91.2\tgrew',
  '5\t1\t1\t1\t2\t2\t300\t360\t60\t40\t12.0\t~~',
  '5\t1\t2\t1\t1\t1\t200\t600\t200\t40\t88.8\tOutlook',
].join('\n');

describe('blocksFromTesseractTsv', () => {
  it('groups words into lines and paragraphs, scales pixel boxes to points and drops unsure words', () => {
    const blocks = blocksFromTesseractTsv(TSV, 3, 72 / 200);
    expect(blocks.map((b) => b.lines.map((l) => l.text))).toEqual([['Quarterly results', 'grew'], ['Outlook']]);
    expect(blocks[0]).toMatchObject({ page_idx: 3, zone: 'body' });
    expect(blocks[0]!.lines[0]!.bbox).toEqual([72, 108, 187.2, 122.4]);
    expect(blocks[1]!.lines[0]!.size).toBeCloseTo(14.4, 1);
  });
});

/** A binary PGM (`P5`) of the given grey levels, one row. */
const pgm = (pixels: number[], header = `P5\n${pixels.length} 1\n255\n`): Uint8Array => new Uint8Array([...Buffer.from(header, 'latin1'), ...pixels]);

describe('OCR batches', () => {
  it('cuts pages into runs of consecutive pages, in the order given, at most the batch size', () => {
    expect(ocrBatches([0, 1, 2, 3, 4], 2)).toEqual([[0, 1], [2, 3], [4]]);
    expect(ocrBatches([4, 0, 1, 7, 8, 9], 8)).toEqual([[4], [0, 1], [7, 8, 9]]);
    expect(ocrBatches([], 8)).toEqual([]);
  });

  it("splits tesseract's TSV of a list of images into one TSV per image, each with the header", () => {
    const header = 'level\tpage_num\ttext';
    const byImage = tesseractTsvByImage(`${header}\n5\t1\tone\n5\t2\ttwo\n5\t2\tmore\n`);
    expect([...byImage]).toEqual([
      [1, `${header}\n5\t1\tone`],
      [2, `${header}\n5\t2\ttwo\n5\t2\tmore`],
    ]);
  });
});

describe('pgmHasInk', () => {
  it('sees a blank page (white, or near-white noise) as blank and one dark pixel as ink', () => {
    expect(pgmHasInk(pgm([255, 255, 255, 255]))).toBe(false);
    expect(pgmHasInk(pgm([255, 252, 251, 255]))).toBe(false);
    expect(pgmHasInk(pgm([255, 255, 40, 255]))).toBe(true);
    expect(pgmHasInk(pgm([255, 255, 255], 'P5\n# made by a test\n3 1\n255\n'))).toBe(false);
  });

  it('counts what it cannot read as ink, so OCR still runs', () => {
    expect(pgmHasInk(new Uint8Array(Buffer.from('\x89PNG\r\n')))).toBe(true);
    expect(pgmHasInk(pgm([255, 255], 'P5\n2 1\n65535\n'))).toBe(true);
    expect(pgmHasInk(pgm([255], 'P5\n4 1\n255\n'))).toBe(true);
  });
});

describe('missingOcrPrograms', () => {
  it('names tesseract and pdftoppm when they are not on PATH', () => {
    expect(missingOcrPrograms('')).toEqual(['tesseract', 'pdftoppm']);
  });
});

/** Block capitals drawn with filled rectangles: a scanned-looking page with no text layer. */
function blockLetters(word: string, x0: number, y: number): PdfShape[] {
  const shapes: PdfShape[] = [];
  const s = 10;
  const h = 80;
  const w = 50;
  let x = x0;
  for (const ch of word) {
    const r = (dx: number, dy: number, width: number, height: number): void => {
      shapes.push({ kind: 'rect', x: x + dx, y: y + dy, width, height, gray: 0 });
    };
    const strokes: Record<string, Array<[number, number, number, number]>> = {
      T: [
        [0, 0, w, s],
        [w / 2 - s / 2, 0, s, h],
      ],
      I: [[w / 2 - s / 2, 0, s, h]],
      L: [
        [0, 0, s, h],
        [0, h - s, w, s],
      ],
      E: [
        [0, 0, s, h],
        [0, 0, w, s],
        [0, h / 2 - s / 2, w * 0.8, s],
        [0, h - s, w, s],
      ],
    };
    for (const [dx, dy, width, height] of strokes[ch] ?? []) r(dx, dy, width, height);
    x += ch === 'I' ? 35 : 70;
  }
  return shapes;
}

const textOf = (b: ContentBlock): string => ('text' in b ? b.text : '');

describe('adaptPdf on a page without a text layer', () => {
  const bytes = writeSimplePdf([{ runs: [{ text: 'A page with a text layer.', x: 72, y: 90, size: 12 }] }, { runs: [], shapes: blockLetters('TILE', 100, 200) }]);

  it('leaves the page empty with a warning when OCR is off', async () => {
    const list = await adaptPdf(bytes, { docId: 'scan', filename: 'scan.pdf', ocr: false });
    expect(list.pages[1]).toMatchObject({ has_text_layer: false, ocr: false });
    expect(list.blocks.filter((b) => b.page_idx === 1)).toEqual([]);
    expect(list.warnings.map((w) => w.code)).toEqual(['NO_TEXT_LAYER', 'OCR_UNAVAILABLE']);
  });

  const ocrInstalled = missingOcrPrograms().length === 0;
  (ocrInstalled ? it : it.skip)('reads it with tesseract when tesseract and pdftoppm are installed', async () => {
    const list = await adaptPdf(bytes, { docId: 'scan', filename: 'scan.pdf' });
    expect(list.pages[1]).toMatchObject({ has_text_layer: false, ocr: true });
    expect(list.blocks.filter((b) => b.page_idx === 1).map(textOf)).toEqual(['TILE']);
    expect(list.warnings.map((w) => w.code)).toEqual(['NO_TEXT_LAYER', 'OCR_APPLIED']);
  });
});

describe('ocrPages on a blank page', () => {
  // A stand-in tesseract that logs each call and finds nothing; pdftoppm is the real one.
  const rendererInstalled = missingOcrPrograms().every((name) => name !== 'pdftoppm');
  (rendererInstalled ? it : it.skip)('renders every page but runs tesseract only on pages with ink', async () => {
    const bin = mkdtempSync(join(tmpdir(), 'doctree-fake-tesseract-'));
    const log = join(bin, 'calls.log');
    writeFileSync(join(bin, 'tesseract'), `#!/bin/sh\necho "$1" >> '${log}'\nprintf 'level\\tpage_num\\n'\n`);
    chmodSync(join(bin, 'tesseract'), 0o755);
    writeFileSync(log, '');
    try {
      const bytes = writeSimplePdf([
        { runs: [], shapes: [{ kind: 'rect', x: 0, y: 0, width: 612, height: 792, gray: 1 }] },
        { runs: [], shapes: blockLetters('TILE', 100, 200) },
      ]);
      const result = await ocrPages(bytes, [0, 1], { filename: 'scan.pdf', tesseract: join(bin, 'tesseract') });
      expect(result.failed).toEqual(new Map());
      expect(readFileSync(log, 'utf8').trim().split('\n')).toEqual([expect.stringMatching(/page-2\.pgm$/)]);
    } finally {
      rmSync(bin, { recursive: true, force: true });
    }
  });
});

/** Writes an executable shell script `name` into `dir`. */
function script(dir: string, name: string, body: string): void {
  writeFileSync(join(dir, name), `#!/bin/sh\n${body}\n`);
  chmodSync(join(dir, name), 0o755);
}

/**
 * Stand-ins for the OCR programs (shell scripts, so the specs run without tesseract installed): `pdftoppm` writes a
 * 2×1 grey PGM with one black pixel for every page of its `-f`…`-l` range (`<prefix>-<page>.pgm`, or `<prefix>.pgm` with
 * `-singlefile`); `tesseract` reads one word, `p<page>omp<OMP_THREAD_LIMIT>`, from the image of page N (a file name
 * ending in `-N.pgm`), or from each image of a list file (`*.txt`), after 0.3 s, logging how many calls run at that
 * moment (`overlap.log`) and each call's input (`inputs.log`); it fails on page 3. `tesseract --list-langs` lists `eng` and
 * `osd`; both log their arguments (`pdftoppm.log`, `tesseract.log`).
 */
function writeStandIns(bin: string): void {
  script(
    bin,
    'pdftoppm',
    [
      `echo "$*" >> '${bin}/pdftoppm.log'`,
      'f=1; l=1; single=0',
      'while [ $# -gt 2 ]; do case "$1" in -f) f=$2; shift;; -l) l=$2; shift;; -singlefile) single=1;; esac; shift; done',
      `if [ $single = 1 ]; then printf 'P5\\n2 1\\n255\\n\\000\\377' > "$2.pgm"; exit 0; fi`,
      `n=$f; while [ $n -le $l ]; do printf 'P5\\n2 1\\n255\\n\\000\\377' > "$2-$n.pgm"; n=$((n+1)); done`,
    ].join('\n'),
  );
  script(
    bin,
    'tesseract',
    [
      `if [ "$1" = --list-langs ]; then printf 'List of available languages in "/x" (2):\\neng\\nosd\\n'; exit 0; fi`,
      `echo "$*" >> '${bin}/tesseract.log'`,
      `echo "$1" >> '${bin}/inputs.log'`,
      `touch '${bin}/running-'$$; ls '${bin}' | grep -c '^running-' >> '${bin}/overlap.log'; sleep 0.3; rm -f '${bin}/running-'$$`,
      `printf 'level\\tpage_num\\tblock_num\\tpar_num\\tline_num\\tword_num\\tleft\\ttop\\twidth\\theight\\tconf\\ttext\\n'`,
      'read_image() {',
      `  n=$(basename "$1" .pgm | sed 's/.*-//')`,
      `  if [ "$n" = 3 ]; then echo 'bad image' >&2; exit 1; fi`,
      `  printf '5\\t%s\\t1\\t1\\t1\\t1\\t200\\t300\\t400\\t40\\t96\\tp%somp%s\\n' "$2" "$n" "$OMP_THREAD_LIMIT"`,
      '}',
      'case "$1" in *.txt) k=0; while read -r image; do k=$((k+1)); read_image "$image" $k; done < "$1";; *) read_image "$1" 1;; esac',
    ].join('\n'),
  );
}

const shell = process.platform === 'win32' ? describe.skip : describe;

shell('ocrPages with stand-in programs', () => {
  let bin: string;
  beforeEach(() => {
    bin = mkdtempSync(join(tmpdir(), 'doctree-ocr-bin-'));
    writeStandIns(bin);
  });
  afterEach(() => rmSync(bin, { recursive: true, force: true }));

  it('OCRs pages side by side with single-threaded tesseract, results in page order, a failing page reported', async () => {
    const bytes = writeSimplePdf(Array.from({ length: 5 }, () => ({ runs: [], shapes: blockLetters('TILE', 100, 200) })));
    const programs = { tesseract: join(bin, 'tesseract'), pdftoppm: join(bin, 'pdftoppm') };
    const omp = process.env['OMP_THREAD_LIMIT'];
    delete process.env['OMP_THREAD_LIMIT'];
    try {
      const result = await ocrPages(bytes, [4, 0, 1, 2, 3], { filename: 'deck.pdf', concurrency: 3, ...programs });
      expect([...result.blocks.keys()]).toEqual([4, 0, 1, 3]);
      expect([...result.blocks.values()].map((blocks) => blocks.flatMap((b) => b.lines.map((l) => l.text)))).toEqual([['p5omp1'], ['p1omp1'], ['p2omp1'], ['p4omp1']]);
      expect([...result.failed]).toEqual([[2, expect.stringContaining('bad image')]]);
      const overlap = readFileSync(join(bin, 'overlap.log'), 'utf8').trim().split('\n').map(Number);
      expect(Math.max(...overlap)).toBeGreaterThan(1);
      expect(Math.max(...overlap)).toBeLessThanOrEqual(3);
    } finally {
      if (omp !== undefined) process.env['OMP_THREAD_LIMIT'] = omp;
    }
  });

  it('reads consecutive pages in batches: one pdftoppm and one tesseract run per batch, every page in its place', async () => {
    const bytes = writeSimplePdf(Array.from({ length: 12 }, () => ({ runs: [], shapes: blockLetters('TILE', 100, 200) })));
    // Pages 4–12 without page 3 (the stand-in fails on it) and 1–2: batches [1,2] and two of the run 4–12, two lanes.
    const pages = [0, 1, ...Array.from({ length: 9 }, (_, i) => i + 3)];
    const result = await ocrPages(bytes, pages, { filename: 'deck.pdf', concurrency: 2, tesseract: join(bin, 'tesseract'), pdftoppm: join(bin, 'pdftoppm') });
    expect(result.failed).toEqual(new Map());
    expect([...result.blocks.keys()]).toEqual(pages);
    expect([...result.blocks.values()].map((blocks) => blocks.flatMap((b) => b.lines.map((l) => l.text))[0])).toEqual(pages.map((p) => `p${p + 1}omp1`));
    const inputs = readFileSync(join(bin, 'inputs.log'), 'utf8').trim().split('\n');
    expect(inputs).toHaveLength(3);
    expect(inputs.every((input) => input.endsWith('.txt'))).toBe(true);
  });

  it('renders at the resolution asked for and reads with the languages asked for', async () => {
    const bytes = writeSimplePdf([{ runs: [], shapes: blockLetters('TILE', 100, 200) }]);
    const result = await ocrPages(bytes, [0], { filename: 'scan.pdf', dpi: 120, language: 'eng+osd', tesseract: join(bin, 'tesseract'), pdftoppm: join(bin, 'pdftoppm') });
    expect(readFileSync(join(bin, 'pdftoppm.log'), 'utf8')).toMatch(/ -r 120 /);
    expect(readFileSync(join(bin, 'tesseract.log'), 'utf8')).toMatch(/ -l eng\+osd /);
    expect(result.blocks.get(0)![0]!.lines[0]!.bbox[0]).toBeCloseTo((200 * 72) / 120, 1);
  });

  it('stops with CANCELLED when the signal is aborted, after the pages under way', async () => {
    const bytes = writeSimplePdf(Array.from({ length: 4 }, () => ({ runs: [], shapes: blockLetters('TILE', 100, 200) })));
    const controller = new AbortController();
    const pending = ocrPages(bytes, [0, 1, 2, 3], { filename: 'deck.pdf', concurrency: 1, signal: controller.signal, tesseract: join(bin, 'tesseract'), pdftoppm: join(bin, 'pdftoppm') });
    // Aborted while tesseract reads the first page (it has logged its start).
    const poll = setInterval(() => {
      if (existsSync(join(bin, 'overlap.log'))) controller.abort();
    }, 10);
    try {
      await expect(pending).rejects.toMatchObject({ code: 'CANCELLED' });
    } finally {
      clearInterval(poll);
    }
    expect(readFileSync(join(bin, 'overlap.log'), 'utf8').trim().split('\n')).toHaveLength(1);
  });
});

shell('adaptPdf with stand-in OCR programs on PATH', () => {
  const path = process.env['PATH'];
  let bin: string;
  beforeAll(() => {
    bin = mkdtempSync(join(tmpdir(), 'doctree-ocr-path-'));
    writeStandIns(bin);
    process.env['PATH'] = `${bin}${delimiter}${path ?? ''}`;
  });
  afterAll(() => {
    process.env['PATH'] = path;
    rmSync(bin, { recursive: true, force: true });
  });

  it('marks OCR text as origin "ocr" and reports what OCR did through onOcr', async () => {
    const bytes = writeSimplePdf([{ runs: [{ text: 'A page with a text layer.', x: 72, y: 90, size: 12 }] }, { runs: [], shapes: blockLetters('TILE', 100, 200) }]);
    const stats: PdfOcrStats[] = [];
    const list = await adaptPdf(bytes, { docId: 'deck', filename: 'deck.pdf', onOcr: (s) => stats.push(s) });
    expect(list.blocks.map((b) => [b.page_idx, textOf(b), b.origin])).toEqual([
      [0, 'A page with a text layer.', 'pdf'],
      [1, expect.stringMatching(/^p2omp/), 'ocr'],
    ]);
    expect(stats).toEqual([{ pages: 1, read: 1, failed: 0, ms: expect.any(Number) }]);
  });

  it('OCRs at most maxOcrPages pages (OCR_CAPPED warning), leaves no render folder and removes those of dead runs', async () => {
    const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
    const stale = join(tmpdir(), `doctree-ocr-${dead}-Ab12Cd`);
    mkdirSync(stale, { recursive: true });
    writeFileSync(join(stale, 'page-1.pgm'), 'left by a killed run');
    const bytes = writeSimplePdf(Array.from({ length: 3 }, () => ({ runs: [], shapes: blockLetters('TILE', 100, 200) })));
    const stats: PdfOcrStats[] = [];
    const list = await adaptPdf(bytes, { docId: 'scan', filename: 'scan.pdf', maxOcrPages: 1, onOcr: (s) => stats.push(s) });
    expect(stats).toEqual([{ pages: 1, read: 1, failed: 0, ms: expect.any(Number) }]);
    expect(list.warnings.find((w) => w.code === 'OCR_CAPPED')?.message).toBe(
      '3 page(s) have no text layer; OCR is capped at 1 page(s) (ingest.limits.max_ocr_pages), so pages 2–3 stay empty.',
    );
    expect(list.blocks.map((b) => b.page_idx)).toEqual([0]);
    expect(existsSync(stale)).toBe(false);
    expect(readdirSync(tmpdir()).filter((name) => name.startsWith(`doctree-ocr-${process.pid}-`))).toEqual([]);
  });

  it('renders at the chosen resolution and reads with the chosen languages', async () => {
    rmSync(join(bin, 'tesseract.log'), { force: true });
    const bytes = writeSimplePdf([{ runs: [], shapes: blockLetters('TILE', 100, 200) }]);
    const list = await adaptPdf(bytes, { docId: 'scan', filename: 'scan.pdf', ocrDpi: 150, ocrLanguage: 'eng+osd' });
    expect(list.pages[0]).toMatchObject({ ocr: true });
    expect(readFileSync(join(bin, 'tesseract.log'), 'utf8')).toMatch(/-l eng\+osd /);
    // The stand-in's word starts 200 px from the left: 96 pt of a page rendered at 150 dpi (72 pt at the default 200).
    expect(list.blocks[0]!.bbox![0]).toBeCloseTo(96, 1);
  });

  it('leaves the pages empty with one OCR_UNAVAILABLE warning naming the package when a language has no data', async () => {
    rmSync(join(bin, 'tesseract.log'), { force: true });
    const bytes = writeSimplePdf([{ runs: [], shapes: blockLetters('TILE', 100, 200) }, { runs: [], shapes: blockLetters('TILE', 100, 200) }]);
    const list = await adaptPdf(bytes, { docId: 'scan', filename: 'scan.pdf', ocrLanguage: 'eng+chi_sim' });
    expect(list.blocks).toEqual([]);
    expect(list.warnings.filter((w) => w.code === 'OCR_UNAVAILABLE').map((w) => w.message)).toEqual([
      '2 page(s) have no text layer and OCR cannot run (tesseract has no data for chi_sim of ingest.ocr.language "eng+chi_sim"; install tesseract-ocr-chi-sim); they stay empty: 1, 2.',
    ]);
    expect(existsSync(join(bin, 'tesseract.log'))).toBe(false);
  });
});

describe('OCR settings that cannot work', () => {
  const bytes = writeSimplePdf([{ runs: [{ text: 'Text.', x: 72, y: 90, size: 12 }] }]);

  it.each([
    [{ ocrLanguage: '../../tmp/x' }, /invalid OCR language/, /ingest\.ocr\.language/],
    [{ ocrLanguage: 'eng --psm 0' }, /invalid OCR language/, /eng\+deu/],
    [{ ocrDpi: 1200 }, /invalid OCR resolution 1200/, /72 to 600/],
    [{ ocrDpi: 150.5 }, /invalid OCR resolution/, /ingest\.ocr\.dpi/],
  ])('refuses %j with a USAGE error and a hint, before reading the PDF', async (options, message, hint) => {
    const failure = await adaptPdf(bytes, { docId: 'x', filename: 'x.pdf', ...options }).catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: 'USAGE', file: 'x.pdf', message: expect.stringMatching(message), hint: expect.stringMatching(hint) });
  });
});

shell('checkOcr', () => {
  let bin: string;
  beforeEach(() => {
    bin = mkdtempSync(join(tmpdir(), 'doctree-ocr-check-'));
  });
  afterEach(() => rmSync(bin, { recursive: true, force: true }));

  const fakeTesseract = (languages: string[]): void =>
    script(bin, 'tesseract', `case "$1" in\n  --version) echo 'tesseract 5.3.0'; echo ' leptonica-1.82.0' ;;\n  --list-langs) echo 'List of available languages in "/usr/share/tesseract-ocr/5/tessdata/" (${languages.length}):'; printf '${languages.join('\\n')}\\n' ;;\nesac`);

  it('reports versions and languages when both programs are there and the language is installed', async () => {
    fakeTesseract(['eng', 'osd']);
    script(bin, 'pdftoppm', `echo 'pdftoppm version 22.12.0' >&2; echo 'Copyright 2005-2022 The Poppler Developers' >&2`);
    expect(await checkOcr({ path: bin })).toEqual({
      available: true,
      missing: [],
      language: 'eng',
      tesseract: { path: join(bin, 'tesseract'), version: '5.3.0', languages: ['eng', 'osd'] },
      pdftoppm: { path: join(bin, 'pdftoppm'), version: '22.12.0' },
    });
  });

  it('says what is missing and how to install it', async () => {
    const none = await checkOcr({ path: bin });
    expect(none).toMatchObject({ available: false, missing: ['tesseract', 'pdftoppm'] });
    expect(none.problem).toMatch(/tesseract and pdftoppm not on PATH\. Fix: sudo apt-get install tesseract-ocr poppler-utils/);
    fakeTesseract(['osd']);
    script(bin, 'pdftoppm', `echo 'pdftoppm version 22.12.0' >&2`);
    const noEnglish = await checkOcr({ path: bin, language: 'eng+chi_sim' });
    expect(noEnglish).toMatchObject({ available: false, missing: [], tesseract: { languages: ['osd'] } });
    expect(noEnglish.problem).toBe('tesseract has no language data for eng, chi_sim. Fix: sudo apt-get install tesseract-ocr-eng tesseract-ocr-chi-sim');
  });
});
