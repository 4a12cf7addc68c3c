import type { z } from 'zod';
import type { Hit, TokenUsage } from '../agent.js';

/** What a tool returns: hits and/or data, plus token usage when it called a model. */
export interface ToolOutput<Data = unknown> {
  hits?: Hit[];
  data?: Data;
  tokens?: TokenUsage;
}

/**
 * A tool card: id, zod args schema, description and an implementation over a context
 * (a loaded DocIndex in `@doctree/toolhub`). The executor validates args with `args` before `run`.
 */
export interface ToolCard<Args = unknown, Context = unknown, Data = unknown> {
  /** `{name}.search`, `{name}.locate`, `pack.mmr_knapsack`, `compute.eval`, `reader.answer`… */
  readonly id: string;
  readonly description: string;
  readonly args: z.ZodType<Args>;
  /** Retrieval lanes may run concurrently with each other. */
  readonly kind: 'retrieval' | 'structure' | 'pack' | 'extract' | 'compute' | 'read' | 'judge' | 'vision' | 'rank';
  /**
   * Zod schema of the `data` the card returns. A plan step saves `{ ...data, hits, data }` under its `save_as` name,
   * and later steps read it by reference (`$TABLES.hits.0.node_id`, `$VALUE.display_value`): a planner's plan is
   * checked against this schema when the plan is built (a reference to a field the card does not return is refused
   * then, not guessed at run time), and the executor checks each call's `data` against it (a mismatch is an
   * `INTERNAL` error result naming the card). A card without it returns data plans can only reference as a whole.
   */
  readonly output?: z.ZodType<Data>;
  run(args: Args, context: Context, signal?: AbortSignal): Promise<ToolOutput<Data>>;
}
