import type { Retriever } from '@doctree/schema';
import { conformanceTestGlobals, errorCodeOf } from '@doctree/schema/testing';

/** One passage of the conformance corpus: the retriever under test must index exactly these. */
export interface ConformanceDocument {
  node_id: string;
  /** 0-based page. */
  page_idx: number;
  /** `paragraph`, `table`, `section`… Hits report it as `extra.role` (or as their modality). */
  role: 'paragraph' | 'table' | 'section';
  text: string;
}

/** Builds a retriever over the given corpus for the suite. */
export type RetrieverConformanceFactory = (corpus: readonly ConformanceDocument[]) => Retriever | Promise<Retriever>;

/** Options of {@link runRetrieverConformance}. */
export interface RetrieverConformanceOptions {
  /** The retriever honours `roles` (skip for retrievers without roles, e.g. a page-only baseline). Default true. */
  roles?: boolean;
  /** Timeout of each test, ms. Default 60000. */
  timeoutMs?: number;
}

/** Defaults of {@link RetrieverConformanceOptions}. */
export const RETRIEVER_CONFORMANCE_DEFAULTS = {
  roles: true,
  timeoutMs: 60_000,
} as const satisfies RetrieverConformanceOptions;

/** The corpus every retriever is checked on: each query below has one clearly relevant passage. */
export const RETRIEVER_CONFORMANCE_CORPUS: readonly ConformanceDocument[] = [
  { node_id: 'sec_1', page_idx: 0, role: 'section', text: 'Management discussion and analysis of financial condition and results of operations' },
  { node_id: 't_1', page_idx: 0, role: 'paragraph', text: 'Net sales increased 5 percent to 28.4 billion dollars, driven by organic growth in every business group.' },
  { node_id: 't_2', page_idx: 1, role: 'paragraph', text: 'Purchases of property, plant and equipment (capital expenditures) were 1,482 million dollars in 2018.' },
  { node_id: 'tab_1', page_idx: 1, role: 'table', text: 'Consolidated statement of cash flows | 2018 | 2017 — Net cash provided by operating activities | 6,214 | 5,987' },
  { node_id: 't_3', page_idx: 2, role: 'paragraph', text: 'The descaling program removes limescale from the coffee machine; run it every three months.' },
  { node_id: 't_4', page_idx: 3, role: 'paragraph', text: 'Students must register for classes before the semester starts; late registration costs a fee.' },
  { node_id: 'tab_2', page_idx: 3, role: 'table', text: 'Table 2: accuracy and latency of the models on the benchmark — model | accuracy (%) | latency (ms)' },
  { node_id: 't_5', page_idx: 4, role: 'paragraph', text: 'The cat slept on the warm kitchen floor while the rain fell outside.' },
];

const QUERIES: ReadonlyArray<readonly [query: string, expected: string]> = [
  ['capital expenditures for property plant and equipment', 't_2'],
  ['how do I descale the coffee machine limescale', 't_3'],
  ['class registration before the semester', 't_4'],
  ['model accuracy and latency table', 'tab_2'],
];

/**
 * Registers the shared conformance suite of {@link Retriever} implementations with the running test framework
 * (global `describe` / `it` / `beforeAll` / `expect`). The factory builds the retriever over
 * {@link RETRIEVER_CONFORMANCE_CORPUS}. Checks: at most `k` hits, best first, unique node ids from the corpus with their
 * pages, `method` equal to the retriever's name, the relevant passage in the top 3 for each probe query, the role and
 * page filters, determinism, an empty query, `CANCELLED` for an aborted signal and `USAGE` for a bad `k`.
 *
 * @example
 * ```ts
 * import { runRetrieverConformance } from '@doctree/index/testing';
 * runRetrieverConformance('bm25 lane', (corpus) => new Bm25Lane(indexOf(corpus)));
 * ```
 */
