import { readFile } from 'node:fs/promises';
import { endianness } from 'node:os';

import { DocTreeError } from '@doctree/schema';
import type { VectorIndexInfo } from '@doctree/schema';
import { z } from 'zod';

import { writeFileAtomic } from '../io/atomic-write.js';

/** Value of `format` in every `<index>.meta.json`. */
export const VECTOR_INDEX_FORMAT = 'doctree.vectors';

/** Version of the vector index files (`.meta.json` and the `DTVX` binary) written by this package. */
export const VECTOR_INDEX_FORMAT_VERSION = 1;

/** Magic bytes opening every raw vector file (`DTVX`). */
export const VECTOR_FILE_MAGIC = 'DTVX';

/** Size of the raw vector file header: magic, format version, dimension, count (4 bytes each). */
const HEADER_BYTES = 16;

const LITTLE_ENDIAN_HOST = endianness() === 'LE';

/** zod schema of `<index>.meta.json`. */
export const vectorIndexMetaSchema = z
  .object({
    format: z.literal(VECTOR_INDEX_FORMAT),
    version: z.literal(VECTOR_INDEX_FORMAT_VERSION),
    backend: z.enum(['faiss', 'exact']),
    kind: z.enum(['flat', 'hnsw']),
    metric: z.enum(['inner_product', 'l2']),
    dimension: z.number().int().positive(),
    size: z.number().int().nonnegative(),
    embedder_id: z.string().min(1),
    ids: z.array(z.string()),
  })
  .refine((meta) => meta.ids.length === meta.size, { message: 'ids must have `size` entries', path: ['ids'] })
  .refine((meta) => new Set(meta.ids).size === meta.ids.length, { message: 'ids must be unique', path: ['ids'] });

/** Content of `<index>.meta.json`: the {@link VectorIndexInfo} in snake_case plus the ids by position. */
export type VectorIndexMeta = z.infer<typeof vectorIndexMetaSchema>;

/** Path of the metadata file of the index at `path`. */
export function vectorIndexMetaPath(path: string): string {
  return `${path}.meta.json`;
}

/**
 * Path of the raw-vector sidecar written next to a faiss index. It holds the same vectors in the `DTVX`
 * format, so that an index written with faiss can always be loaded by the exact backend when faiss-node
 * is not available (at the cost of storing the vectors twice).
 */
export function vectorSidecarPath(path: string): string {
  return `${path}.vectors`;
}

/** Builds the metadata of an index from its info and its ids by position. */
export function toVectorIndexMeta(info: VectorIndexInfo, ids: readonly string[]): VectorIndexMeta {
  return {
    format: VECTOR_INDEX_FORMAT,
    version: VECTOR_INDEX_FORMAT_VERSION,
    backend: info.backend,
    kind: info.kind,
    metric: info.metric,
    dimension: info.dimension,
    size: info.size,
    embedder_id: info.embedderId,
    ids: [...ids],
  };
}

/** Writes `<path>.meta.json` atomically. */
export async function writeVectorIndexMeta(path: string, meta: VectorIndexMeta): Promise<void> {
  await writeFileAtomic(vectorIndexMetaPath(path), `${JSON.stringify(meta)}\n`);
}

/** Options of {@link readVectorIndexMeta}. */
export interface ReadVectorIndexMetaOptions {
  /**
   * `full` (default) validates every field with zod, ids included (each a string, all unique); `fast` checks the
   * header and the scalar fields and that there are `size` ids, for files a manifest already vouches for.
   */
  validation?: 'fast' | 'full';
}

