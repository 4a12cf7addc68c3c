import { readFile } from 'node:fs/promises';

import { DocTreeError } from '@doctree/schema';
import { z } from 'zod';

import { writeFileAtomic } from '../io/atomic-write.js';

/** `format` of the compact word-vector cache written by the SIF embedder. */
export const WORD_VECTORS_FORMAT = 'doctree.word-vectors';
/** Current version of {@link WORD_VECTORS_FORMAT}. */
export const WORD_VECTORS_FORMAT_VERSION = 2;
const MAGIC = 'DTWV';
// Bound once: global lookups in hot loops are ~20x slower inside jest's vm context.
const { abs, round, imul } = Math;
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
  /** Slots of the stored word lookup table (a power of two, 0 for an empty vocabulary). */
  table_slots: z.number().int().nonnegative(),
  /** Number of distinct words. */
  distinct: z.number().int().nonnegative(),
});
/** Header of a word-vector cache file. */
export type WordVectorsMeta = z.infer<typeof wordVectorsMetaSchema>;

/** Word → row lookup of a word-vector cache (the first, most frequent row of a word that occurs twice). */
export interface WordRowLookup {
  /** Row of `word`, or undefined when it is not in the vocabulary. */
  get(word: string): number | undefined;
  has(word: string): boolean;
  /** Number of distinct words. */
  readonly size: number;
}

