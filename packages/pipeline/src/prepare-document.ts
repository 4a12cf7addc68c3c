import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { DEFAULT_MAX_INPUT_BYTES, DOC_FILES, detectInputKind, docIdFromFilename, ingestFile, ingestLimitsFromConfig, ingestOcrFromConfig, isValidDocId, readInputFile, removeStaleTempFiles, type IngestInputKind, type IngestProgress, type IngestSummary } from '@doctree/ingest';
import { createChatClient } from '@doctree/agents';
import { assertVectorIndexFactory, buildDocIndex, INDEX_DIR, LlmSummarizer, loadDocIndex, readManifestIfValid, sha256Hex, type DocIndex, type IndexProgress, type LlmSummaryFallback, type LlmSummaryStats, type SparseBackend, type VectorIndexFactory } from '@doctree/index';
import { DocTreeError, resolveConfig, type ChatModelClient, type DocTreeConfig, type Embedder, type IndexManifest } from '@doctree/schema';
import { createIndexComponents, type IndexComponents } from './index-components.js';

/** Progress events of {@link prepareDocument}. */
export type PrepareProgress =
  | { stage: 'ingest'; event: IngestProgress }
  /** The document folder already holds the tree of this exact source file: not ingested again. */
  | { stage: 'ingest-cached'; docDir: string }
  | { stage: 'index'; event: IndexProgress }
  /** The index was damaged or unreadable; it is rebuilt once. */
  | { stage: 'index-repair'; reason: string }
  | { stage: 'load' };

/** Options of {@link prepareDocument}. */
export interface PrepareDocumentOptions {
  /** Resolved configuration (embedder, vector backend, data folder, LLM). Default: the built-in defaults (offline). */
  config?: DocTreeConfig;
  /** Dataset folder of ingested files: a file goes to `<outDir>/<docId>/`. Default `<config.data_dir>/default`. */
  outDir?: string;
  /** Document id (folder name) of an ingested file. Default: derived from the file name. */
  docId?: string;
  /** Password of an encrypted PDF. */
  password?: string;
  /** MinerU `middle.json` (page sizes) next to a `content_list.json`. */
  middlePath?: string;
  /** Ingest the file again and rebuild the index even when both are up to date. Default false. */
  force?: boolean;
  /**
   * Components to build and load with (embedder, sparse backend, summarizer, vector backend); parts given here win
   * over what {@link createIndexComponents} derives from `config`.
   */
  components?: Partial<IndexComponents>;
  /**
   * Dense embedder to build and query the index with, instead of `config.embedder` (e.g. a LangChain `Embeddings`
   * through `EmbedderFromLangChain` of `@doctree/langchain`, or your own `BaseEmbedder`). Its `initialize()` is called
   * first when it has one (it may learn its dimension there). Its id is recorded in the index: an index built with
   * another embedder is rebuilt. Same as `components.embedder`; this one wins.
   */
  embedder?: Embedder;
  /**
   * Vector indexes of your own for the three dense views: the index is built with `vectorIndex.create` and loaded with
   * `vectorIndex.load`, so every dense search of the agent runs on them (check yours with `runVectorIndexConformance`
   * of `@doctree/index/testing`). Its id is recorded in the index: an index built with other vector indexes is rebuilt.
   * Same as `components.vectorIndex`; this one wins. Default: the built-in indexes (`config.index.backend`).
   */
  vectorIndex?: VectorIndexFactory;
  /**
   * Sparse (BM25F) indexes of your own for the node and page views (`SparseBackend`: `id`, `build`, `load`; check the
   * indexes with `runSparseIndexConformance`). Its id is part of the index's config hash: another one rebuilds. Same as
   * `components.sparse`; this one wins. Default: `minisearchSparseBackend()`.
   */
  sparse?: SparseBackend;
  /**
   * Chat model for LLM-written summaries. Default: `createChatClient(config)` of `@doctree/agents` when an endpoint is
   * configured (`llm.provider: openai`), none offline. `null` keeps summaries extractive even with an endpoint.
   */
  chat?: ChatModelClient | null;
  /** Cache folder for LLM summaries and `openai` embeddings. Default `<config.data_dir>/.cache`. */
  cacheDir?: string;
  /** Validation of the loaded index (see `loadDocIndex`). Default `fast`. */
  validation?: 'fast' | 'full';
  onProgress?: (event: PrepareProgress) => void;
  /** Told of problems that do not stop the build (the LLM summary cache cannot be read or written). Default: a Node process warning. */
  onWarning?: (message: string) => void;
  signal?: AbortSignal;
}

