import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { z } from 'zod';
import {
  DenseCoarseRecordSchema,
  DenseLeafRecordSchema,
  GraphEdgeSchema,
  IdMapsSchema,
  SparseDocSchema,
} from './index-records.js';
import { DocTreeError } from './errors.js';
import { parseJsonLines, parseWith } from './validation.js';

const fixture = JSON.parse(readFileSync(join(__dirname, '__fixtures__', 'seed-10-3-examples.json'), 'utf8')) as {
  examples: Array<{ kind: string; record: unknown }>;
};

const schemaFor: Record<string, z.ZodType> = {
  dense_coarse: DenseCoarseRecordSchema,
  dense_leaf: DenseLeafRecordSchema,
  sparse: SparseDocSchema,
  graph_edge: GraphEdgeSchema,
  id_maps: IdMapsSchema,
};

describe('docs/design/index-features.md §3 examples', () => {
  it('contains every example of the design document', () => {
    const kinds = fixture.examples.map((e) => e.kind);
    expect(kinds.filter((k) => k === 'dense_coarse')).toHaveLength(3);
    expect(kinds.filter((k) => k === 'graph_edge')).toHaveLength(5);
    expect(new Set(kinds)).toEqual(new Set(Object.keys(schemaFor)));
  });

  it.each(fixture.examples.map((e, i) => [`${i}: ${e.kind}`, e] as const))('parses %s', (_name, example) => {
    const result = schemaFor[example.kind]!.safeParse(example.record);
    expect(result.error?.issues ?? []).toEqual([]);
  });

  it('keeps the section variant, filters, affordances and subtree sketch', () => {
    const section = DenseCoarseRecordSchema.parse(fixture.examples[0]!.record);
    expect(section.variant).toBe('child');
    expect(section.filters.page_span).toEqual([3, 7]);
    expect(section.affordances.supports_TREND).toBe(true);
    expect(section.subtree_sketch?.representatives.top_table).toBe('tab_21');
  });
});

describe('invalid records', () => {
  it('names the field that is wrong', () => {
    const bad = structuredClone(fixture.examples[1]!.record) as { filters: { page_idx: unknown } };
    bad.filters.page_idx = 'five';
    expect(() => parseWith(DenseCoarseRecordSchema, bad, { file: 'dense_coarse.jsonl', what: 'dense_coarse record' })).toThrow(
      /filters\.page_idx/,
    );
  });

  it('throws a DocTreeError with code, file and line for JSONL input', () => {
    const good = JSON.stringify(fixture.examples[3]!.record);
    const bad = JSON.stringify({ ...(fixture.examples[3]!.record as object), node_id: 'paragraph-7' });
    let caught: unknown;
    try {
      parseJsonLines(DenseLeafRecordSchema, `${good}\n\n${bad}\n`, { file: 'dense_leaf.jsonl' });
    } catch (error) {
      caught = error;
    }
    expect(DocTreeError.isInstance(caught)).toBe(true);
    const error = caught as DocTreeError;
    expect(error.code).toBe('SCHEMA_INVALID');
    expect(error.file).toBe('dense_leaf.jsonl');
    expect(error.message).toMatch(/line 3/);
    expect(error.message).toMatch(/node_id/);
  });

  it('rejects a section record without a variant', () => {
    const record = { ...(fixture.examples[0]!.record as object), variant: undefined };
    expect(() => parseWith(DenseCoarseRecordSchema, record)).toThrow(/variant/);
  });

  it('rejects an unknown edge type', () => {
    expect(() => parseWith(GraphEdgeSchema, { src: 'sec_1', dst: 'img_2', type: 'sibling' })).toThrow(/type/);
  });
});
