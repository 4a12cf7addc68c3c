import { createHash } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { artifactsMatch, canonicalJson, createVectorIndex, decodeVectorFile, readVectorIndexMeta, readValidJsonIfPresent, swapDirectory, temporaryPathFor, vectorSidecarPath } from '@doctree/index';
import { DocTreeError, DocTreeSchema, parseJsonWith, RAG_FORMAT_VERSION, RagManifestSchema } from '@doctree/schema';
import type { Embedder, IndexArtifact, RagChunk, RagManifest } from '@doctree/schema';
import { chunkDocTree, chunkingRecord, CHUNK_DOC_TREE_DEFAULTS, embeddingText, type ChunkDocTreeOptions } from '../chunking/chunk-doc-tree.js';
import { definedOnly } from '../options.js';
import { RAG_DIR, RAG_FILES, ragVectorFileName } from './rag-index-files.js';

/** Progress events of {@link buildRagIndex}. */
export type RagIndexProgress = { stage: 'chunk' } | { stage: 'embed'; done: number; total: number } | { stage: 'write' };

/** Options of {@link buildRagIndex}. */
export interface BuildRagIndexOptions {
  /** Embeds the chunks; use the same embedder as the DocTree index for a fair comparison. Its id and dimension go into the manifest. */
  embedder: Embedder;
  /** Vector backend: `auto` uses faiss-node when it loads, else the exact index. Default `auto`. */
  backend?: 'auto' | 'faiss' | 'exact';
  /** Chunk sizes (part of the config hash). Default: packages/rag-baseline/README.md: 80/200/300 tokens, overlap ≤ 10 %. */
  chunking?: ChunkDocTreeOptions;
  /** Rebuild even when the manifest says the index is up to date. Default false. */
  force?: boolean;
  /** Reuse the vectors of chunks whose text did not change since the previous build (same embedder). Default true. */
  reuseVectors?: boolean;
  /** Called at each stage and after each embedding batch. */
  onProgress?: (event: RagIndexProgress) => void;
  /** Cancels the build (`CANCELLED`); nothing is written. */
  signal?: AbortSignal;
}

/** Defaults of {@link BuildRagIndexOptions}. */
export const BUILD_RAG_INDEX_DEFAULTS = {
  backend: 'auto',
  chunking: {},
  force: false,
  reuseVectors: true,
} as const satisfies Partial<BuildRagIndexOptions>;

/** Result of {@link buildRagIndex}. */
export interface BuildRagIndexResult {
  /** `<doc_dir>/rag`. */
  ragDir: string;
  manifest: RagManifest;
  /** False when the existing index matched (same tree, same configuration): nothing was done. */
  rebuilt: boolean;
}

const sha256 = (data: string | Uint8Array): string => createHash('sha256').update(data).digest('hex');

/** Hash of everything that changes the RAG index's content: format version, embedder and chunking. */
export function ragConfigHash(embedder: Pick<Embedder, 'id' | 'dimension'>, chunking: ChunkDocTreeOptions = {}): string {
  return sha256(
    canonicalJson({
      format: 'doctree.rag',
      version: RAG_FORMAT_VERSION,
      embedder: { id: embedder.id, dimension: embedder.dimension },
      chunking: { ...CHUNK_DOC_TREE_DEFAULTS, ...definedOnly(chunking) },
    }),
  );
}

const jsonl = (rows: readonly unknown[]): string => rows.map((r) => JSON.stringify(r)).join('\n') + (rows.length > 0 ? '\n' : '');

