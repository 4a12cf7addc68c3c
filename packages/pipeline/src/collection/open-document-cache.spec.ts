import { OpenDocumentCache } from './open-document-cache.js';

/** An opener that counts its calls and gives `bytes` per document. */
function opener(bytes = 10) {
  const calls: string[] = [];
  const open = (key: string, version: string) => async () => {
    calls.push(`${key}@${version}`);
    return { value: `${key}@${version}#${calls.length}`, bytes };
  };
  return { calls, open };
}

describe('OpenDocumentCache', () => {
  it('opens a document once per version and again when its version changes', async () => {
    const cache = new OpenDocumentCache<string>();
    const { calls, open } = opener();
    expect(await cache.use('a', 'v1', open('a', 'v1'))).toBe('a@v1#1');
    expect(await cache.use('a', 'v1', open('a', 'v1'))).toBe('a@v1#1');
    expect(await cache.use('a', 'v2', open('a', 'v2'))).toBe('a@v2#2');
    expect(calls).toEqual(['a@v1', 'a@v2']);
    expect(cache.size).toBe(1);
  });

  it('drops the least recently used document past the count or the byte bound, never the one just opened', async () => {
    const cache = new OpenDocumentCache<string>({ maxDocuments: 2, maxBytes: 25 });
    const { calls, open } = opener(10);
    await cache.use('a', 'v', open('a', 'v'));
    await cache.use('b', 'v', open('b', 'v'));
    await cache.use('a', 'v', open('a', 'v')); // a is now the most recently used
    await cache.use('c', 'v', open('c', 'v')); // b goes
    expect([cache.has('a', 'v'), cache.has('b', 'v'), cache.has('c', 'v')]).toEqual([true, false, true]);
    expect(cache.bytes).toBe(20);
    const big = new OpenDocumentCache<string>({ maxBytes: 15 });
    const huge = opener(100);
    await big.use('x', 'v', huge.open('x', 'v'));
    await big.use('y', 'v', huge.open('y', 'v'));
    expect([big.has('x', 'v'), big.has('y', 'v')]).toEqual([false, true]);
    expect(calls).toEqual(['a@v', 'b@v', 'c@v']);
  });

  it('shares one opening between concurrent uses, keeps no failed opening, and keeps nothing with maxDocuments 0', async () => {
    const cache = new OpenDocumentCache<string>();
    const { calls, open } = opener();
    const [x, y] = await Promise.all([cache.use('a', 'v', open('a', 'v')), cache.use('a', 'v', open('a', 'v'))]);
    expect([x, y, calls.length]).toEqual(['a@v#1', 'a@v#1', 1]);
    await expect(cache.use('bad', 'v', () => Promise.reject(new Error('corrupt index')))).rejects.toThrow('corrupt index');
    expect(cache.has('bad', 'v')).toBe(false);
    const none = new OpenDocumentCache<string>({ maxDocuments: 0 });
    await none.use('a', 'v', open('a', 'v'));
    await none.use('a', 'v', open('a', 'v'));
    expect([none.size, calls.length]).toEqual([0, 3]);
    cache.forget();
    expect(cache.size).toBe(0);
    expect(() => new OpenDocumentCache({ maxDocuments: -1 })).toThrow(expect.objectContaining({ code: 'USAGE' }));
  });
});
