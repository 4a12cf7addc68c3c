import type { DocSummary, DocTree } from '@doctree/schema';
import { buildExtractiveSummary } from '../records/summaries.js';
import { BaseSummarizer, type BaseSummarizerOptions } from './base-summarizer.js';

/** Options of {@link ExtractiveSummarizer}. */
export interface ExtractiveSummarizerOptions extends BaseSummarizerOptions {
  /** Shortest gist to aim for, tokens (docs/design/agent-loop.md §3.3: 80). */
  minTokens?: number;
  /** Longest gist, tokens (docs/design/agent-loop.md §3.3: 150). */
  maxTokens?: number;
}

/** Defaults of {@link ExtractiveSummarizerOptions}. */
export const EXTRACTIVE_SUMMARIZER_DEFAULTS = {
  minTokens: 80,
  maxTokens: 150,
} as const satisfies ExtractiveSummarizerOptions;

/**
 * The offline summarizer: every gist is an MMR selection (λ 0.72) of the section's own sentences, the description an
 * MMR selection over the opening text and the top-level gists ({@link buildExtractiveSummary}). Deterministic, no model.
 * Id `extractive-mmr-v1` (plus `:t<min>-<max>` when the token bounds differ from 80–150).
 */
export class ExtractiveSummarizer extends BaseSummarizer {
  readonly id: string;
  readonly #bounds: { minTokens: number; maxTokens: number };

  constructor(options: ExtractiveSummarizerOptions = {}) {
    super(options);
    const merged = { ...EXTRACTIVE_SUMMARIZER_DEFAULTS, ...options };
    this.#bounds = { minTokens: merged.minTokens, maxTokens: merged.maxTokens };
    const isDefault = merged.minTokens === EXTRACTIVE_SUMMARIZER_DEFAULTS.minTokens && merged.maxTokens === EXTRACTIVE_SUMMARIZER_DEFAULTS.maxTokens;
    this.id = `extractive-mmr-v1${isDefault ? '' : `:t${merged.minTokens}-${merged.maxTokens}`}`;
  }

  protected async _summarize(tree: DocTree): Promise<DocSummary> {
    return buildExtractiveSummary(tree, this.#bounds);
  }
}