/** A document ready to be asked: its folders, what was (re)done, and the loaded index. */
export interface PreparedDocument {
  docId: string;
  /** `<outDir>/<docId>` (or the folder given). */
  docDir: string;
  /** `<docDir>/index`. */
  indexDir: string;
  /** What the input was. */
  input: { path: string; kind: IngestInputKind | 'doc_dir'; sha256?: string };
  /** True when the input was ingested by this call; false when the folder already held its tree. */
  ingested: boolean;
  /** True when the index was (re)built by this call; false when the manifest matched (a no-op). */
  indexed: boolean;
  /** True when a damaged index was found and rebuilt. */
  repaired: boolean;
  manifest: IndexManifest;
  index: DocIndex;
  /** Ingest counts and warnings (only when ingested). */
  ingestSummary?: IngestSummary;
  /** Requests, cache hits and fallbacks of LLM summaries (only when the index was built with an LLM summarizer). */
  summaryStats?: LlmSummaryStats;
  /** Summary gists that fell back to the extractive one. */
  summaryFallbacks: LlmSummaryFallback[];
  /** Wall time per step, ms. */
  timings: { ingest: number; index: number; load: number; total: number };
}

const REPAIRABLE = new Set(['INDEX_CORRUPT', 'INDEX_MISSING', 'FORMAT_VERSION_UNSUPPORTED', 'SCHEMA_INVALID']);

/**
 * Makes a document ready to be asked: ingests a PDF, MinerU `content_list.json` or Markdown file when needed, builds
 * its index when needed, and loads the index.
 *
 * - Ingest is cached by the sha256 of the source file: when `<outDir>/<docId>/doctree.mm.json` was made from the same
 *   bytes it is reused (`force` ingests again). A document folder (holding `doctree.mm.json`) is used as it is.
 * - The index build is incremental (`buildDocIndex`): same tree and same configuration (embedder, records, summaries,
 *   sparse analysis) is a no-op; any change rebuilds.
 * - A damaged index (a file missing, truncated or unparsable, another format version) is rebuilt once
 *   (`repaired: true`); a second failure is thrown.
 *
 * @throws DocTreeError naming the file: `INPUT_NOT_FOUND`, `INPUT_UNSUPPORTED`, `PDF_*`, `CONFIG_*`, `INDEX_*`…
 */
