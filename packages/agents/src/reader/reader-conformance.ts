import { AnswerFormatSchema, SupportSchema } from '@doctree/schema';
import type { AnswerFormat, AnswerReader, AnswerValue, Observation, ReadResult } from '@doctree/schema';
import { conformanceTestGlobals, errorCodeOf } from '@doctree/schema/testing';
import { BaseReader, type BaseReaderOptions, type ReadEvent } from './base-reader.js';
import { observationText, supportMatches } from './observation-text.js';

/** Builds a fresh reader for the suite; a {@link BaseReader} must pass `options` (the tracing hook) to its constructor. */
export type ReaderConformanceFactory = (options: Pick<BaseReaderOptions, 'onRead'>) => AnswerReader | Promise<AnswerReader>;

/** Options of {@link runReaderConformance}. */
export interface ReaderConformanceOptions {
  /** Check the expected answers of {@link READER_CONFORMANCE_CASES} (off for a real model whose wording varies). Default true. */
  checkAnswers?: boolean;
  /** Timeout of each test, ms. Default 60000. */
  timeoutMs?: number;
}

/** Defaults of {@link ReaderConformanceOptions}. */
export const READER_CONFORMANCE_DEFAULTS = { checkAnswers: true, timeoutMs: 60_000 } as const satisfies Required<ReaderConformanceOptions>;

/** One question of the suite with its evidence and what a reader must answer. */
export interface ReaderConformanceCase {
  name: string;
  question: string;
  observations: Observation[];
  /** Expected answer (numbers compared to 4 decimals). */
  answer: AnswerValue;
  /** Acceptable formats. */
  formats: AnswerFormat[];
  /** Node ids a support may name (empty for None). */
  supportFrom: string[];
}

const CHUNK = 'Revenue for fiscal 2022 was $4.1 billion. Operating margin improved to 18.5% from 16.0% a year earlier.';
const chunk = (nodeId: string, text: string, page: number, charStart?: number): Observation => ({
  node_id: nodeId,
  modality: 'text',
  page,
  bbox: null,
  payload: { kind: 'text', text, heading_path: ['Results of Operations'], ...(charStart !== undefined ? { char_span: [charStart, charStart + text.length] as [number, number] } : {}) },
});
const TABLE_TEXT = '(in millions) | FY2019 | FY2018\nNet revenue | 5,210 | 4,987\nNet income | 812 | 765';

/**
 * Questions every reader must handle: plain text chunks as the RAG baseline passes them (with and without a span in
 * the document), a parsed table, evidence that does not hold the answer, and no evidence at all.
 */
export const READER_CONFORMANCE_CASES: readonly ReaderConformanceCase[] = [
  {
    name: 'a percentage from a plain text chunk',
    question: 'What was the operating margin in fiscal 2022?',
    observations: [chunk('chunk-1', CHUNK, 7)],
    answer: 18.5,
    formats: ['Float'],
    supportFrom: ['chunk-1'],
  },
  {
    name: 'an amount from a chunk anchored in the document text',
    question: 'What was the revenue for fiscal 2022, in USD billions?',
    observations: [chunk('chunk-2', CHUNK, 7, 5000)],
    answer: 4.1,
    formats: ['Float'],
    supportFrom: ['chunk-2'],
  },
  {
    name: 'a cell of a parsed table',
    question: 'What was the FY2019 net income (in USD millions)?',
    observations: [
      {
        node_id: 'tab_4',
        modality: 'table',
        page: 31,
        bbox: [50, 100, 550, 300],
        payload: {
          kind: 'table',
          caption: 'Consolidated statements of income',
          columns: ['(in millions)', 'FY2019', 'FY2018'],
          rows: [
            ['Net revenue', '5,210', '4,987'],
            ['Net income', '812', '765'],
          ],
          units: [null, '$', '$'],
          scale: 'millions',
          markdown: '| (in millions) | FY2019 | FY2018 |\n| --- | --- | --- |\n| Net revenue | 5,210 | 4,987 |\n| Net income | 812 | 765 |',
          text: TABLE_TEXT,
          char_span: [9000, 9000 + TABLE_TEXT.length],
        },
      },
    ],
    answer: 812,
    formats: ['Int', 'Float'],
    supportFrom: ['tab_4'],
  },
  {
    name: 'evidence that does not hold the answer',
    question: 'Who is the chief executive officer of the company?',
    observations: [chunk('chunk-3', CHUNK, 7)],
    answer: 'Not answerable',
    formats: ['None'],
    supportFrom: [],
  },
  { name: 'no evidence at all', question: 'What was the operating margin in fiscal 2022?', observations: [], answer: 'Not answerable', formats: ['None'], supportFrom: [] },
];

