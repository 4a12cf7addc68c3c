import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { DocTreeError } from '@doctree/schema';
import type { OutlineEntry } from '@doctree/schema';
import { ensurePdfRuntime, ingestPdfjs, unpdfNodeDefaults } from './pdf-runtime.js';

/**
 * Opening PDFs through unpdf (pdf.js) with every failure mapped to a {@link DocTreeError}:
 * not a PDF, corrupt, encrypted, wrong password, no pages.
 */

/** The pdf.js document proxy unpdf returns. */
export type PdfDocumentProxy = Awaited<ReturnType<(typeof import('unpdf'))['getDocumentProxy']>>;

/** Options of {@link openPdfDocument}. */
export interface OpenPdfOptions {
  /** File name as given by the user; named in every error. */
  filename: string;
  /** Password of an encrypted PDF. */
  password?: string;
  /** Most pixels of one image pdf.js decodes (its `maxImageSize`); larger images are skipped. Default: no cap. */
  maxImagePixels?: number;
}

/** How far into the file the `%PDF-` header may start (the PDF spec tolerates leading bytes). */
const HEADER_SEARCH_BYTES = 1024;
/** Most outline entries read; guards against pathological bookmark trees. */
const MAX_OUTLINE_ENTRIES = 5000;
/** pdf.js `VerbosityLevel.ERRORS`: keeps its warnings off the user's console. */
const PDFJS_VERBOSITY_ERRORS = 0;

/** True when the bytes carry a `%PDF-` header within the first kilobyte. */
export function hasPdfHeader(bytes: Uint8Array): boolean {
  const limit = Math.min(bytes.length - 5, HEADER_SEARCH_BYTES);
  for (let i = 0; i <= limit; i++) {
    if (bytes[i] === 0x25 && bytes[i + 1] === 0x50 && bytes[i + 2] === 0x44 && bytes[i + 3] === 0x46 && bytes[i + 4] === 0x2d) {
      return true;
    }
  }
  return false;
}

/** Maps anything pdf.js throws while opening a document to a DocTreeError naming the file. */
export function pdfOpenError(error: unknown, filename: string, hadPassword: boolean): DocTreeError {
  if (DocTreeError.isInstance(error)) return error;
  const name = typeof error === 'object' && error !== null ? String((error as { name?: unknown }).name ?? '') : '';
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  const reason = error instanceof Error ? error.message : String(error);
  if (name === 'PasswordException') {
    // pdf.js PasswordResponses: 1 NEED_PASSWORD, 2 INCORRECT_PASSWORD.
    if (code === 2 || (code !== 1 && hadPassword)) {
      return new DocTreeError('PDF_PASSWORD_INCORRECT', `The password given does not open ${filename}`, { file: filename, cause: error });
    }
    return new DocTreeError('PDF_ENCRYPTED', `${filename} is encrypted and needs a password`, { file: filename, cause: error });
  }
  return new DocTreeError('PDF_CORRUPT', `${filename} is not a readable PDF (${reason})`, { file: filename, cause: error });
}

/** An open PDF; call {@link OpenPdf.close} when done (also after errors). */
export interface OpenPdf {
  /** The pdf.js proxy, for callers that need more than text (images, rendering). */
  readonly proxy: PdfDocumentProxy;
  /** Number of pages (at least 1). */
  readonly pageCount: number;
  /** Releases pdf.js resources; safe to call twice. */
  close(): Promise<void>;
}

/**
 * Opens PDF bytes with unpdf. The bytes are copied into a plain `Uint8Array` (pdf.js detaches the
 * buffer it is given and refuses Node `Buffer`s), so `await readFile(path)` can be passed as is.
 *
 * @throws DocTreeError `INPUT_UNSUPPORTED` (no `%PDF-` header), `PDF_CORRUPT`, `PDF_ENCRYPTED`,
 * `PDF_PASSWORD_INCORRECT` or `PDF_NO_PAGES`, each with `file` set to `options.filename`.
 */
