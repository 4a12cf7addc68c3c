import { createHash } from 'node:crypto';
import { readdir, readFile, rm, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  DocTreeError,
  DocTreeSchema,
  INDEX_FORMAT_VERSION,
  IndexManifestSchema,
  parseJsonWith,
  type DocPages,
  type Embedder,
  type IndexArtifact,
  type IndexManifest,
} from '@doctree/schema';
import { swapDirectory, temporaryPathFor } from '../io/atomic-write.js';
import { artifactsMatch, readValidJsonIfPresent } from '../io/build-manifest.js';
import { buildPageRecords, type PageRecords } from '../records/page-records.js';
import { buildIndexRecords, type IndexRecordOptions, type IndexRecords } from '../records/record-builder.js';
import type { DocSummarizer } from '../summaries/base-summarizer.js';
import { ExtractiveSummarizer } from '../summaries/extractive-doc-summarizer.js';
import { assertVectorIndexFactory, BUILTIN_VECTOR_INDEX_FACTORY_ID, builtinVectorIndexFactory, type VectorIndexFactory } from '../vector/vector-index-factory.js';
import { canonicalJson } from './canonical-json.js';
import { customVectorFileName, INDEX_DIR, INDEX_FILES, VECTOR_VIEWS, vectorFileName, type VectorView } from './index-files.js';
import type { SparseBackend } from './sparse-backend.js';

/** Progress events of {@link buildDocIndex}. */
export type IndexProgress =
  | { stage: 'summaries'; done: number; total: number }
  | { stage: 'records' }
  | { stage: 'embed'; view: VectorView; done: number; total: number }
  | { stage: 'sparse' }
  | { stage: 'write' };

/** Options of {@link buildDocIndex}. */
export interface BuildDocIndexOptions {
  /** Embeds every dense view; its id and dimension go into the manifest. */
  embedder: Embedder;
  /** BM25F sparse index implementation. */
  sparse: SparseBackend;
  /** Vector backend: `auto` uses faiss-node when it loads. Default `auto`. Not used when `vectorIndex` is given. */
  backend?: 'auto' | 'faiss' | 'exact';
  /**
   * The vector indexes of the dense views, your own instead of the built-in ones (faiss-node or exact): each view's
   * index comes from `vectorIndex.create`, is saved as `<view>.custom-vectors` and its id is recorded in the manifest
   * (`vector_index.id`) and the config hash (another factory rebuilds). Load such an index with the same factory
   * (`loadDocIndex(dir, { vectorIndex })`). Default: the built-in indexes of `backend`.
   */
  vectorIndex?: VectorIndexFactory;
  /** Use HNSW from this many vectors per view; flat (exact inner product) below. Default 50 000. */
  hnswMinVectors?: number;
  /** Record-builder options (part of the config hash). */
  records?: IndexRecordOptions;
  /** Writes `summary.json`; its `id` is part of the config hash. Default: {@link ExtractiveSummarizer} (MMR gists). */
  summarizer?: DocSummarizer;
  /** Rebuild even when the manifest says the index is up to date. Default false. */
  force?: boolean;
  onProgress?: (event: IndexProgress) => void;
  signal?: AbortSignal;
}

/** Result of {@link buildDocIndex}. */
export interface BuildDocIndexResult {
  indexDir: string;
  manifest: IndexManifest;
  /** False when the existing index matched (same tree, same configuration): nothing was done. */
  rebuilt: boolean;
  /** Records built (only when rebuilt). */
  records?: IndexRecords;
  /** Page documents and page facts built (only when rebuilt). */
  pages?: PageRecords;
}

const DEFAULT_SUMMARIZER = new ExtractiveSummarizer();

const sha256 = (data: string | Uint8Array): string => createHash('sha256').update(data).digest('hex');

/** The configuration hash of an index build: embedder, records, sparse analysis, summaries and format version. */
export function indexConfigHash(options: Pick<BuildDocIndexOptions, 'embedder' | 'sparse' | 'records' | 'summarizer' | 'hnswMinVectors' | 'vectorIndex'>): string {
  const vectorIndex = customVectorIndexId(options.vectorIndex);
  return sha256(
    canonicalJson({
      format: INDEX_FORMAT_VERSION,
      embedder: { id: options.embedder.id, dimension: options.embedder.dimension },
      sparse: options.sparse.id,
      records: options.records ?? {},
      summarizer: (options.summarizer ?? DEFAULT_SUMMARIZER).id,
      hnsw_min_vectors: options.hnswMinVectors ?? 50_000,
      // Only a vector index of your own is hashed, so that indexes built with the built-in ones are not rebuilt.
      ...(vectorIndex !== undefined ? { vector_index: vectorIndex } : {}),
    }),
  );
}

/** The id of a factory other than the built-in one, or undefined. */
function customVectorIndexId(factory: VectorIndexFactory | undefined): string | undefined {
  return factory === undefined || factory.id === BUILTIN_VECTOR_INDEX_FACTORY_ID ? undefined : factory.id;
}

