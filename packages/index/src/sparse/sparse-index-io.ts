import { readFile } from 'node:fs/promises';

import { DocTreeError } from '@doctree/schema';
import type { SparseIndex } from '@doctree/schema';
import { z } from 'zod';

import { writeFileAtomic } from '../io/atomic-write.js';
import { MiniSearchSparseIndex } from './minisearch-sparse-index.js';
import { SPARSE_ANALYZER_VERSION } from './sparse-analyzer.js';
import { SPARSE_INDEX_FORMAT, SPARSE_INDEX_FORMAT_VERSION, sparseIndexFileSchema } from './sparse-index-format.js';
import type { SparseIndexFile } from './sparse-index-format.js';

/** Options of {@link loadSparseIndex}. */
export interface LoadSparseIndexOptions {
  /** File the JSON came from, named in errors. */
  file?: string;
  /**
   * `full` (default) validates the whole file (settings with zod, the MiniSearch part structurally); `fast` checks the
   * header (format, version, analyser version) and trusts the rest, for files a manifest already vouches for. A
   * damaged index then fails while loading or searching, still as `INDEX_CORRUPT`.
   */
  validation?: 'fast' | 'full';
}

function parseJson(text: string, file: string | undefined): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new DocTreeError('INDEX_CORRUPT', `Sparse index is not valid JSON: ${(error as Error).message}`, { ...(file === undefined ? {} : { file }), cause: error });
  }
}

/**
 * Rebuilds a {@link MiniSearchSparseIndex} from its persisted form (`toJSON()`, parsed or as JSON text).
 * Checks the header first, then validates the whole file with zod.
 *
 * @throws DocTreeError `FORMAT_VERSION_UNSUPPORTED` when it is not a `doctree.sparse` version 1 index, or its terms
 * were produced by another analyser version; `INDEX_CORRUPT` when it is not valid JSON or does not match the schema.
 * Both name `options.file`.
 */
export function loadSparseIndex(json: unknown, options: LoadSparseIndexOptions = {}): MiniSearchSparseIndex {
  const { file } = options;
  const where = file === undefined ? {} : { file };
  const raw = typeof json === 'string' ? parseJson(json, file) : json;
  const header = (typeof raw === 'object' && raw !== null ? raw : {}) as { format?: unknown; version?: unknown; analyzer_version?: unknown };
  if (header.format !== SPARSE_INDEX_FORMAT || header.version !== SPARSE_INDEX_FORMAT_VERSION) {
    throw new DocTreeError(
      'FORMAT_VERSION_UNSUPPORTED',
      `Unsupported sparse index: format ${JSON.stringify(header.format)} version ${JSON.stringify(header.version)} ` +
        `(this version reads ${SPARSE_INDEX_FORMAT} version ${SPARSE_INDEX_FORMAT_VERSION})`,
      { ...where, details: { format: header.format, version: header.version } },
    );
  }
  if (header.analyzer_version !== SPARSE_ANALYZER_VERSION) {
    throw new DocTreeError(
      'FORMAT_VERSION_UNSUPPORTED',
      `Sparse index terms were produced by analyser version ${JSON.stringify(header.analyzer_version)}; ` +
        `this version analyses queries with version ${SPARSE_ANALYZER_VERSION}, so they would not match`,
      { ...where, details: { analyzer_version: header.analyzer_version } },
    );
  }
  let data: SparseIndexFile;
  if (options.validation === 'fast') {
    data = raw as SparseIndexFile;
  } else {
    const parsed = sparseIndexFileSchema.safeParse(raw);
    if (!parsed.success) {
      throw new DocTreeError('INDEX_CORRUPT', `Invalid sparse index: ${z.prettifyError(parsed.error)}`, { ...where, cause: parsed.error });
    }
    data = parsed.data;
  }
  try {
    return MiniSearchSparseIndex.fromFile(data, file);
  } catch (error) {
    throw DocTreeError.from(error, 'INDEX_CORRUPT', where);
  }
}

/**
 * Writes `index.toJSON()` to `path` as JSON, atomically (temporary file + rename).
 *
 * @throws DocTreeError `IO_WRITE_FAILED`.
 */
export async function saveSparseIndex(path: string, index: SparseIndex): Promise<void> {
  await writeFileAtomic(path, JSON.stringify(index.toJSON()));
}

/**
 * Reads a sparse index written by {@link saveSparseIndex}.
 *
 * @throws DocTreeError `INDEX_MISSING` when the file does not exist, else as {@link loadSparseIndex}.
 */
export async function readSparseIndex(path: string): Promise<MiniSearchSparseIndex> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new DocTreeError('INDEX_MISSING', `Sparse index file not found: ${path}`, { file: path, cause: error });
    }
    throw new DocTreeError('INDEX_CORRUPT', `Cannot read sparse index file: ${(error as Error).message}`, { file: path, cause: error });
  }
  return loadSparseIndex(text, { file: path });
}
