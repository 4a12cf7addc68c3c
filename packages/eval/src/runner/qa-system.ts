import { AnswerSchema, DocTreeError, formatIssues } from '@doctree/schema';
import type { Answer, Question } from '@doctree/schema';

/** How a system presents itself in reports and in the run manifest. */
export interface QaSystemDescription {
  /** Name shown in reports (default: the id). */
  label?: string;
  /** One line about what the system does. */
  description?: string;
  /** For an ablation: the id of the system it ablates; reports group it under that system and show deltas. */
  ablationOf?: string;
  /**
   * The configuration that determines its answers (JSON-serialisable, no secrets). Recorded in `run.json`; resuming a
   * run with a different configuration for the same system id is refused.
   */
  config?: Record<string, unknown>;
  /**
   * What the system's code is, beyond its configuration: e.g. `{ module: "my-system.mjs", module_sha256: "…",
   * "@doctree/pipeline": "0.1.0" }` for a system loaded from a module. With the id and `config` it makes the system's
   * fingerprint: answers of an earlier run are reused only while the fingerprint is the same.
   */
  code?: Record<string, string>;
}

/** A document to prepare (index) before its questions are answered. */
export interface PrepareRequest {
  /** `doc_file` of the questions, as in the dataset. */
  docFile: string;
  /** Absolute path of the document. */
  path: string;
  signal?: AbortSignal;
}

/** What preparing a document cost. */
export interface PrepareResult {
  /** Index build time, ms (0 when an existing index was reused). */
  buildMs: number;
}

/** Options of {@link QaSystem.answer}. */
export interface AnswerRequestOptions {
  /** Absolute path of the question's document. */
  path: string;
  signal?: AbortSignal;
}

/** LLM accounting of one answer. */
export interface LlmUsage {
  calls: number;
  promptTokens: number;
  completionTokens: number;
}

/** A system's answer to one question. */
export interface SystemAnswer {
  /** The answer in DocTree's schema (answer, format, confidence, support, 1-based pages, trace). */
  answer: Answer;
  /** Retrieved pages, 1-based, best first — the ranking evidence-page recall@k is computed on. */
  rankedPages: readonly number[];
  /** Latency to report, ms; default: the wall time of `answer()` measured by the runner. */
  latencyMs?: number;
  /** LLM use; default: `answer.trace.llm`. */
  llm?: LlmUsage;
}

/**
 * A question-answering system under evaluation. The apps implement it (DocTree's agent, the RAG baseline, each
 * ablation as its own system with its own id); `runEvaluation` calls `prepare` once per document and then
 * `answer` per question.
 */
export interface QaSystem {
  /** Stable id: letters, digits, `.`, `_`, `-` (names the trace folder and the rows of every report). */
  readonly id: string;
  /** Report label, ablation parent and configuration. */
  describe?(): QaSystemDescription;
  /** Builds or loads what the system needs for a document. */
  prepare?(doc: PrepareRequest): Promise<PrepareResult>;
  /** Answers one question about its document. Rejects with `CANCELLED` when the signal aborts. */
  answer(question: Question, options: AnswerRequestOptions): Promise<SystemAnswer>;
}

/** Pattern of system ids. */
export const SYSTEM_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** Throws `USAGE` unless `id` is a valid system id. */
export function assertSystemId(id: unknown): asserts id is string {
  if (typeof id !== 'string' || !SYSTEM_ID_PATTERN.test(id)) {
    throw new DocTreeError('USAGE', `invalid system id ${JSON.stringify(id)}`, { hint: 'Use 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit (e.g. doctree, rag, doctree-no-replan).' });
  }
}

/**
 * Validates what a system returned: the answer against `AnswerSchema` and the ranked pages as 1-based integers.
 * Throws `SCHEMA_INVALID` naming the system and question.
 */
