import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { appendFile, readFile } from 'node:fs/promises';

import { DocTreeError } from '@doctree/schema';
import { z } from 'zod';

import { writeFileAtomic } from '../io/atomic-write.js';

/** `format` of the JSONL embedding cache file. */
export const EMBEDDING_CACHE_FORMAT = 'doctree.embedding-cache';
/** Current version of {@link EMBEDDING_CACHE_FORMAT}. */
export const EMBEDDING_CACHE_FORMAT_VERSION = 1;

const headerSchema = z.object({ format: z.literal(EMBEDDING_CACHE_FORMAT), version: z.number().int() });
const entrySchema = z.object({ key: z.string().regex(/^[0-9a-f]{64}$/), dim: z.number().int().positive(), vector: z.string().min(1) });

/** Options of {@link EmbeddingCache}. */
export interface EmbeddingCacheOptions {
  /** JSONL file persisting the cache; memory only when absent. */
  file?: string;
}

/**
 * Content-addressed embedding cache: `sha256(namespace \n text)` → vector, in memory plus an optional JSONL file
 * (first line `{"format":"doctree.embedding-cache","version":1}`, then one `{"key","dim","vector"}` line per
 * entry, the vector as base64 float32 little-endian). Only hashes are stored, never the texts.
 *
 * The file is created atomically and then only appended to (one complete line per write), so a crash leaves at
 * most one torn last line, which the loader skips. Another `format`/`version` is rejected with
 * `FORMAT_VERSION_UNSUPPORTED`.
 */
export class EmbeddingCache {
  private readonly file: string | undefined;
  private readonly entries = new Map<string, Float32Array>();
  private loaded: Promise<void> | undefined;
  private writes: Promise<void> = Promise.resolve();

  constructor(options: EmbeddingCacheOptions = {}) {
    this.file = options.file;
  }

  /** Number of cached vectors. */
  get size(): number {
    return this.entries.size;
  }

  /** The cache key of `text` under `namespace` (model and request settings). */
  static key(namespace: string, text: string): string {
    return createHash('sha256').update(namespace).update('\n').update(text).digest('hex');
  }

  /** Reads the file once (no-op without a file or when it does not exist yet). */
  load(): Promise<void> {
    this.loaded ??= this.readFile();
    return this.loaded;
  }

  /** A copy of the cached vector, or undefined. */
  get(key: string): Float32Array | undefined {
    const hit = this.entries.get(key);
    return hit === undefined ? undefined : hit.slice();
  }

  /** Stores vectors (copies) and appends them to the file. */
  async set(items: ReadonlyArray<{ key: string; vector: Float32Array }>): Promise<void> {
    const fresh = items.filter(({ key }) => !this.entries.has(key));
    for (const { key, vector } of fresh) this.entries.set(key, vector.slice());
    if (this.file === undefined || fresh.length === 0) return;
    const file = this.file;
    const lines = fresh.map(({ key, vector }) => `${JSON.stringify({ key, dim: vector.length, vector: Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength).toString('base64') })}\n`).join('');
    const write = this.writes.then(async () => {
      if (!existsSync(file)) {
        await writeFileAtomic(file, `${JSON.stringify({ format: EMBEDDING_CACHE_FORMAT, version: EMBEDDING_CACHE_FORMAT_VERSION })}\n${lines}`);
        return;
      }
      try {
        await appendFile(file, lines);
      } catch (error) {
        throw DocTreeError.from(error, 'IO_WRITE_FAILED', { file });
      }
    });
    this.writes = write.catch(() => undefined);
    await write;
  }

  private async readFile(): Promise<void> {
    const file = this.file;
    if (file === undefined || !existsSync(file)) return;
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      throw new DocTreeError('INPUT_UNREADABLE', `Cannot read the embedding cache ${file}`, { file, cause: error });
    }
    const lines = text.split('\n');
    let header: unknown;
    try {
      header = JSON.parse(lines[0] ?? '');
    } catch {
      header = undefined;
    }
    const parsed = headerSchema.safeParse(header);
    if (!parsed.success || parsed.data.version !== EMBEDDING_CACHE_FORMAT_VERSION) {
      throw new DocTreeError('FORMAT_VERSION_UNSUPPORTED', `${file} is not a version ${EMBEDDING_CACHE_FORMAT_VERSION} ${EMBEDDING_CACHE_FORMAT} file`, {
        file,
        hint: 'Delete the cache file (it only saves repeated embedding requests) or point the cache option elsewhere.',
      });
    }
    for (const line of lines.slice(1)) {
      if (line.trim() === '') continue;
      let entry: z.infer<typeof entrySchema>;
      try {
        entry = entrySchema.parse(JSON.parse(line));
      } catch {
        continue; // A torn last line after a crash: skip it.
      }
      const bytes = Buffer.from(entry.vector, 'base64');
      if (bytes.length !== entry.dim * 4) continue;
      const vector = new Float32Array(entry.dim);
      for (let i = 0; i < entry.dim; i++) vector[i] = bytes.readFloatLE(i * 4);
      if (vector.every((v) => Number.isFinite(v))) this.entries.set(entry.key, vector);
    }
  }
}
