import { INGEST_LIMIT_DEFAULTS } from '@doctree/schema';
import type { IngestConfig, IngestLimitsConfig, IngestOcrConfig } from '@doctree/schema';

/**
 * Resource limits of ingestion, each with a safe default and an option to raise it (see `docs/reliability.md`).
 */

/** Default most pages of one document: `maxPages` of `ingestFile`, `adaptMinerU` and `buildDocTree`. */
export const DEFAULT_MAX_PAGES = INGEST_LIMIT_DEFAULTS.max_pages;

/** Input kinds with their own default size cap. */
export type InputSizeKind = 'pdf' | 'mineru' | 'markdown';

/**
 * Default most bytes of one input file by kind (`maxInputBytes` of `ingestFile`): 2 GiB for a PDF (scanned filings of
 * a few hundred MB exist; pdf.js holds the whole file in memory), 512 MiB for a MinerU `content_list.json` / `middle.json`
 * or a Markdown file (text parsed whole into JSON / a string, which takes several times its size in memory).
 */
export const DEFAULT_MAX_INPUT_BYTES: Readonly<Record<InputSizeKind, number>> = Object.freeze({
  pdf: 2 * 1024 ** 3,
  mineru: 512 * 1024 ** 2,
  markdown: 512 * 1024 ** 2,
});

/** Default most pages without a text layer OCRed in one document (`maxOcrPages`); the rest stay empty with `OCR_CAPPED`. */
export const DEFAULT_MAX_OCR_PAGES = INGEST_LIMIT_DEFAULTS.max_ocr_pages;

/** Default most bytes one Flate stream of a PDF may decode to (`maxStreamBytes`, 256 MiB). */
export const DEFAULT_MAX_STREAM_BYTES = INGEST_LIMIT_DEFAULTS.max_stream_bytes;

/**
 * Default most bytes all Flate streams of a PDF may decode to, as a multiple of the file size (`maxDecodedRatio`), once
 * past {@link DECODED_BYTES_ALLOWANCE}.
 */
export const DEFAULT_MAX_DECODED_RATIO = INGEST_LIMIT_DEFAULTS.max_decoded_ratio;

/** Decoded bytes a PDF may always reach whatever its size (256 MiB): small PDFs with ordinary compression stay well below. */
export const DECODED_BYTES_ALLOWANCE = 256 * 1024 ** 2;

/** Default most pixels of one page image pdf.js decodes (`maxImagePixels`); larger images are skipped with a warning. */
export const DEFAULT_MAX_IMAGE_PIXELS = INGEST_LIMIT_DEFAULTS.max_image_pixels;

/** The resource limits of one ingest, as options (each optional; defaults above). */
export interface IngestLimitOptions {
  /** Most pages of the document (default {@link DEFAULT_MAX_PAGES}). */
  maxPages?: number;
  /** Most bytes of the input file (default by kind, {@link DEFAULT_MAX_INPUT_BYTES}). */
  maxInputBytes?: number;
  /** Most pages OCRed (default {@link DEFAULT_MAX_OCR_PAGES}; 0 turns OCR off). */
  maxOcrPages?: number;
  /** Most bytes one PDF stream decodes to (default {@link DEFAULT_MAX_STREAM_BYTES}). */
  maxStreamBytes?: number;
  /** Most decoded bytes of all PDF streams as a multiple of the file size (default {@link DEFAULT_MAX_DECODED_RATIO}). */
  maxDecodedRatio?: number;
  /** Most pixels of one page image (default {@link DEFAULT_MAX_IMAGE_PIXELS}). */
  maxImagePixels?: number;
}

/**
 * The limit options of `ingestFile` / `ingestFiles` from the `ingest.limits` section of a resolved configuration.
 *
 * @example
 * ```ts
 * const { config } = resolveConfig({ file });
 * await ingestFile('a.pdf', { outDir: 'data/x', ...ingestLimitsFromConfig(config.ingest.limits) });
 * ```
 */
export function ingestLimitsFromConfig(limits: IngestLimitsConfig): IngestLimitOptions {
  return {
    maxPages: limits.max_pages,
    ...(limits.max_input_bytes !== null ? { maxInputBytes: limits.max_input_bytes } : {}),
    maxOcrPages: limits.max_ocr_pages,
    maxStreamBytes: limits.max_stream_bytes,
    maxDecodedRatio: limits.max_decoded_ratio,
    maxImagePixels: limits.max_image_pixels,
  };
}

/** How pages without a text layer are OCRed (`ingest.ocr` of the configuration; defaults `INGEST_OCR_DEFAULTS`). */
export interface IngestOcrOptions {
  /** OCR pages without a text layer when `tesseract` and `pdftoppm` are on PATH (default true). */
  ocr?: boolean;
  /** Tesseract language(s), e.g. `eng` or `eng+deu` (default `eng`); each needs its data (`tesseract-ocr-<lang>`). */
  ocrLanguage?: string;
  /** Resolution pages are rendered at for OCR, 72–600 dpi (default 200): lower is faster and reads fewer words. */
  ocrDpi?: number;
}

/** The OCR options of `ingestFile` / `ingestFiles` from the `ingest.ocr` section of a resolved configuration. */
export function ingestOcrFromConfig(ocr: IngestOcrConfig): IngestOcrOptions {
  return { ocr: ocr.enabled, ocrLanguage: ocr.language, ocrDpi: ocr.dpi };
}

/**
 * Every option of `ingestFile` / `ingestFiles` the configuration's `ingest` section sets: the resource limits
 * ({@link ingestLimitsFromConfig}) and OCR ({@link ingestOcrFromConfig}).
 *
 * @example
 * ```ts
 * const { config } = resolveConfig({ file: { ingest: { ocr: { language: 'eng+deu' } } } });
 * await ingestFile('scan.pdf', { outDir: 'data/x', ...ingestOptionsFromConfig(config.ingest) });
 * ```
 */
export function ingestOptionsFromConfig(ingest: IngestConfig): IngestLimitOptions & IngestOcrOptions {
  return { ...ingestLimitsFromConfig(ingest.limits), ...ingestOcrFromConfig(ingest.ocr) };
}
