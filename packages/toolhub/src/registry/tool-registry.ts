import { DocTreeError } from '@doctree/schema';
import type { ToolCard } from '@doctree/schema';

/** Shape of a tool id: dotted lower-case words, e.g. `bm25_node.search`, `pack.mmr_knapsack`. */
const TOOL_ID_RE = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$/;

const CARD_KINDS: ReadonlySet<string> = new Set(['retrieval', 'structure', 'pack', 'extract', 'compute', 'read', 'judge', 'vision', 'rank']);

/** A card as stored by the registry (arguments and data erased to `unknown`). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyToolCard<Context = unknown> = ToolCard<any, Context, unknown>;

/** One line of {@link ToolRegistry.list}: what the planner and `doctree tools` show. */
export interface ToolCardInfo {
  id: string;
  kind: ToolCard['kind'];
  description: string;
}

/** Options of {@link ToolRegistry.register}. */
export interface RegisterCardOptions {
  /**
   * Replace the card already registered under this id (e.g. your own `dense.search`). Without it a taken id is an
   * error; with it an id that is not taken is an error too (nothing to replace: a typo would otherwise add a lane no
   * plan names). Each replacement is listed by {@link ToolRegistry.replacements} (the agent traces them).
   */
  replace?: boolean;
}

/** A card that replaced a registered one (see {@link RegisterCardOptions.replace}). */
export interface CardReplacement {
  id: string;
  /** Description of the card that was replaced, then of the one that replaced it. */
  replaced: string;
  by: string;
}

/**
 * The tool cards an executor may call, by id. Ids are unique: registering a second card with an id already taken
 * is an error unless it is registered with `{ replace: true }` (an explicit, listed replacement). The retrieval lanes
 * a plan stage may run are the registered cards of kind `retrieval` ({@link retrievalLanes}): a lane of your own is
 * a card, not an entry in a closed list.
 *
 * @example
 * ```ts
 * const registry = new ToolRegistry<ToolContext>().register(bm25NodeSearchCard).register(computeEvalCard);
 * registry.get('compute.eval').description;
 * ```
 */
export class ToolRegistry<Context = unknown> {
  readonly #cards = new Map<string, AnyToolCard<Context>>();
  readonly #replacements: CardReplacement[] = [];

  /** Creates a registry holding `cards` (in order). */
  constructor(cards: Iterable<AnyToolCard<Context>> = []) {
    for (const card of cards) this.register(card);
  }

  /**
   * Adds a card.
   *
   * @throws DocTreeError `USAGE` when the id is malformed, already registered (without `replace`) or not registered
   *   (with `replace`), or the card lacks `run` / `args` or a known `kind`.
   */
  register<Args, Data>(card: ToolCard<Args, Context, Data>, options: RegisterCardOptions = {}): this {
    if (typeof card?.id !== 'string' || !TOOL_ID_RE.test(card.id)) {
      throw new DocTreeError('USAGE', `tool card id ${JSON.stringify(card?.id)} must be dotted lower-case words like bm25_node.search`);
    }
    const existing = this.#cards.get(card.id);
    if (existing !== undefined && options.replace !== true) {
      throw new DocTreeError('USAGE', `tool card ${card.id} is already registered`, { hint: 'Tool ids are unique; register the card with { replace: true } (agent option hub.replace) to replace the built-in one.' });
    }
    if (existing === undefined && options.replace === true) {
      throw new DocTreeError('USAGE', `tool card ${card.id} replaces nothing: no card has that id`, { hint: `Registered: ${[...this.#cards.keys()].join(', ') || '(none)'}. Register a new card without replace.` });
    }
    if (typeof card.run !== 'function' || typeof card.args?.safeParse !== 'function') {
      throw new DocTreeError('USAGE', `tool card ${card.id} needs a zod args schema and a run function`);
    }
    if (card.output !== undefined && typeof card.output?.safeParse !== 'function') {
      throw new DocTreeError('USAGE', `tool card ${card.id} declares an output that is not a zod schema`, { hint: 'Set output to the zod schema of the data the card returns, or leave it out.' });
    }
    if (!CARD_KINDS.has(card.kind)) {
      throw new DocTreeError('USAGE', `tool card ${card.id} has kind ${JSON.stringify(card.kind)}`, { hint: `Use one of ${[...CARD_KINDS].join(', ')} (retrieval cards are the lanes a plan stage may run).` });
    }
    if (existing !== undefined) this.#replacements.push({ id: card.id, replaced: existing.description, by: card.description });
    this.#cards.set(card.id, card as AnyToolCard<Context>);
    return this;
  }

  /** Cards registered with `{ replace: true }`, in order. */
  replacements(): CardReplacement[] {
    return this.#replacements.map((r) => ({ ...r }));
  }

  /** Ids of the registered cards of kind `retrieval` (the lanes a plan stage may run), in registration order. */
  retrievalLanes(): string[] {
    return [...this.#cards.values()].filter((c) => c.kind === 'retrieval').map((c) => c.id);
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
