/**
 * The line `doctree eval` and `doctree-eval-runner` print on stderr for a system whose LLM calls failed during an
 * evaluation (counted by `evaluateQuestions`).
 */

/** LLM failures of one system in one evaluation call (questions answered now; resumed ones are not counted). */
export interface LlmFailureStats {
  /** LLM calls made. */
  calls: number;
  /** LLM calls that failed (each answered by an offline fallback, or failing the question). */
  failed_calls: number;
  /** Questions with at least one failed LLM call: their steps fell back offline. */
  questions_fallen_back: number;
  /** Questions answered (by this call) with the LLM configured. */
  questions: number;
  /** Failed calls by error code (`LLM_TIMEOUT`, `LLM_UNAVAILABLE`…). */
  codes: Record<string, number>;
}

/**
 * The warning line for a system whose LLM calls failed, or undefined when none did: e.g. `warning: doctree: 12 of 12
 * LLM call(s) failed (LLM_UNAVAILABLE 12); 4 of 4 question(s) fell back offline`.
 */
export function llmFailureWarning(system: string, stats: LlmFailureStats): string | undefined {
  if (stats.failed_calls === 0) return undefined;
  const codes = Object.entries(stats.codes)
    .map(([code, n]) => `${code} ${n}`)
    .join(', ');
  const all = stats.failed_calls === stats.calls ? ' — every LLM call failed: this is not an LLM run; check the endpoint (doctree doctor)' : '';
  return `warning: ${system}: ${stats.failed_calls} of ${stats.calls} LLM call(s) failed (${codes}); ${stats.questions_fallen_back} of ${stats.questions} question(s) fell back offline${all}`;
}
