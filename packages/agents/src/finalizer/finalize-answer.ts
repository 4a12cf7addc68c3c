import { AnswerSchema, DocTreeError, formatIssues, type Answer, type AnswerFormat, type AnswerValue, type ReadResult, type Support, type Trace } from '@doctree/schema';
import type { JudgeVerdict } from '../judger/answer-judger.js';
import { NOT_ANSWERABLE } from '../reader/base-reader.js';
import { parseNumberCell } from '../reader/numbers.js';

/** Options of {@link finalizeAnswer}. */
export interface FinalizeAnswerOptions {
  /** Weight of the reader's confidence against the judger's score (the rest). Default 0.6. */
  readerWeight?: number;
  /** Factor applied to the confidence of an answer whose verdict failed. Default 0.6. */
  failedVerdictFactor?: number;
  /** Most supports kept (best first as the reader gave them, then sorted by page). Default 8. */
  maxSupports?: number;
}

/** Defaults of {@link FinalizeAnswerOptions}. */
export const FINALIZE_ANSWER_DEFAULTS = { readerWeight: 0.6, failedVerdictFactor: 0.6, maxSupports: 8 } as const satisfies Required<FinalizeAnswerOptions>;

/** What the finalizer turns into an {@link Answer}. */
export interface FinalizeInput {
  read: ReadResult;
  /** The judger's verdict, when the answer was judged. */
  verdict?: JudgeVerdict;
  /** The trace of the run (kept as given). */
  trace: Trace;
}

function normaliseValue(answer: AnswerValue, format: AnswerFormat): { answer: AnswerValue; format: AnswerFormat } {
  if (format === 'None') return { answer: NOT_ANSWERABLE, format };
  if (format === 'Int' || format === 'Float') {
    const n = typeof answer === 'number' ? answer : typeof answer === 'string' ? parseNumberCell(answer)?.value : undefined;
    if (n === undefined || !Number.isFinite(n)) return { answer: Array.isArray(answer) ? answer.join(', ') : String(answer), format: 'Str' };
    if (format === 'Int' && !Number.isInteger(n)) return { answer: n, format: 'Float' };
    return { answer: n, format };
  }
  if (format === 'List') {
    const items = (Array.isArray(answer) ? answer : [answer]).map((x) => (typeof x === 'string' ? x.trim() : x)).filter((x) => x !== '');
    return { answer: [...new Set(items)], format };
  }
  return { answer: Array.isArray(answer) ? answer.join(', ') : String(answer).trim(), format: 'Str' };
}

/**
 * Turns a read result (and its verdict) into the `Answer` of `ask`: the value normalised to its format (numbers
 * for Int/Float — a non-integer Int becomes Float, a non-number becomes Str —, de-duplicated items for List,
 * `Not answerable` with no support for None); confidence combined from the reader's and the judger's (lowered
 * when the verdict failed); support de-duplicated and sorted by page then offset; `pages` the sorted unique 1-based
 * pages of the support; the trace as passed in. The result is validated against `AnswerSchema`.
 *
 * @throws DocTreeError `SCHEMA_INVALID` when the inputs cannot make a valid Answer (e.g. a malformed trace).
 */
export function finalizeAnswer(input: FinalizeInput, options: FinalizeAnswerOptions = {}): Answer {
  const opts = { ...FINALIZE_ANSWER_DEFAULTS, ...options };
  const { read, verdict, trace } = input;
  const { answer, format } = normaliseValue(read.answer, read.answer_format);
  let confidence = Number.isFinite(read.confidence) ? read.confidence : 0;
  if (verdict && format !== 'None') {
    confidence = opts.readerWeight * confidence + (1 - opts.readerWeight) * verdict.score;
    if (!verdict.pass) confidence *= opts.failedVerdictFactor;
  }
  confidence = Math.max(0, Math.min(1, confidence));
  const seen = new Set<string>();
  const support: Support[] = [];
  if (format !== 'None') {
    for (const s of read.support) {
      const key = `${s.node_id}\u0000${s.char_start}\u0000${s.char_end}`;
      if (seen.has(key)) continue;
      seen.add(key);
      support.push(s);
      if (support.length >= opts.maxSupports) break;
    }
    support.sort((a, b) => a.page - b.page || a.char_start - b.char_start || a.node_id.localeCompare(b.node_id));
  }
  const pages = [...new Set(support.map((s) => s.page))].sort((a, b) => a - b);
  const display = format !== 'None' && read.display ? { display: read.display } : {};
  const parsed = AnswerSchema.safeParse({ answer, answer_format: format, ...display, confidence, support, pages, trace });
  if (!parsed.success) throw new DocTreeError('SCHEMA_INVALID', `the final answer is not a valid Answer: ${formatIssues(parsed.error)}`);
  return parsed.data;
}
