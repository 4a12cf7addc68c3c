import {
  DocTreeError,
  formatIssues,
  ObservationSchema,
  RouterDecisionSchema,
  type AnswerReader,
  type AnswerValue,
  type Observation,
  type ReadRequest,
  type ReadResult,
  type Support,
} from '@doctree/schema';
import { observationText, supportMatches } from './observation-text.js';
import { carryAnalysis } from '../analysis/question-analysis.js';

/** The answer text of an unanswerable question (`answer_format: "None"`). */
export const NOT_ANSWERABLE = 'Not answerable';

/** What {@link BaseReader} reports after each read (for traces and metrics). */
export interface ReadEvent {
  readerId: string;
  question: string;
  observations: number;
  result: ReadResult;
  latencyMs: number;
}

/** Options of {@link BaseReader}. */
export interface BaseReaderOptions {
  /** Called after every successful read with the normalised result. */
  onRead?: (event: ReadEvent) => void;
}

const ANSWER_NUMBER = /^\s*[-+]?[$€£]?\s*\(?[-+]?\d[\d,]*(?:\.\d+)?\)?\s*%?\s*$/;

function toNumber(value: AnswerValue): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string' || !ANSWER_NUMBER.test(value)) return undefined;
  const negative = /\(|-/.test(value);
  const n = Number(value.replace(/[^\d.]/g, ''));
  return Number.isFinite(n) ? (negative ? -n : n) : undefined;
}

/**
 * Base of every answer reader. The public {@link read} validates the request (question, observations against
 * `ObservationSchema`, the decision against `RouterDecisionSchema`), honours cancellation, calls the protected
 * {@link _read}, then normalises the result: confidence clamped to [0, 1]; answer typed by its format (numbers for
 * Int/Float, arrays for List, `Not answerable` with no support for None); supports kept only when their snippet
 * is exactly the observation text at their offsets; an answer left without support loses half its confidence.
 */
export abstract class BaseReader implements AnswerReader {
  /** Stable identifier recorded in traces. */
  abstract readonly id: string;
  private readonly onRead: BaseReaderOptions['onRead'];

  /** @param options tracing hook. */
  protected constructor(options: BaseReaderOptions = {}) {
    this.onRead = options.onRead;
  }

  /** Answers a question from the observations given (validated and normalised around {@link _read}). */
  async read(request: ReadRequest): Promise<ReadResult> {
    const t0 = performance.now();
    const valid = this.validate(request);
    if (valid.signal?.aborted) throw new DocTreeError('CANCELLED', 'reading was cancelled');
    const raw = await this._read(valid);
    const result = this.normalise(raw, valid.observations);
    this.onRead?.({ readerId: this.id, question: valid.question, observations: valid.observations.length, result, latencyMs: performance.now() - t0 });
    return result;
  }

  /** Produces an answer from a validated request. */
  protected abstract _read(request: ReadRequest): Promise<ReadResult>;

  private validate(request: ReadRequest): ReadRequest {
    if (typeof request?.question !== 'string' || request.question.trim() === '') {
      throw new DocTreeError('USAGE', 'the question is empty', { hint: 'Ask a question in plain words.' });
    }
    if (!Array.isArray(request.observations)) {
      throw new DocTreeError('SCHEMA_INVALID', 'observations must be an array of Observation records');
    }
    const observations: Observation[] = request.observations.map((o, i) => {
      const parsed = ObservationSchema.safeParse(o);
      if (!parsed.success) {
        const nodeId = typeof (o as { node_id?: unknown })?.node_id === 'string' ? (o as { node_id: string }).node_id : undefined;
        throw new DocTreeError('SCHEMA_INVALID', `observation ${i} is not a valid Observation: ${formatIssues(parsed.error)}`, nodeId ? { nodeId } : {});
      }
      return parsed.data;
    });
    let decision = request.decision;
    if (decision !== undefined) {
      const parsed = RouterDecisionSchema.safeParse(decision);
      if (!parsed.success) throw new DocTreeError('SCHEMA_INVALID', `the router decision is not valid: ${formatIssues(parsed.error)}`);
      // The question's analysis travels with the decision through the re-validation.
      decision = carryAnalysis(request.decision, parsed.data);
    }
    const computed = (Array.isArray(request.computed) ? request.computed : []).filter(
      (c) => c !== null && typeof c === 'object' && typeof c.operation === 'string' && Number.isFinite(c.value) && Array.isArray(c.operands),
    );
    return {
      question: request.question,
      observations,
      ...(decision ? { decision } : {}),
      ...(computed.length > 0 ? { computed } : {}),
      ...(request.abstain === 'caller' || request.abstain === 'reader' ? { abstain: request.abstain } : {}),
      ...(request.signal ? { signal: request.signal } : {}),
    };
  }

  private normalise(raw: ReadResult, observations: readonly Observation[]): ReadResult {
    const notes = [...(raw.notes ?? [])];
    let confidence = Number.isFinite(raw.confidence) ? Math.min(1, Math.max(0, raw.confidence)) : 0;
    let format = raw.answer_format;
    let answer: AnswerValue = raw.answer;
    if (format === 'None') {
      return { answer: NOT_ANSWERABLE, answer_format: 'None', confidence, support: [], ...(raw.usage ? { usage: raw.usage } : {}), notes };
    }
    if (format === 'Int' || format === 'Float') {
      const n = Array.isArray(answer) ? undefined : toNumber(answer);
      if (n === undefined) {
        notes.push(`answer "${String(answer)}" is not a number; kept as Str`);
        format = 'Str';
        answer = Array.isArray(answer) ? answer.join(', ') : String(answer);
      } else {
        answer = n;
        if (format === 'Int' && !Number.isInteger(n)) format = 'Float';
      }
    } else if (format === 'List') {
      answer = Array.isArray(answer) ? answer : [answer];
    } else if (Array.isArray(answer)) {
      answer = answer.join(', ');
    } else if (typeof answer === 'number') {
      answer = String(answer);
    }
    const texts = new Map(observations.map((o) => [o, observationText(o)]));
    const support: Support[] = [];
    const seen = new Set<string>();
    let dropped = 0;
    for (const s of raw.support) {
      const key = `${s.node_id}:${s.char_start}:${s.char_end}`;
      if (seen.has(key)) continue;
      const ok = observations.some((o) => o.node_id === s.node_id && supportMatches(s, o, texts.get(o)));
      if (!ok) {
        dropped++;
        continue;
      }
      seen.add(key);
      support.push(s);
    }
    if (dropped > 0) notes.push(`${dropped} support span(s) dropped: their snippet is not the observation text at their offsets`);
    if (support.length === 0) {
      confidence *= 0.5;
      notes.push('no support span remains; confidence halved');
    }
    const display = typeof raw.display === 'string' && raw.display.trim() !== '' ? raw.display.trim() : undefined;
    return { answer, answer_format: format, ...(display ? { display } : {}), confidence, support, ...(raw.usage ? { usage: raw.usage } : {}), notes };
  }
}
