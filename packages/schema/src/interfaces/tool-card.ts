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
  run(args: Args, context: Context, signal?: AbortSignal): Promise<ToolOutput<Data>>;
}
