import { DocTreeError } from '@doctree/schema';
import type { Retriever } from '@doctree/schema';
import { retrieverLaneCard, type AnyToolCard, type RetrieverSource, type ToolContext } from '@doctree/toolhub';

/**
 * A retriever the agent runs as a retrieval lane: a {@link Retriever} as it is (lane id `<name>.search`), or with
 * options. Anything implementing `Retriever` works; extend `BaseRetriever` of `@doctree/index` and run
 * `runRetrieverConformance` of `@doctree/index/testing` on it to know it keeps the contract (at most `k` hits, best
 * first, filters honoured, `CANCELLED` on abort).
 */
export type RetrieverLane = Retriever | RetrieverLaneSpec;

/** A retriever lane with options (see {@link RetrieverLane}). */
export interface RetrieverLaneSpec {
  /** The retriever, or a function building it over the document (`context.index`) the first time the lane runs. */
  retriever: RetrieverSource;
  /** Lane id. Default `<retriever name>.search`; required with a function. With `replace`, the id of the lane replaced. */
  id?: string;
  /** What the lane finds (LLM planners and traces show it). */
  description?: string;
  /**
   * Replace the built-in lane `id` (e.g. `dense.search`): plans keep naming it and your retriever answers; the trace
   * records the replacement. Default false: the lane is added beside the built-in text lanes (bm25 and dense) in every
   * stage of the default planner.
   */
  replace?: boolean;
}

/** What the agent registers for its retriever lanes. */
export interface ResolvedRetrieverLanes {
  /** New lane cards (registered beside the built-in ones). */
  cards: AnyToolCard<ToolContext>[];
  /** Cards replacing built-in lanes. */
  replace: AnyToolCard<ToolContext>[];
  /** Ids of the new lanes (the default planner adds them to its text stages). */
  lanes: string[];
}

/**
 * Turns the agent's `retrievers` option into tool cards: new lanes, and replacements of built-in lanes.
 *
 * @throws DocTreeError `USAGE` for something that is not a retriever, a replacement without an id, or two lanes with one id.
 */
export function resolveRetrieverLanes(retrievers: readonly RetrieverLane[]): ResolvedRetrieverLanes {
  const out: ResolvedRetrieverLanes = { cards: [], replace: [], lanes: [] };
  const ids = new Set<string>();
  for (const entry of retrievers) {
    const spec: RetrieverLaneSpec = isSpec(entry) ? entry : { retriever: entry };
    if (spec.replace === true && spec.id === undefined) {
      throw new DocTreeError('USAGE', 'a retriever that replaces a lane needs the id of that lane', { hint: "e.g. { retriever, id: 'dense.search', replace: true }" });
    }
    const card = retrieverLaneCard(spec.retriever, { ...(spec.id !== undefined ? { id: spec.id } : {}), ...(spec.description !== undefined ? { description: spec.description } : {}) });
    if (ids.has(card.id)) throw new DocTreeError('USAGE', `two retrievers have the lane id ${card.id}`, { hint: 'Give each retriever its own id (or name).' });
    ids.add(card.id);
    if (spec.replace === true) out.replace.push(card);
    else {
      out.cards.push(card);
      out.lanes.push(card.id);
    }
  }
  return out;
}

function isSpec(entry: RetrieverLane): entry is RetrieverLaneSpec {
  return typeof entry === 'object' && entry !== null && 'retriever' in entry && typeof (entry as { retrieve?: unknown }).retrieve !== 'function';
}
