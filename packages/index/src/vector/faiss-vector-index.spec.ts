import { runVectorIndexConformance } from '../testing/index.js';
import { readHnswParameters } from './faiss-hnsw-parameters.js';
import type { FaissNodeModule } from './faiss-node-loader.js';
import { FaissVectorIndex } from './faiss-vector-index.js';

/** faiss-node is optional: the faiss suites run only when it loads (build it with `npm run setup`). */
function probeFaiss(): { faiss?: FaissNodeModule; error?: string } {
  try {
    return { faiss: jest.requireActual<FaissNodeModule>('faiss-node') };
  } catch (error) {
    return { error: (error as Error).message.split('\n')[0] ?? 'faiss-node did not load' };
  }
}

const { faiss, error } = probeFaiss();
const skip = faiss === undefined ? `faiss-node not loadable: ${error ?? 'unknown'}; run npm run setup` : undefined;
const options = skip === undefined ? {} : { skip };

runVectorIndexConformance('faiss flat', { create: (o) => new FaissVectorIndex({ ...o, faiss: faiss as FaissNodeModule, kind: 'flat' }) }, options);
runVectorIndexConformance('faiss hnsw', { create: (o) => new FaissVectorIndex({ ...o, faiss: faiss as FaissNodeModule, kind: 'hnsw' }) }, options);

(faiss === undefined ? describe.skip : describe)('FaissVectorIndex (faiss-node specifics)', () => {
  const module = faiss as FaissNodeModule;

  it('sets M, efConstruction and efSearch of HNSW indexes', () => {
    const index = new FaissVectorIndex({ faiss: module, dimension: 8, embedderId: 'e', kind: 'hnsw' });
    expect(index.hnswParameters).toEqual({ m: 32, efConstruction: 200, efSearch: 64 });
    const custom = new FaissVectorIndex({ faiss: module, dimension: 8, embedderId: 'e', kind: 'hnsw', hnsw: { m: 16, efSearch: 100 } });
    expect(custom.hnswParameters).toEqual({ m: 16, efConstruction: 200, efSearch: 100 });
  });

  it('patches the serialized index faiss really uses', () => {
    const created = module.Index.fromFactory(4, 'HNSW32,Flat', module.MetricType.METRIC_INNER_PRODUCT);
    expect(readHnswParameters(created.toBuffer())).toEqual({ m: 32, efConstruction: 40, efSearch: 16 });
    const index = new FaissVectorIndex({ faiss: module, dimension: 4, embedderId: 'e', kind: 'hnsw', metric: 'l2' });
    index.add(['a', 'b'], [new Float32Array([1, 0, 0, 0]), new Float32Array([0, 1, 0, 0])]);
    // The native index after add still carries the patched values.
    const native = (index as unknown as { index: { toBuffer(): Buffer } }).index;
    expect(readHnswParameters(native.toBuffer())).toEqual({ m: 32, efConstruction: 200, efSearch: 64 });
  });

  it('does not recognise a flat index as HNSW', () => {
    expect(readHnswParameters(new module.IndexFlatIP(4).toBuffer())).toBeUndefined();
  });

  it('reports kind and backend', () => {
    const index = new FaissVectorIndex({ faiss: module, dimension: 4, embedderId: 'e', kind: 'hnsw', metric: 'l2' });
    expect(index.info).toEqual({ backend: 'faiss', kind: 'hnsw', metric: 'l2', dimension: 4, size: 0, embedderId: 'e' });
  });
});