/** The scalar checks of `fast` validation: the first problem, or undefined. */
function fastMetaProblem(meta: Record<string, unknown>): string | undefined {
  if (meta['backend'] !== 'faiss' && meta['backend'] !== 'exact') return 'backend must be faiss or exact';
  if (meta['kind'] !== 'flat' && meta['kind'] !== 'hnsw') return 'kind must be flat or hnsw';
  if (meta['metric'] !== 'inner_product' && meta['metric'] !== 'l2') return 'metric must be inner_product or l2';
  if (!Number.isInteger(meta['dimension']) || (meta['dimension'] as number) < 1) return 'dimension must be a positive integer';
  if (!Number.isInteger(meta['size']) || (meta['size'] as number) < 0) return 'size must be an integer >= 0';
  if (typeof meta['embedder_id'] !== 'string' || meta['embedder_id'] === '') return 'embedder_id must be a non-empty string';
  if (!Array.isArray(meta['ids']) || meta['ids'].length !== meta['size']) return 'ids must have `size` entries';
  return undefined;
}

/**
 * Reads and validates `<path>.meta.json`.
 *
 * @throws DocTreeError `INDEX_MISSING` when the file does not exist, `FORMAT_VERSION_UNSUPPORTED` when it is not a
 * `doctree.vectors` version 1 file, `INDEX_CORRUPT` when it is not valid JSON or does not match the schema.
 */
export async function readVectorIndexMeta(path: string, options: ReadVectorIndexMetaOptions = {}): Promise<VectorIndexMeta> {
  const file = vectorIndexMetaPath(path);
  const text = await readIndexFile(file, 'utf8');
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new DocTreeError('INDEX_CORRUPT', `Vector index metadata is not valid JSON: ${(error as Error).message}`, { file, cause: error });
  }
  const header = (typeof raw === 'object' && raw !== null ? raw : {}) as { format?: unknown; version?: unknown };
  if (header.format !== VECTOR_INDEX_FORMAT || header.version !== VECTOR_INDEX_FORMAT_VERSION) {
    throw new DocTreeError(
      'FORMAT_VERSION_UNSUPPORTED',
      `Unsupported vector index metadata: format ${JSON.stringify(header.format)} version ${JSON.stringify(header.version)} ` +
        `(this version reads ${VECTOR_INDEX_FORMAT} version ${VECTOR_INDEX_FORMAT_VERSION})`,
      { file, details: { format: header.format, version: header.version } },
    );
  }
  if (options.validation === 'fast') {
    const problem = fastMetaProblem(raw as Record<string, unknown>);
    if (problem !== undefined) throw new DocTreeError('INDEX_CORRUPT', `Invalid vector index metadata: ${problem}`, { file });
    return raw as VectorIndexMeta;
  }
  const parsed = vectorIndexMetaSchema.safeParse(raw);
  if (!parsed.success) {
    throw new DocTreeError('INDEX_CORRUPT', `Invalid vector index metadata: ${z.prettifyError(parsed.error)}`, { file, cause: parsed.error });
  }
  return parsed.data;
}

/**
 * Encodes vectors as a `DTVX` file: little-endian header (magic `DTVX`, u32 format version, u32 dimension,
 * u32 count) followed by `count * dimension` float32 values, little-endian, row-major.
 *
 * @param dimension - Vector dimension.
 * @param vectors - `count * dimension` values, row-major.
 */
export function encodeVectorFile(dimension: number, vectors: Float32Array): Uint8Array {
  const count = vectors.length / dimension;
  const bytes = new Uint8Array(HEADER_BYTES + vectors.length * 4);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < 4; i++) bytes[i] = VECTOR_FILE_MAGIC.charCodeAt(i);
  view.setUint32(4, VECTOR_INDEX_FORMAT_VERSION, true);
  view.setUint32(8, dimension, true);
  view.setUint32(12, count, true);
  if (LITTLE_ENDIAN_HOST) {
    bytes.set(new Uint8Array(vectors.buffer, vectors.byteOffset, vectors.length * 4), HEADER_BYTES);
  } else {
    for (let i = 0; i < vectors.length; i++) view.setFloat32(HEADER_BYTES + i * 4, vectors[i]!, true);
  }
  return bytes;
}

/** Decoded `DTVX` file. */
export interface DecodedVectorFile {
  /** Vector dimension from the header. */
  dimension: number;
  /** Number of vectors from the header. */
  count: number;
  /** `count * dimension` values, row-major (a copy, safely aligned). */
  vectors: Float32Array;
}