export async function prepareDocument(input: string, options: PrepareDocumentOptions = {}): Promise<PreparedDocument> {
  const started = performance.now();
  const config = options.config ?? resolveConfig({}).config;
  const progress = options.onProgress ?? (() => undefined);
  const inputPath = resolve(input);
  const info = await stat(inputPath).catch((cause: unknown) => {
    throw new DocTreeError('INPUT_NOT_FOUND', 'no such file or folder', { file: inputPath, cause });
  });

  let docDir: string;
  let ingested = false;
  let ingestSummary: IngestSummary | undefined;
  let inputInfo: PreparedDocument['input'];
  let t = performance.now();
  if (info.isDirectory()) {
    docDir = inputPath;
    inputInfo = { path: inputPath, kind: 'doc_dir' };
    if (!(await isFile(join(docDir, DOC_FILES.tree)))) {
      throw new DocTreeError('INPUT_NOT_FOUND', `this folder holds no ${DOC_FILES.tree}`, { file: docDir, hint: 'Pass a PDF, content_list.json or Markdown file, or run `doctree ingest <file>` first.' });
    }
  } else {
    const limits = ingestLimitsFromConfig(config.ingest.limits);
    // Regular files only, under the size cap (a link to /dev/zero or a fifo is refused, not read forever).
    const bytes = await readInputFile(inputPath, {
      maxBytes: (head) => {
        if (limits.maxInputBytes !== undefined) return limits.maxInputBytes;
        try {
          return DEFAULT_MAX_INPUT_BYTES[detectInputKind(inputPath, head)];
        } catch {
          return DEFAULT_MAX_INPUT_BYTES.markdown;
        }
      },
      limitName: 'ingest.limits.max_input_bytes',
    });
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const kind = detectInputKind(inputPath, bytes);
    inputInfo = { path: inputPath, kind, sha256 };
    const outDir = resolve(options.outDir ?? join(config.data_dir, 'default'));
    const docId = options.docId ?? docIdFromFilename(basename(inputPath));
    if (!isValidDocId(docId)) throw new DocTreeError('USAGE', `invalid document id "${docId}"`, { hint: 'Use letters, digits, "-", "_" and "." only.' });
    docDir = join(outDir, docId);
    if (!options.force && (await treeSourceSha256(join(docDir, DOC_FILES.tree))) === sha256) {
      progress({ stage: 'ingest-cached', docDir });
    } else {
      const result = await ingestFile(inputPath, {
        outDir,
        ...limits,
        ...ingestOcrFromConfig(config.ingest.ocr),
        ...(options.docId !== undefined ? { docId: options.docId } : {}),
        ...(options.password !== undefined ? { password: options.password } : {}),
        ...(options.middlePath !== undefined ? { middlePath: options.middlePath } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
        onProgress: (event) => progress({ stage: 'ingest', event }),
      });
      docDir = result.docDir;
      ingested = true;
      ingestSummary = result.summary;
    }
  }
  const ingestMs = performance.now() - t;

  t = performance.now();
  const fallbacks: LlmSummaryFallback[] = [];
  const chat = options.chat === undefined && !options.components?.summarizer ? createChatClient(config) : (options.chat ?? undefined);
  const given = await givenComponents(options);
  const components = await createIndexComponents(config, {
    ...(options.cacheDir !== undefined ? { cacheDir: options.cacheDir } : {}),
    ...(chat ? { chat } : {}),
    ...(given ? { given } : {}),
    onSummaryFallback: (fallback) => fallbacks.push(fallback),
    ...(options.onWarning ? { onSummaryCacheWarning: options.onWarning } : {}),
  });
  // Index folders and files of a build that was killed (their process is gone) would stay forever.
  await removeStaleTempFiles(docDir);
  await removeStaleTempFiles(join(docDir, 'index'));
  const build = (force: boolean) =>
    buildDocIndex(docDir, {
      embedder: components.embedder,
      sparse: components.sparse,
      summarizer: components.summarizer,
      backend: components.backend,
      hnswMinVectors: components.hnswMinVectors,
      ...(components.vectorIndex !== undefined ? { vectorIndex: components.vectorIndex } : {}),
      force,
      onProgress: (event) => progress({ stage: 'index', event }),
      ...(options.signal ? { signal: options.signal } : {}),
    });
  let built = await build(Boolean(options.force));
  const indexMs = performance.now() - t;

  t = performance.now();
  progress({ stage: 'load' });
  const load = () =>
    loadDocIndex(docDir, {
      sparse: components.sparse,
      embedder: components.embedder,
      backend: components.backend,
      ...(components.vectorIndex !== undefined ? { vectorIndex: components.vectorIndex } : {}),
      validation: options.validation ?? 'fast',
    });
  let index: DocIndex;
  let repaired = false;
  try {
    index = await load();
  } catch (error) {
    if (!DocTreeError.isInstance(error) || !REPAIRABLE.has(error.code) || built.rebuilt) throw error;
    progress({ stage: 'index-repair', reason: error.toOneLine() });
    built = await build(true);
    repaired = true;
    index = await load();
  }
  const loadMs = performance.now() - t;
  const summarizer = components.summarizer;
  const summaryStats = built.rebuilt && summarizer instanceof LlmSummarizer ? summarizer.lastStats : undefined;
  return {
    docId: index.manifest.doc_id,
    docDir,
    indexDir: built.indexDir,
    input: inputInfo,
    ingested,
    indexed: built.rebuilt,
    repaired,
    manifest: index.manifest,
    index,
    ...(ingestSummary ? { ingestSummary } : {}),
    ...(summaryStats ? { summaryStats } : {}),
    summaryFallbacks: fallbacks,
    timings: { ingest: Math.round(ingestMs), index: Math.round(indexMs), load: Math.round(loadMs), total: Math.round(performance.now() - started) },
  };
}

/** `components` with `embedder` over it, the embedder initialised (so its id and dimension are known). */
async function givenComponents(options: PrepareDocumentOptions): Promise<Partial<IndexComponents> | undefined> {
  const parts: Partial<IndexComponents> | undefined =
    options.vectorIndex === undefined && options.sparse === undefined
      ? options.components
      : { ...options.components, ...(options.vectorIndex !== undefined ? { vectorIndex: options.vectorIndex } : {}), ...(options.sparse !== undefined ? { sparse: options.sparse } : {}) };
  if (parts?.vectorIndex !== undefined) assertVectorIndexFactory(parts.vectorIndex);
  if (parts?.sparse !== undefined) assertSparseBackend(parts.sparse);
  const embedder = options.embedder ?? parts?.embedder;
  if (embedder === undefined) return parts;
  if (typeof embedder !== 'object' || embedder === null || typeof embedder.embedDocuments !== 'function' || typeof embedder.embedQuery !== 'function') {
    throw new DocTreeError('USAGE', 'embedder must implement Embedder (id, dimension, embedDocuments, embedQuery)', { hint: 'Pass a DocTree embedder, e.g. new HashingEmbedder() or new EmbedderFromLangChain(embeddings).' });
  }
  const initialize = (embedder as { initialize?: unknown }).initialize;
  if (typeof initialize === 'function') await (initialize as () => Promise<void>).call(embedder);
  return { ...parts, embedder };
}

/** Checks a sparse backend given as an option (`USAGE` naming what is missing). */
function assertSparseBackend(value: unknown): void {
  const backend = value as Partial<SparseBackend> | null;
  if (typeof backend !== 'object' || backend === null || typeof backend.id !== 'string' || backend.id === '' || typeof backend.build !== 'function' || typeof backend.load !== 'function') {
    throw new DocTreeError('USAGE', 'sparse must implement SparseBackend (a non-empty id, build(docs), load(json, file))', {
      hint: 'Pass a SparseBackend such as minisearchSparseBackend() of @doctree/index, or your own whose indexes pass runSparseIndexConformance.',
    });
  }
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/**
 * `doc.source.sha256` of an existing `doctree.mm.json`, or undefined when absent or unreadable (then it is ingested
 * again). When the folder's index manifest was built from these very bytes (its `doctree_sha256`), its `source_sha256`
 * is that value: the tree (megabytes for a long filing) is then hashed, not parsed — one long blocking stretch less.
 */
async function treeSourceSha256(treePath: string): Promise<string | undefined> {
  let bytes: Buffer;
  try {
    bytes = await readFile(treePath);
  } catch {
    return undefined;
  }
  const manifest = await readManifestIfValid(join(dirname(treePath), INDEX_DIR)).catch(() => undefined);
  if (manifest !== undefined && manifest.doctree_sha256 === sha256Hex(bytes)) return manifest.source_sha256;
  try {
    const tree = JSON.parse(bytes.toString('utf8')) as { format?: unknown; doc?: { source?: { sha256?: unknown } } };
    const sha = tree.format === 'doctree.mm' ? tree.doc?.source?.sha256 : undefined;
    return typeof sha === 'string' ? sha : undefined;
  } catch {
    return undefined;
  }
}
