import { SPARSE_FIELDS, SectionVariantSchema } from '@doctree/schema';
import type { Hit, ToolOutput } from '@doctree/schema';
import { VECTOR_VIEWS } from '@doctree/index';
import type { BaseRetriever } from '@doctree/index';
import { z } from 'zod';
import type { HubToolCard, ToolContext } from '../context/tool-context.js';
import { expandRoles } from '../hits/node-hit.js';
import { Bm25NodeRetriever } from './bm25-node-retriever.js';
import { DenseRetriever } from './dense-retriever.js';
import { LaneArgsSchema, pageFilter, type LaneArgs } from './lane-args.js';
import { ChartRetriever, TableRetriever } from './object-retrievers.js';
import { PageLocator, type LocatedPage } from './page-locator.js';

/** Data of a lane whose page filter matched no page of the document. */
export interface LaneWarning {
  warning: string;
}

/** Zod schema of {@link LaneWarning} (the declared output of the lanes). */
export const LaneWarningSchema: z.ZodType<LaneWarning> = z.object({ warning: z.string() });

/**
 * Runs a retriever with the common lane arguments (roles expanded, 1-based pages turned into a 0-based filter). The
 * cards build their retrievers with `validateHits: false`: the executor checks every hit a card returns.
 */
export async function runLane(retriever: BaseRetriever, args: LaneArgs, context: ToolContext, signal?: AbortSignal): Promise<ToolOutput<LaneWarning>> {
  const pageIdx = pageFilter(args.pages, args.page_window, context.nav.pageCount);
  if (pageIdx && pageIdx.length === 0) {
    return { hits: [], data: { warning: `pages ${args.pages!.join(', ')} are outside the document (${context.nav.pageCount} pages)` } };
  }
  const roles = expandRoles(args.roles);
  const hits: Hit[] = await retriever.retrieve({
    query: args.query,
    k: args.k,
    ...(roles ? { roles } : {}),
    ...(pageIdx ? { pageIdx } : {}),
    ...(signal ? { signal } : {}),
  });
  return { hits };
}

/** Arguments of `bm25_node.search`. */
export const Bm25SearchArgsSchema = LaneArgsSchema.extend({
  /** Sparse indexes to search: `coarse` (sections, figures, tables) and/or `leaf` (paragraphs, lists, captions). */
  sources: z.array(z.enum(['coarse', 'leaf'])).min(1).optional(),
  /** BM25F field boosts over the index's (e.g. `{ "labels": 5 }`). */
  boosts: z.partialRecord(z.enum(SPARSE_FIELDS), z.number().min(0).max(100)).optional(),
});
/** Parsed {@link Bm25SearchArgsSchema}. */
export type Bm25SearchArgs = z.infer<typeof Bm25SearchArgsSchema>;

/** `bm25_node.search`: BM25F over the sparse coarse and leaf docs, node-level hits (see {@link Bm25NodeRetriever}). */
export const bm25NodeSearchCard: HubToolCard<Bm25SearchArgs, LaneWarning> = {
  id: 'bm25_node.search',
  description:
    'Keyword (BM25F) search over section headings/paths, figure and table titles, captions, table schemas, labels and paragraph text. Args: query, k, roles, pages (1-based), page_window, sources, boosts.',
  args: Bm25SearchArgsSchema,
  output: LaneWarningSchema,
  kind: 'retrieval',
  run(args, context, signal) {
    const retriever = new Bm25NodeRetriever(context.index, { validateHits: false, ...(args.sources ? { sources: args.sources } : {}), ...(args.boosts ? { boosts: args.boosts } : {}) });
    return runLane(retriever, args, context, signal);
  },
};

/** Arguments of `dense.search`. */
export const DenseSearchArgsSchema = LaneArgsSchema.extend({
  /** Vector views: `coarse` (section variants, figures, tables), `leaf` (contextual leaf summaries), `leaf_raw` (leaf text). */
  views: z.array(z.enum(VECTOR_VIEWS)).min(1).default([...VECTOR_VIEWS]),
  /** Section variants kept from the coarse view. */
  variants: z.array(SectionVariantSchema).min(1).optional(),
});
/** Parsed {@link DenseSearchArgsSchema}. */
export type DenseSearchArgs = z.infer<typeof DenseSearchArgsSchema>;

/** `dense.search`: embedding search over the coarse / leaf / leaf_raw views (see {@link DenseRetriever}). */
export const denseSearchCard: HubToolCard<DenseSearchArgs, LaneWarning> = {
  id: 'dense.search',
  description:
    'Semantic (embedding) search over section variants (heading, gist, child surface, path), figures, tables and paragraphs. Args: query, k, roles, pages (1-based), page_window, views (coarse, leaf, leaf_raw), variants.',
  args: DenseSearchArgsSchema,
  output: LaneWarningSchema,
  kind: 'retrieval',
  run(args, context, signal) {
    const retriever = new DenseRetriever(context.index, { validateHits: false, views: args.views, ...(args.variants ? { variants: args.variants } : {}) });
    return runLane(retriever, args, context, signal);
  },
};

