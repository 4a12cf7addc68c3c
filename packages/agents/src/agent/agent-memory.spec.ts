import type { Observation } from '@doctree/schema';
import type { StageResult } from '@doctree/toolhub';
import { AgentMemory, stageKey } from './agent-memory.js';

const observation = (id: string): Observation => ({ node_id: id, modality: 'text', page: 1, bbox: null, payload: { kind: 'text', text: `text of ${id}`, heading_path: [] } });

describe('AgentMemory', () => {
  it('tells nodes seen in an earlier pass from new ones, per question', () => {
    const memory = new AgentMemory();
    const session = memory.session('What was capex?');
    expect(session.visit(['tab_1', 't_4', 'tab_1'])).toEqual({ fresh: ['tab_1', 't_4'], seen: [] });
    expect(session.visit(['t_9', 'tab_1'])).toEqual({ fresh: ['t_9'], seen: ['tab_1'] });
    expect(session.visitedCount).toBe(3);
    expect(memory.session('Another question?').visit(['tab_1'])).toEqual({ fresh: ['tab_1'], seen: [] });
  });

  it('keeps the history of a question', () => {
    const session = new AgentMemory().session('q');
    expect(session.lastAttempt).toBeUndefined();
    const plan = { template: 'lookup' } as never;
    session.recordAttempt({ attempt: 0, plan, coverage: 0.2, newNodes: ['a'], reusedNodes: [], replanned: ['expand_window +1'] });
    session.recordAttempt({ attempt: 1, plan, coverage: 0.8, newNodes: ['b'], reusedNodes: ['a'], replanned: [] });
    expect(session.history.attempts.map((a) => a.coverage)).toEqual([0.2, 0.8]);
    expect(session.lastAttempt?.reusedNodes).toEqual(['a']);
  });

  it('caches observations by id and scope, least recently used first out', () => {
    const memory = new AgentMemory({ maxObservations: 2 });
    memory.rememberObservations(new Map([['a', observation('a')], ['b', observation('b')]]));
    expect(memory.cachedObservations(['a']).cached.get('a')?.node_id).toBe('a');
    memory.rememberObservations(new Map([['c', observation('c')]])); // evicts b (a was used more recently)
    const { cached, missing } = memory.cachedObservations(['a', 'b', 'c', 'a']);
    expect([...cached.keys()]).toEqual(['a', 'c']);
    expect(missing).toEqual(['b']);
    expect(memory.cachedObservations(['a'], 'vlm:q').missing).toEqual(['a']);
    expect(memory.stats()).toMatchObject({ observationHits: 3, observationMisses: 2 });
  });

  it('caches stage results under a key that ignores property order', () => {
    const memory = new AgentMemory();
    const key = stageKey({ stage: { methods: ['bm25_node.search'], k_pages: 5 }, query: 'capex' });
    expect(stageKey({ query: 'capex', stage: { k_pages: 5, methods: ['bm25_node.search'] } })).toBe(key);
    expect(stageKey({ query: 'capex', stage: { k_pages: 6, methods: ['bm25_node.search'] } })).not.toBe(key);
    expect(memory.cachedStage(key)).toBeUndefined();
    const result = { stage: 'navigate' } as StageResult;
    memory.rememberStage(key, result);
    expect(memory.cachedStage(key)).toBe(result);
    expect(memory.stats()).toMatchObject({ stageHits: 1, stageMisses: 1 });
    memory.clear();
    expect(memory.cachedStage(key)).toBeUndefined();
  });
});
