import { z } from 'zod';

/**
 * Resource limits of ingestion as configuration (`ingest.limits` in `doctree.config.json`). Each has a safe default;
 * hitting one is reported (a warning in the ingest summary, or a one-line `DocTreeError` naming the key to raise).
 * `docs/reliability.md` lists every limit with the spec that tests it.
 */

/** Defaults of {@link IngestLimitsConfigSchema}, shared with `@doctree/ingest` (`DEFAULT_INGEST_LIMITS`). */
export const INGEST_LIMIT_DEFAULTS = Object.freeze({
  /** Most pages of one document. */
  max_pages: 5_000,
  /** Most pages without a text layer OCRed in one document; the rest stay empty with an `OCR_CAPPED` warning. */
  max_ocr_pages: 500,
  /** Most bytes one Flate stream of a PDF may decode to (256 MiB); a larger one refuses the PDF. */
  max_stream_bytes: 256 * 1024 ** 2,
  /**
   * Most bytes all Flate streams of a PDF may decode to, as a multiple of the file size (beyond a free 256 MiB): a
   * decompression bomb expands ~1 000×, ordinary PDFs 2–20×.
   */
  max_decoded_ratio: 100,
  /** Most pixels (width × height) of one page image decoded (64 Mpx ≈ 256 MB as RGBA); larger ones are skipped with a warning. */
  max_image_pixels: 64_000_000,
});

/** `ingest.limits`: resource limits of ingestion (see {@link INGEST_LIMIT_DEFAULTS}). */
export const IngestLimitsConfigSchema = z.object({
  max_pages: z.number().int().positive().default(INGEST_LIMIT_DEFAULTS.max_pages),
  /** Most bytes of one input file; null keeps the default of its kind (PDF 2 GiB, JSON and Markdown 512 MiB). */
  max_input_bytes: z.number().int().positive().nullable().default(null),
  max_ocr_pages: z.number().int().nonnegative().default(INGEST_LIMIT_DEFAULTS.max_ocr_pages),
  max_stream_bytes: z.number().int().positive().default(INGEST_LIMIT_DEFAULTS.max_stream_bytes),
  max_decoded_ratio: z.number().positive().default(INGEST_LIMIT_DEFAULTS.max_decoded_ratio),
  max_image_pixels: z.number().int().positive().default(INGEST_LIMIT_DEFAULTS.max_image_pixels),
});
export type IngestLimitsConfig = z.infer<typeof IngestLimitsConfigSchema>;

/** Defaults of {@link IngestOcrConfigSchema}, shared with `@doctree/ingest`. */
export const INGEST_OCR_DEFAULTS = Object.freeze({
  /** OCR pages without a text layer when `tesseract` and `pdftoppm` are on PATH. */
  enabled: true,
  /** Tesseract language(s), `+`-joined (`eng`, `deu`, `eng+fra`); each needs its data (Debian `tesseract-ocr-<lang>`). */
  language: 'eng',
  /**
   * Resolution pages are rendered at for OCR. Lower is faster and reads fewer words: on 53 text-layer pages rasterised
   * at 96 dpi (slide-deck quality), 144 dpi took 16 % less CPU than 200 and found 0.5 pp fewer of the text layer's
   * words (93.8 vs 94.3 %), 120 dpi 28 % less and 2.5 pp fewer, 96 dpi 39 % less and 14 pp fewer
   * (`tools/bench/ingest/bench-ocr-resolution.mjs`).
   */
  dpi: 200,
});

/**
 * Tesseract language names joined by `+` (`eng`, `chi_sim`, `eng+deu`): letters, digits and `_` only, so a configured
 * value can never name a path or another option.
 */
export const OCR_LANGUAGE_PATTERN = /^[A-Za-z][A-Za-z0-9_]*(\+[A-Za-z][A-Za-z0-9_]*)*$/;

/** Lowest and highest OCR resolution accepted (dpi), for `ingest.ocr.dpi` and `ocrDpi` of `@doctree/ingest`. */
export const OCR_DPI_RANGE = Object.freeze({ min: 72, max: 600 });

/** `ingest.ocr`: OCR of pages without a text layer (see {@link INGEST_OCR_DEFAULTS}). */
export const IngestOcrConfigSchema = z.object({
  enabled: z.boolean().default(INGEST_OCR_DEFAULTS.enabled),
  language: z.string().regex(OCR_LANGUAGE_PATTERN, 'tesseract language names joined by "+", e.g. "eng" or "eng+deu"').default(INGEST_OCR_DEFAULTS.language),
  dpi: z.number().int().min(OCR_DPI_RANGE.min).max(OCR_DPI_RANGE.max).default(INGEST_OCR_DEFAULTS.dpi),
});
export type IngestOcrConfig = z.infer<typeof IngestOcrConfigSchema>;

/** `ingest`: settings of ingestion. */
export const IngestConfigSchema = z.object({
  limits: IngestLimitsConfigSchema.default(IngestLimitsConfigSchema.parse({})),
  ocr: IngestOcrConfigSchema.default(IngestOcrConfigSchema.parse({})),
});
export type IngestConfig = z.infer<typeof IngestConfigSchema>;
