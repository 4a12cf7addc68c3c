// Swap the vector index: a VectorIndex of your own holds the document's dense views (built once, loaded on every open)
// and answers every dense search of the agent. A `VectorIndexFactory` says how to make an empty index and how to load a
// saved one; `runVectorIndexConformance` of `@doctree/index/testing` checks it. The index records the factory's id, so
// changing it rebuilds the dense views. (A sparse index of your own is the `sparse` option: a `SparseBackend`.)
//   node examples-dist/swap-the-vector-index.js [file.pdf]     (compiled; CI compiles and runs it offline)
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { readVectorIndexMeta, toVectorIndexMeta, writeFileAtomic, writeVectorIndexMeta, type VectorIndexFactory } from '@doctree/index';
import { openAgent } from '@doctree/pipeline';
import { DocTreeError, resolveConfig, type VectorHit, type VectorIndex, type VectorIndexInfo, type VectorMetric, type VectorSearchOptions } from '@doctree/schema';

/** A brute-force cosine index saved as JSON: a stand-in for your vector store (a stand-in; it counts its searches). */
class JsonScanIndex implements VectorIndex {
  static searches = 0;
  private readonly ids: string[] = [];
  private readonly vectors: Float32Array[] = [];

  constructor(private readonly options: { dimension: number; metric: VectorMetric; embedderId: string }) {}

  get info(): VectorIndexInfo {
    const { dimension, metric, embedderId } = this.options;
    return { backend: 'exact', kind: 'flat', metric, dimension, size: this.ids.length, embedderId };
  }

  add(ids: readonly string[], vectors: readonly Float32Array[]): void {
    const seen = new Set(this.ids);
    ids.forEach((id, i) => {
      if (vectors[i]?.length !== this.options.dimension) throw new DocTreeError('EMBEDDER_MISMATCH', `vector ${i} does not have dimension ${this.options.dimension}`);
      if (seen.has(id)) throw new DocTreeError('INTERNAL', `duplicate id ${JSON.stringify(id)}`);
      seen.add(id);
    });
    this.ids.push(...ids);
    this.vectors.push(...vectors);
  }

  search(query: Float32Array, { k, filter }: VectorSearchOptions): VectorHit[] {
    if (query.length !== this.options.dimension) throw new DocTreeError('EMBEDDER_MISMATCH', `the query does not have dimension ${this.options.dimension}`);
    JsonScanIndex.searches++;
    const l2 = this.options.metric === 'l2';
    const hits: VectorHit[] = [];
    this.vectors.forEach((vector, position) => {
      const id = this.ids[position]!;
      if (filter && !filter(id)) return;
      let score = 0;
      for (let i = 0; i < vector.length; i++) score += l2 ? -((query[i]! - vector[i]!) ** 2) : query[i]! * vector[i]!;
      hits.push({ id, score });
    });
    return hits.sort((a, b) => b.score - a.score).slice(0, k);
  }

  /** The vectors as JSON at `path`, the shared metadata (`<path>.meta.json`) beside them; both written atomically. */
  async save(path: string): Promise<void> {
    await writeFileAtomic(path, JSON.stringify({ ids: this.ids, vectors: this.vectors.map((v) => [...v]) }));
    await writeVectorIndexMeta(path, toVectorIndexMeta(this.info, this.ids));
  }

  static async load(path: string, expectedEmbedderId: string): Promise<JsonScanIndex> {
    const meta = await readVectorIndexMeta(path);
    if (meta.embedder_id !== expectedEmbedderId) throw new DocTreeError('EMBEDDER_MISMATCH', `built with ${meta.embedder_id}`, { file: path });
    const saved = JSON.parse(await readFile(path, 'utf8')) as { ids: string[]; vectors: number[][] };
    const index = new JsonScanIndex({ dimension: meta.dimension, metric: meta.metric, embedderId: meta.embedder_id });
    index.add(saved.ids, saved.vectors.map((v) => Float32Array.from(v)));
    return index;
  }
}

const jsonScan: VectorIndexFactory = {
  id: 'json-scan-v1',
  create: (options) => new JsonScanIndex(options),
  load: (path, { expectedEmbedderId }) => JsonScanIndex.load(path, expectedEmbedderId),
};

const sample = process.argv[2] ?? fileURLToPath(new URL('../data/samples/northwind-annual-report-2023.pdf', import.meta.url));
const { config } = resolveConfig({ env: process.env, overrides: { embedder: { kind: 'hashing' }, llm: { provider: 'none' } } });

const { agent, document } = await openAgent(sample, { config, vectorIndex: jsonScan });
const run = await agent.ask('What was the revenue of the Industrial Sensors segment in 2023?');

console.log(`vector index: ${document.manifest.vector_index?.id} (${document.index.vectors.leaf.info.size} leaf vectors), ${JsonScanIndex.searches} dense search(es)`);
console.log(`answer: ${JSON.stringify(run.answer.answer)} (pages ${run.answer.pages.join(', ')})`);
