import { createYielder, parseJsonLinesSliced } from './event-loop-yield.js';

describe('createYielder', () => {
  it('lets other work run between slices once the slice is used, and not before', async () => {
    const order: string[] = [];
    setImmediate(() => order.push('other request'));
    await createYielder(60_000)();
    order.push('inside the slice');
    await createYielder(0)();
    order.push('after a yield');
    expect(order).toEqual(['inside the slice', 'other request', 'after a yield']);
  });
});

describe('parseJsonLinesSliced', () => {
  it('parses JSON lines (blank lines and CRLF ends allowed) while other work runs between them', async () => {
    let others = 0;
    const tick = createYielder(0);
    const text = '{"a":1}\r\n\n{"a":2}\n[3]\n';
    const busy = (): void => {
      others++;
      if (others < 100) setImmediate(busy);
    };
    setImmediate(busy);
    expect(await parseJsonLinesSliced(text, tick)).toEqual([{ a: 1 }, { a: 2 }, [3]]);
    expect(others).toBeGreaterThanOrEqual(2);
  });

  it('throws on a line that is not JSON', async () => {
    await expect(parseJsonLinesSliced('{"a":1}\n{oops\n', createYielder())).rejects.toThrow(SyntaxError);
  });
});
