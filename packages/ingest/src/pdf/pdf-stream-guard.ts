import { constants, createInflate, inflateSync } from 'node:zlib';
import { DocTreeError } from '@doctree/schema';
import { DECODED_BYTES_ALLOWANCE, DEFAULT_MAX_DECODED_RATIO, DEFAULT_MAX_IMAGE_PIXELS, DEFAULT_MAX_STREAM_BYTES } from '../limits.js';

/**
 * A guard against decompression bombs, run before pdf.js sees a PDF: every `FlateDecode` stream is inflated once with
 * its output capped and counted, not kept (past 8 MiB chunk by chunk), so a 1 MB file whose streams expand to gigabytes is refused in bounded time and
 * memory instead of being expanded by pdf.js. Image dictionaries larger than the pixel cap are counted (pdf.js is told
 * to skip them, see `maxImageSize`). Streams of an encrypted PDF cannot be inflated before decryption and are not
 * checked (their images still obey the pixel cap).
 */

/** Options of {@link scanPdfStreams}. */
export interface ScanPdfStreamsOptions {
  /** File name as given by the user (named in errors). */
  filename: string;
  /** Most bytes one stream may decode to. Default {@link DEFAULT_MAX_STREAM_BYTES}. */
  maxStreamBytes?: number;
  /** Most decoded bytes of all streams as a multiple of the file size, past {@link DECODED_BYTES_ALLOWANCE}. Default 100. */
  maxDecodedRatio?: number;
  /** Most pixels of one image. Default {@link DEFAULT_MAX_IMAGE_PIXELS}. */
  maxImagePixels?: number;
  /** Decoded bytes always allowed, whatever the ratio. Default {@link DECODED_BYTES_ALLOWANCE} (256 MiB). */
  decodedBytesAllowance?: number;
}

/** What {@link scanPdfStreams} found. */
export interface PdfStreamScan {
  /** Streams seen. */
  streams: number;
  /** `FlateDecode` streams inflated. */
  flateStreams: number;
  /** Bytes those streams decode to. */
  decodedBytes: number;
  /** Images over the pixel cap (pdf.js skips them): their width and height. */
  largeImages: Array<{ width: number; height: number }>;
}

const STREAM = Buffer.from('stream', 'latin1');
const ENDSTREAM = Buffer.from('endstream', 'latin1');
/** How far before `stream` its dictionary is looked for. */
const DICT_WINDOW = 2048;

const FLATE_FIRST = /\/Filter\s*(?:\[\s*)?\/(?:FlateDecode|Fl)\b/;
const IMAGE = /\/Subtype\s*\/Image\b/;
/** The pattern of a direct number value of each key (`/Length 1234`, not `/Length 12 0 R`), compiled once. */
const DIRECT_VALUE = new Map<string, RegExp>();
const direct = (dict: string, key: string): number | undefined => {
  let pattern = DIRECT_VALUE.get(key);
  if (!pattern) {
    pattern = new RegExp(`/${key}\\s+(\\d{1,12})(?!\\s+\\d+\\s+R)(?![\\d.])`);
    DIRECT_VALUE.set(key, pattern);
  }
  const match = pattern.exec(dict);
  return match ? Number(match[1]) : undefined;
};

/** Output of one synchronous inflate; a stream decoding to more is counted by {@link streamedInflatedSize} instead. */
const SYNC_INFLATE_BYTES = 8 * 1024 ** 2;

/** Bytes `data` inflates to, stopping past `cap` (then `cap + 1`), without holding the output; undefined when unreadable. */
function streamedInflatedSize(data: Buffer, cap: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const inflate = createInflate({ finishFlush: constants.Z_SYNC_FLUSH });
    let size = 0;
    let settled = false;
    const settle = (value: number | undefined): void => {
      if (settled) return;
      settled = true;
      inflate.destroy();
      resolve(value);
    };
    inflate.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > cap) settle(cap + 1);
    });
    inflate.on('end', () => settle(size));
    inflate.on('error', () => settle(size > 0 ? size : undefined));
    inflate.end(data);
  });
}

