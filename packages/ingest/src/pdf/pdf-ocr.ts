import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BBox } from '@doctree/schema';
import { rawBlock } from './pdf-blocks.js';
import type { PdfRawBlock } from './pdf-blocks.js';
import { isOnPath } from './pdf-document.js';
import type { PdfLine } from './pdf-lines.js';
import { throwIfCancelled } from './pdf-pages.js';

/**
 * OCR of pages without a text layer with the Tesseract command line (`tesseract`, Debian package
 * `tesseract-ocr`), pages rendered by poppler's `pdftoppm`. Both are external programs found on PATH;
 * without them nothing runs and the adapter records the pages as empty with a warning.
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
  /** The `tesseract` program to run (a path); default the one on PATH. */
  tesseract?: string;
  /** The `pdftoppm` program to run (a path); default the one on PATH. */
  pdftoppm?: string;
}

const DEFAULTS = { dpi: 200, language: 'eng', timeoutMs: 120_000, tesseract: 'tesseract', pdftoppm: 'pdftoppm' };

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

function run(program: string, args: string[], timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(program, args, { timeout: timeoutMs, maxBuffer: 64 << 20, encoding: 'utf8' }, (error, stdout, stderr) => {
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
 * OCRs the given pages (0-based) of a PDF: each page is rendered to a grey PGM with `pdftoppm` and, unless it is blank
 * ({@link pgmHasInk}), read with `tesseract … tsv` (see {@link blocksFromTesseractTsv}). The PDF is written to a private temporary
 * folder, removed afterwards. A page that fails is reported in `failed`; call only when
 * {@link missingOcrPrograms} is empty.
 */
export async function ocrPages(bytes: Uint8Array, pages: readonly number[], options: OcrPagesOptions): Promise<OcrResult> {
  const opts = { ...DEFAULTS, ...options };
  const result: OcrResult = { blocks: new Map(), failed: new Map() };
  if (pages.length === 0) return result;
  const dir = await mkdtemp(join(tmpdir(), 'doctree-ocr-'));
  try {
    const pdf = join(dir, 'input.pdf');
    await writeFile(pdf, bytes);
    for (const pageIdx of pages) {
      throwIfCancelled(opts.signal, opts.filename);
      const page = String(pageIdx + 1);
      const image = join(dir, `page-${page}`);
      try {
        // A grey PGM (raw pixels): a blank page is seen without tesseract, which takes ~0.3 s to find nothing on one.
        await run(opts.pdftoppm, ['-f', page, '-l', page, '-r', String(opts.dpi), '-gray', '-singlefile', pdf, image], opts.timeoutMs);
        if (!pgmHasInk(await readFile(`${image}.pgm`))) continue;
        const tsv = await run(opts.tesseract, [`${image}.pgm`, 'stdout', '-l', opts.language, '--psm', '3', 'tsv'], opts.timeoutMs);
        const blocks = blocksFromTesseractTsv(tsv, pageIdx, 72 / opts.dpi);
        if (blocks.length > 0) result.blocks.set(pageIdx, blocks);
      } catch (error) {
        result.failed.set(pageIdx, error instanceof Error ? error.message : String(error));
      }
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return result;
}
