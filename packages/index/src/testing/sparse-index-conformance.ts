import { SPARSE_FIELDS } from '@doctree/schema';
import type { SparseDoc, SparseIndex } from '@doctree/schema';
import { conformanceTestGlobals } from '@doctree/schema/testing';

import { loadSparseIndex } from '../sparse/sparse-index-io.js';

/** What the conformance suite needs to build and reload indexes of one {@link SparseIndex} implementation. */
export interface SparseIndexConformanceFactory {
  /** Creates an index holding `docs`. */
  create(docs: readonly SparseDoc[]): SparseIndex | Promise<SparseIndex>;
  /** Loads an index from the parsed JSON of `toJSON()`; default `loadSparseIndex(json)`. */
  load?(json: unknown): SparseIndex | Promise<SparseIndex>;
}

/** A small report: one section, two tables, a figure and paragraphs, each with one unique word (`zanzibar` …). */
const CONFORMANCE_DOCS: readonly SparseDoc[] = [
  {
    id: 'sec_1',
    role: 'section',
    heading: '7 Liquidity and Capital Resources',
    headings_path: 'Part II > 7 Liquidity and Capital Resources',
    child_labels: 'Table 1; Figure 1',
    body: 'Cash from operations funded capital spending and dividends during the year.',
    filters: { level: 1, page_span: [30, 34] },
  },
  {
    id: 'tab_1',
    role: 'table',
    title: 'Table 1: Cash flow summary',
    table_schema: 'Operating activities; Investing activities; Financing activities',
    labels: 'Table 1',
    body: 'Net cash provided by operating activities rose; zanzibar appears only here.',
    filters: { page_idx: 31, parent_section: 'sec_1' },
  },
  {
    id: 'tab_2',
    role: 'table',
    title: 'Table 2: Debt maturities',
    table_schema: 'Year; Principal; Interest',
    labels: 'Table 2',
    body: 'Scheduled principal payments of long-term debt by year.',
    filters: { page_idx: 33, parent_section: 'sec_1' },
  },
  {
    id: 'img_1',
    role: 'image',
    title: 'Figure 1: Cash balance over time',
    caption: 'Line chart of the cash balance, quarterly.',
    labels: 'Figure 1',
    filters: { page_idx: 32, parent_section: 'sec_1' },
  },
  ...Array.from({ length: 8 }, (_, i): SparseDoc => ({
    id: `t_${10 + i}`,
    role: 'paragraph',
    body: `Paragraph ${i} on cash management: the cash position ${i % 2 === 0 ? 'improved' : 'declined'} in quarter ${(i % 4) + 1}.`,
    filters: { page_idx: 30 + (i % 4), parent_section: 'sec_1' },
  })),
];

/**
 * Registers the shared conformance suite of {@link SparseIndex} implementations with the running test framework
 * (global `describe` / `it` / `expect`, as in jest or vitest). Covers: size, an exact rare term ranking its doc
 * first with a `matched` entry, best-first scores, `k` (cut, larger than the matches, 0), `filter` applied before
 * the cut to k and seeing `id` / `role` / `filters`, empty and unknown-term queries returning `[]`, and a JSON round
 * trip (`toJSON` → `JSON.stringify` → parse → load) giving identical results.
 *
 * @example
 * ```ts
 * import { MiniSearchSparseIndex } from '@doctree/index';
 * import { runSparseIndexConformance } from '@doctree/index/testing';
 * runSparseIndexConformance('minisearch', { create: (docs) => { const i = new MiniSearchSparseIndex(); i.add(docs); return i; } });
 * ```
 */
