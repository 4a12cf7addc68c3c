import type { Hit, RerankCandidate, Reranker } from '@doctree/schema';
import { conformanceTestGlobals, errorCodeOf } from '@doctree/schema/testing';

/** Options of {@link runRerankerConformance}. */
export interface RerankerConformanceOptions {
  /** The reranker puts the one clearly relevant candidate first. Default true (skip for rerankers without relevance, e.g. a shuffler). */
  relevance?: boolean;
  /** Timeout of each test, ms. Default 60000. */
  timeoutMs?: number;
}

/** Defaults of {@link RerankerConformanceOptions}. */
export const RERANKER_CONFORMANCE_DEFAULTS = { relevance: true, timeoutMs: 60_000 } as const satisfies RerankerConformanceOptions;

const hit = (node_id: string, page_idx: number, score: number): Hit => ({ eid: `e_${node_id}`, doc_id: 'conformance', node_id, page_idx, modality: 'text', snippet: '', bbox: null, score, score_raw: score, method: 'conformance', extra: {} });

/** The candidates every reranker is checked on, in a fused order that puts the relevant one last. */
export const RERANKER_CONFORMANCE_CANDIDATES: readonly RerankCandidate[] = [
  { hit: hit('t_cat', 4, 0.9), text: 'The cat slept on the warm kitchen floor while the rain fell outside.' },
  { hit: hit('t_reg', 3, 0.8), text: 'Students must register for classes before the semester starts; late registration costs a fee.' },
  { hit: hit('t_coffee', 2, 0.7), text: 'The descaling program removes limescale from the coffee machine; run it every three months.' },
  { hit: hit('t_sales', 0, 0.6), text: 'Net sales increased 5 percent to 28.4 billion dollars, driven by organic growth in every business group.' },
];

/** The question whose one relevant candidate is `t_coffee`. */
export const RERANKER_CONFORMANCE_QUERY = 'How often should the coffee machine be descaled to remove limescale?';

/**
 * Registers a `describe` block checking a {@link Reranker} against the contract the ToolHub relies on: it returns hits
 * of the request only (by node id, each once), honours an aborted signal with `CANCELLED`, handles an empty request,
 * and (unless `relevance: false`) puts the relevant candidate first. Call it from a test file (jest or vitest globals).
 *
 * @example
 * ```ts
 * runRerankerConformance('my cross-encoder', () => new MyReranker());
 * ```
 */
export function runRerankerConformance(name: string, factory: () => Reranker | Promise<Reranker>, options: RerankerConformanceOptions = {}): void {
  const o = { ...RERANKER_CONFORMANCE_DEFAULTS, ...options };
  const { describe, it, beforeAll, expect } = conformanceTestGlobals('runRerankerConformance');
  describe(`Reranker conformance: ${name}`, () => {
    let reranker: Reranker;
    beforeAll(async () => {
      reranker = await factory();
    }, o.timeoutMs);

    it('has a name and returns only the hits it was given, each once', async () => {
      expect(typeof reranker.name).toBe('string');
      expect(reranker.name.length).toBeGreaterThan(0);
      const out = await reranker.rerank({ query: RERANKER_CONFORMANCE_QUERY, candidates: RERANKER_CONFORMANCE_CANDIDATES });
      const given = new Set(RERANKER_CONFORMANCE_CANDIDATES.map((c) => c.hit.node_id));
      const ids = out.map((h) => h.node_id);
      expect(ids.every((id) => given.has(id))).toBe(true);
      expect(new Set(ids).size).toBe(ids.length);
      for (const h of out) expect(h.page_idx).toBe(RERANKER_CONFORMANCE_CANDIDATES.find((c) => c.hit.node_id === h.node_id)!.hit.page_idx);
    }, o.timeoutMs);

    if (o.relevance) {
      it('puts the relevant candidate first', async () => {
        const out = await reranker.rerank({ query: RERANKER_CONFORMANCE_QUERY, candidates: RERANKER_CONFORMANCE_CANDIDATES });
        expect(out[0]?.node_id).toBe('t_coffee');
      }, o.timeoutMs);
    }

    it('returns no hits for no candidates', async () => {
      expect(await reranker.rerank({ query: RERANKER_CONFORMANCE_QUERY, candidates: [] })).toEqual([]);
    }, o.timeoutMs);

    it('rejects with CANCELLED when the signal is already aborted', async () => {
      const controller = new AbortController();
      controller.abort();
      const code = await errorCodeOf(reranker.rerank({ query: RERANKER_CONFORMANCE_QUERY, candidates: RERANKER_CONFORMANCE_CANDIDATES, signal: controller.signal }));
      expect(code).toBe('CANCELLED');
    }, o.timeoutMs);
  });
}