const jsonl = (rows: readonly unknown[]): string => rows.map((r) => JSON.stringify(r)).join('\n') + (rows.length > 0 ? '\n' : '');

/**
 * Builds `<docDir>/index/` from `<docDir>/doctree.mm.json`: summaries, docs/design/index-features.md §3 records, the page view (one BM25F
 * document per page, `pages.json`), BM25F indexes, the three vector views and `manifest.json`. Incremental: when the
 * manifest's tree hash and config hash match and every file it lists has its recorded size and sha256 (so a file
 * damaged in place, even keeping its size, is rebuilt), nothing is rebuilt; an index of another format version is rebuilt.
 * Atomic: everything is written to a temporary folder that replaces `index/` only when complete.
 */
export async function buildDocIndex(docDir: string, options: BuildDocIndexOptions): Promise<BuildDocIndexResult> {
  const progress = options.onProgress ?? (() => undefined);
  if (options.vectorIndex !== undefined) assertVectorIndexFactory(options.vectorIndex);
  const customVectors = customVectorIndexId(options.vectorIndex);
  const vectorFactory = options.vectorIndex ?? builtinVectorIndexFactory({ backend: options.backend ?? 'auto' });
  const treePath = join(docDir, 'doctree.mm.json');
  let treeBytes: Buffer;
  try {
    treeBytes = await readFile(treePath);
  } catch (cause) {
    throw new DocTreeError('INPUT_NOT_FOUND', 'no doctree.mm.json in this folder', { file: treePath, cause, hint: 'Run `doctree ingest <file>` first.' });
  }
  const treeHash = sha256(treeBytes);
  const configHash = indexConfigHash(options);
  const indexDir = join(docDir, INDEX_DIR);
  if (!options.force) {
    const existing = await readManifestIfValid(indexDir);
    if (existing && existing.doctree_sha256 === treeHash && existing.config_hash === configHash && (await artifactsMatch(indexDir, existing.artifacts))) {
      return { indexDir, manifest: existing, rebuilt: false };
    }
  }
  const tree = parseJsonWith(DocTreeSchema, treeBytes.toString('utf8'), { file: treePath, what: 'DocTree', name: 'doctree.mm.json' });
  const timings: Record<string, number> = {};
  const time = async <T>(name: string, work: () => Promise<T> | T): Promise<T> => {
    const t = performance.now();
    const out = await work();
    timings[name] = Math.round(performance.now() - t);
    return out;
  };
  const checkAbort = (): void => {
    if (options.signal?.aborted) throw new DocTreeError('CANCELLED', 'index build cancelled', { file: docDir });
  };

  const summarizer = options.summarizer ?? DEFAULT_SUMMARIZER;
  const summary = await time('summaries', () =>
    summarizer.summarize(tree, {
      ...(options.signal ? { signal: options.signal } : {}),
      onProgress: ({ done, total }) => progress({ stage: 'summaries', done, total }),
    }),
  );
  checkAbort();
  progress({ stage: 'records' });
  const records = await time('records', () => buildIndexRecords(tree, summary, options.records));
  checkAbort();

  const texts: Record<VectorView, { ids: string[]; texts: string[] }> = {
    coarse: { ids: records.denseCoarse.map((r) => r.node_id), texts: records.denseCoarse.map((r) => r.dense_text) },
    leaf: { ids: records.denseLeaf.map((r) => r.node_id), texts: records.denseLeaf.map((r) => r.dense_text) },
    leaf_raw: { ids: records.denseLeaf.map((r) => r.node_id), texts: records.denseLeaf.map((r) => r.raw_text) },
  };
  const vectors = {} as Record<VectorView, Float32Array[]>;
  await time('embed', async () => {
    for (const view of VECTOR_VIEWS) {
      const { texts: batch } = texts[view];
      vectors[view] = await options.embedder.embedDocuments(batch, {
        ...(options.signal ? { signal: options.signal } : {}),
        onProgress: (done, total) => progress({ stage: 'embed', view, done, total }),
      });
    }
  });
  checkAbort();
  progress({ stage: 'sparse' });
  const pages = await time('pages', () => buildPageRecords(tree));
  const pagesFile: DocPages = { format: 'doctree.pages', version: INDEX_FORMAT_VERSION, doc_id: tree.doc.doc_id, pages: pages.pages };
  const [bm25Coarse, bm25Leaf, bm25Pages] = await time('sparse', () => [
    options.sparse.build(records.sparseCoarse),
    options.sparse.build(records.sparseLeaf),
    options.sparse.build(pages.docs),
  ]);

  progress({ stage: 'write' });
  const temp = temporaryPathFor(indexDir);
  let backendUsed: 'faiss' | 'exact' = 'exact';
  const vectorFiles = new Map<VectorView, string>();
  try {
    await mkdir(temp, { recursive: true });
    // Each file's text is encoded to UTF-8 once: the same bytes are written, measured and hashed.
    const fileTexts: Array<[string, string, number | undefined]> = [
      [INDEX_FILES.summary, JSON.stringify(summary, null, 2), summary.sections.length],
      [INDEX_FILES.denseCoarse, jsonl(records.denseCoarse), records.denseCoarse.length],
      [INDEX_FILES.denseLeaf, jsonl(records.denseLeaf), records.denseLeaf.length],
      [INDEX_FILES.sparseCoarse, jsonl(records.sparseCoarse), records.sparseCoarse.length],
      [INDEX_FILES.sparseLeaf, jsonl(records.sparseLeaf), records.sparseLeaf.length],
      [INDEX_FILES.sparsePages, jsonl(pages.docs), pages.docs.length],
      [INDEX_FILES.pages, JSON.stringify(pagesFile), pages.pages.length],
      [INDEX_FILES.edges, jsonl(records.edges), records.edges.length],
      [INDEX_FILES.idMaps, JSON.stringify(records.idMaps, null, 2), Object.keys(records.idMaps.label2id).length],
      [INDEX_FILES.bm25Coarse, JSON.stringify(bm25Coarse.toJSON()), bm25Coarse.size],
      [INDEX_FILES.bm25Leaf, JSON.stringify(bm25Leaf.toJSON()), bm25Leaf.size],
      [INDEX_FILES.bm25Pages, JSON.stringify(bm25Pages.toJSON()), bm25Pages.size],
    ];
    const files = fileTexts.map(([name, text, count]): [string, Buffer, number | undefined] => [name, Buffer.from(text, 'utf8'), count]);
    await time('write', async () => {
      for (const [name, data] of files) await writeFile(join(temp, name), data);
      for (const view of VECTOR_VIEWS) {
        const { ids } = texts[view];
        const kind = ids.length >= (options.hnswMinVectors ?? 50_000) ? 'hnsw' : 'flat';
        const index = await vectorFactory.create({ kind, metric: 'inner_product', dimension: options.embedder.dimension, embedderId: options.embedder.id });
        if (ids.length > 0) index.add(ids, vectors[view]);
        backendUsed = index.info.backend === 'faiss' ? 'faiss' : 'exact';
        const name = customVectors !== undefined ? customVectorFileName(view) : vectorFileName(view, backendUsed);
        vectorFiles.set(view, name);
        await index.save(join(temp, name));
      }
    });
    const artifacts: IndexArtifact[] = [];
    for (const [name, data, count] of files) artifacts.push({ name, bytes: data.byteLength, sha256: sha256(data), ...(count !== undefined ? { records: count } : {}) });
    for (const view of VECTOR_VIEWS) {
      const name = vectorFiles.get(view) ?? vectorFileName(view, backendUsed);
      const data = await readFile(join(temp, name));
      artifacts.push({ name, bytes: data.byteLength, sha256: sha256(data), records: texts[view].ids.length });
    }
    // Every other file the vector backends wrote (`*.meta.json`, raw-vector sidecars): listed so that a missing or
    // truncated one is noticed (the next build rebuilds, the loader refuses).
    for (const name of (await readdir(temp)).sort()) {
      if (artifacts.some((a) => a.name === name)) continue;
      const data = await readFile(join(temp, name));
      artifacts.push({ name, bytes: data.byteLength, sha256: sha256(data) });
    }
    const manifest: IndexManifest = {
      format: 'doctree.index',
      version: INDEX_FORMAT_VERSION,
      doc_id: tree.doc.doc_id,
      build_id: `${new Date().toISOString().replace(/[-:.]/g, '').slice(0, 15)}-${configHash.slice(0, 8)}`,
      created_at: new Date().toISOString(),
      config_hash: configHash,
      doctree_sha256: treeHash,
      source_sha256: tree.doc.source.sha256,
      embedder: { id: options.embedder.id, dimension: options.embedder.dimension },
      vector_backend: backendUsed,
      ...(customVectors !== undefined ? { vector_index: { id: customVectors } } : {}),
      artifacts,
      timings_ms: timings,
      generator: '@doctree/index@0.1.0',
    };
    await writeFile(join(temp, INDEX_FILES.manifest), JSON.stringify(manifest, null, 2));
    await swapDirectory(temp, indexDir);
    return { indexDir, manifest, rebuilt: true, records, pages };
  } catch (error) {
    await rm(temp, { recursive: true, force: true });
    throw DocTreeError.from(error, 'IO_WRITE_FAILED', { file: indexDir });
  }
}

/** Reads `manifest.json` when present and valid; undefined otherwise (a rebuild follows). */
export async function readManifestIfValid(indexDir: string): Promise<IndexManifest | undefined> {
  return readValidJsonIfPresent(join(indexDir, INDEX_FILES.manifest), IndexManifestSchema);
}
