import { z } from 'zod';
import { DocTreeError } from './errors.js';
import { parseJsonWith } from './validation.js';

describe('parseJsonWith', () => {
  const Point = z.object({ x: z.number(), y: z.number() }).strict();

  it('returns the parsed value when the text is JSON the schema accepts', () => {
    expect(parseJsonWith(Point, '{"x":1,"y":2}', { file: 'p.json' })).toEqual({ x: 1, y: 2 });
  });

  it('names the file when the text is not JSON, and the field when the schema refuses it', () => {
    const notJson = (() => {
      try {
        return parseJsonWith(Point, '{"x":1,', { file: 'data/p.json', name: 'p.json' });
      } catch (error) {
        return error;
      }
    })();
    expect(DocTreeError.isInstance(notJson)).toBe(true);
    expect(notJson).toMatchObject({ code: 'SCHEMA_INVALID', file: 'data/p.json', message: expect.stringMatching(/^p\.json is not valid JSON: /) });
    expect(() => parseJsonWith(Point, '{"x":1,"y":"2"}', { file: 'data/p.json', what: 'point' })).toThrow(expect.objectContaining({ code: 'SCHEMA_INVALID', file: 'data/p.json', message: expect.stringMatching(/^invalid point: y: /) }));
    expect(() => parseJsonWith(Point, 'nope', { code: 'INDEX_CORRUPT' })).toThrow(expect.objectContaining({ code: 'INDEX_CORRUPT', message: expect.stringMatching(/^the file is not valid JSON/) }));
  });
});