/**
 * Decodes a `DTVX` file, see {@link encodeVectorFile}.
 *
 * @param bytes - File content.
 * @param file - File name used in errors.
 * @throws DocTreeError `INDEX_CORRUPT` (bad magic, truncated or oversized), `FORMAT_VERSION_UNSUPPORTED`.
 */
export function decodeVectorFile(bytes: Uint8Array, file: string): DecodedVectorFile {
  if (bytes.length < HEADER_BYTES) {
    throw new DocTreeError('INDEX_CORRUPT', `Vector file is truncated (${bytes.length} bytes, header needs ${HEADER_BYTES})`, { file });
  }
  const magic = String.fromCharCode(bytes[0]!, bytes[1]!, bytes[2]!, bytes[3]!);
  if (magic !== VECTOR_FILE_MAGIC) {
    throw new DocTreeError('INDEX_CORRUPT', `Not a DocTree vector file (magic ${JSON.stringify(magic)}, expected "${VECTOR_FILE_MAGIC}")`, { file });
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = view.getUint32(4, true);
  if (version !== VECTOR_INDEX_FORMAT_VERSION) {
    throw new DocTreeError('FORMAT_VERSION_UNSUPPORTED', `Vector file format version ${version} is not supported (expected ${VECTOR_INDEX_FORMAT_VERSION})`, {
      file,
      details: { version },
    });
  }
  const dimension = view.getUint32(8, true);
  const count = view.getUint32(12, true);
  const expected = HEADER_BYTES + dimension * count * 4;
  if (dimension === 0 || bytes.length !== expected) {
    throw new DocTreeError(
      'INDEX_CORRUPT',
      `Vector file has ${bytes.length} bytes, expected ${expected} for ${count} vectors of dimension ${dimension} (truncated or damaged)`,
      { file },
    );
  }
  let vectors: Float32Array;
  if (LITTLE_ENDIAN_HOST) {
    const start = bytes.byteOffset + HEADER_BYTES;
    vectors = new Float32Array(bytes.buffer.slice(start, start + dimension * count * 4));
  } else {
    vectors = new Float32Array(dimension * count);
    for (let i = 0; i < vectors.length; i++) vectors[i] = view.getFloat32(HEADER_BYTES + i * 4, true);
  }
  return { dimension, count, vectors };
}

/**
 * Reads a `DTVX` file and checks it against the metadata of its index.
 *
 * @throws DocTreeError `INDEX_MISSING`, `INDEX_CORRUPT`, `FORMAT_VERSION_UNSUPPORTED`.
 */
export async function readVectorFile(file: string, meta: VectorIndexMeta): Promise<Float32Array> {
  const decoded = decodeVectorFile(await readIndexFile(file), file);
  if (decoded.dimension !== meta.dimension || decoded.count !== meta.size) {
    throw new DocTreeError(
      'INDEX_CORRUPT',
      `Vector file holds ${decoded.count} vectors of dimension ${decoded.dimension}, metadata says ${meta.size} of dimension ${meta.dimension}`,
      { file },
    );
  }
  return decoded.vectors;
}

/** Reads a file of an index, mapping a missing file to `INDEX_MISSING` and other failures to `INDEX_CORRUPT`. */
export async function readIndexFile(file: string): Promise<Uint8Array>;
export async function readIndexFile(file: string, encoding: 'utf8'): Promise<string>;
export async function readIndexFile(file: string, encoding?: 'utf8'): Promise<Uint8Array | string> {
  try {
    return encoding === undefined ? await readFile(file) : await readFile(file, encoding);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      throw new DocTreeError('INDEX_MISSING', `Vector index file not found: ${file}`, { file, cause: error });
    }
    throw new DocTreeError('INDEX_CORRUPT', `Cannot read vector index file: ${(error as Error).message}`, { file, cause: error });
  }
}