/** Arguments of `table_index.search`. */
export const TableSearchArgsSchema = LaneArgsSchema.extend({
  k: z.number().int().min(1).max(1000).default(20),
  /** Years asked for (added to those in the query). */
  years: z.array(z.number().int().min(1000).max(2999)).max(50).optional(),
  /** Units asked for (`%`, `$`, `millions`…). */
  units: z.array(z.string().min(1)).max(20).optional(),
  /** Labels asked for (`Table 2`). */
  labels: z.array(z.string().min(1)).max(20).optional(),
});
/** Parsed {@link TableSearchArgsSchema}. */
export type TableSearchArgs = z.infer<typeof TableSearchArgsSchema>;

/** `table_index.search`: tables by caption, header, row labels, years, units and label (see {@link TableRetriever}). */
export const tableIndexSearchCard: HubToolCard<TableSearchArgs, LaneWarning> = {
  id: 'table_index.search',
  description:
    'Finds tables by caption, column headers, row labels, years, units and label (Table N); hits carry columns, scale and currency. Args: query, k, pages (1-based), page_window, years, units, labels.',
  args: TableSearchArgsSchema,
  output: LaneWarningSchema,
  kind: 'retrieval',
  run(args, context, signal) {
    const retriever = new TableRetriever(context.index, {
      validateHits: false,
      ...(context.domain ? { concepts: context.domain.concepts } : {}),
      signals: { ...(args.years ? { years: args.years } : {}), ...(args.units ? { units: args.units } : {}), ...(args.labels ? { labels: args.labels } : {}) },
    });
    return runLane(retriever, args, context, signal);
  },
};

/** Arguments of `chart_index.search`. */
export const ChartSearchArgsSchema = LaneArgsSchema.extend({
  k: z.number().int().min(1).max(1000).default(20),
  /** Labels asked for (`Figure 3`). */
  labels: z.array(z.string().min(1)).max(20).optional(),
  /** Prefer statistical charts or plain images; default from the query's wording. */
  chart_type: z.enum(['statistical', 'image']).optional(),
});
/** Parsed {@link ChartSearchArgsSchema}. */
export type ChartSearchArgs = z.infer<typeof ChartSearchArgsSchema>;

/** `chart_index.search`: images and charts by caption, label and chart type (see {@link ChartRetriever}). */
export const chartIndexSearchCard: HubToolCard<ChartSearchArgs, LaneWarning> = {
  id: 'chart_index.search',
  description:
    'Finds images and charts by caption, nearby text, label (Figure N) and chart type; hits carry chart_type and caption. Args: query, k, pages (1-based), page_window, labels, chart_type (statistical | image).',
  args: ChartSearchArgsSchema,
  output: LaneWarningSchema,
  kind: 'retrieval',
  run(args, context, signal) {
    const retriever = new ChartRetriever(context.index, {
      validateHits: false,
      ...(args.labels ? { signals: { labels: args.labels } } : {}),
      ...(args.chart_type ? { chartType: args.chart_type } : {}),
    });
    return runLane(retriever, args, context, signal);
  },
};

/** Arguments of `page_locator.locate`: `pages` are the pages to locate (not a filter); without them the query's page references are used. */
export const PageLocateArgsSchema = LaneArgsSchema.extend({
  /** Look printed page labels up too (`page iv`). */
  use_labels: z.boolean().default(true),
});
/** Parsed {@link PageLocateArgsSchema}. */
export type PageLocateArgs = z.infer<typeof PageLocateArgsSchema>;

/** Data of `page_locator.locate`: the pages it resolved. */
export interface PageLocateData {
  pages: LocatedPage[];
}

/** Zod schema of {@link PageLocateData} (the declared output of `page_locator.locate`). */
export const PageLocateDataSchema: z.ZodType<PageLocateData> = z.object({
  pages: z.array(
    z.object({
      page: z.number().int(),
      page_idx: z.number().int(),
      source: z.enum(['number', 'label', 'ordinal', 'last', 'given', 'window']),
      distance: z.number(),
      score: z.number(),
    }),
  ),
});

/** `page_locator.locate`: nodes on the pages a question names (see {@link PageLocator}). */
export const pageLocatorCard: HubToolCard<PageLocateArgs, PageLocateData> = {
  id: 'page_locator.locate',
  description:
    'Resolves page hints (given 1-based pages, or "page 5", "pp. 3-4", "the last page", printed labels like "page iv" in the query) and returns the nodes on those pages ± page_window in reading order. Args: query, pages, page_window, roles, k, use_labels.',
  args: PageLocateArgsSchema,
  output: PageLocateDataSchema,
  kind: 'retrieval',
  async run(args, context, signal) {
    const locator = new PageLocator(context.index, { validateHits: false, pageWindow: args.page_window, useLabels: args.use_labels, ...(args.pages ? { pages: args.pages } : {}) });
    const pages = locator.locatePages(args.query);
    if (pages.length === 0) return { hits: [], data: { pages } };
    const roles = expandRoles(args.roles);
    const hits = await locator.retrieve({ query: args.query, k: args.k, ...(roles ? { roles } : {}), ...(signal ? { signal } : {}) });
    return { hits, data: { pages } };
  },
};
