import { Embeddings } from '@langchain/core/embeddings';
import { FakeEmbeddings, SyntheticEmbeddings } from '@langchain/core/utils/testing';
import { HashingEmbedder } from '@doctree/index';
import { runEmbedderConformance } from '@doctree/index/testing';
import { DocTreeError } from '@doctree/schema';
import { EmbedderFromLangChain, LangChainEmbeddingsFromDocTree } from './embeddings.js';

/** A LangChain Embeddings of its own: bag of lower-cased words hashed into 256 buckets (vectors that carry meaning). */
class BagOfWordsEmbeddings extends Embeddings {
  readonly model = 'bag-of-words-256';
  calls = 0;
  constructor() {
    super({});
  }
  async embedDocuments(texts: string[]): Promise<number[][]> {
    this.calls++;
    return texts.map((t) => this.#embed(t));
  }
  async embedQuery(text: string): Promise<number[]> {
    this.calls++;
    return this.#embed(text);
  }
  #embed(text: string): number[] {
    const v = new Array<number>(256).fill(0);
    for (const word of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
      let h = 2166136261;
      for (const c of word.slice(0, 5)) h = Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0;
      v[h % 256]! += 1;
    }
    return v;
  }
}

runEmbedderConformance('EmbedderFromLangChain over a LangChain Embeddings', async ({ batchSize }) => {
  const embedder = new EmbedderFromLangChain(new BagOfWordsEmbeddings(), { batchSize });
  await embedder.initialize();
  return embedder;
});

runEmbedderConformance('DocTree → LangChain → DocTree round trip (HashingEmbedder)', async ({ batchSize }) => {
  const embedder = new EmbedderFromLangChain(new LangChainEmbeddingsFromDocTree(new HashingEmbedder({ dimension: 128 })), { batchSize, name: 'hashing-v1' });
  await embedder.initialize();
  return embedder;
});

describe('EmbedderFromLangChain', () => {
  it('learns the dimension with one probe on initialize(); the id names the model and dimension', async () => {
    const model = new BagOfWordsEmbeddings();
    const embedder = new EmbedderFromLangChain(model);
    expect(() => embedder.dimension).toThrow(/not known before its first embedding/);
    await embedder.initialize();
    expect(embedder.dimension).toBe(256);
    expect(embedder.id).toBe('langchain:bag-of-words-256:d256');
    expect(model.calls).toBe(1);
    expect(new EmbedderFromLangChain(new FakeEmbeddings(), { dimension: 4 }).id).toBe('langchain:FakeEmbeddings:d4');
  });

  it('works with LangChain fake embeddings; empty texts are zero vectors without a request', async () => {
    const embedder = new EmbedderFromLangChain(new SyntheticEmbeddings({ vectorSize: 8 }));
    await embedder.initialize();
    const [a, empty] = await embedder.embedDocuments(['some text', '  ']);
    expect(a).toHaveLength(8);
    expect(Math.hypot(...a!)).toBeCloseTo(1, 5);
    expect([...empty!].every((v) => v === 0)).toBe(true);
  });

  it('turns provider errors and bad vectors into DocTreeErrors', async () => {
    class Failing extends Embeddings {
      constructor(private readonly failure: unknown) {
        super({});
      }
      async embedDocuments(): Promise<number[][]> {
        throw this.failure;
      }
      async embedQuery(): Promise<number[]> {
        throw this.failure;
      }
    }
    const auth = new EmbedderFromLangChain(new Failing(Object.assign(new Error('denied'), { status: 401 })), { dimension: 4 });
    await expect(auth.embedDocuments(['x'])).rejects.toMatchObject({ code: 'LLM_AUTH' });
    const limited = new EmbedderFromLangChain(new Failing(Object.assign(new Error('slow down'), { status: 429 })), { dimension: 4 });
    await expect(limited.embedQuery('x')).rejects.toMatchObject({ code: 'LLM_RATE_LIMITED' });
    const wrongSize = new EmbedderFromLangChain(new FakeEmbeddings(), { dimension: 8 });
    await expect(wrongSize.embedDocuments(['x'])).rejects.toMatchObject({ code: 'INTERNAL', message: expect.stringMatching(/not 8 finite numbers/) });
    expect(() => new EmbedderFromLangChain({} as Embeddings)).toThrow(DocTreeError);
    expect(() => new EmbedderFromLangChain(new FakeEmbeddings(), { dimension: 0 })).toThrow(/dimension/);
  });
});

describe('LangChainEmbeddingsFromDocTree', () => {
  it('gives a DocTree embedder to LangChain as number[] vectors, the same values as DocTree computes', async () => {
    const doctree = new HashingEmbedder({ dimension: 64 });
    const embeddings = new LangChainEmbeddingsFromDocTree(doctree);
    const [vector] = await embeddings.embedDocuments(['net sales grew']);
    expect(Array.isArray(vector)).toBe(true);
    expect(vector).toEqual(Array.from((await doctree.embedDocuments(['net sales grew']))[0]!));
    expect(await embeddings.embedQuery('net sales')).toEqual(Array.from(await doctree.embedQuery('net sales')));
    await expect(embeddings.embedDocuments('x' as unknown as string[])).rejects.toMatchObject({ code: 'USAGE' });
  });
});