/**
 * Registers the shared conformance suite of {@link AnswerReader} implementations with the running test framework
 * (global `describe` / `it` / `beforeAll` / `expect`). For every case of {@link READER_CONFORMANCE_CASES}: the result
 * is well-formed (format, confidence in [0, 1], valid supports), every support quotes an observation exactly (snippet
 * = observation text at its offsets, in the document text when the observation is anchored) with the observation's
 * page and box, `None` carries no support, and — with `checkAnswers` — the answer and format are the expected ones.
 * Also: a stable non-empty id, `onRead` called once per read (BaseReader subclasses), an empty question is `USAGE`,
 * a malformed observation is `SCHEMA_INVALID`, an aborted signal is `CANCELLED`.
 *
 * @example
 * ```ts
 * import { ExtractiveReader } from '@doctree/agents';
 * import { runReaderConformance } from '@doctree/agents/testing';
 * runReaderConformance('extractive', (options) => new ExtractiveReader(options));
 * ```
 */
export function runReaderConformance(name: string, factory: ReaderConformanceFactory, options: ReaderConformanceOptions = {}): void {
  const { describe, it, beforeAll, expect } = conformanceTestGlobals('runReaderConformance');
  const { checkAnswers, timeoutMs } = { ...READER_CONFORMANCE_DEFAULTS, ...options };
  describe(`Reader conformance: ${name}`, () => {
    let reader: AnswerReader;
    const events: ReadEvent[] = [];
    beforeAll(async () => {
      reader = await factory({ onRead: (event) => events.push(event) });
    }, timeoutMs);

    it('has a stable non-empty id', async () => {
      expect(typeof reader.id).toBe('string');
      expect(reader.id.length).toBeGreaterThan(0);
      const again = await factory({});
      expect(again.id).toBe(reader.id);
    }, timeoutMs);

    for (const c of READER_CONFORMANCE_CASES) {
      it(`answers ${c.name} with exact supports`, async () => {
        const before = events.length;
        const result: ReadResult = await reader.read({ question: c.question, observations: c.observations });
        expect(AnswerFormatSchema.safeParse(result.answer_format).success).toBe(true);
        expect(result.confidence).toBeGreaterThanOrEqual(0);
        expect(result.confidence).toBeLessThanOrEqual(1);
        for (const support of result.support) {
          expect(SupportSchema.safeParse(support).success).toBe(true);
          const observation = c.observations.find((o) => o.node_id === support.node_id);
          expect(observation !== undefined).toBe(true);
          expect(supportMatches(support, observation!)).toBe(true);
          expect(observationText(observation!).text).toContain(support.snippet);
          expect(support.page).toBe(observation!.page);
          expect(support.bbox).toEqual(observation!.bbox);
        }
        if (result.answer_format === 'None') expect(result.support).toEqual([]);
        if (checkAnswers) {
          expect(c.formats).toContain(result.answer_format);
          if (typeof c.answer === 'number') expect(result.answer as number).toBeCloseTo(c.answer, 4);
          else expect(result.answer).toEqual(c.answer);
          for (const support of result.support) expect(c.supportFrom).toContain(support.node_id);
          if (c.supportFrom.length > 0) expect(result.support.length).toBeGreaterThan(0);
        }
        if (reader instanceof BaseReader) expect(events.length).toBe(before + 1);
      }, timeoutMs);
    }

    it('refuses an empty question (USAGE), a malformed observation (SCHEMA_INVALID) and an aborted signal (CANCELLED)', async () => {
      const observations = READER_CONFORMANCE_CASES[0]!.observations;
      expect(await errorCodeOf(reader.read({ question: '   ', observations }))).toBe('USAGE');
      const broken = [{ node_id: 'x', modality: 'text', page: 0, bbox: null, payload: { kind: 'text' } }] as unknown as Observation[];
      expect(await errorCodeOf(reader.read({ question: 'What was the operating margin?', observations: broken }))).toBe('SCHEMA_INVALID');
      const controller = new AbortController();
      controller.abort();
      expect(await errorCodeOf(reader.read({ question: 'What was the operating margin?', observations, signal: controller.signal }))).toBe('CANCELLED');
    }, timeoutMs);
  });
}
