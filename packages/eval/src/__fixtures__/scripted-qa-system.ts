import type { AnswerValue, Question, Trace } from '@doctree/schema';

import { BaseQaSystem } from '../runner/qa-system.js';
import type { AnswerRequestOptions, PrepareRequest, PrepareResult, QaSystemDescription, SystemAnswer } from '../runner/qa-system.js';

/** What the scripted system answers to one question. */
export interface ScriptedAnswer {
  answer: AnswerValue;
  ranked: number[];
  /** Throw this message instead of answering. */
  fail?: string;
  llmCalls?: number;
}

/** Options of {@link ScriptedQaSystem}. */
export interface ScriptedQaSystemOptions {
  id: string;
  answers: Record<string, ScriptedAnswer>;
  description?: QaSystemDescription;
  /** Build time it reports per document. */
  buildMs?: number;
  /** Called at the start of every answer (e.g. to abort a run). */
  onAnswer?: (question: Question, calls: number) => void;
  /** Text put in every trace (to check redaction). */
  traceNote?: string;
}

/**
 * A QA system that answers from a script — a test double of the apps' systems, so the runner's bookkeeping
 * (resume, concurrency, traces, scoring) can be checked against hand-computed metrics.
 */
export class ScriptedQaSystem extends BaseQaSystem {
  readonly id: string;
  readonly answered: string[] = [];
  readonly prepared: string[] = [];
  inFlight = 0;
  maxInFlight = 0;

  constructor(private readonly options: ScriptedQaSystemOptions) {
    super();
    this.id = options.id;
  }

  override describe(): QaSystemDescription {
    return this.options.description ?? {};
  }

  protected override async _prepare(doc: PrepareRequest): Promise<PrepareResult> {
    this.prepared.push(doc.docFile);
    return { buildMs: this.options.buildMs ?? 10 };
  }

  protected async _answer(question: Question, options: AnswerRequestOptions): Promise<SystemAnswer> {
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      this.options.onAnswer?.(question, this.answered.length + 1);
      await new Promise((r) => setTimeout(r, 2));
      this.answered.push(question.id);
      const script = Object.hasOwn(this.options.answers, question.id) ? this.options.answers[question.id] : undefined;
      if (script === undefined || script.fail !== undefined) throw new Error(script?.fail ?? `no scripted answer for ${question.id}`);
      const calls = script.llmCalls ?? 0;
      const trace: Trace = {
        format: 'doctree.trace',
        version: 1,
        trace_id: `${this.id}-${question.id}`,
        doc_id: question.doc_file,
        question: question.question,
        started_at: new Date().toISOString(),
        mode: calls > 0 ? 'llm' : 'offline',
        events: [{ type: 'finalize', t_ms: 1, attempt: 0, message: `answered from ${options.path}${this.options.traceNote ? ` ${this.options.traceNote}` : ''}` }],
        llm: { calls, prompt_tokens: calls * 100, completion_tokens: calls * 10, cost_usd: null },
        replans: 0,
      };
      const support = script.ranked.slice(0, 1).map((page) => ({ node_id: `p${page}`, page, bbox: null, char_start: 0, char_end: 4, snippet: 'text' }));
      return {
        answer: { answer: script.answer, answer_format: 'Str', confidence: 0.5, support, pages: support.map((s) => s.page), trace },
        rankedPages: script.ranked,
      };
    } finally {
      this.inFlight--;
    }
  }
}
