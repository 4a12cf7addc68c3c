import { AnswerSchema, DocTreeError } from '@doctree/schema';
import type { Question } from '@doctree/schema';
import { conformanceTestGlobals } from '@doctree/schema/testing';

import type { QaSystem } from '../runner/qa-system.js';
import { validateSystemAnswer } from '../runner/qa-system.js';

/** What the conformance suite evaluates: a system and one answerable question about a document it can read. */
export interface QaSystemConformanceSetup {
  system: QaSystem;
  question: Question;
  /** Absolute path of the question's document. */
  documentPath: string;
}

/** Builds the system and its probe question for the suite. */
export type QaSystemConformanceFactory = () => QaSystemConformanceSetup | Promise<QaSystemConformanceSetup>;

/** Options of {@link runQaSystemConformance}. */
export interface QaSystemConformanceOptions {
  /** Timeout of each test, ms. Default 120000. */
  timeoutMs?: number;
}

/**
 * Registers the shared conformance suite of {@link QaSystem} implementations with the running test framework. Checks:
 * a valid id; `describe()` (if any) is JSON-serialisable; `prepare()` (if any) reports a non-negative build time;
 * `answer()` returns a schema-valid Answer with 1-based support pages and a 1-based ranking, for the same document;
 * and an aborted signal rejects with `CANCELLED`.
 *
 * @example
 * ```ts
 * import { runQaSystemConformance } from '@doctree/eval/testing';
 * runQaSystemConformance('rag baseline', async () => ({ system: await makeRag(), question, documentPath }));
 * ```
 */
export function runQaSystemConformance(name: string, factory: QaSystemConformanceFactory, options: QaSystemConformanceOptions = {}): void {
  const { describe, it, beforeAll, expect } = conformanceTestGlobals('runQaSystemConformance');
  const timeoutMs = options.timeoutMs ?? 120_000;
  describe(`QaSystem conformance: ${name}`, () => {
    let setup: QaSystemConformanceSetup;
    beforeAll(async () => {
      setup = await factory();
      if (setup.system.prepare) await setup.system.prepare({ docFile: setup.question.doc_file, path: setup.documentPath });
    }, timeoutMs);

    it('has a valid id and a serialisable description', () => {
      expect(setup.system.id).toMatch(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/);
      const description = setup.system.describe?.() ?? {};
      expect(JSON.parse(JSON.stringify(description))).toEqual(description);
    });

    it('reports a non-negative build time when preparing', async () => {
      if (!setup.system.prepare) return;
      const { buildMs } = await setup.system.prepare({ docFile: setup.question.doc_file, path: setup.documentPath });
      expect(Number.isFinite(buildMs) && buildMs >= 0).toBe(true);
    }, timeoutMs);

    it('answers with a schema-valid Answer, 1-based pages and a 1-based ranking', async () => {
      const result = await setup.system.answer(setup.question, { path: setup.documentPath });
      const checked = validateSystemAnswer(result, setup.system.id, setup.question.id);
      expect(AnswerSchema.safeParse(checked.answer).success).toBe(true);
      for (const s of checked.answer.support) expect(s.page).toBeGreaterThanOrEqual(1);
      expect([...checked.answer.pages].sort((a, b) => a - b)).toEqual([...new Set(checked.answer.support.map((s) => s.page))].sort((a, b) => a - b));
      for (const p of checked.rankedPages) expect(p).toBeGreaterThanOrEqual(1);
    }, timeoutMs);

    it('rejects an aborted signal with CANCELLED', async () => {
      const controller = new AbortController();
      controller.abort();
      let code: string | undefined;
      try {
        await setup.system.answer(setup.question, { path: setup.documentPath, signal: controller.signal });
      } catch (error) {
        code = DocTreeError.isInstance(error) ? error.code : 'NOT_A_DOCTREE_ERROR';
      }
      expect(code).toBe('CANCELLED');
    }, timeoutMs);
  });
}