/**
 * Bytes `data` inflates to, stopping past `cap` (then `cap + 1`); undefined when it is not a readable zlib stream.
 * Small streams are inflated at once; a stream decoding to more than 8 MiB is counted chunk by chunk (memory stays
 * at a chunk whatever it expands to).
 */
async function inflatedSize(data: Buffer, cap: number): Promise<number | undefined> {
  try {
    return inflateSync(data, { maxOutputLength: Math.min(cap, SYNC_INFLATE_BYTES) + 1, finishFlush: constants.Z_SYNC_FLUSH }).length;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' || error instanceof RangeError) {
      return cap <= SYNC_INFLATE_BYTES ? cap + 1 : streamedInflatedSize(data, cap);
    }
    return undefined;
  }
}

/**
 * Scans the streams of a PDF before it is parsed: inflates each `FlateDecode` stream with its output capped and
 * notes images beyond the pixel cap.
 *
 * @throws DocTreeError `INPUT_UNSUPPORTED` naming the file when one stream decodes to more than `maxStreamBytes`, or
 * all of them to more than `maxDecodedRatio` × the file size (and more than 256 MiB); the hint names the setting.
 */
export async function scanPdfStreams(bytes: Uint8Array, options: ScanPdfStreamsOptions): Promise<PdfStreamScan> {
  const maxStream = options.maxStreamBytes ?? DEFAULT_MAX_STREAM_BYTES;
  const ratio = options.maxDecodedRatio ?? DEFAULT_MAX_DECODED_RATIO;
  const maxPixels = options.maxImagePixels ?? DEFAULT_MAX_IMAGE_PIXELS;
  const maxTotal = Math.max(options.decodedBytesAllowance ?? DECODED_BYTES_ALLOWANCE, ratio * bytes.byteLength);
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const scan: PdfStreamScan = { streams: 0, flateStreams: 0, decodedBytes: 0, largeImages: [] };
  const refuse = (message: string, hint: string): never => {
    throw new DocTreeError('INPUT_UNSUPPORTED', `${message}; refused as a likely decompression bomb`, { file: options.filename, hint });
  };
  for (let at = buf.indexOf(STREAM); at >= 0; at = buf.indexOf(STREAM, at + STREAM.length)) {
    // `endstream` ends with `stream` too.
    if (at >= 3 && buf.toString('latin1', at - 3, at) === 'end') continue;
    let start = at + STREAM.length;
    if (buf[start] === 0x0d) start++;
    if (buf[start] !== 0x0a && buf[start - 1] !== 0x0d) continue;
    if (buf[start] === 0x0a) start++;
    const windowText = buf.toString('latin1', Math.max(0, at - DICT_WINDOW), at);
    const objAt = windowText.lastIndexOf('obj');
    const dict = objAt >= 0 ? windowText.slice(objAt) : windowText;
    if (!dict.includes('<<')) continue;
    scan.streams++;
    const length = direct(dict, 'Length');
    let end = length !== undefined && start + length <= buf.length ? start + length : buf.indexOf(ENDSTREAM, start);
    if (end < 0) end = buf.length;
    if (IMAGE.test(dict)) {
      const width = direct(dict, 'Width') ?? direct(dict, 'W');
      const height = direct(dict, 'Height') ?? direct(dict, 'H');
      if (width !== undefined && height !== undefined && width * height > maxPixels) scan.largeImages.push({ width, height });
    }
    if (FLATE_FIRST.test(dict)) {
      const size = await inflatedSize(buf.subarray(start, end), maxStream);
      if (size !== undefined) {
        scan.flateStreams++;
        if (size > maxStream) {
          refuse(`a stream of the PDF decodes to more than ${maxStream} bytes`, `Raise ingest.limits.max_stream_bytes (maxStreamBytes) in doctree.config.json if the file is trusted.`);
        }
        scan.decodedBytes += size;
        if (scan.decodedBytes > maxTotal) {
          refuse(`the streams of the PDF decode to more than ${Math.round(maxTotal)} bytes (${ratio}× the file size)`, `Raise ingest.limits.max_decoded_ratio (maxDecodedRatio) in doctree.config.json if the file is trusted.`);
        }
      }
    }
    // Continue after this stream's data (never before `at`, so the scan is linear).
    at = Math.max(at, end - STREAM.length);
  }
  return scan;
}
