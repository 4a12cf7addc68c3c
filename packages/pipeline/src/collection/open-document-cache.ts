import { DocTreeError } from '@doctree/schema';

/** Options of {@link OpenDocumentCache}. */
export interface OpenDocumentCacheOptions {
  /** Most documents kept open. Default 8; 0 keeps none (every use opens the document again). */
  maxDocuments?: number;
  /**
   * Most bytes kept open, as the opener estimates them (a document's index on disk). Default 512 MiB. The document
   * just opened is kept even when it alone is larger.
   */
  maxBytes?: number;
}

/** Defaults of {@link OpenDocumentCacheOptions}. */
export const OPEN_DOCUMENT_CACHE_DEFAULTS = { maxDocuments: 8, maxBytes: 512 * 1024 * 1024 } as const satisfies Required<OpenDocumentCacheOptions>;

/** What an opener gives the cache: the opened value and its estimated size. */
export interface OpenedEntry<T> {
  value: T;
  bytes: number;
}

interface Entry<T> {
  version: string;
  opened: Promise<OpenedEntry<T>>;
  bytes: number;
}

/**
 * Opened documents (an agent over a loaded index) kept between questions: least recently used first out, bounded by
 * count and by estimated bytes. An entry belongs to one version of its document (the build id and update time): a
 * different version opens the document again, so a sync seen by this process or another never answers from a stale
 * index. Concurrent uses of a document being opened share the one opening; a failed opening is not kept.
 *
 * @example
 * ```ts
 * const cache = new OpenDocumentCache<OpenedAgent>({ maxDocuments: 4 });
 * const opened = await cache.use('acme_2023', row.build_id, async () => ({ value: await openAgent(dir), bytes: await indexBytes(dir) }));
 * ```
 */
export class OpenDocumentCache<T> {
  readonly options: Required<OpenDocumentCacheOptions>;
  readonly #entries = new Map<string, Entry<T>>();

  constructor(options: OpenDocumentCacheOptions = {}) {
    this.options = { ...OPEN_DOCUMENT_CACHE_DEFAULTS, ...options };
    const { maxDocuments, maxBytes } = this.options;
    if (!(Number.isInteger(maxDocuments) && maxDocuments >= 0)) throw new DocTreeError('USAGE', `maxDocuments must be a whole number ≥ 0, got ${String(maxDocuments)}`);
    if (!(Number.isFinite(maxBytes) && maxBytes >= 0)) throw new DocTreeError('USAGE', `maxBytes must be a number ≥ 0, got ${String(maxBytes)}`);
  }

  /** Documents open now. */
  get size(): number {
    return this.#entries.size;
  }

  /** Estimated bytes open now (documents still opening count 0). */
  get bytes(): number {
    let sum = 0;
    for (const e of this.#entries.values()) sum += e.bytes;
    return sum;
  }

  /** True when `key` is open (or opening) at `version`. */
  has(key: string, version: string): boolean {
    return this.#entries.get(key)?.version === version;
  }

  /**
   * The open document `key` at `version`, opened with `open` when it is not (or at another version).
   *
   * @throws whatever `open` throws (nothing is kept then).
   */
  async use(key: string, version: string, open: () => Promise<OpenedEntry<T>>): Promise<T> {
    const hit = this.#entries.get(key);
    if (hit && hit.version === version) {
      // Most recently used last (Map order).
      this.#entries.delete(key);
      this.#entries.set(key, hit);
      return (await hit.opened).value;
    }
    if (this.options.maxDocuments === 0) return (await open()).value;
    const entry: Entry<T> = { version, opened: open(), bytes: 0 };
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    let opened: OpenedEntry<T>;
    try {
      opened = await entry.opened;
    } catch (error) {
      if (this.#entries.get(key) === entry) this.#entries.delete(key);
      throw error;
    }
    entry.bytes = Math.max(0, opened.bytes);
    this.#evict(key);
    return opened.value;
  }

  /** Forgets one document, or every document without `key` (their memory goes with the last question using them). */
  forget(key?: string): void {
    if (key === undefined) this.#entries.clear();
    else this.#entries.delete(key);
  }

  /** Drops least recently used entries (never `keep`) until both bounds hold. */
  #evict(keep: string): void {
    for (const [key] of this.#entries) {
      if (this.#entries.size <= this.options.maxDocuments && this.bytes <= this.options.maxBytes) return;
      if (key !== keep) this.#entries.delete(key);
    }
  }
}
