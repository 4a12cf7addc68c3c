import { DocTreeError } from '@doctree/schema';

import { BaseEmbedder } from './base-embedder.js';

class ToyEmbedder extends BaseEmbedder {
  readonly id = 'toy-v1:d3';
  readonly dimension = 3;
  calls: string[][] = [];
  initCalls = 0;
  failInit = false;
  output: (text: string) => Float32Array = (text) => new Float32Array([text.length, 1, 0]);

  protected override async _initialize(): Promise<void> {
    this.initCalls++;
    if (this.failInit) throw new DocTreeError('BACKEND_UNAVAILABLE', 'not yet');
  }

  protected async _embedDocuments(texts: readonly string[]): Promise<Float32Array[]> {
    this.calls.push([...texts]);
    return texts.map((text) => (text === '' ? new Float32Array(3) : this.output(text)));
  }
}

async function rejection(promise: Promise<unknown>): Promise<DocTreeError> {
  try {
    await promise;
  } catch (error) {
    if (DocTreeError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a rejection');
}

describe('BaseEmbedder', () => {
  it('splits into batches, reports progress and normalises', async () => {
    const toy = new ToyEmbedder({ batchSize: 2 });
    const progress: Array<[number, number]> = [];
    const vectors = await toy.embedDocuments(['a', 'bb', 'ccc', ''], { onProgress: (done, total) => progress.push([done, total]) });
    expect(toy.calls).toEqual([['a', 'bb'], ['ccc', '']]);
    expect(progress).toEqual([
      [2, 4],
      [4, 4],
    ]);
    expect(Array.from(vectors[1]!)).toEqual([2 / Math.sqrt(5), 1 / Math.sqrt(5), 0].map((x) => Math.fround(x)));
    expect(Array.from(vectors[3]!)).toEqual([0, 0, 0]);
  });

  it('initialises once, and again after a failure', async () => {
    const toy = new ToyEmbedder();
    toy.failInit = true;
    expect((await rejection(toy.embedQuery('x'))).code).toBe('BACKEND_UNAVAILABLE');
    toy.failInit = false;
    await toy.embedQuery('x');
    await toy.embedDocuments(['y']);
    await toy.initialize();
    expect(toy.initCalls).toBe(2);
  });

  it('rejects vectors of the wrong dimension or with non-finite values', async () => {
    const toy = new ToyEmbedder();
    toy.output = () => new Float32Array(2);
    expect((await rejection(toy.embedDocuments(['x']))).code).toBe('INTERNAL');
    toy.output = () => new Float32Array([NaN, 0, 0]);
    expect((await rejection(toy.embedQuery('x'))).code).toBe('INTERNAL');
  });

  it('validates its input and options', async () => {
    const toy = new ToyEmbedder();
    expect((await rejection(toy.embedDocuments(null as unknown as string[]))).code).toBe('USAGE');
    expect((await rejection(toy.embedDocuments([{}] as unknown as string[]))).message).toMatch(/item 0 is object/);
    expect((await rejection(toy.embedQuery(3 as unknown as string))).code).toBe('USAGE');
    expect(() => new ToyEmbedder({ batchSize: 0 })).toThrow(/batch size/);
    expect(toy.calls).toEqual([]);
  });

  it('does not call the backend for an empty list or an aborted signal', async () => {
    const toy = new ToyEmbedder();
    expect(await toy.embedDocuments([])).toEqual([]);
    expect((await rejection(toy.embedDocuments(['x'], { signal: AbortSignal.abort() }))).code).toBe('CANCELLED');
    expect(toy.calls).toEqual([]);
  });

  it('sees an abort requested by a timer between CPU-bound batches', async () => {
    const toy = new ToyEmbedder({ batchSize: 1 });
    const controller = new AbortController();
    setImmediate(() => controller.abort());
    const error = await rejection(toy.embedDocuments(['a', 'b', 'c', 'd', 'e', 'f'], { signal: controller.signal }));
    expect(error.code).toBe('CANCELLED');
    expect(toy.calls.length).toBeLessThan(6);
  });
});
