import { AsyncLocalStorage } from 'node:async_hooks';
import { Document } from '@langchain/core/documents';
import type { RunnableConfig } from '@langchain/core/runnables';
import { AsyncLocalStorageProviderSingleton } from '@langchain/core/singletons';
import type { AgentEvent, AgentRun, AskableAgent } from '@doctree/agents';
import { DocTreeError, type AnswerValue, type Observation, type TraceEvent } from '@doctree/schema';

/** Names of the LangChain custom events DocTree dispatches during a run (see {@link askWithCallbacks}). */
export const DOCTREE_CUSTOM_EVENTS = {
  /** One step of the agent loop, as it happens: an `AgentEvent` (`type`, `attempt`, `message`). */
  agentEvent: 'doctree_agent_event',
  /** One tool call of the run, as it finishes (from the trace being recorded): tool id, status, hits, latency. */
  toolCall: 'doctree_tool_call',
  /** One LLM call of the run, as it finishes (from the trace being recorded): purpose, model, status, tokens, latency. */
  llmCall: 'doctree_llm_call',
} as const;

/** A place an answer comes from, JSON-serialisable. */
export interface DocTreeCitation {
  node_id: string;
  /** 1-based page. */
  page: number;
  /** `[x0, y0, x1, y1]` in PDF points on the page, or null when the source has no layout (Markdown). */
  bbox: [number, number, number, number] | null;
  /** The supporting text. */
  snippet: string;
}

/** A DocTree answer as plain JSON: what the tool returns and the Runnable outputs. */
export interface DocTreeAnswerJson {
  question: string;
  doc_id: string;
  /** The value (text, a number or a list); `Not answerable` when the agent declined. */
  answer: AnswerValue;
  answer_format: string;
  /** The answer as a person reads it (unit and scale), when known. */
  display?: string;
  confidence: number;
  /** 1-based pages of the citations. */
  pages: number[];
  citations: DocTreeCitation[];
  /** Why the agent declined, when it did. */
  declined?: string;
  /** `offline` or `llm`. */
  mode: string;
  trace_id: string;
}

/** Metadata of each evidence `Document` (see {@link documentsFromRun}). */
export interface DocTreeDocumentMetadata {
  source: 'doctree';
  doc_id: string;
  node_id: string;
  /** 1-based page. */
  page: number;
  bbox: [number, number, number, number] | null;
  /** Score of the node in the evidence pack the reader read (fused retrieval score); null when it was not packed. */
  score: number | null;
  /** What was observed: `text`, `table` or `image`. */
  kind: Observation['payload']['kind'];
  /** Section headings above a text node. */
  heading_path?: string[];
  /** True when the answer cites this node. */
  cited: boolean;
}

/** Options of {@link askWithCallbacks}. */
export interface AskWithCallbacksOptions {
  /** Cancels the question (`CANCELLED`). */
  signal?: AbortSignal;
  /**
   * Receives each custom event as it happens, in order; the last ones are awaited before the run returns. Errors are
   * ignored (a handler must not break the question).
   */
  emit?: (name: string, data: Record<string, unknown>) => Promise<void> | void;
  /**
   * LangChain config that LangChain models called during the run inherit (so a `ChatModelClientFromLangChain` call is
   * a child run of the caller's chain, with its callbacks).
   */
  childConfig?: RunnableConfig;
}

let storageReady = false;

/**
 * Asks `agent` one question and reports the run to LangChain as it happens: each agent step as a `doctree_agent_event`
 * custom event, each tool call (`doctree_tool_call`) and LLM call (`doctree_llm_call`) once it finishes (the agent's
 * `onTraceEvent`), so a callback sees the lanes' calls before the `retrieve` step and the reader's before `finalize`.
 * LangChain chat models called by the agent run with `childConfig` (their callbacks see them as children).
 *
 * @throws DocTreeError of the agent (`USAGE` for an empty question, `CANCELLED`…).
 */
export async function askWithCallbacks(agent: AskableAgent, question: unknown, options: AskWithCallbacksOptions = {}): Promise<AgentRun> {
  if (typeof question !== 'string') throw new DocTreeError('USAGE', `the question must be a string, got ${question === null ? 'null' : typeof question}`, { hint: 'Pass the question as text, or { question: "…" }.' });
  let chain = Promise.resolve();
  const emit = (name: string, data: Record<string, unknown>): void => {
    if (!options.emit) return;
    chain = chain.then(async () => {
      try {
        await options.emit!(name, data);
      } catch {
        // A callback handler must not break the question.
      }
    });
  };
  const onTrace = (event: TraceEvent): void => {
    if (event.type === 'tool_call') emit(DOCTREE_CUSTOM_EVENTS.toolCall, toolCallData(event));
    else if (event.type === 'llm_call') emit(DOCTREE_CUSTOM_EVENTS.llmCall, llmCallData(event));
  };
  let heardTrace = false;
  const ask = (): Promise<AgentRun> =>
    agent.ask(question, {
      ...(options.signal ? { signal: options.signal } : {}),
      onEvent: (event: AgentEvent) => emit(DOCTREE_CUSTOM_EVENTS.agentEvent, { ...event }),
      onTraceEvent: (event: TraceEvent) => {
        heardTrace = true;
        onTrace(event);
      },
    });
  let run: AgentRun;
  try {
    if (options.childConfig) {
      if (!storageReady) {
        AsyncLocalStorageProviderSingleton.initializeGlobalInstance(new AsyncLocalStorage());
        storageReady = true;
      }
      run = await AsyncLocalStorageProviderSingleton.runWithConfig(options.childConfig, ask);
    } else {
      run = await ask();
    }
  } finally {
    await chain;
  }
  // An agent that does not report its trace as it goes (a wrapper without `onTraceEvent`): its calls, from the trace.
  if (!heardTrace) {
    for (const event of run.answer.trace.events) onTrace(event);
    await chain;
  }
  return run;
}

