import { AnswerFormatSchema, AnswerValueSchema, formatIssues } from '@doctree/schema';
import type { Question } from '@doctree/schema';
import { z } from 'zod';

import { checkUniqueIds, datasetError } from './doctree-questions.js';
import type { DatasetSource } from './doctree-questions.js';
import { arrayElementLines, lineOfJsonError } from './json-lines.js';
import { parsePythonLiteral } from './python-literal.js';

/** Options of {@link parseMmLongBenchSamples}. */
export interface MmLongBenchOptions extends DatasetSource {
  /** Prefix of `doc_file`, relative to the folder of `samples.json`. Default `documents/` (upstream keeps the PDFs in `data/documents/`). */
  documentPrefix?: string;
}

/** Defaults of {@link MmLongBenchOptions}. */
export const MMLONGBENCH_DEFAULTS = { documentPrefix: 'documents/' } as const;

/** Benchmark name written to `source_benchmark`. */
export const MMLONGBENCH_BENCHMARK = 'MMLongBench-Doc (github.com/mayubo2333/MMLongBench-Doc)';

/** One record of MMLongBench-Doc's `data/samples.json` as published (lists are stored as Python literal strings). */
const SampleSchema = z.looseObject({
  doc_id: z.string().min(1),
  doc_type: z.string().optional(),
  question: z.string().min(1),
  answer: AnswerValueSchema,
  evidence_pages: z.union([z.string(), z.array(z.number())]),
  evidence_sources: z.union([z.string(), z.array(z.string())]),
  answer_format: AnswerFormatSchema,
});

/**
 * Parses MMLongBench-Doc's `samples.json` (a JSON array of `{doc_id, doc_type, question, answer, evidence_pages,
 * evidence_sources, answer_format}` with the lists written as Python literals, e.g. `"[5, 6]"`). Pages are already
 * 1-based upstream and are kept; pages below 1 are dropped and noted in `evidence_page_issue`. Ids are
 * `mmlb-<0-based index, 4 digits>` as in DocTree's dev set; the source fields are kept under `orig`.
 * Malformed records throw `EVAL_DATASET_INVALID` naming the line where the record starts.
 */
export function parseMmLongBenchSamples(text: string, options: MmLongBenchOptions = {}): Question[] {
  const { documentPrefix, ...source } = { ...MMLONGBENCH_DEFAULTS, ...options };
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (cause) {
    datasetError(`invalid JSON: ${(cause as Error).message}`, source, lineOfJsonError(text, cause), cause);
  }
  if (!Array.isArray(data)) datasetError('MMLongBench-Doc samples.json must be a JSON array of samples', source, 1);
  const lines = arrayElementLines(text);
  const questions = data.map((item: unknown, index: number): Question => {
    const line = lines[index];
    const parsed = SampleSchema.safeParse(item);
    if (!parsed.success) datasetError(`invalid MMLongBench-Doc sample ${index}: ${formatIssues(parsed.error)}`, source, line);
    const sample = parsed.data;
    const pages = typeof sample.evidence_pages === 'string' ? parsePythonLiteral(sample.evidence_pages) : sample.evidence_pages;
    if (!Array.isArray(pages) || !pages.every((p) => typeof p === 'number' && Number.isInteger(p))) {
      datasetError(`invalid MMLongBench-Doc sample ${index}: evidence_pages must be a list of integers, got ${JSON.stringify(sample.evidence_pages)}`, source, line);
    }
    const sources = typeof sample.evidence_sources === 'string' ? parsePythonLiteral(sample.evidence_sources) : sample.evidence_sources;
    if (!Array.isArray(sources) || !sources.every((s) => typeof s === 'string')) {
      datasetError(`invalid MMLongBench-Doc sample ${index}: evidence_sources must be a list of strings, got ${JSON.stringify(sample.evidence_sources)}`, source, line);
    }
    const numbers = pages as number[];
    const valid = [...new Set(numbers.filter((p) => p >= 1))].sort((a, b) => a - b);
    const dropped = numbers.filter((p) => p < 1);
    const answerable = sample.answer_format !== 'None' && sample.answer !== 'Not answerable';
    return {
      id: `mmlb-${String(index).padStart(4, '0')}`,
      doc_file: `${documentPrefix}${sample.doc_id}`,
      question: sample.question,
      answer: sample.answer,
      answer_format: sample.answer_format,
      answerable,
      evidence_pages: valid,
      evidence_sources: sources as string[],
      source_benchmark: MMLONGBENCH_BENCHMARK,
      orig: { index_in_samples_json: index, doc_id: sample.doc_id, doc_type: sample.doc_type ?? null, evidence_pages: sample.evidence_pages },
      ...(dropped.length > 0 ? { evidence_page_issue: `dropped page(s) ${dropped.join(', ')}: pages are 1-based` } : {}),
    };
  });
  checkUniqueIds(questions, lines, source);
  return questions;
}
