import type { DocIndex } from '@doctree/index';
import type { Observation, RouterDecision } from '@doctree/schema';
import type { TraceRecorder } from '@doctree/toolhub';
import type { JudgeVerdict } from '../judger/answer-judger.js';
import { Observer } from '../observer/observe.js';
import type { AgentCardSession, ReadRecord, VisionOptions } from './agent-cards.js';
import type { AgentMemory, MemorySession } from './agent-memory.js';

/** What a card session is made of (one per question). */
export interface CardSessionInput {
  question: string;
  decision: RouterDecision;
  trace: TraceRecorder;
  /** The memory's session of this question (which nodes earlier passes read). */
  session: MemorySession;
  /** The agent's memory (observations cached across passes and questions). */
  memory: AgentMemory;
  index: DocIndex;
  /** The offline observer. */
  observer: Observer;
  /** The vision model, when figures are observed with one. */
  vision?: VisionOptions;
  signal?: AbortSignal;
  /** Who declines weakly supported answers (see `ReadRequest.abstain`). */
  abstain?: 'reader' | 'caller';
}

/**
 * The per-question state the agent cards work in: observation through the memory's cache (with the vision model for
 * `vlm` observations), and the reads and verdicts, each traced as it is added.
 */
export function createCardSession(input: CardSessionInput): AgentCardSession {
  const reads: ReadRecord[] = [];
  const verdicts: JudgeVerdict[] = [];
  const visual = new Map<string, Observation>();
  const { question, decision, trace, session, memory, index, signal, vision } = input;
  const offlineObserver = input.observer;
  let vlmObserver: Observer | undefined;
  const warn = (w: { code: string; message: string; nodeId?: string }): void => void trace.record({ type: 'warning', message: `${w.code}: ${w.message}` });
  return {
    question,
    decision,
    ...(signal ? { signal } : {}),
    ...(input.abstain ? { abstain: input.abstain } : {}),
    reads,
    verdicts,
    async observe(nodeIds, observeOptions = {}) {
      const context = { question, ...(signal ? { signal } : {}), onWarning: warn };
      let observed: Map<string, Observation>;
      let cachedCount = 0;
      if (observeOptions.vlm && vision) {
        const missing = nodeIds.filter((id) => !visual.has(id));
        cachedCount = nodeIds.length - missing.length;
        if (missing.length > 0) {
          vlmObserver ??= new Observer({ image: { vlm: vision.client, ...(vision.renderer ? { renderer: vision.renderer } : {}), ...(vision.sourcePdf ? { sourcePdf: vision.sourcePdf } : {}) } });
          for (const o2 of await vlmObserver.observe(missing, index, context)) visual.set(o2.node_id, o2);
        }
        observed = visual;
      } else {
        const wanted = nodeIds.filter((id) => !visual.has(id));
        const { cached, missing } = memory.cachedObservations(wanted);
        cachedCount = cached.size;
        if (missing.length > 0) {
          const fresh = await offlineObserver.observe(missing, index, context);
          const byId = new Map(fresh.map((o2) => [o2.node_id, o2]));
          memory.rememberObservations(byId);
          for (const [id, o2] of byId) cached.set(id, o2);
        }
        observed = new Map([...cached, ...[...visual].filter(([id]) => nodeIds.includes(id))]);
      }
      const out = nodeIds.flatMap((id) => (observed.has(id) ? [observed.get(id)!] : []));
      const seen = out.filter((o2) => session.visited(o2.node_id)).length;
      trace.record({
        type: 'observe',
        n_hits: out.length,
        hits: out.slice(0, 100).map((o2) => ({ node_id: o2.node_id, page_idx: o2.page - 1, score: 1 })),
        message: `${out.length} node(s) observed${observeOptions.vlm ? ' with the vision model' : ''}: ${cachedCount} from memory, ${seen} seen in an earlier pass`,
        data: { requested: nodeIds.length, from_memory: cachedCount, seen_before: seen, vlm: Boolean(observeOptions.vlm) },
      });
      return out;
    },
    addRead(record) {
      reads.push(record);
      const r = record.result;
      trace.record({
        type: 'read',
        message: `${record.reader}: ${JSON.stringify(r.answer).slice(0, 200)} (${r.answer_format}, confidence ${r.confidence.toFixed(2)})`,
        n_hits: r.support.length,
        hits: r.support.slice(0, 20).map((s) => ({ node_id: s.node_id, page_idx: s.page - 1, score: Math.round(r.confidence * 1e6) / 1e6 })),
        data: { reader: record.reader, answer_format: r.answer_format, confidence: r.confidence, observations: record.observations.length, notes: (r.notes ?? []).slice(0, 12) },
      });
    },
    addVerdict(verdict) {
      verdicts.push(verdict);
      trace.record({
        type: 'judge',
        message: `${verdict.judge}: ${verdict.action} (score ${verdict.score.toFixed(2)})`,
        data: { judge: verdict.judge, pass: verdict.pass, score: verdict.score, action: verdict.action, failures: verdict.failures, notes: verdict.notes ?? [] },
      });
    },
  };
}