export function validateSystemAnswer(value: unknown, systemId: string, questionId: string): SystemAnswer {
  const where = `system ${systemId}, question ${questionId}`;
  if (typeof value !== 'object' || value === null) throw new DocTreeError('SCHEMA_INVALID', `${where}: answer() returned ${value === null ? 'null' : typeof value}, expected { answer, rankedPages }`);
  const candidate = value as Partial<SystemAnswer>;
  const parsed = AnswerSchema.safeParse(candidate.answer);
  if (!parsed.success) throw new DocTreeError('SCHEMA_INVALID', `${where}: invalid answer: ${formatIssues(parsed.error)}`, { hint: 'Return the schema Answer (see docs/schemas/answer.json).' });
  const ranked = candidate.rankedPages;
  if (!Array.isArray(ranked) || !ranked.every((p) => Number.isInteger(p) && p >= 1)) {
    throw new DocTreeError('SCHEMA_INVALID', `${where}: rankedPages must be 1-based integer pages, best first`, { hint: 'Convert stored page_idx with pageFromIndex() before returning.' });
  }
  if (candidate.latencyMs !== undefined && !(Number.isFinite(candidate.latencyMs) && candidate.latencyMs >= 0)) {
    throw new DocTreeError('SCHEMA_INVALID', `${where}: latencyMs must be a non-negative number`);
  }
  const llm = candidate.llm;
  if (llm !== undefined && ![llm.calls, llm.promptTokens, llm.completionTokens].every((n) => Number.isInteger(n) && n >= 0)) {
    throw new DocTreeError('SCHEMA_INVALID', `${where}: llm usage must hold non-negative integers`);
  }
  return {
    answer: parsed.data,
    rankedPages: ranked,
    ...(candidate.latencyMs !== undefined ? { latencyMs: candidate.latencyMs } : {}),
    ...(llm !== undefined ? { llm } : {}),
  };
}

function throwIfAborted(signal: AbortSignal | undefined, what: string): void {
  if (signal?.aborted) throw new DocTreeError('CANCELLED', `${what} was cancelled`);
}

/**
 * Base of QA systems (the LangChain pattern): the public methods check cancellation, time `prepare` when the hook
 * does not report a build time, and validate what `_answer` returns ({@link validateSystemAnswer}).
 *
 * @example
 * ```ts
 * class FirstPageSystem extends BaseQaSystem {
 *   readonly id = 'first-page';
 *   protected async _answer(question: Question) {
 *     return { answer: makeAnswer(question), rankedPages: [1] };
 *   }
 * }
 * ```
 */
export abstract class BaseQaSystem implements QaSystem {
  abstract readonly id: string;

  /** Report label, ablation parent and configuration; override to describe the system. */
  describe(): QaSystemDescription {
    return {};
  }

  /** Prepares a document; `buildMs` is the hook's value, or the measured time when the hook returns nothing. */
  async prepare(doc: PrepareRequest): Promise<PrepareResult> {
    throwIfAborted(doc.signal, `preparing ${doc.docFile}`);
    const started = performance.now();
    const result = await this._prepare(doc);
    throwIfAborted(doc.signal, `preparing ${doc.docFile}`);
    const buildMs = result?.buildMs ?? performance.now() - started;
    if (!Number.isFinite(buildMs) || buildMs < 0) throw new DocTreeError('INTERNAL', `${this.id} reported an invalid build time ${String(buildMs)}`);
    return { buildMs };
  }

  /** Answers a question; the result is validated. */
  async answer(question: Question, options: AnswerRequestOptions): Promise<SystemAnswer> {
    throwIfAborted(options.signal, `answering ${question.id}`);
    const result = await this._answer(question, options);
    throwIfAborted(options.signal, `answering ${question.id}`);
    return validateSystemAnswer(result, this.id, question.id);
  }

  /** Builds or loads the document's index; return nothing to have the time measured. */
  protected async _prepare(_doc: PrepareRequest): Promise<PrepareResult | void> {
    return undefined;
  }

  /** Answers one question. */
  protected abstract _answer(question: Question, options: AnswerRequestOptions): Promise<SystemAnswer>;
}