/** Word vectors as held in memory: int8 rows with a float scale per row, rows in frequency order. */
export interface WordVectors {
  /** Header of the file they came from (or will be written to). */
  readonly meta: WordVectorsMeta;
  /** Words; row `i` is the word of frequency rank `i` (0 = most frequent). Decoded on first access. */
  readonly words: readonly string[];
  /** Word → row, an open-addressing hash table over the UTF-8 vocabulary block (no string per word is created). */
  readonly rows: WordRowLookup;
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
 * block (UTF-8 words joined by `\n`, padded to 4 bytes), `size` float32 LE scales, the word lookup (`size + 1`
 * uint32 word starts and `table_slots` int32 hash-table slots, see {@link WordRowLookup}), then the
 * `size × dimension` int8 matrix. Storing the lookup makes loading a matter of reading the file.
 */
export function encodeWordVectors(input: { words: readonly string[]; matrix: Int8Array; scales: Float32Array; dimension: number; source: { package: string; version: string } }): Uint8Array {
  const { words, matrix, scales, dimension, source } = input;
  const size = words.length;
  if (matrix.length !== size * dimension || scales.length !== size) {
    throw new DocTreeError('INTERNAL', `word vectors: ${size} words but ${matrix.length} values and ${scales.length} scales for dimension ${dimension}`);
  }
  if (words.some((word) => word.includes('\n') || word.length === 0)) throw new DocTreeError('INTERNAL', 'word vectors: words must be non-empty and contain no newline');
  const vocab = Buffer.from(words.join('\n'), 'utf8');
  const lookup = HashedWordRows.build(new Uint8Array(vocab.buffer, vocab.byteOffset, vocab.byteLength), size);
  const meta: WordVectorsMeta = {
    format: WORD_VECTORS_FORMAT,
    version: WORD_VECTORS_FORMAT_VERSION,
    source,
    dimension,
    size,
    quantization: 'int8-row-scale',
    vocab_bytes: vocab.length,
    table_slots: lookup.tableSlots,
    distinct: lookup.size,
  };
  let header = Buffer.from(JSON.stringify(meta), 'utf8');
  header = Buffer.concat([header, Buffer.alloc(pad4(header.length) - header.length, 0x20)]);
  const out = Buffer.alloc(8 + header.length + pad4(vocab.length) + 4 * size + lookup.byteLength + size * dimension);
  out.write(MAGIC, 0, 'latin1');
  out.writeUInt32LE(header.length, 4);
  header.copy(out, 8);
  let offset = 8 + header.length;
  vocab.copy(out, offset);
  offset += pad4(vocab.length);
  for (let i = 0; i < size; i++) out.writeFloatLE(scales[i]!, offset + 4 * i);
  offset += 4 * size;
  offset = lookup.writeTo(out, offset);
  Buffer.from(matrix.buffer, matrix.byteOffset, matrix.byteLength).copy(out, offset);
  return out;
}

/**
 * Parses a word-vector cache file. The matrix is a view on `data` (no copy); so are the vocabulary and the lookup
 * table when `data` is 4-byte aligned.
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
  const { size, dimension, vocab_bytes: vocabBytes, table_slots: tableSlots } = meta;
  if (tableSlots === 0 ? size !== 0 : (tableSlots & (tableSlots - 1)) !== 0 || tableSlots < size) throw corrupt('invalid lookup table size');
  let offset = 8 + headerLength;
  const expected = offset + pad4(vocabBytes) + 4 * size + 4 * (size + 1) + 4 * tableSlots + size * dimension;
  if (buffer.length !== expected) throw corrupt(`size ${buffer.length} bytes, expected ${expected}`);
  const vocab = new Uint8Array(buffer.buffer, buffer.byteOffset + offset, vocabBytes);
  offset += pad4(vocabBytes);
  const scales = float32At(buffer, offset, size);
  offset += 4 * size;
  const starts = uint32At(buffer, offset, size + 1);
  offset += 4 * (size + 1);
  const table = int32At(buffer, offset, tableSlots);
  offset += 4 * tableSlots;
  if (size > 0 && (starts[0] !== 0 || starts[size] !== vocabBytes + 1)) throw corrupt('word starts do not match the vocabulary');
  const matrix = new Int8Array(buffer.buffer, buffer.byteOffset + offset, size * dimension);
  const rows = new HashedWordRows(vocab, starts, table, meta.distinct);
  let words: string[] | undefined;
  return {
    meta,
    get words(): readonly string[] {
      words ??= size === 0 ? [] : Buffer.from(vocab.buffer, vocab.byteOffset, vocab.byteLength).toString('utf8').split('\n');
      return words;
    },
    rows,
    matrix,
    scales,
  };
}

/** Typed views at `offset` of `buffer`: no copy when aligned, else a copy. */
function float32At(buffer: Buffer, offset: number, length: number): Float32Array {
  const at = buffer.byteOffset + offset;
  return at % 4 === 0 ? new Float32Array(buffer.buffer, at, length) : new Float32Array(buffer.buffer.slice(at, at + 4 * length));
}
function uint32At(buffer: Buffer, offset: number, length: number): Uint32Array {
  const at = buffer.byteOffset + offset;
  return at % 4 === 0 ? new Uint32Array(buffer.buffer, at, length) : new Uint32Array(buffer.buffer.slice(at, at + 4 * length));
}
function int32At(buffer: Buffer, offset: number, length: number): Int32Array {
  const at = buffer.byteOffset + offset;
  return at % 4 === 0 ? new Int32Array(buffer.buffer, at, length) : new Int32Array(buffer.buffer.slice(at, at + 4 * length));
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
const NEWLINE = 0x0a;

/**
 * Word → row over the cache's vocabulary block (UTF-8 words joined by `\n`): the start offset of every word
 * (`size + 1` entries, the last one past the end) and an open-addressing table (linear probing, a power of two of at
 * least twice the words) of rows keyed by the FNV-1a hash of the word's bytes, -1 for an empty slot. Both are built
 * when the cache is written and read back as they are, so loading creates no string per word. Lookups memoise their
 * answers, as texts repeat their words.
 */
class HashedWordRows implements WordRowLookup {
  readonly size: number;
  readonly #vocab: Uint8Array;
  readonly #starts: Uint32Array;
  readonly #table: Int32Array;
  readonly #mask: number;
  readonly #memo = new Map<string, number>();
  readonly #encoder = new TextEncoder();

  constructor(vocab: Uint8Array, starts: Uint32Array, table: Int32Array, distinct: number) {
    this.#vocab = vocab;
    this.#starts = starts;
    this.#table = table;
    this.#mask = table.length - 1;
    this.size = distinct;
  }

  /** Builds the lookup of a vocabulary block of `size` words (the first, more frequent row of a repeated word wins). */
  static build(vocab: Uint8Array, size: number): HashedWordRows {
    const starts = new Uint32Array(size + 1);
    let capacity = size === 0 ? 0 : 1;
    while (capacity > 0 && capacity < size * 2) capacity *= 2;
    const table = new Int32Array(capacity).fill(-1);
    const mask = capacity - 1;
    let words = 0;
    let distinct = 0;
    let start = 0;
    let hash = FNV_OFFSET;
    const length = size === 0 ? -1 : vocab.length;
    for (let i = 0; i <= length; i++) {
      const byte = i < length ? vocab[i]! : NEWLINE;
      if (byte !== NEWLINE) {
        hash = imul(hash ^ byte, FNV_PRIME);
        continue;
      }
      starts[words] = start;
      starts[words + 1] = i + 1; // provisional end, overwritten by the next word's start
      let slot = (hash >>> 0) & mask;
      for (;;) {
        const row = table[slot]!;
        if (row < 0) {
          table[slot] = words;
          distinct++;
          break;
        }
        if (sameBytes(vocab, starts[row]!, starts[row + 1]! - 1, start, i)) break;
        slot = (slot + 1) & mask;
      }
      words++;
      start = i + 1;
      hash = FNV_OFFSET;
    }
    return new HashedWordRows(vocab, starts, table, distinct);
  }

  /** Bytes of the lookup in the file: starts and table. */
  get byteLength(): number {
    return 4 * (this.#starts.length + this.#table.length);
  }

  /** Slots of the hash table. */
  get tableSlots(): number {
    return this.#table.length;
  }

  /** Writes starts then table (little-endian) at `offset`; returns the offset after them. */
  writeTo(out: Buffer, offset: number): number {
    for (let i = 0; i < this.#starts.length; i++) out.writeUInt32LE(this.#starts[i]!, offset + 4 * i);
    offset += 4 * this.#starts.length;
    for (let i = 0; i < this.#table.length; i++) out.writeInt32LE(this.#table[i]!, offset + 4 * i);
    return offset + 4 * this.#table.length;
  }

  get(word: string): number | undefined {
    const memo = this.#memo.get(word);
    if (memo !== undefined) return memo < 0 ? undefined : memo;
    const row = this.#find(word);
    if (this.#memo.size < 1_000_000) this.#memo.set(word, row ?? -1);
    return row;
  }

  has(word: string): boolean {
    return this.get(word) !== undefined;
  }

  #find(word: string): number | undefined {
    if (this.#table.length === 0) return undefined;
    let ascii = true;
    for (let i = 0; i < word.length; i++) {
      if (word.charCodeAt(i) > 0x7f) {
        ascii = false;
        break;
      }
    }
    const bytes = ascii ? undefined : this.#encoder.encode(word);
    const length = bytes ? bytes.length : word.length;
    let hash = FNV_OFFSET;
    for (let i = 0; i < length; i++) hash = imul(hash ^ (bytes ? bytes[i]! : word.charCodeAt(i)), FNV_PRIME);
    const vocab = this.#vocab;
    const starts = this.#starts;
    const table = this.#table;
    let slot = (hash >>> 0) & this.#mask;
    for (let probes = 0; probes < table.length; probes++) {
      const row = table[slot]!;
      if (row < 0 || row + 1 >= starts.length) return undefined;
      const start = starts[row]!;
      if (starts[row + 1]! - 1 - start === length) {
        let same = true;
        for (let i = 0; i < length; i++) {
          if (vocab[start + i] !== (bytes ? bytes[i] : word.charCodeAt(i))) {
            same = false;
            break;
          }
        }
        if (same) return row;
      }
      slot = (slot + 1) & this.#mask;
    }
    return undefined;
  }
}

/** True when bytes `[a, aEnd)` and `[b, bEnd)` of `vocab` are equal. */
function sameBytes(vocab: Uint8Array, a: number, aEnd: number, b: number, bEnd: number): boolean {
  if (aEnd - a !== bEnd - b) return false;
  for (let i = 0; i < aEnd - a; i++) if (vocab[a + i] !== vocab[b + i]) return false;
  return true;
}

/** Reads and parses a word-vector cache file (see {@link decodeWordVectors}). */
export async function readWordVectors(path: string): Promise<WordVectors> {
  return decodeWordVectors(await readFile(path), path);
}

/** Writes a word-vector cache file atomically. */
export async function writeWordVectors(path: string, input: Parameters<typeof encodeWordVectors>[0]): Promise<void> {
  await writeFileAtomic(path, encodeWordVectors(input));
}
