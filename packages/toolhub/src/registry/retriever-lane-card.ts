import { DocTreeError } from '@doctree/schema';
import type { Hit, Retriever } from '@doctree/schema';
import type { HubToolCard, ToolContext } from '../context/tool-context.js';
import { expandRoles } from '../hits/node-hit.js';
import { LaneArgsSchema, pageFilter, type LaneArgs } from '../retrieval/lane-args.js';
import { LaneWarningSchema, type LaneWarning } from '../retrieval/retrieval-cards.js';

/** Shape of a tool id (as the registry checks it). */
const TOOL_ID = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$/;

/** A retriever, or a function building one over the document a card runs against (called once per loaded index). */
export type RetrieverSource = Retriever | ((context: ToolContext) => Retriever);

/** Options of {@link retrieverLaneCard}. */
export interface RetrieverLaneCardOptions {
  /**
   * Tool id of the lane (dotted lower-case words). Default `<retriever name>.search` (the name lower-cased, other
   * characters as `_`), or the name itself when it already is a tool id.
   */
  id?: string;
  /** What the lane finds (shown to LLM planners and in `doctree tools`). Default names the retriever. */
  description?: string;
}

/**
 * Turns any {@link Retriever} (e.g. a `BaseRetriever` subclass that passes `runRetrieverConformance`) into a
 * retrieval-lane tool card: it takes the common lane arguments (`query`, `k`, `roles`, 1-based `pages` ±
 * `page_window`), calls `retrieve` with roles expanded and pages as a 0-based filter, and keeps only hits on nodes of
 * the document. Its kind is `retrieval`, so a registry lists it among the lanes a plan stage may run; register it on
 * the agent with `retrievers` (or `hub.cards` / `hub.replace`).
 *
 * @example
 * ```ts
 * const card = retrieverLaneCard((context) => new MyKeywordRetriever(context.index), { id: 'my_keyword.search' });
 * const hub = ToolHub.create({ index, cards: [card] });
 * ```
 * @throws DocTreeError `USAGE` when the retriever has no name / `retrieve`, or the id is not a tool id.
 */
export function retrieverLaneCard(source: RetrieverSource, options: RetrieverLaneCardOptions = {}): HubToolCard<LaneArgs, LaneWarning> {
  const given = typeof source === 'function' ? undefined : source;
  if (given !== undefined && (typeof given?.name !== 'string' || given.name === '' || typeof given.retrieve !== 'function')) {
    throw new DocTreeError('USAGE', 'a retriever lane needs an object with a name and a retrieve() method', { hint: 'Extend BaseRetriever of @doctree/index (it passes runRetrieverConformance) or implement the Retriever interface.' });
  }
  const id = options.id ?? (given !== undefined ? laneIdOf(given.name) : undefined);
  if (id === undefined) {
    throw new DocTreeError('USAGE', 'a retriever lane built by a function needs an id', { hint: "Pass { id: 'my_lane.search' }." });
  }
  if (!TOOL_ID.test(id)) throw new DocTreeError('USAGE', `retriever lane id ${JSON.stringify(id)} must be dotted lower-case words like my_lane.search`);
  const built = new WeakMap<object, Retriever>();
  const retrieverFor = (context: ToolContext): Retriever => {
    if (given !== undefined) return given;
    let retriever = built.get(context.index);
    if (retriever === undefined) {
      retriever = (source as (context: ToolContext) => Retriever)(context);
      if (typeof retriever?.retrieve !== 'function') throw new DocTreeError('USAGE', `the factory of lane ${id} returned no retriever`, { hint: 'Return an object with name and retrieve().' });
      built.set(context.index, retriever);
    }
    return retriever;
  };
  return {
    id,
    description: options.description ?? `Retrieval lane ${id}${given !== undefined ? ` (retriever ${given.name})` : ''}. Args: query, k, roles, pages (1-based), page_window.`,
    args: LaneArgsSchema,
    output: LaneWarningSchema,
    kind: 'retrieval',
    async run(args, context, signal) {
      const pageIdx = pageFilter(args.pages, args.page_window, context.nav.pageCount);
      if (pageIdx && pageIdx.length === 0) return { hits: [], data: { warning: `pages ${args.pages!.join(', ')} are outside the document (${context.nav.pageCount} pages)` } };
      const roles = expandRoles(args.roles);
      const hits: Hit[] = await retrieverFor(context).retrieve({
        query: args.query,
        k: args.k,
        ...(roles ? { roles } : {}),
        ...(pageIdx ? { pageIdx } : {}),
        ...(signal ? { signal } : {}),
      });
      if (!Array.isArray(hits)) throw new DocTreeError('TOOL_FAILED', `lane ${id} returned no array of hits`);
      const known = hits.filter((hit) => typeof hit?.node_id === 'string' && context.nav.node(hit.node_id) !== undefined);
      const dropped = hits.length - known.length;
      return { hits: known.slice(0, args.k), ...(dropped > 0 ? { data: { warning: `${dropped} hit(s) named nodes this document does not have; dropped` } } : {}) };
    },
  };
}

/** The default lane id of a retriever name: itself when it is a tool id, else `<name>.search` in lower-case words. */
export function laneIdOf(name: string): string {
  if (TOOL_ID.test(name)) return name;
  const word = name.toLowerCase().replace(/[^a-z0-9_]+/g, '_').replace(/^_+|_+$/g, '');
  const start = /^[a-z]/.test(word) ? word : `lane_${word}`;
  return `${start}.search`;
}
