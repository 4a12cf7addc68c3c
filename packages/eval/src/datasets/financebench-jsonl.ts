import { formatIssues, pageFromIndex } from '@doctree/schema';
import type { Question } from '@doctree/schema';
import { z } from 'zod';

import { checkUniqueIds, datasetError } from './doctree-questions.js';
import type { DatasetSource } from './doctree-questions.js';

/** Options of {@link parseFinanceBenchJsonl}. */
export interface FinanceBenchOptions extends DatasetSource {
  /**
   * Prefix of `doc_file` (`<prefix><doc_name>.pdf`), relative to the folder of the JSONL file. Default `../pdfs/`
   * (upstream keeps `data/financebench_open_source.jsonl` next to `pdfs/`).
   */
  documentPrefix?: string;
}

/** Defaults of {@link FinanceBenchOptions}. */
export const FINANCEBENCH_DEFAULTS = { documentPrefix: '../pdfs/' } as const;

/** Benchmark name written to `source_benchmark`. */
export const FINANCEBENCH_BENCHMARK = 'FinanceBench (github.com/patronus-ai/financebench)';

const EvidenceSchema = z.looseObject({
  evidence_text: z.string().optional(),
  doc_name: z.string().optional(),
  /** 0-based page of the PDF. */
  evidence_page_num: z.number().int().nonnegative(),
});

/** One line of FinanceBench's `financebench_open_source.jsonl` as published. */
const RowSchema = z.looseObject({
  financebench_id: z.string().min(1),
  company: z.string().optional(),
  doc_name: z.string().min(1),
  question_type: z.string().nullable().optional(),
  question_reasoning: z.string().nullable().optional(),
  domain_question_num: z.string().nullable().optional(),
  question: z.string().min(1),
  answer: z.string(),
  justification: z.string().nullable().optional(),
  dataset_subset_label: z.string().optional(),
  evidence: z.array(EvidenceSchema),
});

/**
 * Parses FinanceBench's `financebench_open_source.jsonl`. Its `evidence_page_num` is 0-based and becomes the 1-based
 * `evidence_pages` (sorted, unique; evidence from another document is left out). Answers are open (`answer_format`
 * null), every question is answerable, `evidence_sources` is null. Ids are `fb-<digits of financebench_id>` as in
 * DocTree's dev set; the source fields (without the full-page texts) are kept under `orig`.
 * Malformed lines throw `EVAL_DATASET_INVALID` naming the line.
 */
export function parseFinanceBenchJsonl(text: string, options: FinanceBenchOptions = {}): Question[] {
  const { documentPrefix, ...source } = { ...FINANCEBENCH_DEFAULTS, ...options };
  const questions: Question[] = [];
  const lines: number[] = [];
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (line === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (cause) {
      datasetError(`invalid JSON: ${(cause as Error).message}`, source, i + 1, cause);
    }
    const parsed = RowSchema.safeParse(value);
    if (!parsed.success) datasetError(`invalid FinanceBench record: ${formatIssues(parsed.error)}`, source, i + 1);
    const row = parsed.data;
    const evidence = row.evidence.filter((e) => e.doc_name === undefined || e.doc_name === row.doc_name);
    const zeroBased = evidence.map((e) => e.evidence_page_num);
    const digits = /^financebench_id_(\d+)$/.exec(row.financebench_id)?.[1];
    const { evidence: _evidence, question, answer, ...rest } = row;
    questions.push({
      id: `fb-${digits ?? row.financebench_id}`,
      doc_file: `${documentPrefix}${row.doc_name}.pdf`,
      question,
      answer,
      answer_format: null,
      answerable: true,
      evidence_pages: [...new Set(zeroBased.map(pageFromIndex))].sort((a, b) => a - b),
      evidence_sources: null,
      source_benchmark: FINANCEBENCH_BENCHMARK,
      orig: { ...rest, evidence_page_num_0based: zeroBased, evidence_texts: evidence.map((e) => e.evidence_text ?? '') },
    });
    lines.push(i + 1);
  });
  checkUniqueIds(questions, lines, source);
  return questions;
}
