import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DocTreeError, INGEST_OCR_DEFAULTS, OCR_DPI_RANGE, OCR_LANGUAGE_PATTERN } from '@doctree/schema';
import type { BBox } from '@doctree/schema';
import { rawBlock } from './pdf-blocks.js';
import type { PdfRawBlock } from './pdf-blocks.js';
import { isOnPath, locateOnPath } from './pdf-document.js';
import type { PdfLine } from './pdf-lines.js';
import { throwIfCancelled } from './pdf-pages.js';
import { OCR_TEMP_NAME, ocrTempPrefix, removeStaleTempFiles, trackTempPath } from '../pipeline/temp-files.js';

/**
 * OCR of pages without a text layer with the Tesseract command line (`tesseract`, Debian package
 * `tesseract-ocr`), pages rendered by poppler's `pdftoppm`. Both are external programs found on PATH;
 * without them nothing runs and the adapter records the pages as empty with a warning. `npm run setup` installs
 * both as root (Debian `tesseract-ocr`, `poppler-utils`); `doctree doctor` reports them ({@link checkOcr}).
 */

/** Programs OCR needs on PATH. */
export const OCR_PROGRAMS = ['tesseract', 'pdftoppm'] as const;

/** Options of {@link ocrPages}. */
export interface OcrPagesOptions {
  /** File name as given by the user (named in errors). */
  filename: string;
  /** Rendering resolution in dots per inch. Default 200. */
  dpi?: number;
  /** Tesseract language(s), e.g. `eng` or `eng+deu`. Default `eng`. */
  language?: string;
  /** Longest a program may run for one page, in milliseconds. Default 120000. */
  timeoutMs?: number;
  /** Stops between pages with a `CANCELLED` DocTreeError. */
  signal?: AbortSignal;
  /**
   * Pages OCRed at the same time, each by its own single-threaded `tesseract` (`OMP_THREAD_LIMIT=1` unless the
   * environment sets it: tesseract's own threads spin and slow it down, several times over on a busy machine).
   * Default: one per core, at most 4.
   */
  concurrency?: number;
  /** The `tesseract` program to run (a path); default the one on PATH. */
  tesseract?: string;
  /** The `pdftoppm` program to run (a path); default the one on PATH. */
  pdftoppm?: string;
}

const DEFAULTS = { dpi: INGEST_OCR_DEFAULTS.dpi, language: INGEST_OCR_DEFAULTS.language, timeoutMs: 120_000, tesseract: 'tesseract', pdftoppm: 'pdftoppm' };

/**
 * Refuses OCR settings that cannot work, before any page is read: a language that is not tesseract language names
 * joined by `+` ({@link OCR_LANGUAGE_PATTERN}; it becomes a program argument) or a resolution outside
 * {@link OCR_DPI_RANGE}. Throws a `USAGE` DocTreeError naming the configuration key.
 */
export function assertOcrOptions(options: { ocrLanguage?: string; ocrDpi?: number }, filename?: string): void {
  const where = filename !== undefined ? { file: filename } : {};
  if (options.ocrLanguage !== undefined && !OCR_LANGUAGE_PATTERN.test(options.ocrLanguage)) {
    throw new DocTreeError('USAGE', `invalid OCR language ${JSON.stringify(options.ocrLanguage.slice(0, 80))}`, { ...where, hint: 'ingest.ocr.language takes tesseract language names joined by "+", e.g. "eng" or "eng+deu" (`tesseract --list-langs` lists them).' });
  }
  const dpi = options.ocrDpi;
  if (dpi !== undefined && !(Number.isInteger(dpi) && dpi >= OCR_DPI_RANGE.min && dpi <= OCR_DPI_RANGE.max)) {
    throw new DocTreeError('USAGE', `invalid OCR resolution ${String(dpi)}`, { ...where, hint: `ingest.ocr.dpi takes a whole number of dots per inch from ${OCR_DPI_RANGE.min} to ${OCR_DPI_RANGE.max} (default ${INGEST_OCR_DEFAULTS.dpi}).` });
  }
}

/** Default of {@link OcrPagesOptions.concurrency}: one page per core, at most 4. */
const defaultConcurrency = (): number => Math.max(1, Math.min(4, availableParallelism()));

/** Tesseract words below this confidence (0–100) are left out. */
const MIN_CONFIDENCE = 30;

/** The OCR programs missing from PATH (empty when OCR can run). */
export function missingOcrPrograms(path?: string): string[] {
  return OCR_PROGRAMS.filter((name) => !isOnPath(name, path));
}

const round2 = (n: number): number => Math.round(n * 100) / 100;

