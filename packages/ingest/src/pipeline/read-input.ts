import { constants } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { DocTreeError } from '@doctree/schema';

/** Options of {@link readInputFile}. */
export interface ReadInputFileOptions {
  /** Most bytes the file may have; larger is refused before it is read. */
  maxBytes: number | ((head: Uint8Array) => number);
  /** What the limit is called in the hint (the option a user raises). Default `maxInputBytes`. */
  limitName?: string;
  /** Bytes read first and given to `maxBytes` when it is a function (to tell the kind of file). Default 1024. */
  headBytes?: number;
}

function kindOf(info: Stats): string {
  if (info.isDirectory()) return 'a folder';
  if (info.isFIFO()) return 'a fifo (named pipe)';
  if (info.isCharacterDevice()) return 'a character device';
  if (info.isBlockDevice()) return 'a block device';
  if (info.isSocket()) return 'a socket';
  return 'not a regular file';
}

function ioError(error: unknown, path: string): DocTreeError {
  if (DocTreeError.isInstance(error)) return error;
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return new DocTreeError('INPUT_NOT_FOUND', 'no such file', { file: path, cause: error });
  return new DocTreeError('INPUT_UNREADABLE', `cannot read the file (${code ?? 'error'})`, { file: path, cause: error });
}

function notRegular(path: string, info: Stats): DocTreeError {
  return new DocTreeError('INPUT_UNSUPPORTED', `expected a regular file, got ${kindOf(info)}`, {
    file: path,
    hint: 'Give a PDF, Markdown or content_list.json file (symbolic links are followed; pipes and devices are not read).',
  });
}

const formatBytes = (n: number): string => (n >= 1024 ** 3 ? `${(n / 1024 ** 3).toFixed(1)} GiB` : n >= 1024 ** 2 ? `${(n / 1024 ** 2).toFixed(1)} MiB` : `${n} bytes`);

/**
 * Reads a whole input file, refusing anything but a regular file (after following symbolic links: a link to
 * `/dev/zero`, a fifo, a socket or a folder is `INPUT_UNSUPPORTED` without reading a byte) and any file larger than
 * `maxBytes` (`INPUT_UNSUPPORTED` with a hint naming the limit). The file is opened non-blocking and checked again on
 * the open handle, so a file swapped for a pipe between the two checks is refused too; at most the size seen there
 * is read.
 *
 * @throws DocTreeError `INPUT_NOT_FOUND`, `INPUT_UNREADABLE`, `INPUT_UNSUPPORTED` naming the file.
 */
export async function readInputFile(path: string, options: ReadInputFileOptions): Promise<Uint8Array> {
  const limitName = options.limitName ?? 'maxInputBytes';
  let info: Stats;
  try {
    info = await stat(path);
  } catch (error) {
    throw ioError(error, path);
  }
  if (!info.isFile()) throw notRegular(path, info);
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    // O_NONBLOCK: opening a fifo put in place after the check above must not wait for a writer.
    handle = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    throw ioError(error, path);
  }
  try {
    const opened = await handle.stat();
    if (!opened.isFile()) throw notRegular(path, opened);
    const size = opened.size;
    const headLength = Math.min(size, options.headBytes ?? 1024);
    const head = new Uint8Array(headLength);
    const { bytesRead: headRead } = await handle.read(head, 0, headLength, 0);
    const maxBytes = typeof options.maxBytes === 'function' ? options.maxBytes(head.subarray(0, headRead)) : options.maxBytes;
    if (size > maxBytes) {
      throw new DocTreeError('INPUT_UNSUPPORTED', `the file has ${formatBytes(size)}, more than the limit of ${formatBytes(maxBytes)}`, {
        file: path,
        hint: `Raise ${limitName} if the file really is that large.`,
        details: { bytes: size, max_bytes: maxBytes },
      });
    }
    const bytes = new Uint8Array(size);
    bytes.set(head.subarray(0, headRead));
    let offset = headRead;
    while (offset < size) {
      const { bytesRead } = await handle.read(bytes, offset, size - offset, offset);
      if (bytesRead === 0) break; // the file shrank while it was read
      offset += bytesRead;
    }
    return offset === size ? bytes : bytes.subarray(0, offset);
  } catch (error) {
    throw ioError(error, path);
  } finally {
    await handle.close().catch(() => undefined);
  }
}
