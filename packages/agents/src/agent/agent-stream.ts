import { DocTreeError } from '@doctree/schema';
import type { AgentEvent, AgentRun, AskOptions } from './doctree-agent.js';

/** The one method of {@link DocTreeAgent} that {@link streamAsk} needs (a test double or a wrapper works too). */
export interface AskableAgent {
  ask(question: string, options?: AskOptions): Promise<AgentRun>;
}

/** What {@link streamAsk} yields: each step of the loop as it happens, then the run. */
export type AgentStreamItem = { type: 'event'; event: AgentEvent } | { type: 'answer'; run: AgentRun };

/** Options of {@link streamAsk}: the question's {@link AskOptions} (`onEvent`, when given, still sees every event). */
export type StreamAskOptions = AskOptions;

/**
 * Asks `question` and yields the loop's steps as they happen (`{ type: 'event' }`: route, plan, retrieve, steps, read,
 * judge, replan, finalize), then `{ type: 'answer', run }` last.
 *
 * - No event is lost: the agent's callback only appends to a queue, and the queue is drained in order whatever the
 *   consumer's pace (a slow consumer never slows or blocks the agent; the queue holds at most a few events per pass).
 * - A failed question (`CANCELLED`, `USAGE`, an `LLM_*` error with `onLlmError: 'fail'`…) is thrown by the iteration
 *   after the events that came before it were yielded.
 * - `options.signal` cancels the question; leaving the loop early (`break`, `return`, a throw in the loop body) cancels
 *   it too, and waits for the agent to stop before the loop exits.
 *
 * @example
 * ```ts
 * for await (const item of streamAsk(agent, 'What were net sales in 2022?')) {
 *   if (item.type === 'event') console.log(`${item.event.type}: ${item.event.message}`);
 *   else console.log(item.run.answer.answer, item.run.answer.pages);
 * }
 * ```
 */
export async function* streamAsk(agent: AskableAgent, question: string, options: StreamAskOptions = {}): AsyncGenerator<AgentStreamItem, void, undefined> {
  if (typeof agent?.ask !== 'function') throw new DocTreeError('USAGE', 'streamAsk needs an agent with an ask(question, options) method', { hint: 'Pass a DocTreeAgent, e.g. (await openAgent(file)).agent.' });
  const { signal: given, onEvent, ...rest } = options;
  const stop = new AbortController();
  const signal = given ? AbortSignal.any([given, stop.signal]) : stop.signal;
  const queue: AgentEvent[] = [];
  let wake: (() => void) | undefined;
  const notify = (): void => {
    const resume = wake;
    wake = undefined;
    resume?.();
  };
  const state: { outcome?: { ok: true; run: AgentRun } | { ok: false; error: unknown } } = {};
  const running = Promise.resolve()
    .then(() =>
      agent.ask(question, {
        ...rest,
        signal,
        onEvent: (event) => {
          queue.push(event);
          try {
            onEvent?.(event);
          } catch {
            // A progress hook must not break the question.
          }
          notify();
        },
      }),
    )
    .then(
      (run) => {
        state.outcome = { ok: true, run };
      },
      (error: unknown) => {
        state.outcome = { ok: false, error };
      },
    )
    .finally(notify);
  let finished = false;
  try {
    for (;;) {
      while (queue.length > 0) yield { type: 'event', event: queue.shift()! };
      if (state.outcome) break;
      await new Promise<void>((resolve) => {
        wake = resolve;
        // An event or the outcome may have arrived between the checks above and now.
        if (queue.length > 0 || state.outcome) notify();
      });
    }
    finished = true;
    const outcome = state.outcome!;
    if (!outcome.ok) throw outcome.error;
    yield { type: 'answer', run: outcome.run };
  } finally {
    if (!finished) {
      // The consumer left early: stop the question and let it settle (its CANCELLED error is expected, not reported).
      stop.abort(new DocTreeError('CANCELLED', 'the consumer stopped reading the agent stream'));
      await running;
    }
  }
}
