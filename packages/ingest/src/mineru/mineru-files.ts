import { createHash } from 'node:crypto';
import { access } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { DocTreeError } from '@doctree/schema';
import { DEFAULT_MAX_INPUT_BYTES } from '../limits.js';
import { readInputFile } from '../pipeline/read-input.js';
import type { MinerUInput } from './mineru-adapter.js';

/** MinerU files read from disk, ready for {@link adaptMinerU} plus the source facts its options need. */
export interface LoadedMinerUFiles {
  /** Parsed `content_list.json` and, when found, `middle.json`. */
  input: MinerUInput;
  /** Base name of the content list file (for `options.filename`). */
  filename: string;
  /** Base name of the middle file that was read, if any (for `options.middleFilename`). */
  middleFilename?: string;
  /** Lowercase hex sha256 of the content list bytes. */
  sha256: string;
  /** Size of the content list in bytes. */
  bytes: number;
}

function ioError(error: unknown, path: string): DocTreeError {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const file = basename(path);
  if (code === 'ENOENT') return new DocTreeError('INPUT_NOT_FOUND', `${path} does not exist`, { file, cause: error });
  return new DocTreeError('INPUT_UNREADABLE', `${path} could not be read: ${error instanceof Error ? error.message : String(error)}`, { file, cause: error });
}

async function readJson(path: string): Promise<{ value: unknown; bytes: Buffer }> {
  let bytes: Buffer;
  try {
    // Regular files only (not a fifo or a link to /dev/zero), at most 512 MiB.
    const read = await readInputFile(path, { maxBytes: DEFAULT_MAX_INPUT_BYTES.mineru });
    bytes = Buffer.from(read.buffer, read.byteOffset, read.byteLength);
  } catch (error) {
    if (DocTreeError.isInstance(error) && error.code === 'INPUT_UNSUPPORTED') throw error;
    throw ioError(DocTreeError.isInstance(error) ? (error.cause ?? error) : error, path);
  }
  try {
    return { value: JSON.parse(bytes.toString('utf8').replace(/^\uFEFF/, '')) as unknown, bytes };
  } catch (error) {
    throw new DocTreeError('MINERU_INVALID', `${basename(path)} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`, {
      file: basename(path),
      cause: error,
    });
  }
}

/** The `<name>_middle.json` MinerU writes next to `<name>_content_list.json`, when it exists. */
async function siblingMiddle(contentListPath: string): Promise<string | undefined> {
  const name = basename(contentListPath);
  const m = /^(.*?)_?content_list\.json$/i.exec(name);
  if (!m) return undefined;
  for (const candidate of [`${m[1]}_middle.json`, 'middle.json']) {
    const path = join(dirname(contentListPath), candidate);
    try {
      await access(path);
      return path;
    } catch {
      // not there; try the next name
    }
  }
  return undefined;
}

/**
 * Reads MinerU output from disk: the content list, and `middle.json` from `middlePath` or, when that is
 * omitted, the `<name>_middle.json` (or `middle.json`) next to `<name>_content_list.json`. Hashes the content
 * list bytes for the `source` record. Validation of the content happens in {@link adaptMinerU}.
 *
 * @throws DocTreeError `INPUT_NOT_FOUND` / `INPUT_UNREADABLE` for unreadable files, `MINERU_INVALID` for
 * files that are not JSON.
 *
 * @example
 * ```ts
 * const files = await loadMinerUFiles('out/paper/auto/paper_content_list.json');
 * const list = adaptMinerU(files.input, { docId: 'paper', filename: files.filename, sha256: files.sha256, bytes: files.bytes });
 * ```
 */
export async function loadMinerUFiles(contentListPath: string, middlePath?: string): Promise<LoadedMinerUFiles> {
  const content = await readJson(contentListPath);
  const middleFile = middlePath ?? (await siblingMiddle(contentListPath));
  const middle = middleFile !== undefined ? await readJson(middleFile) : undefined;
  return {
    input: { contentList: content.value, ...(middle ? { middle: middle.value } : {}) },
    filename: basename(contentListPath),
    ...(middleFile !== undefined ? { middleFilename: basename(middleFile) } : {}),
    sha256: createHash('sha256').update(content.bytes).digest('hex'),
    bytes: content.bytes.byteLength,
  };
}
