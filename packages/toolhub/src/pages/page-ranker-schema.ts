import { DocTreeError, formatIssues } from '@doctree/schema';
import { z } from 'zod';

/**
 * Features of one candidate page, each in 0..1. Rank features are reciprocal ranks `1 / (1 + rank)` (rank 0 = the
 * lane's best page; 0 when the lane did not return the page); `*_norm` is the lane's score over its best score;
 * `coverage` and `year_match` are the page signals of `PageView.search`; `neighbor_*_rr` the reciprocal rank of the
 * best adjacent page in a page lane's top 10; `early_page` marks pages 1–3 (covers, summaries).
 */
export const PAGE_FEATURES = [
  'page_text_rr',
  'page_text_norm',
  'page_structure_rr',
  'page_structure_norm',
  'page_dense_rr',
  'page_dense_norm',
  'bm25_node_rr',
  'dense_rr',
  'table_rr',
  'chart_rr',
  'locator_rr',
  'figure_rr',
  'other_lane_rr',
  'fused_rr',
  'lanes_top5',
  'pack',
  'support',
  'hint',
  'coverage',
  'year_match',
  'neighbor_text_rr',
  'neighbor_dense_rr',
  'early_page',
] as const;
/** One of {@link PAGE_FEATURES}. */
export type PageFeature = (typeof PAGE_FEATURES)[number];

/** A fitted linear page ranker: `score = Σ weights[i] × feature[i]` over {@link PAGE_FEATURES} (missing weights are 0). */
export const PageRankerModelSchema = z.object({
  format: z.literal('doctree.page-ranker'),
  version: z.literal(1),
  /** Feature name → weight. Unknown names are refused. */
  weights: z.record(z.string(), z.number().finite()),
  /** How the weights were obtained (script, questions, folds, cross-validated metrics). Informational. */
  fitted: z.record(z.string(), z.unknown()).optional(),
});
/** See {@link PageRankerModelSchema}. */
export type PageRankerModel = z.infer<typeof PageRankerModelSchema>;

/**
 * Validates a page ranker model (a parsed `page-ranker.json`).
 *
 * @throws DocTreeError `SCHEMA_INVALID` for a malformed model or an unknown feature name.
 */
export function parsePageRankerModel(value: unknown, file?: string): PageRankerModel {
  const parsed = PageRankerModelSchema.safeParse(value);
  if (!parsed.success) {
    throw new DocTreeError('SCHEMA_INVALID', `not a page ranker model: ${formatIssues(parsed.error)}`, {
      ...(file ? { file } : {}),
      hint: 'Write one with `node tools/fit/fit-page-ranker.mjs`.',
    });
  }
  const known = new Set<string>(PAGE_FEATURES);
  const unknown = Object.keys(parsed.data.weights).filter((name) => !known.has(name));
  if (unknown.length > 0) throw new DocTreeError('SCHEMA_INVALID', `unknown page feature(s) ${unknown.join(', ')}`, { ...(file ? { file } : {}), hint: `Known: ${PAGE_FEATURES.join(', ')}.` });
  return parsed.data;
}
