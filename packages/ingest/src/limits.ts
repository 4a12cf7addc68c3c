/**
 * Resource limits of ingestion, each with a safe default and an option to raise it (see `docs/reliability.md`).
 */

/** Default most pages of one document: `maxPages` of `ingestFile`, `adaptMinerU` and `buildDocTree`. */
export const DEFAULT_MAX_PAGES = 5_000;

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
