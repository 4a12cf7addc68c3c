import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { DocTreeError, type Embedder } from '@doctree/schema';
import { decodeVectorFile, encodeVectorFile } from '@doctree/index';
import { readJsonIfPresent, writeFileAtomic, writeJsonAtomic } from './io.js';
import type { ChildRecord } from './chunk-records.js';

/** `index/vectors.json`: which child each row of `index/vectors.dtvx` belongs to, and the embedder that made it. */
export const VectorsMetaSchema = z.object({
  format: z.literal('doctree.workspace-vectors'),
  version: z.literal(1),
  build_id: z.string(),
  embedder_id: z.string(),
  dimension: z.number().int().positive(),
  entries: z.array(z.object({ chunk_id: z.string(), hash: z.string() })),
});
/** `index/vectors.json`. */
export type VectorsMeta = z.infer<typeof VectorsMetaSchema>;

/** Child vectors in memory. */
export interface LoadedVectors {
  meta: VectorsMeta;
  /** Vector of each child id (L2-normalised). */
  byChunk: Map<string, Float32Array>;
  /** Vector of each child hash (for incremental embedding). */
  byHash: Map<string, Float32Array>;
}

/** Loads `index/vectors.{json,dtvx}`; `undefined` when not built. */
export async function loadVectors(metaFile: string, vectorFile: string): Promise<LoadedVectors | undefined> {
  const meta = await readJsonIfPresent(metaFile, VectorsMetaSchema, 'vector index');
  if (!meta) return undefined;
  let bytes: Uint8Array;
  try {
    bytes = await readFile(vectorFile);
  } catch (error) {
    throw new DocTreeError('INDEX_CORRUPT', 'the vector file is missing', { file: vectorFile, cause: error, hint: 'Run `doctree workspace embed` again.' });
  }
  const decoded = decodeVectorFile(bytes, vectorFile);
  if (decoded.count !== meta.entries.length || decoded.dimension !== meta.dimension) {
    throw new DocTreeError('INDEX_CORRUPT', `the vector file holds ${decoded.count}×${decoded.dimension} vectors, its sidecar names ${meta.entries.length}×${meta.dimension}`, {
      file: vectorFile,
      hint: 'Run `doctree workspace embed` again.',
    });
  }
  const byChunk = new Map<string, Float32Array>();
  const byHash = new Map<string, Float32Array>();
  meta.entries.forEach((entry, i) => {
    const v = decoded.vectors.subarray(i * meta.dimension, (i + 1) * meta.dimension);
    byChunk.set(entry.chunk_id, v);
    byHash.set(entry.hash, v);
  });
  return { meta, byChunk, byHash };
}

/** What {@link embedChildren} did. */
export interface EmbedOutcome {
  meta: VectorsMeta;
  reused: number;
  embedded: number;
}

/**
 * Embeds the children whose hash has no vector yet (from the same embedder) and writes the vector file and its
 * sidecar atomically (vectors first: a sidecar never names rows that are not there).
 */
export async function embedChildren(
  children: readonly ChildRecord[],
  embedder: Embedder,
  previous: LoadedVectors | undefined,
  files: { meta: string; vectors: string; buildId: string },
  signal?: AbortSignal,
): Promise<EmbedOutcome> {
  const reuse = previous && previous.meta.embedder_id === embedder.id && previous.meta.dimension === embedder.dimension ? previous.byHash : new Map<string, Float32Array>();
  const missing = new Map<string, string>();
  for (const child of children) if (!reuse.has(child.hash)) missing.set(child.hash, child.text);
  const texts = [...missing.values()];
  const vectors = texts.length > 0 ? await embedder.embedDocuments(texts, signal ? { signal } : {}) : [];
  const fresh = new Map<string, Float32Array>();
  [...missing.keys()].forEach((hash, i) => fresh.set(hash, vectors[i]!));
  const dim = embedder.dimension;
  const all = new Float32Array(children.length * dim);
  children.forEach((child, i) => {
    const v = reuse.get(child.hash) ?? fresh.get(child.hash);
    if (!v || v.length !== dim) throw new DocTreeError('EMBEDDER_MISMATCH', `the embedder returned a vector of length ${v?.length ?? 0} for ${child.chunk_id}, expected ${dim}`);
    all.set(v, i * dim);
  });
  const meta: VectorsMeta = {
    format: 'doctree.workspace-vectors',
    version: 1,
    build_id: files.buildId,
    embedder_id: embedder.id,
    dimension: dim,
    entries: children.map((c) => ({ chunk_id: c.chunk_id, hash: c.hash })),
  };
  await writeFileAtomic(files.vectors, encodeVectorFile(dim, all));
  await writeJsonAtomic(files.meta, meta);
  return { meta, reused: children.length - missing.size, embedded: missing.size };
}

/** Dot product of two L2-normalised vectors (their cosine). */
export function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}
