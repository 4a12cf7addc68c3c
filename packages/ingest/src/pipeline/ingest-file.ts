import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import { basename, extname, join, resolve } from 'node:path';
import { DocTreeError, type ContentList, type DocTree } from '@doctree/schema';
import { writeFilesAtomically } from '@doctree/schema/node';
import { buildDocTree } from '../builder/tree-builder.js';
import { enhanceContentList, type EnhanceReport } from '../enhancer/enhance-content-list.js';
import { adaptMarkdown } from '../markdown/markdown-adapter.js';
import { adaptMinerU } from '../mineru/mineru-adapter.js';
import { adaptPdf } from '../pdf/pdf-adapter.js';
import { DEFAULT_MAX_INPUT_BYTES, DEFAULT_MAX_PAGES, type IngestLimitOptions, type IngestOcrOptions } from '../limits.js';
import { assertOcrOptions } from '../pdf/pdf-ocr.js';
import { docIdFromFilename, isValidDocId } from './doc-id.js';
import { pageQualityReport, summarizeIngest, type IngestSummary, type PageQualityRow } from './ingest-summary.js';
import { readInputFile } from './read-input.js';
import { removeStaleTempFiles, trackTempPath } from './temp-files.js';

/** Input formats `ingestFile` accepts. */
export type IngestInputKind = 'pdf' | 'mineru' | 'markdown';

/** File names inside a document folder. */
export const DOC_FILES = {
  adapted: 'content_list.adapted.json',
  enhanced: 'content_list.enhanced.json',
  tree: 'doctree.mm.json',
  report: 'ingest_report.json',
} as const;

/** Progress events of {@link ingestFile}. */
export type IngestProgress =
  | { stage: 'read'; file: string }
  | { stage: 'adapt'; done: number; total: number }
  | { stage: 'enhance' }
  | { stage: 'build' }
  | { stage: 'write'; dir: string };

/**
 * Options of {@link ingestFile}. The resource limits ({@link IngestLimitOptions}: `maxPages`, `maxInputBytes`,
 * `maxOcrPages`, `maxStreamBytes`, `maxDecodedRatio`, `maxImagePixels`) come from `ingest.limits` of the configuration
 * through `ingestLimitsFromConfig`; the OCR options (`ocr`, `ocrLanguage`, `ocrDpi`) from `ingest.ocr` through
 * `ingestOcrFromConfig` (both at once: `ingestOptionsFromConfig`).
 */
export interface IngestFileOptions extends Omit<IngestLimitOptions, 'maxPages' | 'maxInputBytes'>, IngestOcrOptions {
  /** Dataset folder; the document goes to `<outDir>/<docId>/`. Default `data/default`. */
  outDir?: string;
  /** Document id (folder name). Default: derived from the file name. */
  docId?: string;
  /** Password of an encrypted PDF. */
  password?: string;
  /** MinerU `middle.json` (page sizes) next to a `content_list.json`. */
  middlePath?: string;
  /** Also write `ingest_report.json` with per-page block counts. Default false. */
  report?: boolean;
  /** Copy the source file into the document folder as `source.<ext>` (needed to render figures later). Default true. */
  copySource?: boolean;
  /** Page worker threads of a PDF (`AdaptPdfOptions.workers`): `'auto'` (default) or a count; 0 reads every page in this thread. */
  pdfWorkers?: number | 'auto';
  /**
   * Most pages of the document: a MinerU `page_idx` at or beyond it is `MINERU_INVALID`, a document with more pages is
   * `SCHEMA_INVALID`. Default {@link DEFAULT_MAX_PAGES} (5 000).
   */
  maxPages?: number;
  /**
   * Most bytes of the input file (and of `middle.json`); a larger file is refused (`INPUT_UNSUPPORTED`) before it is
   * read. Default by kind, {@link DEFAULT_MAX_INPUT_BYTES}: 2 GiB for a PDF, 512 MiB for JSON and Markdown.
   */
  maxInputBytes?: number;
  onProgress?: (event: IngestProgress) => void;
  signal?: AbortSignal;
}

const DEFAULTS = { outDir: join('data', 'default'), report: false, copySource: true, onProgress: () => undefined } satisfies Partial<IngestFileOptions>;

/** Everything `ingestFile` produced. */
export interface IngestResult {
  docId: string;
  docDir: string;
  files: { adapted: string; enhanced: string; tree: string; report?: string; source?: string };
  adapted: ContentList;
  enhanced: ContentList;
  tree: DocTree;
  summary: IngestSummary;
  pageReport?: PageQualityRow[];
}

