import { readFile } from 'node:fs/promises';

import { DocTreeError } from '@doctree/schema';
import { z } from 'zod';

import { writeFileAtomic } from '../io/atomic-write.js';

/** `format` of the compact word-vector cache written by the SIF embedder. */
export const WORD_VECTORS_FORMAT = 'doctree.word-vectors';
/** Current version of {@link WORD_VECTORS_FORMAT}. */
export const WORD_VECTORS_FORMAT_VERSION = 1;
const MAGIC = 'DTWV';
// Bound once: global lookups in hot loops are ~20x slower inside jest's vm context.
const { abs, round } = Math;
const { isFinite } = Number;

/** Header of a word-vector cache file. */
export const wordVectorsMetaSchema = z.object({
  format: z.literal(WORD_VECTORS_FORMAT),
  version: z.number().int(),
  /** The package the vectors were converted from. */
  source: z.object({ package: z.string().min(1), version: z.string().min(1) }),
  dimension: z.number().int().positive(),
  /** Number of words (rows). */
  size: z.number().int().nonnegative(),
  /** Row `i` holds `round(v / scale_i)` as int8 with `scale_i = max|v| / 127`. */
  quantization: z.literal('int8-row-scale'),
  /** Byte length of the vocabulary block (UTF-8 words joined by `\n`, in row order = frequency rank). */
  vocab_bytes: z.number().int().nonnegative(),
});
/** Header of a word-vector cache file. */
export type WordVectorsMeta = z.infer<typeof wordVectorsMetaSchema>;

/** Word vectors as held in memory: int8 rows with a float scale per row, rows in frequency order. */
export interface WordVectors {
  /** Header of the file they came from (or will be written to). */
  readonly meta: WordVectorsMeta;
  /** Words; row `i` is the word of frequency rank `i` (0 = most frequent). */
  readonly words: readonly string[];
  /** Word → row. */
  readonly rows: ReadonlyMap<string, number>;
  /** `size × dimension` quantised values. */
  readonly matrix: Int8Array;
  /** Per-row scale: `value = matrix[row * dimension + d] * scales[row]`. */
  readonly scales: Float32Array;
}

/**
 * Quantises `values` to int8 with one scale (`max|v| / 127`) into `target` at `offset`.
 *
 * @returns The scale (0 for an all-zero row).
 */
export function quantizeRow(values: ArrayLike<number>, target: Int8Array, offset: number): number {
  let max = 0;
  for (let i = 0; i < values.length; i++) {
    const magnitude = abs(values[i]!);
    if (magnitude > max) max = magnitude;
  }
  if (max === 0 || !isFinite(max)) return 0;
  const scale = max / 127;
  for (let i = 0; i < values.length; i++) target[offset + i] = round(values[i]! / scale);
  return scale;
}

const pad4 = (n: number): number => (n + 3) & ~3;

/**
 * Serialises word vectors: `DTWV`, uint32 LE header length, the JSON header (padded to 4 bytes), the vocabulary
 * block (padded to 4 bytes), `size` float32 LE scales, then the `size × dimension` int8 matrix.
 */
export function encodeWordVectors(input: { words: readonly string[]; matrix: Int8Array; scales: Float32Array; dimension: number; source: { package: string; version: string } }): Uint8Array {
  const { words, matrix, scales, dimension, source } = input;
  const size = words.length;
  if (matrix.length !== size * dimension || scales.length !== size) {
    throw new DocTreeError('INTERNAL', `word vectors: ${size} words but ${matrix.length} values and ${scales.length} scales for dimension ${dimension}`);
  }
  if (words.some((word) => word.includes('\n') || word.length === 0)) throw new DocTreeError('INTERNAL', 'word vectors: words must be non-empty and contain no newline');
  const vocab = Buffer.from(words.join('\n'), 'utf8');
  const meta: WordVectorsMeta = { format: WORD_VECTORS_FORMAT, version: WORD_VECTORS_FORMAT_VERSION, source, dimension, size, quantization: 'int8-row-scale', vocab_bytes: vocab.length };
  let header = Buffer.from(JSON.stringify(meta), 'utf8');
  header = Buffer.concat([header, Buffer.alloc(pad4(header.length) - header.length, 0x20)]);
  const out = Buffer.alloc(8 + header.length + pad4(vocab.length) + 4 * size + size * dimension);
  out.write(MAGIC, 0, 'latin1');
  out.writeUInt32LE(header.length, 4);
  header.copy(out, 8);
  let offset = 8 + header.length;
  vocab.copy(out, offset);
  offset += pad4(vocab.length);
  for (let i = 0; i < size; i++) out.writeFloatLE(scales[i]!, offset + 4 * i);
  offset += 4 * size;
  Buffer.from(matrix.buffer, matrix.byteOffset, matrix.byteLength).copy(out, offset);
  return out;
}

