import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../io/atomic-write.js';

/** `format` of a summary cache entry file. */
export const SUMMARY_CACHE_FORMAT = 'doctree.summary-cache';
/** Version of the summary cache entry files this package writes and reads; other versions are misses. */
export const SUMMARY_CACHE_FORMAT_VERSION = 1;

/** zod schema of one cache entry file (`<dir>/<key[0..2]>/<key>.json`). */
export const summaryCacheEntrySchema = z.object({
  format: z.literal(SUMMARY_CACHE_FORMAT),
  version: z.literal(SUMMARY_CACHE_FORMAT_VERSION),
  /** sha256 of the request (model, prompt version, messages): the content hash the entry answers. */
  key: z.string().regex(/^[0-9a-f]{64}$/),
  model: z.string().min(1),
  kind: z.enum(['section', 'document']),
  text: z.string().min(1),
  created_at: z.string(),
});
/** One cache entry. */
export type SummaryCacheEntry = z.infer<typeof summaryCacheEntrySchema>;

/** Options of {@link SummaryCache}. */
export interface SummaryCacheOptions {
  /** Folder of the entry files; memory only when absent. */
  dir?: string;
  /**
   * Told when an entry file exists but cannot be read or is damaged (it then counts as a miss and is asked again); a
   * missing file is an ordinary miss and says nothing. Must not throw.
   */
  onWarning?: (message: string) => void;
}

/**
 * Content-addressed cache of model-written summaries: one small JSON file per request hash, written atomically
 * (temporary file + rename), so concurrent builds never see a partial entry and an interrupted build keeps what it
 * already paid for. Unreadable, foreign or other-version files count as misses (they are overwritten on the next write)
 * and are reported through `onWarning`.
 */
export class SummaryCache {
  readonly dir: string | undefined;
  readonly #memory = new Map<string, string>();
  readonly #onWarning: ((message: string) => void) | undefined;

  constructor(options: SummaryCacheOptions = {}) {
    this.dir = options.dir;
    this.#onWarning = options.onWarning;
  }

  /** Path of the entry file of `key` (undefined for a memory-only cache). */
  pathOf(key: string): string | undefined {
    return this.dir === undefined ? undefined : join(this.dir, key.slice(0, 2), `${key}.json`);
  }

  /** The cached text of `key`, or undefined. */
  async get(key: string): Promise<string | undefined> {
    const hit = this.#memory.get(key);
    if (hit !== undefined) return hit;
    const path = this.pathOf(key);
    if (path === undefined) return undefined;
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') this.#onWarning?.(`summary cache entry ${path} cannot be read (${code ?? (error as Error).message}); the summary is asked for again`);
      return undefined;
    }
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      this.#onWarning?.(`summary cache entry ${path} is not valid JSON; the summary is asked for again and the entry rewritten`);
      return undefined;
    }
    const parsed = summaryCacheEntrySchema.safeParse(raw);
    if (!parsed.success || parsed.data.key !== key) {
      this.#onWarning?.(`summary cache entry ${path} is damaged or of another format version; the summary is asked for again and the entry rewritten`);
      return undefined;
    }
    this.#memory.set(key, parsed.data.text);
    return parsed.data.text;
  }

  /**
   * Stores `text` under `key` in memory and, with a folder, on disk.
   *
   * @throws DocTreeError `IO_WRITE_FAILED` when the entry file cannot be written (the memory entry is kept).
   */
  async set(key: string, entry: Pick<SummaryCacheEntry, 'model' | 'kind' | 'text'>): Promise<void> {
    this.#memory.set(key, entry.text);
    const path = this.pathOf(key);
    if (path === undefined) return;
    const file: SummaryCacheEntry = { format: SUMMARY_CACHE_FORMAT, version: SUMMARY_CACHE_FORMAT_VERSION, key, ...entry, created_at: new Date().toISOString() };
    await writeFileAtomic(path, `${JSON.stringify(file)}\n`);
  }
}