/**
 * Builds the RAG baseline index of a document folder: reads `<docDir>/doctree.mm.json` (the same ingest output
 * DocTree uses), cuts it with {@link chunkDocTree}, embeds every chunk, and writes `<docDir>/rag/` —
 * `parents.jsonl`, `chunks.jsonl`, the chunk vectors (`chunks.faiss` or `chunks.vectors`) and `manifest.json`
 * (format, version, embedder, config hash, tree and source hashes, artifact sizes and hashes).
 *
 * Incremental: when the manifest's tree hash and config hash match and its files are intact nothing is done;
 * otherwise chunks whose text is unchanged keep their previous vectors. Atomic: everything is written to a
 * temporary folder that replaces `rag/` only when complete, so a failed or cancelled build leaves the old index.
 *
 * @throws DocTreeError `INPUT_NOT_FOUND` (no tree), `SCHEMA_INVALID` (bad tree), `CONFIG_INVALID` (bad chunk sizes),
 *   `BACKEND_UNAVAILABLE` (`faiss` requested but not loadable), `CANCELLED`, `IO_WRITE_FAILED`, and the embedder's errors.
 */
export async function buildRagIndex(docDir: string, options: BuildRagIndexOptions): Promise<BuildRagIndexResult> {
  const o = { ...BUILD_RAG_INDEX_DEFAULTS, ...definedOnly(options) };
  const embedder = o.embedder;
  if (!embedder || typeof embedder.embedDocuments !== 'function') {
    throw new DocTreeError('USAGE', 'buildRagIndex needs an embedder', { hint: 'Pass { embedder } (e.g. new HashingEmbedder() from @doctree/index).' });
  }
  const progress = o.onProgress ?? (() => undefined);
  const checkAbort = (): void => {
    if (o.signal?.aborted) throw new DocTreeError('CANCELLED', 'RAG index build cancelled', { file: docDir, cause: o.signal.reason });
  };
  const treePath = join(docDir, 'doctree.mm.json');
  let treeBytes: Buffer;
  try {
    treeBytes = await readFile(treePath);
  } catch (cause) {
    throw new DocTreeError('INPUT_NOT_FOUND', 'no doctree.mm.json in this folder', { file: treePath, cause, hint: 'Run `doctree ingest <file>` first.' });
  }
  // An embedder that learns its dimension from the endpoint (OpenAI without a configured dimension) does so here.
  await (embedder as Partial<{ initialize(): Promise<void> }>).initialize?.();
  const treeHash = sha256(treeBytes);
  const chunking = chunkingRecord(o.chunking);
  const configHash = ragConfigHash(embedder, o.chunking);
  const ragDir = join(docDir, RAG_DIR);
  const previous = await readRagManifestIfValid(ragDir);
  if (!o.force && previous && previous.doctree_sha256 === treeHash && previous.config_hash === configHash && (await artifactsMatch(ragDir, previous.artifacts))) {
    return { ragDir, manifest: previous, rebuilt: false };
  }
  const tree = parseJsonWith(DocTreeSchema, treeBytes.toString('utf8'), { file: treePath, what: 'DocTree', name: 'doctree.mm.json' });
  const timings: Record<string, number> = {};
  const timed = async <T>(name: string, work: () => Promise<T> | T): Promise<T> => {
    const started = performance.now();
    const out = await work();
    timings[name] = Math.round(performance.now() - started);
    return out;
  };

  progress({ stage: 'chunk' });
  const { parents, chunks } = await timed('chunk', () => chunkDocTree(tree, o.chunking));
  checkAbort();

  const reusable = o.reuseVectors && previous && previous.embedder.id === embedder.id && previous.embedder.dimension === embedder.dimension ? await previousVectors(ragDir, previous) : new Map<string, Float32Array>();
  const vectors: Array<Float32Array | undefined> = chunks.map((c) => reusable.get(c.hash));
  const missing = chunks.map((c, i) => (vectors[i] === undefined ? i : -1)).filter((i) => i >= 0);
  await timed('embed', async () => {
    if (missing.length === 0) return;
    const embedded = await embedder.embedDocuments(
      missing.map((i) => embeddingText(chunks[i]!)),
      { ...(o.signal ? { signal: o.signal } : {}), onProgress: (done, total) => progress({ stage: 'embed', done, total }) },
    );
    missing.forEach((chunkIndex, k) => (vectors[chunkIndex] = embedded[k]));
  });
  checkAbort();

  progress({ stage: 'write' });
  const temp = temporaryPathFor(ragDir);
  try {
    await mkdir(temp, { recursive: true });
    const index = await createVectorIndex({ backend: o.backend, kind: 'flat', metric: 'inner_product', dimension: embedder.dimension, embedderId: embedder.id });
    const vectorFile = ragVectorFileName(index.info.backend);
    const files: Array<[name: string, data: string, records: number]> = [
      [RAG_FILES.parents, jsonl(parents), parents.length],
      [RAG_FILES.chunks, jsonl(chunks), chunks.length],
    ];
    await timed('write', async () => {
      for (const [name, data] of files) await writeFile(join(temp, name), data);
      if (chunks.length > 0) index.add(chunks.map((c) => c.chunk_id), vectors as Float32Array[]);
      await index.save(join(temp, vectorFile));
    });
    const artifacts: IndexArtifact[] = files.map(([name, data, records]) => ({ name, bytes: Buffer.byteLength(data), sha256: sha256(data), records }));
    const vectorBytes = await readFile(join(temp, vectorFile));
    artifacts.push({ name: vectorFile, bytes: vectorBytes.byteLength, sha256: sha256(vectorBytes), records: chunks.length });
    const createdAt = new Date().toISOString();
    const manifest: RagManifest = {
      format: 'doctree.rag',
      version: RAG_FORMAT_VERSION,
      doc_id: tree.doc.doc_id,
      build_id: `${createdAt.replace(/[-:.]/g, '').slice(0, 15)}-${configHash.slice(0, 8)}`,
      created_at: createdAt,
      config_hash: configHash,
      doctree_sha256: treeHash,
      source_sha256: tree.doc.source.sha256,
      embedder: { id: embedder.id, dimension: embedder.dimension },
      vector_backend: index.info.backend,
      chunking,
      counts: { parents: parents.length, chunks: chunks.length, embedded: missing.length, reused: chunks.length - missing.length },
      artifacts,
      timings_ms: timings,
      generator: '@doctree/rag-baseline@0.1.0',
    };
    await writeFile(join(temp, RAG_FILES.manifest), JSON.stringify(manifest, null, 2));
    checkAbort();
    await swapDirectory(temp, ragDir);
    return { ragDir, manifest, rebuilt: true };
  } catch (error) {
    await rm(temp, { recursive: true, force: true });
    throw DocTreeError.from(error, 'IO_WRITE_FAILED', { file: ragDir });
  }
}

