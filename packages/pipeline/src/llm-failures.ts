import { AsyncLocalStorage } from 'node:async_hooks';
import type { AnswerRequestOptions, QaSystem, SystemAnswer } from '@doctree/eval';
import { DocTreeError, type ChatModelClient, type ChatReply, type ChatRequest, type Question } from '@doctree/schema';
import type { LlmFailureStats } from './command/llm-failure-warning.js';

export type { LlmFailureStats } from './command/llm-failure-warning.js';

/**
 * Accounting of failed LLM calls in an evaluation: every call of the systems' chat model that throws is counted (by
 * error code), and attributed to the system and question being answered, so that a run whose endpoint failed on every
 * call is reported as such (on stderr and in `metrics.json`) instead of passing for an LLM run with no errors.
 */

interface Entry {
  calls: number;
  failed: number;
  questions: Set<string>;
  fallen: Set<string>;
  codes: Map<string, number>;
}

/** The system and question being answered (set by {@link LlmFailureCounter.wrapSystem}). */
const scope = new AsyncLocalStorage<{ entry: Entry; question: string }>();

/**
 * The chat model with its calls counted for the system and question being answered (through
 * {@link LlmFailureCounter.wrapSystem}); calls outside an answer (document summaries) are not counted. Replies and
 * errors pass through unchanged.
 */
export function countLlmFailures(chat: ChatModelClient): ChatModelClient {
  return {
    get model() {
      return chat.model;
    },
    async chat(request: ChatRequest): Promise<ChatReply> {
      const current = scope.getStore();
      if (current) current.entry.calls++;
      try {
        return await chat.chat(request);
      } catch (error) {
        if (current) {
          current.entry.failed++;
          current.entry.fallen.add(current.question);
          const code = DocTreeError.isInstance(error) ? error.code : 'ERROR';
          current.entry.codes.set(code, (current.entry.codes.get(code) ?? 0) + 1);
        }
        throw error;
      }
    },
  };
}

/** Counts the failed LLM calls of the systems of one evaluation call, per system (their chat model wrapped by {@link countLlmFailures}). */
export class LlmFailureCounter {
  readonly #stats = new Map<string, Entry>();

  #entry(system: string): Entry {
    let entry = this.#stats.get(system);
    if (!entry) {
      entry = { calls: 0, failed: 0, questions: new Set<string>(), fallen: new Set<string>(), codes: new Map<string, number>() };
      this.#stats.set(system, entry);
    }
    return entry;
  }

  /** The system with each answer run in its own scope, so that failed calls are attributed to it and the question. */
  wrapSystem(system: QaSystem): QaSystem {
    const entry = this.#entry(system.id);
    return new Proxy(system, {
      get(target, property, receiver) {
        if (property !== 'answer') {
          const value: unknown = Reflect.get(target, property, receiver);
          return typeof value === 'function' ? value.bind(target) : value;
        }
        return (question: Question, options: AnswerRequestOptions): Promise<SystemAnswer> => {
          entry.questions.add(question.id);
          return scope.run({ entry, question: question.id }, () => target.answer(question, options));
        };
      },
    });
  }

  /** Failures per system id (systems that made no LLM call now are left out). */
  stats(): Map<string, LlmFailureStats> {
    const out = new Map<string, LlmFailureStats>();
    for (const [system, s] of this.#stats) {
      if (s.calls === 0) continue;
      out.set(system, { calls: s.calls, failed_calls: s.failed, questions_fallen_back: s.fallen.size, questions: s.questions.size, codes: Object.fromEntries([...s.codes].sort()) });
    }
    return out;
  }
}