/**
 * Parses a word-vector cache file. The matrix is a view on `data` (no copy).
 *
 * @throws DocTreeError `INDEX_CORRUPT` for a damaged file, `FORMAT_VERSION_UNSUPPORTED` for another version.
 */
export function decodeWordVectors(data: Uint8Array, file?: string): WordVectors {
  const buffer = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const where = file !== undefined ? { file } : {};
  const corrupt = (why: string): DocTreeError =>
    new DocTreeError('INDEX_CORRUPT', `Word-vector cache is damaged: ${why}`, { ...where, hint: 'Delete the cache file; it is rebuilt from the package on the next run.' });
  if (buffer.length < 8 || buffer.toString('latin1', 0, 4) !== MAGIC) throw corrupt('bad magic');
  const headerLength = buffer.readUInt32LE(4);
  if (8 + headerLength > buffer.length) throw corrupt('truncated header');
  let raw: unknown;
  try {
    raw = JSON.parse(buffer.toString('utf8', 8, 8 + headerLength));
  } catch {
    throw corrupt('unreadable header');
  }
  const version = (raw as { version?: unknown } | null)?.version;
  if ((raw as { format?: unknown } | null)?.format === WORD_VECTORS_FORMAT && version !== WORD_VECTORS_FORMAT_VERSION) {
    throw new DocTreeError('FORMAT_VERSION_UNSUPPORTED', `Word-vector cache version ${String(version)} is not supported (expected ${WORD_VECTORS_FORMAT_VERSION})`, where);
  }
  const parsed = wordVectorsMetaSchema.safeParse(raw);
  if (!parsed.success) throw corrupt('invalid header');
  const meta = parsed.data;
  const { size, dimension, vocab_bytes: vocabBytes } = meta;
  let offset = 8 + headerLength;
  const expected = offset + pad4(vocabBytes) + 4 * size + size * dimension;
  if (buffer.length !== expected) throw corrupt(`size ${buffer.length} bytes, expected ${expected}`);
  const words = size === 0 ? [] : buffer.toString('utf8', offset, offset + vocabBytes).split('\n');
  if (words.length !== size) throw corrupt(`${words.length} words, expected ${size}`);
  offset += pad4(vocabBytes);
  const scalesAt = buffer.byteOffset + offset;
  const scales = scalesAt % 4 === 0 ? new Float32Array(buffer.buffer, scalesAt, size) : new Float32Array(buffer.buffer.slice(scalesAt, scalesAt + 4 * size));
  offset += 4 * size;
  const matrix = new Int8Array(buffer.buffer, buffer.byteOffset + offset, size * dimension);
  const rows = new Map<string, number>();
  // First occurrence wins (a lower row is a more frequent word).
  for (let i = 0; i < size; i++) if (!rows.has(words[i]!)) rows.set(words[i]!, i);
  return { meta, words, rows, matrix, scales };
}

/** Reads and parses a word-vector cache file (see {@link decodeWordVectors}). */
export async function readWordVectors(path: string): Promise<WordVectors> {
  return decodeWordVectors(await readFile(path), path);
}

/** Writes a word-vector cache file atomically. */
export async function writeWordVectors(path: string, input: Parameters<typeof encodeWordVectors>[0]): Promise<void> {
  await writeFileAtomic(path, encodeWordVectors(input));
}
