import { DocTreeError } from '@doctree/schema';
import type { ToolCard } from '@doctree/schema';

/** Shape of a tool id: dotted lower-case words, e.g. `bm25_node.search`, `pack.mmr_knapsack`. */
const TOOL_ID_RE = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$/;

/** A card as stored by the registry (arguments and data erased to `unknown`). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyToolCard<Context = unknown> = ToolCard<any, Context, unknown>;

/** One line of {@link ToolRegistry.list}: what the planner and `doctree tools` show. */
export interface ToolCardInfo {
  id: string;
  kind: ToolCard['kind'];
  description: string;
}

/**
 * The tool cards an executor may call, by id. Ids are unique: registering a second card with an id already taken
 * is an error (replace cards by building another registry).
 *
 * @example
 * ```ts
 * const registry = new ToolRegistry<ToolContext>().register(bm25NodeSearchCard).register(computeEvalCard);
 * registry.get('compute.eval').description;
 * ```
 */
export class ToolRegistry<Context = unknown> {
  readonly #cards = new Map<string, AnyToolCard<Context>>();

  /** Creates a registry holding `cards` (in order). */
  constructor(cards: Iterable<AnyToolCard<Context>> = []) {
    for (const card of cards) this.register(card);
  }

  /**
   * Adds a card.
   *
   * @throws DocTreeError `USAGE` when the id is malformed or already registered, or the card lacks `run` / `args`.
   */
  register<Args, Data>(card: ToolCard<Args, Context, Data>): this {
    if (typeof card?.id !== 'string' || !TOOL_ID_RE.test(card.id)) {
      throw new DocTreeError('USAGE', `tool card id ${JSON.stringify(card?.id)} must be dotted lower-case words like bm25_node.search`);
    }
    if (this.#cards.has(card.id)) {
      throw new DocTreeError('USAGE', `tool card ${card.id} is already registered`, { hint: 'Tool ids are unique; build a new registry to replace a card.' });
    }
    if (typeof card.run !== 'function' || typeof card.args?.safeParse !== 'function') {
      throw new DocTreeError('USAGE', `tool card ${card.id} needs a zod args schema and a run function`);
    }
    this.#cards.set(card.id, card as AnyToolCard<Context>);
    return this;
  }

  /** True when a card has this id. */
  has(id: string): boolean {
    return this.#cards.has(id);
  }

  /**
   * The card with this id.
   *
   * @throws DocTreeError `TOOL_NOT_FOUND` naming the registered ids.
   */
  get(id: string): AnyToolCard<Context> {
    const card = this.#cards.get(id);
    if (!card) {
      throw new DocTreeError('TOOL_NOT_FOUND', `no tool card ${JSON.stringify(id)}; registered: ${[...this.#cards.keys()].join(', ') || '(none)'}`);
    }
    return card;
  }

  /** Every card's id, kind and description, in registration order. */
  list(): ToolCardInfo[] {
    return [...this.#cards.values()].map((c) => ({ id: c.id, kind: c.kind, description: c.description }));
  }

  /** Registered cards, in registration order. */
  cards(): AnyToolCard<Context>[] {
    return [...this.#cards.values()];
  }

  /** Number of cards. */
  get size(): number {
    return this.#cards.size;
  }
}
