import { readFile } from 'node:fs/promises';
import { DocTreeError, type VectorHit, type VectorIndex, type VectorIndexInfo, type VectorMetric, type VectorSearchOptions } from '@doctree/schema';
import { writeFileAtomic } from '../../io/atomic-write.js';
import type { VectorIndexFactory } from '../vector-index-factory.js';
import { readVectorIndexMeta, toVectorIndexMeta, writeVectorIndexMeta } from '../vector-file-format.js';

/**
 * A vector index written the way a user would write one, for the specs: a brute-force scan saved as JSON (not the
 * built-in binary format), counting its searches.
 */
export class JsonVectorIndex implements VectorIndex {
  readonly ids: string[] = [];
  readonly vectors: Float32Array[] = [];
  searches = 0;

  constructor(readonly options: { dimension: number; metric: VectorMetric; embedderId: string }) {}

  get info(): VectorIndexInfo {
    return { backend: 'exact', kind: 'flat', metric: this.options.metric, dimension: this.options.dimension, size: this.ids.length, embedderId: this.options.embedderId };
  }

  add(ids: readonly string[], vectors: readonly Float32Array[]): void {
    const seen = new Set(this.ids);
    ids.forEach((id, i) => {
      if (vectors[i]?.length !== this.options.dimension) throw new DocTreeError('EMBEDDER_MISMATCH', `vector ${i} does not have dimension ${this.options.dimension}`);
      if (seen.has(id)) throw new DocTreeError('INTERNAL', `duplicate id ${JSON.stringify(id)}`);
      seen.add(id);
    });
    this.ids.push(...ids);
    this.vectors.push(...vectors.map((v) => Float32Array.from(v)));
  }

  search(query: Float32Array, options: VectorSearchOptions): VectorHit[] {
    if (query.length !== this.options.dimension) throw new DocTreeError('EMBEDDER_MISMATCH', `the query does not have dimension ${this.options.dimension}`);
    this.searches++;
    const l2 = this.options.metric === 'l2';
    const hits: VectorHit[] = [];
    this.vectors.forEach((vector, position) => {
      const id = this.ids[position]!;
      if (options.filter && !options.filter(id)) return;
      let score = 0;
      for (let i = 0; i < vector.length; i++) score += l2 ? -((query[i]! - vector[i]!) ** 2) : query[i]! * vector[i]!;
      hits.push({ id, score });
    });
    return hits.sort((a, b) => b.score - a.score).slice(0, Math.max(0, Math.floor(options.k)));
  }

  async save(path: string): Promise<void> {
    await writeFileAtomic(path, JSON.stringify({ ids: this.ids, vectors: this.vectors.map((v) => [...v]) }));
    await writeVectorIndexMeta(path, toVectorIndexMeta(this.info, this.ids));
  }
}

/** A {@link VectorIndexFactory} of {@link JsonVectorIndex}es, remembering every index it made or loaded. */
export function jsonVectorIndexFactory(id = 'json-scan-v1'): VectorIndexFactory & { made: JsonVectorIndex[] } {
  const made: JsonVectorIndex[] = [];
  return {
    id,
    made,
    create(options) {
      const index = new JsonVectorIndex(options);
      made.push(index);
      return index;
    },
    async load(path, options) {
      const meta = await readVectorIndexMeta(path);
      if (meta.embedder_id !== options.expectedEmbedderId) throw new DocTreeError('EMBEDDER_MISMATCH', `built with ${meta.embedder_id}`, { file: path });
      const saved = JSON.parse(await readFile(path, 'utf8')) as { ids: string[]; vectors: number[][] };
      const index = new JsonVectorIndex({ dimension: meta.dimension, metric: meta.metric, embedderId: meta.embedder_id });
      index.add(saved.ids, saved.vectors.map((v) => Float32Array.from(v)));
      made.push(index);
      return index;
    },
  };
}
