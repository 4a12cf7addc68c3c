import { copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ExactVectorIndex, loadVectorIndex, minisearchSparseBackend, type SparseBackend, type VectorIndexFactory } from '@doctree/index';
import { DocTreeError, resolveConfig, type VectorHit, type VectorIndex, type VectorSearchOptions } from '@doctree/schema';
import { replayToolCalls } from '@doctree/toolhub';
import { openAgent } from './ask-question.js';
import { prepareDocument } from './prepare-document.js';

// End-to-end (ingest, index, agent): a safety bound for a loaded machine.
jest.setTimeout(60_000);

const SAMPLE_PDF = join(__dirname, '../../../data/samples/northwind-annual-report-2023.pdf');
const QUESTION = 'What was the revenue of the Industrial Sensors segment in 2023?';

/**
 * A vector index of one's own: exact search underneath, but it ranks the LEAST similar vectors first, so that its use
 * shows in the agent's dense hits; it counts its searches and keeps the ids it returned.
 */
class ContraryIndex implements VectorIndex {
  searches = 0;
  readonly returned = new Set<string>();
  constructor(private readonly inner: VectorIndex) {}
  get info() {
    return this.inner.info;
  }
  add(ids: readonly string[], vectors: readonly Float32Array[]): void {
    this.inner.add(ids, vectors);
  }
  search(query: Float32Array, options: VectorSearchOptions): VectorHit[] {
    this.searches++;
    const all = this.inner.search(query, { ...options, k: this.inner.info.size });
    const hits = all.reverse().slice(0, options.k).map((hit, i) => ({ id: hit.id, score: 1 - i / 1000 }));
    for (const hit of hits) this.returned.add(hit.id);
    return hits;
  }
  save(path: string): Promise<void> {
    return this.inner.save(path);
  }
}

function contraryFactory(): VectorIndexFactory & { indexes: ContraryIndex[] } {
  const indexes: ContraryIndex[] = [];
  const wrap = (inner: VectorIndex): ContraryIndex => {
    const index = new ContraryIndex(inner);
    indexes.push(index);
    return index;
  };
  return {
    id: 'contrary-exact-v1',
    indexes,
    create: (options) => wrap(new ExactVectorIndex(options)),
    load: async (path, options) => wrap(await loadVectorIndex(path, { backend: 'exact', expectedEmbedderId: options.expectedEmbedderId })),
  };
}

/** Node ids of the dense lane's hits in a run, in order. */
function denseHits(trace: unknown): string[] {
  return replayToolCalls(trace)
    .filter((call) => call.tool_id === 'dense.search')
    .flatMap((call) => call.hits.map((hit) => hit.node_id));
}

describe('a vector index of your own (PrepareDocumentOptions.vectorIndex)', () => {
  let dir: string;
  let pdf: string;
  const config = () => resolveConfig({ overrides: { data_dir: join(dir, 'data'), embedder: { kind: 'hashing' }, llm: { provider: 'none' } } }).config;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'doctree-vector-swap-'));
    pdf = join(dir, 'northwind.pdf');
    copyFileSync(SAMPLE_PDF, pdf);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('builds the dense views, answers every dense search of the agent, and its results become the dense hits', async () => {
    const builtin = await openAgent(pdf, { config: config() });
    const before = denseHits((await builtin.agent.ask(QUESTION)).answer.trace);
    expect(before.length).toBeGreaterThan(0);

    const factory = contraryFactory();
    const { agent, document } = await openAgent(pdf, { config: config(), vectorIndex: factory });
    expect(document.indexed).toBe(true); // another vector index: rebuilt
    expect(document.manifest.vector_index).toEqual({ id: 'contrary-exact-v1' });
    expect(readdirSync(document.indexDir)).toEqual(expect.arrayContaining(['coarse.custom-vectors', 'leaf.custom-vectors', 'leaf_raw.custom-vectors']));
    expect(Object.values(document.index.vectors).every((v) => factory.indexes.includes(v as ContraryIndex))).toBe(true);

    const run = await agent.ask(QUESTION);
    const searches = factory.indexes.reduce((n, index) => n + index.searches, 0);
    expect(searches).toBeGreaterThan(0);
    const after = denseHits(run.answer.trace);
    expect(after.length).toBeGreaterThan(0);
    expect(after).not.toEqual(before);
    const returned = new Set(factory.indexes.flatMap((index) => [...index.returned].map((id) => id.split('#')[0]!)));
    for (const id of after) expect(returned.has(id.split('#')[0]!)).toBe(true);

    // Prepared again with the same factory: nothing rebuilt, the views load through it.
    const again = await prepareDocument(pdf, { config: config(), vectorIndex: contraryFactory() });
    expect(again.indexed).toBe(false);
    expect(again.index.vectors.leaf).toBeInstanceOf(ContraryIndex);
  });

  it('takes a sparse backend of your own the same way (the index is rebuilt with it and loaded through it)', async () => {
    const inner = minisearchSparseBackend();
    let built = 0;
    let loaded = 0;
    const sparse: SparseBackend = {
      id: `${inner.id}+counting`,
      build: (docs) => (built++, inner.build(docs)),
      load: (json, file, options) => (loaded++, inner.load(json, file, options)),
    };
    const document = await prepareDocument(pdf, { config: config(), sparse });
    expect(document.indexed).toBe(true);
    expect(built).toBe(3);
    expect(loaded).toBe(3);
  });

  it('refuses a vectorIndex or sparse that is not one (USAGE), before touching the index', async () => {
    for (const options of [{ vectorIndex: { id: 'x' } as unknown as VectorIndexFactory }, { sparse: { id: '' } as unknown as SparseBackend }]) {
      const error = await prepareDocument(pdf, { config: config(), ...options }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(DocTreeError.isInstance(error) && error.code).toBe('USAGE');
    }
  });
});
