import type { TraceEvent } from '@doctree/schema';
import { annualReportTree, buildFixtureIndex, type FixtureIndex } from '@doctree/toolhub/testing';
import { DocTreeAgent } from './doctree-agent.js';

describe('trace events as they happen (AskOptions.onTraceEvent)', () => {
  let fixture: FixtureIndex;
  beforeAll(async () => {
    fixture = await buildFixtureIndex(annualReportTree());
  });
  afterAll(() => fixture.cleanup());
  const question = 'What did Northwind say about its dividend?';

  it('reports each tool call while the question runs, between the loop steps, and every event of the final trace', async () => {
    const log: string[] = [];
    const seen: TraceEvent[] = [];
    const run = await new DocTreeAgent({ index: fixture.index }).ask(question, {
      onEvent: (event) => log.push(`step:${event.type}`),
      onTraceEvent: (event) => {
        seen.push(event);
        if (event.type === 'tool_call') log.push(`tool:${event.tool_id}`);
      },
    });
    // Live: the retrieval lanes' calls come before the `retrieve` step, the reader's call before `finalize`.
    expect(log.indexOf('tool:bm25_node.search')).toBeGreaterThan(log.indexOf('step:plan'));
    expect(log.indexOf('tool:bm25_node.search')).toBeLessThan(log.indexOf('step:retrieve'));
    expect(log.indexOf('tool:reader.answer')).toBeLessThan(log.indexOf('step:finalize'));
    expect(seen.map((e) => `${e.type}:${e.tool_id ?? ''}`)).toEqual(run.answer.trace.events.map((e) => `${e.type}:${e.tool_id ?? ''}`));
  });

  it('a listener that throws does not break the question; the agent-wide trace listener hears the same events', async () => {
    const agentWide: string[] = [];
    const agent = new DocTreeAgent({ index: fixture.index, trace: { onRecord: (event) => agentWide.push(event.type) } });
    const run = await agent.ask(question, {
      onTraceEvent: () => {
        throw new Error('listener bug');
      },
    });
    expect(run.answer.answer).toBeDefined();
    expect(agentWide).toEqual(run.answer.trace.events.map((e) => e.type));
  });
});
