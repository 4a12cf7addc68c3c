import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { loadVectorIndex } from '@doctree/index';
import { DocTreeError, parseJsonLines, parseWith, RAG_FORMAT_VERSION, RagChunkSchema, RagManifestSchema, RagParentSchema } from '@doctree/schema';
import type { Embedder, RagChunk, RagManifest, RagParent, VectorIndex } from '@doctree/schema';
import { definedOnly } from '../options.js';
import { RAG_DIR, RAG_FILES, ragVectorFileName } from './rag-index-files.js';

/** Options of {@link loadRagIndex}. */
export interface LoadRagIndexOptions {
  /** The query embedder; must be the one the index was built with (`EMBEDDER_MISMATCH` otherwise). */
  embedder?: Pick<Embedder, 'id' | 'dimension'>;
  /** Vector backend to load with. Default `auto` (faiss when it loads; faiss-built indexes also load exactly). */
  backend?: 'auto' | 'faiss' | 'exact';
}

/** Defaults of {@link LoadRagIndexOptions}. */
export const LOAD_RAG_INDEX_DEFAULTS = { backend: 'auto' } as const satisfies LoadRagIndexOptions;

/** A loaded RAG baseline index: everything {@link RagRetriever} and {@link RagSystem} need, in memory. */
export interface RagIndex {
  /** `<doc_dir>/rag`. */
  readonly ragDir: string;
  readonly manifest: RagManifest;
  /** Page parents in page order. */
  readonly parents: readonly RagParent[];
  /** Child chunks in reading order. */
  readonly chunks: readonly RagChunk[];
  readonly chunkById: ReadonlyMap<string, RagChunk>;
  /** Chunk vectors keyed by `chunk_id`. */
  readonly vectors: VectorIndex;
}

async function readText(path: string, hint: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (cause) {
    throw new DocTreeError('INDEX_MISSING', 'RAG index file missing', { file: path, cause, hint });
  }
}

/**
 * Loads `<docDir>/rag/` as built by {@link buildRagIndex}. Every record is validated (the files are small).
 *
 * @throws DocTreeError `INDEX_MISSING` (not built, or a file is gone), `FORMAT_VERSION_UNSUPPORTED` (another format or
 *   version: rebuild), `EMBEDDER_MISMATCH` (built with another embedder), `INDEX_CORRUPT` (truncated or inconsistent
 *   files), `BACKEND_UNAVAILABLE` (`faiss` requested but not loadable).
 */
export async function loadRagIndex(docDir: string, options: LoadRagIndexOptions = {}): Promise<RagIndex> {
  const o = { ...LOAD_RAG_INDEX_DEFAULTS, ...definedOnly(options) };
  const ragDir = join(docDir, RAG_DIR);
  const manifestPath = join(ragDir, RAG_FILES.manifest);
  const buildHint = 'Build it first with buildRagIndex(<doc_dir>, { embedder }).';
  const manifestText = await readText(manifestPath, buildHint);
  let raw: unknown;
  try {
    raw = JSON.parse(manifestText);
  } catch (cause) {
    throw new DocTreeError('INDEX_CORRUPT', `not valid JSON: ${(cause as Error).message}`, { file: manifestPath, cause, hint: 'Delete the rag/ folder and rebuild it.' });
  }
  const head = (raw ?? {}) as { format?: unknown; version?: unknown };
  if (head.format !== 'doctree.rag' || head.version !== RAG_FORMAT_VERSION) {
    throw new DocTreeError('FORMAT_VERSION_UNSUPPORTED', `RAG index format ${String(head.format)} v${String(head.version)} is not doctree.rag v${RAG_FORMAT_VERSION}`, {
      file: manifestPath,
      hint: 'Rebuild it with buildRagIndex(<doc_dir>, { embedder, force: true }).',
    });
  }
  const manifest = parseWith(RagManifestSchema, raw, { file: manifestPath, what: 'RAG manifest', code: 'INDEX_CORRUPT' });
  if (o.embedder && (o.embedder.id !== manifest.embedder.id || o.embedder.dimension !== manifest.embedder.dimension)) {
    throw new DocTreeError(
      'EMBEDDER_MISMATCH',
      `the RAG index was built with ${manifest.embedder.id} (d=${manifest.embedder.dimension}), not ${o.embedder.id} (d=${o.embedder.dimension})`,
      { file: manifestPath, hint: 'Query with the embedder the index was built with, or rebuild the RAG index with this one.' },
    );
  }
  const sizes = new Map(manifest.artifacts.map((a) => [a.name, a.bytes]));
  const read = async (name: string): Promise<string> => {
    const path = join(ragDir, name);
    const text = await readText(path, buildHint);
    const expected = sizes.get(name);
    if (expected !== undefined && Buffer.byteLength(text) !== expected) {
      throw new DocTreeError('INDEX_CORRUPT', `size ${Buffer.byteLength(text)} differs from the manifest (${expected})`, { file: path, hint: 'Delete the rag/ folder and rebuild it.' });
    }
    return text;
  };
  const [parentsText, chunksText] = await Promise.all([read(RAG_FILES.parents), read(RAG_FILES.chunks)]);
  const parents = parseJsonLines(RagParentSchema, parentsText, { file: join(ragDir, RAG_FILES.parents), what: 'RAG parent', code: 'INDEX_CORRUPT' });
  const chunks = parseJsonLines(RagChunkSchema, chunksText, { file: join(ragDir, RAG_FILES.chunks), what: 'RAG chunk', code: 'INDEX_CORRUPT' });
  const vectorPath = join(ragDir, ragVectorFileName(manifest.vector_backend));
  const vectors = await loadVectorIndex(vectorPath, { expectedEmbedderId: manifest.embedder.id, backend: o.backend });
  const chunkById = new Map(chunks.map((c) => [c.chunk_id, c]));
  if (vectors.info.size !== chunks.length || chunkById.size !== chunks.length || vectors.info.dimension !== manifest.embedder.dimension) {
    throw new DocTreeError('INDEX_CORRUPT', `the RAG index holds ${vectors.info.size} vectors for ${chunks.length} chunks (${chunkById.size} unique ids)`, {
      file: vectorPath,
      hint: 'Delete the rag/ folder and rebuild it.',
    });
  }
  return { ragDir, manifest, parents, chunks, chunkById, vectors };
}
