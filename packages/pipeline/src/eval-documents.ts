import { createHash } from 'node:crypto';
import { join, resolve } from 'node:path';
import { docIdFromFilename, isValidDocId } from '@doctree/ingest';
import { createChatClient } from '@doctree/agents';
import { buildRagIndex, loadRagIndex, type RagIndex } from '@doctree/rag-baseline';
import { DocTreeError, type ChatModelClient, type DocTreeConfig } from '@doctree/schema';
import { createIndexComponents, type IndexComponents } from './index-components.js';
import { prepareDocument, type PrepareProgress, type PreparedDocument } from './prepare-document.js';

/** Progress of {@link EvalDocuments}: which document is being prepared, and how far. */
export interface EvalDocumentProgress {
  /** Absolute path of the document. */
  path: string;
  /** What is being done: the DocTree ingest/index steps, or the RAG chunk index. */
  event: PrepareProgress | { stage: 'rag-index' };
}

/** Options of {@link EvalDocuments}. */
export interface EvalDocumentsOptions {
  /** Resolved configuration: embedder, vector backend, data folder, LLM. */
  config: DocTreeConfig;
  /** Dataset folder the documents are ingested into (`<outDir>/<doc_id>/`). Default `<config.data_dir>/eval`. */
  outDir?: string;
  /** Cache folder of LLM summaries and `openai` embeddings. Default `<config.data_dir>/.cache`. */
  cacheDir?: string;
  /**
   * Index components (embedder, sparse backend, summarizer, vector backend); parts given win over what
   * `createIndexComponents(config)` derives. Every system uses the same ones.
   */
  components?: Partial<IndexComponents>;
  /** Chat model for LLM-written summaries; default `createChatClient(config)`; `null` keeps summaries extractive. */
  chat?: ChatModelClient | null;
  /** Documents kept loaded at once (least recently used are dropped and loaded again when asked). Default 24. */
  maxOpen?: number;
  onProgress?: (progress: EvalDocumentProgress) => void;
}

/** Defaults of {@link EvalDocumentsOptions}. */
export const EVAL_DOCUMENTS_DEFAULTS = { maxOpen: 24 } as const satisfies Partial<EvalDocumentsOptions>;

/** Build time of an index as its manifest recorded it (sum of the build steps), ms. */
export function recordedBuildMs(timings: Readonly<Record<string, number>>): number {
  return Object.values(timings).reduce((sum, ms) => sum + (Number.isFinite(ms) && ms > 0 ? ms : 0), 0);
}

interface Entry {
  prepared: Promise<PreparedDocument>;
  rag?: Promise<RagIndex>;
}

/**
 * The documents of an evaluation, shared by every system so that all of them read the same ingest output and the
 * same embedder and vector backend: each document is ingested and indexed once (`prepareDocument`, cached by content
 * hash on disk), its RAG chunk index is built next to it once (`<docDir>/rag/`), and both stay loaded for the
 * systems that ask next (up to `maxOpen` documents).
 *
 * @example
 * ```ts
 * const documents = new EvalDocuments({ config });
 * const doc = await documents.prepare('/data/eval/dev/pdfs/3M_2018_10K.pdf');
 * const rag = await documents.ragIndex('/data/eval/dev/pdfs/3M_2018_10K.pdf');
 * ```
 */
export class EvalDocuments {
  readonly config: DocTreeConfig;
  readonly outDir: string;
  readonly #options: EvalDocumentsOptions & { maxOpen: number };
  #components: Promise<IndexComponents> | undefined;
  readonly #entries = new Map<string, Entry>();
  /** doc id → path, to give two different files of the same name different folders. */
  readonly #docIds = new Map<string, string>();

  /** @throws DocTreeError `CONFIG_INVALID` for a bad `maxOpen`. */
  constructor(options: EvalDocumentsOptions) {
    this.#options = { ...EVAL_DOCUMENTS_DEFAULTS, ...options };
    if (!Number.isInteger(this.#options.maxOpen) || this.#options.maxOpen < 1) {
      throw new DocTreeError('CONFIG_INVALID', `maxOpen must be a positive integer, got ${String(this.#options.maxOpen)}`);
    }
    this.config = options.config;
    this.outDir = resolve(options.outDir ?? join(options.config.data_dir, 'eval'));
  }

  /** The embedder, sparse backend, summarizer and vector backend every document is indexed with (created once). */
  components(): Promise<IndexComponents> {
    this.#components ??= (async () => {
      const { config } = this;
      const chat = this.#options.chat === undefined && !this.#options.components?.summarizer ? createChatClient(config) : (this.#options.chat ?? undefined);
      return createIndexComponents(config, {
        ...(this.#options.cacheDir !== undefined ? { cacheDir: this.#options.cacheDir } : {}),
        ...(chat ? { chat } : {}),
        ...(this.#options.components ? { given: this.#options.components } : {}),
      });
    })();
    this.#components.catch(() => (this.#components = undefined));
    return this.#components;
  }

  /** Ingests (when needed), indexes (when needed) and loads a document; concurrent calls share one preparation. */
  prepare(path: string, signal?: AbortSignal): Promise<PreparedDocument> {
    return this.#entry(path, signal).prepared;
  }

  /** The document's RAG chunk index (`<docDir>/rag/`), built when missing or stale, with the same embedder and backend. */
  ragIndex(path: string, signal?: AbortSignal): Promise<RagIndex> {
    const entry = this.#entry(path, signal);
    entry.rag ??= (async () => {
      const prepared = await entry.prepared;
      const { embedder, backend } = await this.components();
      this.#options.onProgress?.({ path: resolve(path), event: { stage: 'rag-index' } });
      await buildRagIndex(prepared.docDir, { embedder, backend, ...(signal ? { signal } : {}) });
      return loadRagIndex(prepared.docDir, { embedder, backend });
    })();
    entry.rag.catch(() => (entry.rag = undefined));
    return entry.rag;
  }

  #docIdFor(path: string): string {
    let docId = docIdFromFilename(path.split(/[\\/]/).pop() ?? path);
    if (!isValidDocId(docId)) docId = `doc-${createHash('sha256').update(path).digest('hex').slice(0, 12)}`;
    const owner = this.#docIds.get(docId);
    if (owner !== undefined && owner !== path) docId = `${docId}-${createHash('sha256').update(path).digest('hex').slice(0, 8)}`;
    this.#docIds.set(docId, path);
    return docId;
  }

  #entry(input: string, signal: AbortSignal | undefined): Entry {
    const path = resolve(input);
    const existing = this.#entries.get(path);
    if (existing !== undefined) {
      this.#entries.delete(path);
      this.#entries.set(path, existing); // most recently used last
      return existing;
    }
    const docId = this.#docIdFor(path);
    const prepared = (async () => {
      const components = await this.components();
      return prepareDocument(path, {
        config: this.config,
        outDir: this.outDir,
        docId,
        components,
        ...(this.#options.cacheDir !== undefined ? { cacheDir: this.#options.cacheDir } : {}),
        onProgress: (event) => this.#options.onProgress?.({ path, event }),
        ...(signal ? { signal } : {}),
      });
    })();
    const entry: Entry = { prepared };
    prepared.catch(() => {
      if (this.#entries.get(path) === entry) this.#entries.delete(path);
    });
    this.#entries.set(path, entry);
    while (this.#entries.size > this.#options.maxOpen) {
      const oldest = this.#entries.keys().next().value as string;
      this.#entries.delete(oldest);
    }
    return entry;
  }
}
