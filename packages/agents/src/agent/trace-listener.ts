import type { TraceEvent } from '@doctree/schema';
import type { TraceRecorderOptions } from '@doctree/toolhub';

/**
 * The `onRecord` option of a question's trace recorder: the agent's own listener (`trace.onRecord` of the agent's
 * options) and the question's (`AskOptions.onTraceEvent`), each called with every event as it is recorded; a listener
 * that throws is ignored and the other still runs. Empty when neither is given.
 */
export function traceListener(agentWide: ((event: TraceEvent) => void) | undefined, perQuestion: ((event: TraceEvent) => void) | undefined): Pick<TraceRecorderOptions, 'onRecord'> {
  const listeners = [agentWide, perQuestion].filter((l): l is (event: TraceEvent) => void => l !== undefined);
  if (listeners.length === 0) return {};
  return {
    onRecord: (event) => {
      for (const listener of listeners) {
        try {
          listener(event);
        } catch {
          // A listener must not break the question.
        }
      }
    },
  };
}