export function runRetrieverConformance(name: string, factory: RetrieverConformanceFactory, options: RetrieverConformanceOptions = {}): void {
  const { describe, it, beforeAll, expect } = conformanceTestGlobals('runRetrieverConformance');
  const { roles, timeoutMs } = { ...RETRIEVER_CONFORMANCE_DEFAULTS, ...options };
  const byId = new Map(RETRIEVER_CONFORMANCE_CORPUS.map((doc) => [doc.node_id, doc]));
  describe(`Retriever conformance: ${name}`, () => {
    let retriever: Retriever;
    beforeAll(async () => {
      retriever = await factory(RETRIEVER_CONFORMANCE_CORPUS);
    }, timeoutMs);

    it('returns at most k hits, best first, unique, from the corpus, on their pages, named after the retriever', async () => {
      for (const k of [1, 3, 50]) {
        const hits = await retriever.retrieve({ query: 'net sales cash flows capital expenditures', k });
        expect(hits.length).toBeLessThanOrEqual(k);
        expect(new Set(hits.map((h) => h.node_id)).size).toBe(hits.length);
        for (let i = 1; i < hits.length; i++) expect(hits[i]!.score_raw).toBeLessThanOrEqual(hits[i - 1]!.score_raw);
        for (const hit of hits) {
          const doc = byId.get(hit.node_id.split('#')[0]!);
          expect(doc === undefined ? `unknown node ${hit.node_id}` : 'known').toBe('known');
          expect(hit.page_idx).toBe(doc?.page_idx);
          expect(hit.method).toBe(retriever.name);
        }
      }
    }, timeoutMs);

    it('ranks the relevant passage in the top 3', async () => {
      for (const [query, expected] of QUERIES) {
        const hits = await retriever.retrieve({ query, k: 3 });
        const top3 = hits.map((h) => h.node_id.split('#')[0]);
        expect({ query, found: top3.includes(expected), top3 }).toEqual({ query, found: true, top3 });
      }
    }, timeoutMs);

    if (roles) {
      it('keeps only the requested roles', async () => {
        const hits = await retriever.retrieve({ query: 'cash flows accuracy latency table', k: 10, roles: ['table'] });
        expect(hits.length).toBeGreaterThan(0);
        for (const hit of hits) expect(byId.get(hit.node_id.split('#')[0]!)?.role).toBe('table');
      }, timeoutMs);
    }

    it('keeps only the requested pages', async () => {
      const hits = await retriever.retrieve({ query: 'capital expenditures cash flows students', k: 10, pageIdx: [1] });
      expect(hits.length).toBeGreaterThan(0);
      for (const hit of hits) expect(hit.page_idx).toBe(1);
    }, timeoutMs);

    it('is deterministic', async () => {
      const a = await retriever.retrieve({ query: 'coffee machine registration', k: 5 });
      const b = await retriever.retrieve({ query: 'coffee machine registration', k: 5 });
      expect(b.map((h) => [h.node_id, h.score_raw])).toEqual(a.map((h) => [h.node_id, h.score_raw]));
    }, timeoutMs);

    it('answers an empty or unmatched query with an array, not an error', async () => {
      expect(Array.isArray(await retriever.retrieve({ query: '', k: 5 }))).toBe(true);
      expect(Array.isArray(await retriever.retrieve({ query: 'zzzqqq xxyyzz', k: 5 }))).toBe(true);
    }, timeoutMs);

    it('rejects an aborted signal with CANCELLED and a bad k with USAGE', async () => {
      const controller = new AbortController();
      controller.abort();
      expect(await errorCodeOf(retriever.retrieve({ query: 'net sales', k: 3, signal: controller.signal }))).toBe('CANCELLED');
      expect(await errorCodeOf(retriever.retrieve({ query: 'net sales', k: 0 }))).toBe('USAGE');
      expect(await errorCodeOf(retriever.retrieve({ query: 'net sales', k: 1.5 }))).toBe('USAGE');
    }, timeoutMs);
  });
}
