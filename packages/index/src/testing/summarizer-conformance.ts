import { DocSummarySchema } from '@doctree/schema';
import type { DocTree } from '@doctree/schema';
import { conformanceTestGlobals, errorCodeOf } from '@doctree/schema/testing';
import type { DocSummarizer } from '../summaries/base-summarizer.js';
import { sampleDocTree } from './sample-doc-tree.js';

/** Builds the summarizer under test (called once per suite). */
export type SummarizerConformanceFactory = () => DocSummarizer | Promise<DocSummarizer>;

/** Options of {@link runSummarizerConformance}. */
export interface SummarizerConformanceOptions {
  /** Longest gist the summarizer is configured for, tokens (gists may exceed it by half, never more). Default 150. */
  maxTokens?: number;
  /** Timeout of each test, ms. Default 60000. */
  timeoutMs?: number;
}

/** Defaults of {@link SummarizerConformanceOptions}. */
export const SUMMARIZER_CONFORMANCE_DEFAULTS = {
  maxTokens: 150,
  timeoutMs: 60_000,
} as const satisfies SummarizerConformanceOptions;

/**
 * Registers the shared conformance suite of {@link DocSummarizer} implementations with the running test framework,
 * on the 10-K-like {@link sampleDocTree}. Checks: a valid `doctree.summary` of the same document; one gist per
 * section in tree order, each non-empty, within 1.5 × `maxTokens` and with the sha256 of its source; a non-empty
 * description; a stable non-empty `id`; the same summary twice for the same tree; `CANCELLED` for an aborted signal and
 * `USAGE` for something that is not a DocTree.
 *
 * @example
 * ```ts
 * import { runSummarizerConformance } from '@doctree/index/testing';
 * runSummarizerConformance('extractive', () => new ExtractiveSummarizer());
 * ```
 */
export function runSummarizerConformance(name: string, factory: SummarizerConformanceFactory, options: SummarizerConformanceOptions = {}): void {
  const { describe, it, beforeAll, expect } = conformanceTestGlobals('runSummarizerConformance');
  const { maxTokens, timeoutMs } = { ...SUMMARIZER_CONFORMANCE_DEFAULTS, ...options };
  describe(`Summarizer conformance: ${name}`, () => {
    let summarizer: DocSummarizer;
    let tree: DocTree;
    beforeAll(async () => {
      summarizer = await factory();
      tree = sampleDocTree();
    }, timeoutMs);

    it('returns a valid summary of the same document with one bounded gist per section, in tree order', async () => {
      const summary = await summarizer.summarize(tree);
      expect(DocSummarySchema.safeParse(summary).success).toBe(true);
      expect(summary.doc_id).toBe(tree.doc.doc_id);
      expect(summary.sections.map((s) => s.node_id)).toEqual(tree.nodes.filter((n) => n.role === 'section').map((n) => n.node_id));
      for (const section of summary.sections) {
        expect(section.gist.trim().length).toBeGreaterThan(0);
        expect(Math.ceil(section.gist.length / 4)).toBeLessThanOrEqual(Math.ceil(maxTokens * 1.5));
        expect(/^[0-9a-f]{64}$/.test(section.content_hash)).toBe(true);
      }
      expect(summary.description.trim().length).toBeGreaterThan(0);
    }, timeoutMs);

    it('has a stable id and gives the same summary twice', async () => {
      expect(typeof summarizer.id === 'string' && summarizer.id.length > 0).toBe(true);
      const id = summarizer.id;
      const a = await summarizer.summarize(sampleDocTree());
      const b = await summarizer.summarize(sampleDocTree());
      expect(b.sections.map((s) => [s.node_id, s.gist, s.method])).toEqual(a.sections.map((s) => [s.node_id, s.gist, s.method]));
      expect(b.description).toBe(a.description);
      expect(summarizer.id).toBe(id);
    }, timeoutMs);

    it('rejects an aborted signal with CANCELLED and a non-tree with USAGE', async () => {
      const controller = new AbortController();
      controller.abort();
      expect(await errorCodeOf(summarizer.summarize(sampleDocTree(), { signal: controller.signal }))).toBe('CANCELLED');
      expect(await errorCodeOf(summarizer.summarize({ format: 'something-else' } as unknown as DocTree))).toBe('USAGE');
    }, timeoutMs);
  });
}
