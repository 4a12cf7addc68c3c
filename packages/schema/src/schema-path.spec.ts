import { z } from 'zod';
import { HitSchema } from './agent.js';
import { schemasAtPath } from './schema-path.js';

describe('schemasAtPath', () => {
  const Saved = z.object({
    hits: z.array(HitSchema),
    data: z.unknown(),
    rows: z.array(z.object({ label: z.string(), cells: z.array(z.number()) })).optional(),
    total: z.number().nullable(),
    lookup: z.record(z.string(), z.object({ page: z.number() })),
    either: z.union([z.object({ value: z.number() }), z.object({ text: z.string() })]),
    pair: z.tuple([z.string(), z.number()]),
    later: z.lazy(() => z.object({ id: z.string() })),
  });
  const has = (...path: string[]): boolean => schemasAtPath(Saved, path).length > 0;

  it('follows object keys and array indexes (negative from the end) to a leaf', () => {
    expect(has('hits', '0', 'node_id')).toBe(true);
    expect(has('hits', '-1', 'page_idx')).toBe(true);
    expect(has('rows', '2', 'cells', '0')).toBe(true);
  });

  it('refuses a key the object does not declare, a name used as an index and an index on an object', () => {
    expect(has('hits', '0', 'nodeid')).toBe(false);
    expect(has('hits', 'first')).toBe(false);
    expect(has('total', '0')).toBe(false);
    expect(has('missing')).toBe(false);
  });

  it('looks through optional, nullable, lazy and union members, and accepts any key of a record', () => {
    expect(has('total')).toBe(true);
    expect(has('later', 'id')).toBe(true);
    expect(has('either', 'value')).toBe(true);
    expect(has('either', 'text')).toBe(true);
    expect(has('either', 'other')).toBe(false);
    expect(has('lookup', 'anything', 'page')).toBe(true);
    expect(has('pair', '1')).toBe(true);
    expect(has('pair', '2')).toBe(false);
  });

  it('accepts any path below an unknown value', () => {
    expect(has('data', 'whatever', '3', 'deep')).toBe(true);
  });

  it('returns the schema found at the end of the path', () => {
    const [leaf] = schemasAtPath(Saved, ['hits', '0', 'page_idx']);
    expect(leaf?.safeParse(3).success).toBe(true);
    expect(leaf?.safeParse('three').success).toBe(false);
  });
});
