import { DocTreeError, parseWith, QuestionSchema } from '@doctree/schema';
import type { Question } from '@doctree/schema';

/** Where a dataset's text came from, for error messages. */
export interface DatasetSource {
  /** File the text was read from (named in errors). */
  file?: string;
}

function invalid(message: string, source: DatasetSource, line: number | undefined, cause?: unknown): DocTreeError {
  return new DocTreeError('EVAL_DATASET_INVALID', line !== undefined ? `${message} (line ${line})` : message, {
    ...(source.file !== undefined ? { file: source.file } : {}),
    ...(line !== undefined ? { details: { line } } : {}),
    ...(cause !== undefined ? { cause } : {}),
  });
}

/** Throws `EVAL_DATASET_INVALID` naming the file and line. */
export function datasetError(message: string, source: DatasetSource, line?: number, cause?: unknown): never {
  throw invalid(message, source, line, cause);
}

/** Throws `EVAL_DATASET_INVALID` for a repeated question id. */
export function checkUniqueIds(questions: readonly Question[], lines: readonly number[], source: DatasetSource): void {
  const seen = new Map<string, number>();
  questions.forEach((question, i) => {
    const first = seen.get(question.id);
    if (first !== undefined) datasetError(`duplicate question id "${question.id}" (first on line ${first})`, source, lines[i]);
    seen.set(question.id, lines[i] ?? i + 1);
  });
}

/**
 * Parses DocTree's `questions.jsonl` (one question per line: `id, doc_file, question, answer, answer_format, answerable,
 * evidence_pages` (1-based), `evidence_sources`; extra fields are kept). Blank lines are skipped. Malformed JSON, a
 * record that does not match the question schema, or a repeated id throws `EVAL_DATASET_INVALID` naming the line.
 *
 * @example
 * ```ts
 * const questions = parseDocTreeQuestions(await readFile('questions.jsonl', 'utf8'), { file: 'questions.jsonl' });
 * ```
 */
export function parseDocTreeQuestions(text: string, source: DatasetSource = {}): Question[] {
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
    try {
      questions.push(parseWith(QuestionSchema, value, { what: 'question', code: 'EVAL_DATASET_INVALID', line: i + 1, ...source }));
    } catch (cause) {
      const message = DocTreeError.isInstance(cause) ? cause.message.replace(/ \(line \d+\)/, '') : String(cause);
      datasetError(message, source, i + 1, cause);
    }
    lines.push(i + 1);
  });
  checkUniqueIds(questions, lines, source);
  return questions;
}
