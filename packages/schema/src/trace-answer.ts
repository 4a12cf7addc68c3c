import type { Answer, Trace, TraceAnswer } from './agent.js';

/** Limits of {@link traceWithAnswer}: trace files stay small whatever the answer holds. */
export const TRACE_ANSWER_LIMITS = {
  /** Supporting spans kept. */
  support: 20,
  /** Characters kept of each support snippet. */
  snippetChars: 400,
  /** Characters kept of a declined answer's reason. */
  reasonChars: 400,
} as const;

const clip = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/**
 * The answer's trace with the final answer attached (`trace.answer`: value, format, confidence, pages, supports with
 * bounded snippets, the reason of a decline), as `doctree ask --trace` writes it, so a trace file alone shows where the
 * path ended. The answer's own `trace` is not repeated.
 *
 * @example
 * ```ts
 * await writeFile('trace.json', JSON.stringify(traceWithAnswer(answer)));
 * ```
 */
export function traceWithAnswer(answer: Answer): Trace {
  const summary: TraceAnswer = {
    answer: answer.answer,
    answer_format: answer.answer_format,
    ...(answer.display !== undefined ? { display: answer.display } : {}),
    confidence: answer.confidence,
    pages: answer.pages,
    support: answer.support.slice(0, TRACE_ANSWER_LIMITS.support).map((s) => ({ ...s, snippet: clip(s.snippet, TRACE_ANSWER_LIMITS.snippetChars) })),
    ...(answer.abstention ? { abstention_reason: clip(answer.abstention.reason, TRACE_ANSWER_LIMITS.reasonChars) } : {}),
  };
  return { ...answer.trace, answer: summary };
}
