import type { AnswerFormat, AnswerValue, Observation, RouterDecision, Support, TokenUsage } from '../agent.js';

/** One table cell a computed value was derived from. */
export interface ComputedOperand {
  /** Table node the cell is in. */
  node_id: string;
  /** Row label as written. */
  row: string;
  /** Column label (header rows joined). */
  column: string;
  /** The cell as written (`(1,482)`). */
  raw: string;
  /** The number used. */
  value: number;
}

/**
 * A value the plan's steps computed for the question (`compute.eval` over cells `extract.column` read), offered to the
 * reader as a candidate answer: the reader decides whether its operands are what the question asks about.
 */
export interface ComputedValue {
  /** The operation (`difference`, `percent_change`, `ratio`, `percent`, `sum`, `average`). */
  operation: string;
  /** The number to show (percents × 100, scaled values in the scale of the operands). */
  value: number;
  /** How to show it (`14.79%`, `$191 million`). */
  text: string;
  /** The result is a percentage. */
  percent: boolean;
  /** Currency or unit, when known. */
  unit?: string | null;
  /** Scale of `value` (`millions`), when known. */
  scale?: string | null;
  /** The cells it was computed from, in operand order. */
  operands: readonly ComputedOperand[];
}

/** What a reader is asked: the question and the evidence observed for it, nothing else. */
export interface ReadRequest {
  /** The user's question, verbatim. */
  question: string;
  /**
   * Evidence as observed, best first: text with anchors, parsed tables, figure descriptions. The DocTree agent
   * passes Observer output; the RAG baseline passes its top chunks as text observations.
   */
  observations: readonly Observation[];
  /** The router's reading of the question (expected format, operations, units, years), when available. */
  decision?: RouterDecision;
  /** Values the plan's steps computed (arithmetic over extracted table cells), when any. */
  computed?: readonly ComputedValue[];
  /**
   * Who declines a weakly supported answer. `reader` (default): the reader answers "Not answerable" when its best answer
   * is too weakly supported by its own measure. `caller`: the caller decides (a calibrated agent weighs the answer
   * against the chance that the document does not say): the reader returns its best answer with its confidence however
   * weak, and "Not answerable" only when nothing in the evidence could answer. Readers without such a measure ignore it.
   */
  abstain?: 'reader' | 'caller';
  /** Cancels a model call. */
  signal?: AbortSignal;
}

/** What a reader answers: a typed value and the spans of the observations that support it. */
export interface ReadResult {
  answer: AnswerValue;
  answer_format: AnswerFormat;
  /** The answer as a person reads it, with its unit and scale (e.g. `$37.5 million`), when known. */
  display?: string;
  /** In [0, 1]. */
  confidence: number;
  /** Supporting spans; each names an observed node, its 1-based page and a snippet occurring in the observation. */
  support: Support[];
  /** Model tokens spent, when a model was called. */
  usage?: TokenUsage;
  /** Short human-readable notes on how the answer was reached (kept in the trace). */
  notes?: string[];
}

/**
 * Turns observed evidence into an answer. `@doctree/agents` implements it (extractive offline reader, LLM reader);
 * the RAG baseline receives one, so DocTree and RAG differ only in how evidence is found.
 */
export interface AnswerReader {
  /** Stable identifier recorded in traces and reports, e.g. `extractive-v1` or `llm:gpt-4o-mini`. */
  readonly id: string;
  read(request: ReadRequest): Promise<ReadResult>;
}