export function runSparseIndexConformance(name: string, factory: SparseIndexConformanceFactory): void {
  const { describe, it, expect } = conformanceTestGlobals('runSparseIndexConformance');
  const load = async (json: unknown): Promise<SparseIndex> => (factory.load !== undefined ? factory.load(json) : loadSparseIndex(json));
  const filled = async (): Promise<SparseIndex> => factory.create(CONFORMANCE_DOCS);

  describe(`SparseIndex conformance: ${name}`, () => {
    it('counts its docs', async () => {
      expect((await filled()).size).toBe(CONFORMANCE_DOCS.length);
      expect((await factory.create([])).size).toBe(0);
      expect((await factory.create([])).search('cash', { k: 5 })).toEqual([]);
    });

    it('ranks the only doc holding an exact term first, saying where it matched', async () => {
      const index = await filled();
      const hits = index.search('zanzibar', { k: 5 });
      expect(hits).toHaveLength(1);
      expect(hits[0]!.id).toBe('tab_1');
      expect(hits[0]!.score).toBeGreaterThan(0);
      expect(Object.keys(hits[0]!.matched)).toEqual(['body']);
      expect(hits[0]!.matched.body!.length).toBeGreaterThan(0);
      const mixed = index.search('zanzibar cash', { k: 5 });
      expect(mixed[0]!.id).toBe('tab_1');
    });

    it('returns hits best first, each with matched fields', async () => {
      const hits = (await filled()).search('cash position quarter', { k: 20 });
      expect(hits.length).toBeGreaterThan(3);
      hits.forEach((hit, i) => {
        if (i > 0) expect(hits[i - 1]!.score).toBeGreaterThanOrEqual(hit.score);
        const fields = Object.keys(hit.matched);
        expect(fields.length).toBeGreaterThan(0);
        for (const field of fields) expect(SPARSE_FIELDS).toContain(field);
      });
    });

    it('respects k', async () => {
      const index = await filled();
      const all = index.search('cash', { k: 100 });
      expect(all.length).toBeGreaterThan(5);
      expect(new Set(all.map((h) => h.id)).size).toBe(all.length);
      const top3 = index.search('cash', { k: 3 });
      expect(top3.map((h) => h.id)).toEqual(all.slice(0, 3).map((h) => h.id));
      expect(index.search('cash', { k: 1 })).toHaveLength(1);
      expect(index.search('cash', { k: 0 })).toEqual([]);
    });

    it('applies the filter before the cut to k, on the stored doc', async () => {
      const index = await filled();
      const seen: SparseDoc[] = [];
      const tables = index.search('cash', {
        k: 1,
        filter: (doc) => {
          seen.push(doc);
          return doc.role === 'table';
        },
      });
      expect(tables).toHaveLength(1);
      expect(tables[0]!.id).toBe('tab_1');
      expect(seen.length).toBeGreaterThan(1);
      const seenTable = seen.find((doc) => doc.id === 'tab_1')!;
      expect(seenTable.role).toBe('table');
      expect(seenTable.filters).toEqual({ page_idx: 31, parent_section: 'sec_1' });
      const page33 = index.search('debt principal', { k: 5, filter: (doc) => doc.filters.page_idx === 33 });
      expect(page33.map((h) => h.id)).toEqual(['tab_2']);
      expect(index.search('cash', { k: 5, filter: () => false })).toEqual([]);
    });

    it('returns [] for empty queries and unknown terms', async () => {
      const index = await filled();
      for (const query of ['', '   ', '?!;,.', 'qwxzv', 'zzyzx plooft']) expect(index.search(query, { k: 5 })).toEqual([]);
    });

    it('gives identical results after a JSON round trip', async () => {
      const index = await filled();
      const json = JSON.parse(JSON.stringify(index.toJSON())) as unknown;
      const loaded = await load(json);
      expect(loaded.size).toBe(index.size);
      const filter = (doc: SparseDoc): boolean => doc.role !== 'section';
      for (const query of ['cash', 'Table 2', 'capital resources liquidity', 'quarter 3 declined', 'zanzibar', 'unknownterm']) {
        expect(loaded.search(query, { k: 10 })).toEqual(index.search(query, { k: 10 }));
        expect(loaded.search(query, { k: 4, filter })).toEqual(index.search(query, { k: 4, filter }));
      }
    });
  });
}