/** Reads `rag/manifest.json` when present and valid; undefined otherwise (a full rebuild follows). */
export async function readRagManifestIfValid(ragDir: string): Promise<RagManifest | undefined> {
  return readValidJsonIfPresent(join(ragDir, RAG_FILES.manifest), RagManifestSchema);
}

/** Vectors of the previous build by chunk hash; empty when anything is missing or damaged (everything is re-embedded). */
async function previousVectors(ragDir: string, manifest: RagManifest): Promise<Map<string, Float32Array>> {
  const out = new Map<string, Float32Array>();
  try {
    const chunks = (await readFile(join(ragDir, RAG_FILES.chunks), 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Pick<RagChunk, 'chunk_id' | 'hash'>);
    const hashById = new Map(chunks.map((c) => [c.chunk_id, c.hash]));
    const path = join(ragDir, ragVectorFileName(manifest.vector_backend));
    const meta = await readVectorIndexMeta(path);
    if (meta.embedder_id !== manifest.embedder.id) return out;
    const file = meta.backend === 'exact' ? path : vectorSidecarPath(path);
    const decoded = decodeVectorFile(new Uint8Array(await readFile(file)), file);
    if (decoded.count !== meta.ids.length || decoded.dimension !== manifest.embedder.dimension) return out;
    meta.ids.forEach((id, i) => {
      const hash = hashById.get(id);
      if (hash !== undefined) out.set(hash, decoded.vectors.slice(i * decoded.dimension, (i + 1) * decoded.dimension));
    });
  } catch {
    out.clear();
  }
  return out;
}