/**
 * Blocks of one page from Tesseract's TSV output (`tesseract image - tsv`): words grouped into lines
 * (block, paragraph and line numbers), lines into one block per paragraph, pixel boxes scaled to PDF
 * points (`scale` = 72 / dpi). Words with low confidence and empty words are dropped.
 */
export function blocksFromTesseractTsv(tsv: string, pageIdx: number, scale: number): PdfRawBlock[] {
  const rows = tsv.split(/\r?\n/).slice(1);
  const paragraphs = new Map<string, Map<string, Array<{ text: string; box: BBox }>>>();
  for (const row of rows) {
    const cells = row.split('\t');
    if (cells.length < 12 || cells[0] !== '5') continue;
    const [, , block, par, line, , left, top, width, height, conf] = cells.map(Number);
    const text = cells.slice(11).join('\t').trim();
    if (!text || !((conf ?? 0) >= MIN_CONFIDENCE)) continue;
    const x0 = (left ?? 0) * scale;
    const y0 = (top ?? 0) * scale;
    const box: BBox = [round2(x0), round2(y0), round2(x0 + (width ?? 0) * scale), round2(y0 + (height ?? 0) * scale)];
    const paragraphKey = `${block}.${par}`;
    const lines = paragraphs.get(paragraphKey) ?? new Map<string, Array<{ text: string; box: BBox }>>();
    const words = lines.get(String(line)) ?? [];
    words.push({ text, box });
    lines.set(String(line), words);
    paragraphs.set(paragraphKey, lines);
  }
  const blocks: PdfRawBlock[] = [];
  for (const lines of paragraphs.values()) {
    const pdfLines: PdfLine[] = [];
    for (const words of lines.values()) {
      const bbox: BBox = [
        Math.min(...words.map((w) => w.box[0])),
        Math.min(...words.map((w) => w.box[1])),
        Math.max(...words.map((w) => w.box[2])),
        Math.max(...words.map((w) => w.box[3])),
      ];
      // Word boxes hug the ink: a line's height is about one font size.
      const size = round2(Math.max(1, bbox[3] - bbox[1]));
      pdfLines.push({ text: words.map((w) => w.text).join(' '), bbox, baseline: bbox[3], size, bold: false, spans: [] });
    }
    if (pdfLines.length > 0) blocks.push(rawBlock(pageIdx, 'body', pdfLines));
  }
  return blocks;
}

