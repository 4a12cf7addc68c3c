import { PageNumberSchema, indexFromPage } from '@doctree/schema';
import { z } from 'zod';

/**
 * Arguments every retrieval lane accepts, so that a plan stage can call any lane with the same object.
 * Pages in tool arguments are 1-based (as people and the router write them); hits carry 0-based `page_idx`.
 */
export const LaneArgsSchema = z.object({
  /** The question or search text. */
  query: z.string().max(4000).default(''),
  /** Most hits returned. */
  k: z.number().int().min(1).max(1000).default(50),
  /** Keep only these roles (`section`, `paragraph`, `table`, `image`, `chart`… or the groups `figure`, `text`). */
  roles: z.array(z.string().min(1)).max(20).optional(),
  /** Keep only nodes starting on these 1-based pages (± `page_window`). */
  pages: z.array(PageNumberSchema).max(200).optional(),
  /** Pages around each of `pages` that also count. */
  page_window: z.number().int().min(0).max(50).default(0),
});
/** Parsed {@link LaneArgsSchema}. */
export type LaneArgs = z.infer<typeof LaneArgsSchema>;

/**
 * 0-based page indexes of 1-based `pages` widened by `window`, clipped to the document; undefined when no pages
 * were given (no page filter).
 */
export function pageFilter(pages: readonly number[] | undefined, window: number, pageCount: number): number[] | undefined {
  if (!pages || pages.length === 0) return undefined;
  const out = new Set<number>();
  for (const page of pages) {
    const centre = indexFromPage(page);
    for (let p = centre - window; p <= centre + window; p++) if (p >= 0 && (pageCount <= 0 || p < pageCount)) out.add(p);
  }
  return [...out].sort((a, b) => a - b);
}
