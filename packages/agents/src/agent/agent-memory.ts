import type { Observation, RouterDecision, StrategyPlan } from '@doctree/schema';
import type { StageResult } from '@doctree/toolhub';
import type { JudgeVerdict } from '../judger/answer-judger.js';

/** Options of {@link AgentMemory}. */
export interface AgentMemoryOptions {
  /** Most stage results kept in the hit cache (least recently used dropped first). Default 256. */
  maxStages?: number;
  /** Most observations kept in the observation cache (least recently used dropped first). Default 2000. */
  maxObservations?: number;
}

/** Defaults of {@link AgentMemoryOptions}. */
export const AGENT_MEMORY_DEFAULTS = { maxStages: 256, maxObservations: 2000 } as const satisfies Required<AgentMemoryOptions>;

/** One pass of the loop as remembered: the plan it ran, what it found and what the judger said. */
export interface AttemptRecord {
  /** 0 for the first pass, +1 per REPLAN. */
  attempt: number;
  plan: StrategyPlan;
  /** Coverage of the evidence pack against the plan's needs. */
  coverage: number;
  /** Node ids observed for the first time in this pass. */
  newNodes: string[];
  /** Node ids observed in an earlier pass and reused from memory. */
  reusedNodes: string[];
  verdict?: JudgeVerdict;
  /** What `replan` changed to make the next pass (empty for the last one). */
  replanned: string[];
}

/** What one question's session remembers: the decision, the passes, and every node observed so far. */
export interface MemoryHistory {
  question: string;
  decision?: RouterDecision;
  attempts: AttemptRecord[];
}

/**
 * The per-question part of {@link AgentMemory}: the history of the question (decision, plans, verdicts, what each
 * REPLAN changed) and the nodes visited so far, so a later pass tells new evidence from evidence already seen.
 */
export class MemorySession {
  readonly history: MemoryHistory;
  readonly #visited = new Set<string>();

  /** @param question the question of this session. */
  constructor(question: string) {
    this.history = { question, attempts: [] };
  }

  /** Remembers the router decision. */
  setDecision(decision: RouterDecision): void {
    this.history.decision = decision;
  }

  /**
   * Splits node ids into those never visited in this session (returned in `fresh`, in order, de-duplicated) and those
   * already visited by an earlier pass (`seen`), and marks them all visited.
   */
  visit(nodeIds: readonly string[]): { fresh: string[]; seen: string[] } {
    const fresh: string[] = [];
    const seen: string[] = [];
    const now = new Set<string>();
    for (const id of nodeIds) {
      if (now.has(id)) continue;
      now.add(id);
      (this.#visited.has(id) ? seen : fresh).push(id);
    }
    for (const id of fresh) this.#visited.add(id);
    return { fresh, seen };
  }

  /** True when a node was visited in this session. */
  visited(nodeId: string): boolean {
    return this.#visited.has(nodeId);
  }

  /** Number of distinct nodes visited in this session. */
  get visitedCount(): number {
    return this.#visited.size;
  }

  /** Appends the record of a pass. */
  recordAttempt(record: AttemptRecord): void {
    this.history.attempts.push(record);
  }

  /** The record of the last pass, if any. */
  get lastAttempt(): AttemptRecord | undefined {
    return this.history.attempts[this.history.attempts.length - 1];
  }
}

/** A small least-recently-used map. */
class LruMap<K, V> {
  readonly #map = new Map<K, V>();
  constructor(private readonly max: number) {}

  get(key: K): V | undefined {
    const value = this.#map.get(key);
    if (value === undefined) return undefined;
    this.#map.delete(key);
    this.#map.set(key, value);
    return value;
  }

  set(key: K, value: V): void {
    this.#map.delete(key);
    this.#map.set(key, value);
    while (this.#map.size > this.max) this.#map.delete(this.#map.keys().next().value as K);
  }

  get size(): number {
    return this.#map.size;
  }

  clear(): void {
    this.#map.clear();
  }
}

/** Cache statistics of an {@link AgentMemory}. */
export interface MemoryStats {
  stageHits: number;
  stageMisses: number;
  observationHits: number;
  observationMisses: number;
}

/**
 * The agent's memory (docs/design/agent-loop.md §9): caches retrieval stage results (hits) by stage, query and signals, and
 * observations by node (and question, when a vision model made them question-specific), so a REPLAN or a repeated
 * question does not query or observe the same things again; per question, a {@link MemorySession} keeps the history
 * (decision, plans, verdicts) and de-duplicates the nodes visited across passes. Caches are bounded (LRU).
 * One memory belongs to one document index: a new index needs a new memory.
 *
 * @example
 * ```ts
 * const memory = new AgentMemory();
 * const session = memory.session('What was capex in 2023?');
 * session.visit(['tab_1', 't_4']); // { fresh: ['tab_1', 't_4'], seen: [] }
 * session.visit(['tab_1', 't_9']); // { fresh: ['t_9'], seen: ['tab_1'] }
 * ```
 */
export class AgentMemory {
  readonly #stages: LruMap<string, StageResult>;
  readonly #observations: LruMap<string, Observation>;
  readonly #stats: MemoryStats = { stageHits: 0, stageMisses: 0, observationHits: 0, observationMisses: 0 };

  /** @param options cache sizes. */
  constructor(options: AgentMemoryOptions = {}) {
    const o = { ...AGENT_MEMORY_DEFAULTS, ...options };
    this.#stages = new LruMap(Math.max(1, o.maxStages));
    this.#observations = new LruMap(Math.max(1, o.maxObservations));
  }

  /** Starts the session of one question. */
  session(question: string): MemorySession {
    return new MemorySession(question);
  }

  /** The stage result cached under `key` (see {@link stageKey}), counting the hit or miss. */
  cachedStage(key: string): StageResult | undefined {
    const found = this.#stages.get(key);
    if (found) this.#stats.stageHits++;
    else this.#stats.stageMisses++;
    return found;
  }

  /** Caches a stage result. */
  rememberStage(key: string, result: StageResult): void {
    this.#stages.set(key, result);
  }

  /**
   * Observations cached for these node ids (`scope` separates question-specific observations, e.g. VLM descriptions;
   * empty for question-independent ones), and the ids still to observe, in the order asked.
   */
  cachedObservations(nodeIds: readonly string[], scope = ''): { cached: Map<string, Observation>; missing: string[] } {
    const cached = new Map<string, Observation>();
    const missing: string[] = [];
    for (const id of nodeIds) {
      if (cached.has(id)) continue;
      const found = this.#observations.get(`${scope}\u0000${id}`);
      if (found) {
        cached.set(id, found);
        this.#stats.observationHits++;
      } else {
        missing.push(id);
        this.#stats.observationMisses++;
      }
    }
    return { cached, missing };
  }

  /** Caches observations under their requested ids. */
  rememberObservations(observations: ReadonlyMap<string, Observation>, scope = ''): void {
    for (const [id, observation] of observations) this.#observations.set(`${scope}\u0000${id}`, observation);
  }

  /** Cache hit and miss counts since creation. */
  stats(): MemoryStats {
    return { ...this.#stats };
  }

  /** Drops every cached stage and observation. */
  clear(): void {
    this.#stages.clear();
    this.#observations.clear();
  }
}

/** Cache key of a retrieval stage: the stage (methods, limits, filters), the query and the lane / rerank context. */
export function stageKey(parts: Record<string, unknown>): string {
  return JSON.stringify(parts, (_key, value: unknown) =>
    value instanceof Set ? [...value] : value !== null && typeof value === 'object' && !Array.isArray(value) ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.localeCompare(b))) : value,
  );
}