function toolCallData(event: TraceEvent): Record<string, unknown> {
  return {
    tool_id: event.tool_id ?? null,
    attempt: event.attempt,
    t_ms: event.t_ms,
    status: event.status ?? null,
    latency_ms: event.latency_ms ?? null,
    n_hits: event.n_hits ?? 0,
    hits: (event.hits ?? []).slice(0, 10).map((hit) => ({ node_id: hit.node_id, page: hit.page_idx + 1, score: hit.score })),
    message: event.message ?? null,
  };
}

function llmCallData(event: TraceEvent): Record<string, unknown> {
  return {
    attempt: event.attempt,
    t_ms: event.t_ms,
    status: event.status ?? null,
    latency_ms: event.latency_ms ?? null,
    tokens: event.tokens ?? null,
    message: event.message ?? null,
    ...(event.data ? { data: event.data } : {}),
  };
}

/** The JSON answer of a run: value, confidence, pages and citations (page, box, snippet), declined reason. */
export function answerJson(question: string, run: AgentRun): DocTreeAnswerJson {
  const answer = run.answer;
  return {
    question,
    doc_id: answer.trace.doc_id,
    answer: answer.answer,
    answer_format: answer.answer_format,
    ...(answer.display !== undefined ? { display: answer.display } : {}),
    confidence: answer.confidence,
    pages: [...answer.pages],
    citations: answer.support.map((s) => ({ node_id: s.node_id, page: s.page, bbox: s.bbox ? [...s.bbox] : null, snippet: s.snippet })),
    ...(answer.abstention ? { declined: answer.abstention.reason } : {}),
    mode: answer.trace.mode,
    trace_id: answer.trace.trace_id,
  };
}

/**
 * The evidence a run observed as LangChain `Document`s, cited nodes first, then by score: the text of a text node, the
 * Markdown of a table, the caption and description of a figure, with {@link DocTreeDocumentMetadata}.
 */
export function documentsFromRun(run: AgentRun, options: { k?: number } = {}): Document<DocTreeDocumentMetadata>[] {
  const scores = evidenceScores(run);
  const cited = new Set(run.answer.support.map((s) => s.node_id));
  const docId = run.answer.trace.doc_id;
  const seen = new Set<string>();
  const docs: Document<DocTreeDocumentMetadata>[] = [];
  for (const observation of run.observations) {
    if (seen.has(observation.node_id)) continue;
    seen.add(observation.node_id);
    const payload = observation.payload;
    const text = payload.kind === 'text' ? payload.text : payload.kind === 'table' ? payload.markdown : [payload.caption, payload.description].filter((t) => t && t.trim() !== '').join('\n');
    docs.push(
      new Document<DocTreeDocumentMetadata>({
        pageContent: text,
        id: observation.node_id,
        metadata: {
          source: 'doctree',
          doc_id: docId,
          node_id: observation.node_id,
          page: observation.page,
          bbox: observation.bbox ? [...observation.bbox] : null,
          score: scores.get(observation.node_id) ?? null,
          kind: payload.kind,
          ...(payload.kind === 'text' && payload.heading_path.length > 0 ? { heading_path: [...payload.heading_path] } : {}),
          cited: cited.has(observation.node_id),
        },
      }),
    );
  }
  docs.sort((a, b) => Number(b.metadata.cited) - Number(a.metadata.cited) || (b.metadata.score ?? -Infinity) - (a.metadata.score ?? -Infinity));
  return options.k !== undefined ? docs.slice(0, options.k) : docs;
}

/** Score per node in the evidence pack: the kept attempt's, else the best over the run's other packs. */
function evidenceScores(run: AgentRun): Map<string, number> {
  const kept = run.attempts.find((a) => a.plan === run.plan)?.attempt;
  const keptPack = new Map<string, number>();
  const otherPacks = new Map<string, number>();
  for (const event of run.answer.trace.events) {
    if (event.type !== 'pack') continue;
    const target = kept === undefined || event.attempt === kept ? keptPack : otherPacks;
    for (const hit of event.hits ?? []) target.set(hit.node_id, Math.max(target.get(hit.node_id) ?? -Infinity, hit.score));
  }
  for (const [node, score] of otherPacks) if (!keptPack.has(node)) keptPack.set(node, score);
  return keptPack;
}