export async function openPdfDocument(bytes: Uint8Array, options: OpenPdfOptions): Promise<OpenPdf> {
  const { filename, password } = options;
  if (!hasPdfHeader(bytes)) {
    throw new DocTreeError('INPUT_UNSUPPORTED', `${filename} is not a PDF (no %PDF- header)`, {
      file: filename,
      hint: 'Give a .pdf file, a MinerU content_list.json or a Markdown file.',
    });
  }
  ensurePdfRuntime();
  const pdfjs = await ingestPdfjs();
  let proxy: PdfDocumentProxy;
  try {
    // What unpdf's getDocumentProxy passes, with DocTree's own pdf.js. A plain copy: pdf.js detaches the buffer it is
    // given and rejects Node Buffers.
    proxy = (await pdfjs.getDocument({
      data: new Uint8Array(bytes),
      useSystemFonts: true,
      ...unpdfNodeDefaults(),
      verbosity: PDFJS_VERBOSITY_ERRORS,
      ...(password !== undefined ? { password } : {}),
      ...(options.maxImagePixels !== undefined ? { maxImageSize: options.maxImagePixels } : {}),
    }).promise) as PdfDocumentProxy;
  } catch (error) {
    throw pdfOpenError(error, filename, password !== undefined);
  }
  let closed = false;
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    try {
      await proxy.loadingTask.destroy();
    } catch {
      // Nothing useful to do when tearing down fails.
    }
  };
  if (proxy.numPages < 1) {
    await close();
    throw new DocTreeError('PDF_NO_PAGES', `${filename} has no pages`, { file: filename });
  }
  return { proxy, pageCount: proxy.numPages, close };
}

interface RawOutlineItem {
  title?: unknown;
  dest?: unknown;
  items?: unknown;
}

/** Resolves an outline destination (named or explicit) to a 0-based page index; undefined when unknown. */
async function destinationPage(proxy: PdfDocumentProxy, dest: unknown): Promise<number | undefined> {
  try {
    const explicit = typeof dest === 'string' ? await proxy.getDestination(dest) : dest;
    if (!Array.isArray(explicit) || explicit.length === 0) return undefined;
    const target: unknown = explicit[0];
    if (typeof target === 'number' && Number.isInteger(target) && target >= 0 && target < proxy.numPages) return target;
    if (typeof target === 'object' && target !== null && 'num' in target) {
      const index = await proxy.getPageIndex(target as Parameters<PdfDocumentProxy['getPageIndex']>[0]);
      return Number.isInteger(index) && index >= 0 ? index : undefined;
    }
  } catch {
    // A broken destination only loses the page of one bookmark.
  }
  return undefined;
}

/** Reads the PDF outline (bookmarks) as a flat, document-ordered list with 1-based levels. Never throws. */
export async function readPdfOutline(proxy: PdfDocumentProxy): Promise<OutlineEntry[]> {
  let roots: unknown;
  try {
    roots = await proxy.getOutline();
  } catch {
    return [];
  }
  const entries: OutlineEntry[] = [];
  const walk = async (items: unknown, level: number): Promise<void> => {
    if (!Array.isArray(items)) return;
    for (const item of items as RawOutlineItem[]) {
      if (entries.length >= MAX_OUTLINE_ENTRIES) return;
      const title = typeof item.title === 'string' ? item.title.replace(/\s+/g, ' ').trim() : '';
      if (title) {
        const pageIdx = await destinationPage(proxy, item.dest);
        entries.push({ title, level, ...(pageIdx !== undefined ? { page_idx: pageIdx } : {}) });
      }
      await walk(item.items, level + 1);
    }
  };
  await walk(roots, 1);
  return entries;
}

/** Reads the page labels (e.g. `iv`, `F-3`); undefined when the PDF defines none. Never throws. */
export async function readPdfPageLabels(proxy: PdfDocumentProxy): Promise<Array<string | undefined> | undefined> {
  try {
    const labels = await proxy.getPageLabels();
    if (!labels) return undefined;
    return labels.map((label) => (typeof label === 'string' && label.trim() ? label.trim() : undefined));
  } catch {
    return undefined;
  }
}

/** True when an executable named `name` is on PATH (a `which` without spawning a process). */
export function isOnPath(name: string, path: string | undefined = process.env['PATH']): boolean {
  return locateOnPath(name, path) !== undefined;
}

/** The full path of the first executable named `name` on PATH (a `which` without spawning a process), or undefined. */
export function locateOnPath(name: string, path: string | undefined = process.env['PATH']): string | undefined {
  if (!path) return undefined;
  const suffixes = process.platform === 'win32' ? ['.exe', '.cmd', '.bat', ''] : [''];
  for (const dir of path.split(delimiter)) {
    if (!dir) continue;
    for (const suffix of suffixes) {
      const candidate = join(dir, name + suffix);
      try {
        accessSync(candidate, constants.X_OK);
        return candidate;
      } catch {
        // not here
      }
    }
  }
  return undefined;
}