/** Detects the input format from the name and the first bytes. */
export function detectInputKind(filename: string, bytes: Uint8Array): IngestInputKind {
  const head = Buffer.from(bytes.subarray(0, 1024)).toString('latin1');
  if (head.includes('%PDF-')) return 'pdf';
  const ext = extname(filename).toLowerCase();
  if (ext === '.pdf') return 'pdf'; // the PDF adapter names the problem (not a PDF / corrupt)
  if (ext === '.md' || ext === '.markdown') return 'markdown';
  if (ext === '.json') return 'mineru';
  throw new DocTreeError('INPUT_UNSUPPORTED', `cannot tell the format of ${basename(filename)}`, { file: filename });
}

/**
 * Reads an input file: regular files only (after following symbolic links), at most `maxInputBytes` or the default of
 * its kind (told from the name and the first bytes, as {@link detectInputKind} does; an unknown kind is capped as text).
 */
function readInput(path: string, maxInputBytes: number | undefined): Promise<Uint8Array> {
  return readInputFile(path, {
    maxBytes: (head) => {
      if (maxInputBytes !== undefined) return maxInputBytes;
      let kind: IngestInputKind;
      try {
        kind = detectInputKind(path, head);
      } catch {
        kind = 'markdown';
      }
      return DEFAULT_MAX_INPUT_BYTES[kind];
    },
    limitName: 'maxInputBytes',
  });
}

function parseJson(bytes: Uint8Array, file: string, code: 'MINERU_INVALID'): unknown {
  try {
    return JSON.parse(Buffer.from(bytes).toString('utf8'));
  } catch (cause) {
    throw new DocTreeError(code, `not valid JSON: ${(cause as Error).message}`, { file, cause });
  }
}

/**
 * Ingests one PDF, MinerU `content_list.json` or Markdown file: adapt → enhance → build, then writes
 * `content_list.adapted.json`, `content_list.enhanced.json` and `doctree.mm.json` (and optionally the page
 * report and a copy of the source) into `<outDir>/<docId>/`. All work happens in memory first; files are written
 * to temporary names and renamed into place only when everything succeeded, so a failure leaves nothing behind.
 *
 * Only regular files are read (a symbolic link to `/dev/zero`, a fifo or a socket is refused), up to `maxInputBytes`.
 *
 * @throws DocTreeError naming the file: INPUT_NOT_FOUND, INPUT_UNSUPPORTED (not a regular file, too large), PDF_*,
 * MINERU_INVALID, IO_WRITE_FAILED…
 */
