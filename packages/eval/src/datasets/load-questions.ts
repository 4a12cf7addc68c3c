import { readFile } from 'node:fs/promises';
import { basename, dirname, extname, resolve } from 'node:path';

import { DocTreeError } from '@doctree/schema';
import type { Question } from '@doctree/schema';

import { datasetError, parseDocTreeQuestions } from './doctree-questions.js';
import { FINANCEBENCH_DEFAULTS, parseFinanceBenchJsonl } from './financebench-jsonl.js';
import { MMLONGBENCH_DEFAULTS, parseMmLongBenchSamples } from './mmlongbench-samples.js';

/** Dataset file formats: DocTree's `questions.jsonl`, MMLongBench-Doc's `samples.json`, FinanceBench's JSONL. */
export type DatasetFormat = 'doctree' | 'mmlongbench' | 'financebench';

/** A loaded dataset. */
export interface EvalDataset {
  /** Name used in reports, e.g. `dev/questions`. */
  name: string;
  format: DatasetFormat;
  /** Absolute path of the file. */
  file: string;
  /** Folder that `doc_file` paths are relative to (the file's folder). */
  baseDir: string;
  questions: Question[];
}

/** Options of {@link loadDataset} and {@link loadQuestions}. */
export interface LoadQuestionsOptions {
  /** File format; `auto` detects it from the content. Default `auto`. */
  format?: DatasetFormat | 'auto';
  /**
   * Prefix of `doc_file` for the benchmark formats (relative to the file's folder). Default `documents/` for
   * MMLongBench-Doc and `../pdfs/` for FinanceBench, their published layouts.
   */
  documentPrefix?: string;
  /** Dataset name for reports. Default `<folder>/<file name without extension>`. */
  name?: string;
}

/** Defaults of {@link LoadQuestionsOptions}. */
export const LOAD_QUESTIONS_DEFAULTS = { format: 'auto' } as const satisfies LoadQuestionsOptions;

function firstRecord(text: string): unknown {
  const trimmed = text.trimStart();
  if (trimmed.startsWith('[')) {
    try {
      const data: unknown = JSON.parse(text);
      return Array.isArray(data) ? { __array: true, first: data[0] } : undefined;
    } catch {
      return { __array: true, first: undefined };
    }
  }
  const line = text.split('\n').find((l) => l.trim() !== '');
  if (line === undefined) return undefined;
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}

function has(value: unknown, key: string): boolean {
  return typeof value === 'object' && value !== null && key in value;
}

/**
 * Detects the format of a dataset file from its content: a JSON array of records with `doc_id` is MMLongBench-Doc's
 * `samples.json`; JSON lines with `financebench_id` are FinanceBench; JSON lines with `doc_file` are DocTree's format.
 * Throws `EVAL_DATASET_INVALID` when none applies.
 */
export function detectDatasetFormat(text: string, file?: string): DatasetFormat {
  const source = file !== undefined ? { file } : {};
  const record = firstRecord(text);
  if (record === undefined) {
    if (text.trim() === '') datasetError('the dataset file is empty', source);
    datasetError('not a dataset: expected JSON lines (questions.jsonl, FinanceBench) or a JSON array (MMLongBench-Doc samples.json)', source, 1);
  }
  if (has(record, '__array')) {
    const first = (record as { first: unknown }).first;
    if (first === undefined || has(first, 'doc_id')) return 'mmlongbench';
    datasetError('a JSON array of records without doc_id: expected MMLongBench-Doc samples.json', source, 1);
  }
  if (has(record, 'financebench_id')) return 'financebench';
  if (has(record, 'doc_file')) return 'doctree';
  datasetError('unrecognised records: expected doc_file (DocTree questions.jsonl), financebench_id (FinanceBench) or an array with doc_id (MMLongBench-Doc)', source, 1);
}

/**
 * Reads a dataset file in any supported format (auto-detected) into DocTree questions, with 1-based evidence pages
 * whatever the source convention.
 *
 * @example
 * ```ts
 * const dataset = await loadDataset('../shared/data/eval/dev/questions.jsonl');
 * console.log(dataset.format, dataset.questions.length); // doctree 106
 * ```
 */
export async function loadDataset(path: string, options: LoadQuestionsOptions = {}): Promise<EvalDataset> {
  const { format, documentPrefix, name } = { ...LOAD_QUESTIONS_DEFAULTS, ...options };
  const file = resolve(path);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new DocTreeError('INPUT_NOT_FOUND', `dataset file not found: ${path}`, { file: path, cause });
    if (code === 'EISDIR') throw new DocTreeError('INPUT_UNSUPPORTED', `expected a dataset file, got a folder: ${path}`, { file: path, hint: 'Pass questions.jsonl, samples.json or financebench_open_source.jsonl.', cause });
    throw new DocTreeError('INPUT_UNREADABLE', `cannot read the dataset file ${path}: ${(cause as Error).message}`, { file: path, cause });
  }
  const detected = format === 'auto' ? detectDatasetFormat(text, path) : format;
  let questions: Question[];
  if (detected === 'mmlongbench') {
    questions = parseMmLongBenchSamples(text, { file: path, documentPrefix: documentPrefix ?? MMLONGBENCH_DEFAULTS.documentPrefix });
  } else if (detected === 'financebench') {
    questions = parseFinanceBenchJsonl(text, { file: path, documentPrefix: documentPrefix ?? FINANCEBENCH_DEFAULTS.documentPrefix });
  } else {
    questions = parseDocTreeQuestions(text, { file: path });
  }
  const baseDir = dirname(file);
  return { name: name ?? `${basename(baseDir)}/${basename(file, extname(file))}`, format: detected, file, baseDir, questions };
}

/** Reads a dataset file (format auto-detected) and returns its questions; see {@link loadDataset}. */
export async function loadQuestions(path: string, options: LoadQuestionsOptions = {}): Promise<Question[]> {
  return (await loadDataset(path, options)).questions;
}