function run(program: string, args: string[], timeoutMs: number, env?: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(program, args, { timeout: timeoutMs, maxBuffer: 64 << 20, encoding: 'utf8', ...(env ? { env } : {}) }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${program} failed: ${(stderr || error.message).trim().split('\n').pop()}`));
      else resolve(stdout);
    });
  });
}

/** What OCR made of the pages it was given. */
export interface OcrResult {
  /** Blocks per page that OCR read text from. */
  blocks: Map<number, PdfRawBlock[]>;
  /** Pages OCR failed on, with the reason. */
  failed: Map<number, string>;
}

/** Grey level (0 black … 255 white) below which a pixel counts as ink; near-white noise above it does not. */
export const INK_THRESHOLD = 250;

/**
 * True when a binary PGM image (`P5`, as `pdftoppm -gray` writes it) has at least one pixel darker than `threshold`
 * (0–255 scale). Anything it cannot read (another format, 16-bit samples, a short file) counts as ink, so OCR still runs.
 */
export function pgmHasInk(image: Uint8Array, threshold = INK_THRESHOLD): boolean {
  const head = /^P5\s+(?:#[^\n]*\n\s*)*(\d+)\s+(?:#[^\n]*\n\s*)*(\d+)\s+(?:#[^\n]*\n\s*)*(\d+)\s/.exec(Buffer.from(image.subarray(0, 512)).toString('latin1'));
  if (!head) return true;
  const [width, height, maxval] = [Number(head[1]), Number(head[2]), Number(head[3])];
  if (!(maxval > 0 && maxval < 256) || image.length < head[0].length + width * height) return true;
  const limit = (threshold * maxval) / 255;
  for (let i = head[0].length, end = head[0].length + width * height; i < end; i++) if (image[i]! < limit) return true;
  return false;
}

/**
 * Most pages one `pdftoppm` run renders and one `tesseract` run reads. Each program starts once per batch instead of
 * once per page: tesseract loads its model every time it starts (about a third of its time on a slide), and starting a
 * child process from a worker with a large heap costs tens of milliseconds of that thread's time.
 */
export const OCR_BATCH_PAGES = 8;

/**
 * The batches {@link ocrPages} reads: runs of consecutive pages (0-based), in the order given, each at most `size`
 * pages long (`pdftoppm` renders a range of pages in one run).
 */
export function ocrBatches(pages: readonly number[], size: number): number[][] {
  const batches: number[][] = [];
  let current: number[] = [];
  for (const page of pages) {
    const last = current[current.length - 1];
    if (current.length > 0 && (last === undefined || page !== last + 1 || current.length >= size)) {
      batches.push(current);
      current = [];
    }
    current.push(page);
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

/**
 * Splits Tesseract's TSV of several images (a list file given as input) into one TSV per image, keyed by its 1-based
 * position in the list (the `page_num` column); each keeps the header line.
 */
export function tesseractTsvByImage(tsv: string): Map<number, string> {
  const lines = tsv.split(/\r?\n/);
  const header = lines[0] ?? '';
  const byImage = new Map<number, string[]>();
  for (const line of lines.slice(1)) {
    const tab = line.indexOf('\t');
    if (tab < 0) continue;
    const end = line.indexOf('\t', tab + 1);
    const image = Number(line.slice(tab + 1, end < 0 ? undefined : end));
    if (!Number.isInteger(image) || image < 1) continue;
    const rows = byImage.get(image) ?? [];
    rows.push(line);
    byImage.set(image, rows);
  }
  return new Map([...byImage].map(([image, rows]) => [image, [header, ...rows].join('\n')]));
}

/**
 * OCRs the given pages (0-based) of a PDF: each page is rendered to a grey PGM with `pdftoppm` and, unless it is blank
 * ({@link pgmHasInk}), read with `tesseract … tsv` (see {@link blocksFromTesseractTsv}). Pages go in batches of consecutive pages (at most
 * {@link OCR_BATCH_PAGES}, fewer when that keeps all `concurrency` lanes busy): one `pdftoppm` and one `tesseract` run
 * per batch, up to `concurrency` batches at a time; a batch that fails is read again page by page, so that only the page
 * at fault is reported. Results in page order; a batch's renders are deleted as soon as it is read, so renders never
 * pile up. Cancelling waits for the batches under way. The PDF is
 * written to a private temporary folder `doctree-ocr-<pid>-…`, removed afterwards, on exit and on SIGINT/SIGTERM/SIGHUP;
 * folders of dead processes are removed first ({@link removeStaleTempFiles}). A page that fails
 * is reported in `failed`; call only when {@link missingOcrPrograms} is empty.
 */
export async function ocrPages(bytes: Uint8Array, pages: readonly number[], options: OcrPagesOptions): Promise<OcrResult> {
  const opts = { ...DEFAULTS, concurrency: defaultConcurrency(), ...options };
  const result: OcrResult = { blocks: new Map(), failed: new Map() };
  if (pages.length === 0) return result;
  // Single-threaded tesseract: its OpenMP threads spin-wait (several times slower on a busy machine), and pages run side by side instead.
  const tesseractEnv = process.env['OMP_THREAD_LIMIT'] ? undefined : { ...process.env, OMP_THREAD_LIMIT: '1' };
  // Render folders a killed run left behind (their process is gone) go first; this run's goes on exit or a signal.
  await removeStaleTempFiles(tmpdir(), OCR_TEMP_NAME);
  const dir = await mkdtemp(join(tmpdir(), ocrTempPrefix()));
  const untrack = trackTempPath(dir);
  const outcomes = new Map<number, PdfRawBlock[] | { error: string }>();
  try {
    const pdf = join(dir, 'input.pdf');
    await writeFile(pdf, bytes);
    /**
     * Reads one batch: one pdftoppm run renders its pages (`page-<n>.pgm`, n zero-padded to the width of the
     * document's last page number), one tesseract run reads those with ink (a list file of them; a lone page directly).
     * Throws when a program fails.
     */
    const readBatch = async (batch: readonly number[], files: string[]): Promise<void> => {
      const first = batch[0]! + 1;
      await run(opts.pdftoppm, ['-f', String(first), '-l', String(first + batch.length - 1), '-r', String(opts.dpi), '-gray', pdf, join(dir, 'page')], opts.timeoutMs * batch.length);
      const wanted = new Set(batch);
      const rendered = new Map<number, string>();
      for (const name of await readdir(dir)) {
        const match = /^page-(\d+)\.pgm$/.exec(name);
        if (match === null || !wanted.has(Number(match[1]) - 1)) continue;
        files.push(join(dir, name));
        rendered.set(Number(match[1]) - 1, join(dir, name));
      }
      // A grey PGM (raw pixels): a blank page is seen without tesseract, which takes ~0.3 s to find nothing on one.
      const inked: Array<{ pageIdx: number; image: string }> = [];
      for (const pageIdx of batch) {
        const image = rendered.get(pageIdx);
        if (image === undefined) throw new Error(`pdftoppm did not render page ${pageIdx + 1}`);
        if (pgmHasInk(await readFile(image))) inked.push({ pageIdx, image });
      }
      if (inked.length === 0) return;
      let input = inked[0]!.image;
      if (inked.length > 1) {
        input = join(dir, `list-${first}.txt`);
        files.push(input);
        await writeFile(input, inked.map(({ image }) => image).join('\n') + '\n');
      }
      const tsv = await run(opts.tesseract, [input, 'stdout', '-l', opts.language, '--psm', '3', 'tsv'], opts.timeoutMs * inked.length, tesseractEnv);
      const byImage = tesseractTsvByImage(tsv);
      inked.forEach(({ pageIdx }, i) => outcomes.set(pageIdx, blocksFromTesseractTsv(byImage.get(i + 1) ?? '', pageIdx, 72 / opts.dpi)));
    };
    /** One batch, its renders deleted afterwards; a batch that fails is read again page by page, a page that fails is reported. */
    const ocrBatch = async (batch: readonly number[]): Promise<void> => {
      const files: string[] = [];
      try {
        await readBatch(batch, files);
      } catch (error) {
        if (batch.length === 1) {
          outcomes.set(batch[0]!, { error: error instanceof Error ? error.message : String(error) });
          return;
        }
        for (const pageIdx of batch) {
          outcomes.delete(pageIdx);
          throwIfCancelled(opts.signal, opts.filename);
          await ocrBatch([pageIdx]);
        }
      } finally {
        await Promise.all(files.map((file) => rm(file, { force: true })));
      }
    };
    const count = Math.max(1, Math.min(Math.floor(opts.concurrency) || 1, pages.length));
    const batches = ocrBatches(pages, Math.min(OCR_BATCH_PAGES, Math.ceil(pages.length / count)));
    let next = 0;
    const lane = async (): Promise<void> => {
      while (next < batches.length) {
        throwIfCancelled(opts.signal, opts.filename);
        await ocrBatch(batches[next++]!);
      }
    };
    // Every lane finishes its batch before the folder goes; the first error (a cancel) is thrown then.
    const lanes = await Promise.allSettled(Array.from({ length: count }, lane));
    const stopped = lanes.find((settled): settled is PromiseRejectedResult => settled.status === 'rejected');
    if (stopped) throw stopped.reason;
  } finally {
    await rm(dir, { recursive: true, force: true });
    untrack();
  }
  for (const pageIdx of pages) {
    const outcome = outcomes.get(pageIdx);
    if (outcome === undefined) continue;
    if (Array.isArray(outcome)) {
      if (outcome.length > 0) result.blocks.set(pageIdx, outcome);
    } else result.failed.set(pageIdx, outcome.error);
  }
  return result;
}

/** What {@link checkOcr} found: whether OCR can run here, with which programs and languages. */
export interface OcrCheck {
  /** True when both programs are on PATH and tesseract has data for every language of `language`. */
  available: boolean;
  /** Programs of {@link OCR_PROGRAMS} not on PATH. */
  missing: string[];
  /** Tesseract language(s) checked, e.g. `eng` (the adapter's default). */
  language: string;
  /** `tesseract` found on PATH: its path, version (`5.3.0`) and installed languages (`eng`, `osd`…). */
  tesseract?: { path: string; version?: string; languages: string[] };
  /** `pdftoppm` found on PATH: its path and version (`22.12.0`). */
  pdftoppm?: { path: string; version?: string };
  /** Why OCR cannot run, and the fix; absent when it can. */
  problem?: string;
}

/** Options of {@link checkOcr}. */
export interface CheckOcrOptions {
  /** PATH to search (default `process.env.PATH`). */
  path?: string;
  /** Tesseract language(s) that must be installed, e.g. `eng+deu`. Default `eng`. */
  language?: string;
  /** Longest each probe may run, in milliseconds. Default 10000. */
  timeoutMs?: number;
}

/** Install hint for the OCR programs (Debian/Ubuntu package names). */
export const OCR_INSTALL_HINT = 'sudo apt-get install tesseract-ocr poppler-utils (npm run setup does it when run as root)';

/** Stdout and stderr of a probe run (old tesseract versions print --version and --list-langs to stderr); '' when it fails. */
function probe(program: string, args: string[], timeoutMs: number): Promise<string> {
  return new Promise((resolve) => {
    execFile(program, args, { timeout: timeoutMs, encoding: 'utf8' }, (error, stdout, stderr) => {
      resolve(error && !stdout && !stderr ? '' : `${stdout}\n${stderr}`);
    });
  });
}

/** Installed languages from `tesseract --list-langs` output: `List of available languages in "…" (2):` then one per line. */
function languagesOf(output: string): string[] {
  return output
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => /^[A-Za-z][\w/-]*$/.test(l));
}

/** The languages of `language` (`+`-joined) that are not among `installed`. */
function absentLanguages(language: string, installed: readonly string[]): string[] {
  return language.split('+').filter((lang) => lang && !installed.includes(lang));
}

/** The Debian packages holding tesseract's data for `languages` (`deu` → `tesseract-ocr-deu`, `chi_sim` → `tesseract-ocr-chi-sim`). */
export function tesseractLanguagePackages(languages: readonly string[]): string[] {
  return languages.map((lang) => `tesseract-ocr-${lang.toLowerCase().replace(/_/g, '-')}`);
}

/** How long a probe of tesseract's languages is reused (a long-running worker sees a language installed later). */
const LANGUAGE_PROBE_TTL_MS = 60_000;
const languageProbes = new Map<string, { at: number; languages: Promise<string[]> }>();

/**
 * The languages of `language` (`+`-joined, e.g. `eng+deu`) that the `tesseract` on PATH has no data for, from
 * `tesseract --list-langs` (probed once a minute at most per program). Empty when every language is there, and also when
 * the probe fails or lists nothing: then tesseract itself reports the problem page by page.
 */
export async function missingOcrLanguages(language: string, options: { path?: string; timeoutMs?: number } = {}): Promise<string[]> {
  const program = locateOnPath('tesseract', options.path ?? process.env['PATH']);
  if (program === undefined) return [];
  let probed = languageProbes.get(program);
  if (probed === undefined || Date.now() - probed.at > LANGUAGE_PROBE_TTL_MS) {
    probed = { at: Date.now(), languages: probe(program, ['--list-langs'], options.timeoutMs ?? 10_000).then(languagesOf) };
    languageProbes.set(program, probed);
  }
  const installed = await probed.languages;
  return installed.length === 0 ? [] : absentLanguages(language, installed);
}

/** The first dotted version number on a line starting with `name` (`tesseract 5.3.0`, `pdftoppm version 22.12.0`). */
function versionOf(output: string, name: string): string | undefined {
  const line = output.split(/\r?\n/).find((l) => l.trim().toLowerCase().startsWith(name));
  return /(\d+(?:\.\d+)+)/.exec(line ?? '')?.[1];
}

/**
 * Checks whether OCR can run here (for `doctree doctor`): `tesseract` and `pdftoppm` on PATH, their versions, and the
 * languages tesseract has data for (`tesseract --list-langs`), which must cover `language`. Never throws; a probe that
 * fails leaves its field out.
 */
export async function checkOcr(options: CheckOcrOptions = {}): Promise<OcrCheck> {
  const language = options.language ?? DEFAULTS.language;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const path = options.path ?? process.env['PATH'];
  const tesseractPath = locateOnPath('tesseract', path);
  const pdftoppmPath = locateOnPath('pdftoppm', path);
  const missing = OCR_PROGRAMS.filter((name) => (name === 'tesseract' ? tesseractPath : pdftoppmPath) === undefined);
  const [tesseractVersion, langs, pdftoppmVersion] = await Promise.all([
    tesseractPath ? probe(tesseractPath, ['--version'], timeoutMs) : Promise.resolve(''),
    tesseractPath ? probe(tesseractPath, ['--list-langs'], timeoutMs) : Promise.resolve(''),
    pdftoppmPath ? probe(pdftoppmPath, ['-v'], timeoutMs) : Promise.resolve(''),
  ]);
  const check: OcrCheck = { available: false, missing, language };
  if (tesseractPath) {
    const languages = languagesOf(langs);
    const version = versionOf(tesseractVersion, 'tesseract');
    check.tesseract = { path: tesseractPath, ...(version ? { version } : {}), languages };
  }
  if (pdftoppmPath) {
    const version = versionOf(pdftoppmVersion, 'pdftoppm');
    check.pdftoppm = { path: pdftoppmPath, ...(version ? { version } : {}) };
  }
  const absent = absentLanguages(language, check.tesseract?.languages ?? []);
  if (missing.length > 0) check.problem = `${missing.join(' and ')} not on PATH. Fix: ${OCR_INSTALL_HINT}`;
  else if (absent.length > 0) check.problem = `tesseract has no language data for ${absent.join(', ')}. Fix: sudo apt-get install ${tesseractLanguagePackages(absent).join(' ')}`;
  else check.available = true;
  return check;
}