export async function ingestFile(inputPath: string, options: IngestFileOptions = {}): Promise<IngestResult> {
  const opts = { ...DEFAULTS, ...options };
  const filename = basename(inputPath);
  const docId = opts.docId ?? docIdFromFilename(filename);
  if (!isValidDocId(docId)) throw new DocTreeError('USAGE', `invalid document id "${docId}"`, { hint: 'Use letters, digits, "-", "_" and "." only.' });
  assertOcrOptions(opts, filename);
  opts.onProgress({ stage: 'read', file: inputPath });
  if (opts.maxInputBytes !== undefined && !(opts.maxInputBytes > 0)) throw new DocTreeError('USAGE', `maxInputBytes must be a positive number of bytes, got ${String(opts.maxInputBytes)}`);
  const maxPages = opts.maxPages ?? DEFAULT_MAX_PAGES;
  const bytes = await readInput(inputPath, opts.maxInputBytes);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const kind = detectInputKind(filename, bytes);

  const t0 = performance.now();
  let adapted: ContentList;
  let ocr: IngestSummary['ocr'];
  if (kind === 'pdf') {
    adapted = await adaptPdf(bytes, {
      docId,
      filename,
      sha256,
      ...(opts.password !== undefined ? { password: opts.password } : {}),
      onPage: (done, total) => opts.onProgress({ stage: 'adapt', done, total }),
      onOcr: (stats) => {
        ocr = { ...stats, ms: Math.round(stats.ms) };
      },
      ...(opts.pdfWorkers !== undefined ? { workers: opts.pdfWorkers } : {}),
      ...(opts.signal ? { signal: opts.signal } : {}),
      maxPages,
      ...(opts.maxOcrPages !== undefined ? { maxOcrPages: opts.maxOcrPages } : {}),
      ...(opts.ocr !== undefined ? { ocr: opts.ocr } : {}),
      ...(opts.ocrLanguage !== undefined ? { ocrLanguage: opts.ocrLanguage } : {}),
      ...(opts.ocrDpi !== undefined ? { ocrDpi: opts.ocrDpi } : {}),
      ...(opts.maxStreamBytes !== undefined ? { maxStreamBytes: opts.maxStreamBytes } : {}),
      ...(opts.maxDecodedRatio !== undefined ? { maxDecodedRatio: opts.maxDecodedRatio } : {}),
      ...(opts.maxImagePixels !== undefined ? { maxImagePixels: opts.maxImagePixels } : {}),
    });
  } else if (kind === 'mineru') {
    const contentList = parseJson(bytes, filename, 'MINERU_INVALID');
    const middle = opts.middlePath ? parseJson(await readInput(opts.middlePath, opts.maxInputBytes ?? DEFAULT_MAX_INPUT_BYTES.mineru), basename(opts.middlePath), 'MINERU_INVALID') : undefined;
    adapted = adaptMinerU(
      { contentList, ...(middle !== undefined ? { middle } : {}) },
      { docId, filename, sha256, bytes: bytes.byteLength, maxPages, ...(opts.middlePath ? { middleFilename: basename(opts.middlePath) } : {}) },
    );
  } else {
    adapted = adaptMarkdown(Buffer.from(bytes).toString('utf8'), { docId, filename, sha256, bytes: bytes.byteLength });
  }
  const t1 = performance.now();
  opts.onProgress({ stage: 'enhance' });
  const { list: enhanced, report } = enhanceContentList(adapted);
  const t2 = performance.now();
  opts.onProgress({ stage: 'build' });
  const tree = buildDocTree(enhanced, { maxPages });
  const t3 = performance.now();

  const docDir = resolve(opts.outDir, docId);
  opts.onProgress({ stage: 'write', dir: docDir });
  const pageReport = opts.report ? pageQualityReport(adapted, enhanced) : undefined;
  const timings = { adapt: Math.round(t1 - t0), enhance: Math.round(t2 - t1), build: Math.round(t3 - t2), write: 0 };
  const summary = summarizeIngest(adapted, tree, report as EnhanceReport, timings);
  if (ocr) summary.ocr = ocr;
  const outputs: Array<[string, string | Uint8Array]> = [
    [DOC_FILES.adapted, JSON.stringify(adapted)],
    [DOC_FILES.enhanced, JSON.stringify(enhanced)],
    [DOC_FILES.tree, JSON.stringify(tree)],
  ];
  if (pageReport) outputs.push([DOC_FILES.report, JSON.stringify({ summary, pages: pageReport }, null, 2)]);
  const sourceName = `source${extname(filename).toLowerCase() || (kind === 'pdf' ? '.pdf' : '')}`;
  if (opts.copySource) outputs.push([sourceName, bytes]);
  const replaced = await previousSource(join(docDir, DOC_FILES.adapted));
  if (replaced && replaced.sha256 !== sha256) {
    // Another file (or another version of this one) was ingested into this folder: said, never silent.
    summary.warnings = [
      ...summary.warnings,
      {
        code: 'DOC_REPLACED',
        message: `The document folder ${docId} held ${replaced.filename ?? 'another file'} (sha256 ${replaced.sha256.slice(0, 12)}…); it now holds ${filename} (sha256 ${sha256.slice(0, 12)}…). Give --doc-id to keep both.`,
      },
    ];
  }
  const t4 = performance.now();
  await writeAllOrNothing(docDir, outputs);
  summary.timings_ms.write = Math.round(performance.now() - t4);
  return {
    docId,
    docDir,
    files: {
      adapted: join(docDir, DOC_FILES.adapted),
      enhanced: join(docDir, DOC_FILES.enhanced),
      tree: join(docDir, DOC_FILES.tree),
      ...(pageReport ? { report: join(docDir, DOC_FILES.report) } : {}),
      ...(opts.copySource ? { source: join(docDir, sourceName) } : {}),
    },
    adapted,
    enhanced,
    tree,
    summary,
    ...(pageReport ? { pageReport } : {}),
  };
}

/** The source file name and sha256 of the content list already in a document folder (read from its first 4 KB), if any. */
async function previousSource(path: string): Promise<{ filename?: string; sha256: string } | undefined> {
  let head: string;
  try {
    const handle = await open(path, 'r');
    try {
      const buffer = Buffer.alloc(4096);
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
      head = buffer.toString('utf8', 0, bytesRead);
    } finally {
      await handle.close();
    }
  } catch {
    return undefined;
  }
  const source = /"source":\{"filename":("(?:[^"\\]|\\.)*"),"kind":"[a-z]+","sha256":"([0-9a-f]{64})"/.exec(head);
  if (!source) return undefined;
  let filename: string | undefined;
  try {
    filename = JSON.parse(source[1]!) as string;
  } catch {
    filename = undefined;
  }
  return { ...(filename !== undefined ? { filename } : {}), sha256: source[2]! };
}

/** Writes every file under a temporary name first, then renames them all; on failure removes what it wrote. */
async function writeAllOrNothing(dir: string, files: Array<[string, string | Uint8Array]>): Promise<void> {
  // Temporaries of an ingest that was killed (its process is gone) would stay forever; those of this run are removed
  // when it ends by a signal.
  await writeFilesAtomically(dir, files, { beforeWrite: removeStaleTempFiles, trackTemporary: trackTempPath });
}
