import type { ToolContext } from '../context/tool-context.js';
import { computeEvalCard } from '../compute/compute-card.js';
import { extractColumnCard } from '../extract/extract-column.js';
import { extractHeadingFirstCard } from '../extract/extract-heading-first.js';
import { packMmrKnapsackCard } from '../pack/mmr-knapsack.js';
import { rankLlmCard } from '../rank/rank-llm.js';
import { ToolRegistry, type AnyToolCard } from '../registry/tool-registry.js';
import { bm25NodeSearchCard, chartIndexSearchCard, denseSearchCard, pageLocatorCard, tableIndexSearchCard } from '../retrieval/retrieval-cards.js';
import { figureFinderCard } from '../structure/figure-finder.js';
import { structureChildrenCard } from '../structure/structure-children.js';
import { structureCountCard } from '../structure/structure-count.js';
import { structureExpandCard } from '../structure/structure-expand.js';

/**
 * The ToolHub's own cards, in registry order: retrieval lanes (`bm25_node.search`, `dense.search`,
 * `table_index.search`, `chart_index.search`, `page_locator.locate`, `figure_finder.find_regions`), structure
 * (`structure.expand`, `structure.children`, `structure.count`), packing (`pack.mmr_knapsack`), extraction (`extract.column`,
 * `extract.heading_first`), `compute.eval` and the optional `rank.llm`. Reader, judger and vision cards live in
 * `@doctree/agents` and are registered on top.
 */
export const DEFAULT_TOOL_CARDS: readonly AnyToolCard<ToolContext>[] = [
  bm25NodeSearchCard,
  denseSearchCard,
  tableIndexSearchCard,
  chartIndexSearchCard,
  pageLocatorCard,
  figureFinderCard,
  structureExpandCard,
  structureChildrenCard,
  structureCountCard,
  packMmrKnapsackCard,
  extractColumnCard,
  extractHeadingFirstCard,
  computeEvalCard,
  rankLlmCard,
];

/** A registry holding {@link DEFAULT_TOOL_CARDS} plus `extra` cards (duplicate ids are rejected). */
export function createDefaultRegistry(extra: Iterable<AnyToolCard<ToolContext>> = []): ToolRegistry<ToolContext> {
  return new ToolRegistry<ToolContext>([...DEFAULT_TOOL_CARDS, ...extra]);
}
